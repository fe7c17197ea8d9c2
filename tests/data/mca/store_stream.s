# Stores of registers to the stack, as a trap entry saves them.
.option norvc
sd ra, 8(sp)
sd gp, 24(sp)
sd tp, 32(sp)
sd t0, 40(sp)
sd t1, 48(sp)
sd t2, 56(sp)
