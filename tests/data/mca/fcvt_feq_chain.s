# A conversion into f and a compare back into x, chained.
.option norvc
fcvt.d.l fa0, a0
feq.d a0, fa0, fa1
