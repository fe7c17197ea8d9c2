# Dependent double-precision adds.
.option norvc
fadd.d fa0, fa0, fa1
fadd.d fa0, fa0, fa1
