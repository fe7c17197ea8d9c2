# A guest that jumps to memory it does not have. trapscope must report this
# as the guest's fault, naming the pc, instead of delivering a trap.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	li	t0, 0x40000000		# nothing is mapped here (see trapscope.ld)
	jr	t0
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
