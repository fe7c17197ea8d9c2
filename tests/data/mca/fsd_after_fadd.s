# An FP result stored, the adds chained.
.option norvc
fadd.d fa0, fa0, fa1
fsd fa0, 0(sp)
