# A guest that waits for an interrupt nothing can raise: mie is zero, so no
# interrupt can be pending and enabled, and no timer is armed. trapscope must
# end the run at once with "waits forever" (exit 125), not idle to the budget.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	csrw	mie, zero
	wfi
	j	_start
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
