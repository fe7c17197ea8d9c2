# A load whose result is the next load's address.
.option norvc
ld a0, 0(sp)
ld a1, 0(a0)
