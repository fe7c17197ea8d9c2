# M-mode locks itself out of its own code: a locked PMP entry (L=1) binds
# M-mode too (priv spec §3.7.1), and this one covers all of the firmware
# region with R only, no X. The next fetch raises an instruction access
# fault (cause 1); the handler lies in the same region, so its fetch faults
# again at the same pc, forever. trapscope must report the trap loop
# (exit 125) instead of hanging.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	la	t0, handler
	csrw	mtvec, t0
	# pmpaddr0 = top of the firmware region >> 2, A = TOR: [0, 0x8004_0000).
	li	t0, 0x80040000 >> 2
	csrw	pmpaddr0, t0
	# pmp0cfg = L (bit 7) | A=TOR (bits 4:3 = 01) | R (bit 0).
	li	t0, 0x80 | (1 << 3) | 1
	csrw	pmpcfg0, t0
	j	locked			# its fetch faults: no X for M any more
	.size _start, .-_start

	# On pages of their own, so no translation made before the lock
	# covers them (the emulator checks PMP when it fills its TLB).
	.balign 4096
locked:
	nop
	.balign 4096
	.globl handler
	.type handler, @function
handler:
	li	a0, 1			# never runs: fetching it faults too
	j	handler
	.size handler, .-handler

	.include "htif.inc"
	HTIF_MAILBOX
