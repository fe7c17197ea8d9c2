# A 64-bit divide feeding an add: the divider's latency.
.option norvc
div a0, a1, a2
add a3, a0, a0
