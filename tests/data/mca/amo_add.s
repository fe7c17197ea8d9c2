# An AMO and an add that uses the old value.
.option norvc
amoadd.d a0, a1, (a2)
add a3, a0, a0
