# S-mode with Sv39 on and stvec pointing at a virtual address no PTE maps:
# the first trap (an illegal instruction in S, delegated) goes to a handler
# whose fetch is an instruction page fault (cause 12), delegated to S
# again, at the same pc, forever. trapscope must
# report the trap loop (exit 125).
	.include "sv39.inc"

	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	li	t0, (1 << 2) | (1 << 12)	# delegate illegal and fetch page faults
	csrw	medeleg, t0
	li	t0, 0x40000000			# no PTE maps it
	csrw	stvec, t0
	SV39_ON root
	li	t0, 1 << 11			# MPP = S
	csrs	mstatus, t0
	la	t0, s_code
	csrw	mepc, t0
	mret
	.size _start, .-_start

	.globl s_code
	.type s_code, @function
s_code:
	.word	0				# illegal -> stvec
	.size s_code, .-s_code

	.data
	.balign 4096
root:	.dword	0, 0
	.dword	(0x80000 << 10) | 0xcf		# 0x8000_0000: identity, RWX AD V
	.zero	8 * 509

	.include "htif.inc"
	HTIF_MAILBOX
