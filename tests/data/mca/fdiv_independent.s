# Independent double-precision divides: one divider.
.option norvc
fdiv.d fa0, fa1, fa2
fdiv.d fa3, fa4, fa5
