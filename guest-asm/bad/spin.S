# A guest that jumps to itself forever: single-stepping must still count
# each execution of the jump (its pc does not change).
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	j	_start
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
