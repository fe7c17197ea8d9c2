# Pointer chasing: each load's address is the last load's data.
.option norvc
ld a0, 0(a0)
ld a0, 0(a0)
