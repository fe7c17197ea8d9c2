# An ALU result used as a load address.
.option norvc
addi a0, sp, 16
ld a1, 0(a0)
