# A load and an ALU op that uses its result.
.option norvc
ld a0, 0(sp)
add a1, a0, a0
