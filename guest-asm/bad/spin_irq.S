# A jump to itself whose interrupt state the test chooses: it writes `cfg`
# (mie, mideleg, the mstatus enable bits to set, and the mode: 0 = M,
# 1 = S) before the run. Whether trapscope may call the loop endless
# follows priv spec §3.1.6.1 / §3.1.9: only if no enabled interrupt could
# ever be taken from there.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	la	t0, cfg
	ld	t1, 32(t0)		# mtimecmp (0: leave the timer unarmed)
	beqz	t1, 1f
	li	t2, 0x02004000		# the CLINT's mtimecmp
	sd	t1, 0(t2)
1:
	ld	t1, 0(t0)
	csrw	mie, t1
	ld	t1, 8(t0)
	csrw	mideleg, t1
	ld	t1, 16(t0)
	csrs	mstatus, t1
	ld	t1, 24(t0)
	beqz	t1, spin		# stay in M
	li	t2, 1 << 11		# mstatus.MPP = S
	csrs	mstatus, t2
	la	t2, spin
	csrw	mepc, t2
	mret
	.size _start, .-_start

	.globl spin
	.type spin, @function
spin:
	j	spin
	.size spin, .-spin

	.data
	.balign 8
	.globl cfg
	.type cfg, @object
cfg:	.dword 0, 0, 0, 0, 0		# mie, mideleg, mstatus bits, mode, mtimecmp
	.size cfg, .-cfg

	.include "htif.inc"
	HTIF_MAILBOX
