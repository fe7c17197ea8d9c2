# Stores and independent ALU ops: different pipes.
.option norvc
sd ra, 8(sp)
addi a0, a0, 1
sd gp, 24(sp)
addi a1, a1, 1
