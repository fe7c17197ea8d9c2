# An FP load feeding an add, the add chained.
.option norvc
fld fa1, 0(sp)
fadd.d fa0, fa0, fa1
