# Dependent multiplies.
.option norvc
mul a0, a0, a1
mul a0, a0, a1
