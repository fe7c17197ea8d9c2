# A value moved from f to x and back.
.option norvc
fmv.x.d a0, fa0
fmv.d.x fa0, a0
