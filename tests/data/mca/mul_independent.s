# Independent multiplies: one multiplier pipe.
.option norvc
mul a0, a1, a2
mul a3, a4, a5
mul a6, a7, t0
