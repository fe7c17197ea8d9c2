# Dependent double-precision divides.
.option norvc
fdiv.d fa0, fa0, fa1
