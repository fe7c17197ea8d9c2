# A guest that runs an instruction trapscope cannot run (a vector gather,
# valid V 1.0 that the software V unit does not implement): it must be
# reported with its pc and encoding, not delivered as illegal.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	li	t0, 1 << 9		# mstatus.VS = Initial, so V is not "off"
	csrs	mstatus, t0
	.option push
	.option arch, +v
	vrgather.vv v1, v2, v3
	.option pop
	li	t0, 1
	la	t1, tohost
	sd	t0, 0(t1)
1:	j	1b
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
