# Independent ALU adds: two may issue per cycle.
.option norvc
add a0, a0, a1
add a2, a2, a3
add a4, a4, a5
add a6, a6, a7
