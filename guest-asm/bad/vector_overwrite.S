# A vector store overwrites the trap handler with zeros (an illegal
# instruction), then an ecall enters it: the handler traps at its own first
# instruction forever. trapscope must report the trap loop (exit 125).
	.option arch, +v
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	la	t0, handler
	csrw	mtvec, t0
	li	t0, 1 << 9		# mstatus.VS = Initial
	csrs	mstatus, t0
	vsetivli t1, 16, e8, m1, ta, ma
	vmv.v.i	v1, 0
	la	t2, handler
	vse8.v	v1, (t2)		# 16 zero bytes over the handler
	fence.i
	ecall				# -> handler, now illegal
	.size _start, .-_start

	.balign 4
	.globl handler
	.type handler, @function
handler:
	csrr	t0, mepc		# a working handler: skip the ecall
	addi	t0, t0, 4
	csrw	mepc, t0
	mret
	.size handler, .-handler

	.include "htif.inc"
	HTIF_MAILBOX
