# Independent loads: one memory pipe.
.option norvc
ld a0, 0(sp)
ld a1, 8(sp)
ld a2, 16(sp)
ld a3, 24(sp)
