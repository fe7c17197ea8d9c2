# A guest that prints what Linux's panic() prints when /init exits (an init
# whose setup failed: guest-asm/init/*.S, init_fail) on the 16550 UART (QEMU
# virt's, at 0x1000_0000) and then spins without reaching `never_reached`:
# `trapscope snapshot` must end at the panic, not wait for its timeout.
	.equ	UART_THR, 0x10000000

	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	li	t0, UART_THR
	la	t1, message
1:	lbu	t2, 0(t1)
	beqz	t2, 2f
	sb	t2, 0(t0)
	addi	t1, t1, 1
	j	1b
2:	j	2b
	.size _start, .-_start

	.globl never_reached
	.type never_reached, @function
never_reached:
	ecall
	j	never_reached
	.size never_reached, .-never_reached

	.section .data, "aw"
message:
	.ascii	"trapscope-init: setup failed (error -38): seccomp(2) is missing (ENOSYS): enable CONFIG_SECCOMP\n"
	.ascii	"Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000200\n"
	.asciz	"---[ end Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000200 ]---\n"

	.include "htif.inc"
	HTIF_MAILBOX
