# Dependent single-precision adds.
.option norvc
fadd.s fa0, fa0, fa1
fadd.s fa0, fa0, fa1
