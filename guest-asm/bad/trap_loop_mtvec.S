# A trap storm: mtvec points at an illegal instruction, so the first trap
# (an ecall) sends the hart to a handler that traps again, at the same pc,
# forever, without retiring anything. trapscope must end the run at once
# with "trap loop: illegal instruction at bad_handler ..." (exit 125), and the
# instruction budget must still count each delivery.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	la	t0, bad_handler
	csrw	mtvec, t0
	ecall				# -> bad_handler
	.size _start, .-_start

	.balign 4
	.globl bad_handler
	.type bad_handler, @function
bad_handler:
	.word	0			# illegal (priv spec: all-zero parcel)
	.size bad_handler, .-bad_handler

	.include "htif.inc"
	HTIF_MAILBOX
