# A guest that never ends: trapscope must stop it at the instruction budget.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	addi	t0, t0, 1
	j	_start
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
