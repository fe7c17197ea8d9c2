# Independent double-precision adds.
.option norvc
fadd.d fa0, fa1, fa2
fadd.d fa3, fa4, fa5
fadd.d fa6, fa7, ft0
