# Dependent ALU adds: each reads the one before.
.option norvc
add a0, a0, a1
add a0, a0, a1
add a0, a0, a1
add a0, a0, a1
