# A guest that powers off through the SiFive test device with a failure:
# 0x3333 | (7 << 16). trapscope ends the run as for tohost, exit code 7.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	li	t0, 0x00100000
	li	t1, 0x3333 | (7 << 16)
	sw	t1, 0(t0)
1:	j	1b
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
