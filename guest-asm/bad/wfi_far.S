# A guest that waits with wfi for a timer deadline far beyond any run
# (mtimecmp = 2^63): trapscope must neither overflow its clock nor hang: the
# run ends at once as waiting forever (exit 125).
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	li	t0, 0x02004000
	li	t1, 1
	slli	t1, t1, 63
	sd	t1, 0(t0)		# mtimecmp = 2^63
	li	t0, 1 << 7
	csrw	mie, t0			# MTIE: the timer could wake it
1:	wfi
	j	1b
	.size _start, .-_start

	.include "htif.inc"
	HTIF_MAILBOX
