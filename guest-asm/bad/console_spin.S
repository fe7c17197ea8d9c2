# A guest that prints two lines on the 16550 UART (QEMU virt's, at
# 0x1000_0000: a byte stored to THR, offset 0, is sent) and then loops
# forever without reaching `never_reached`: `trapscope snapshot` must give
# up at its timeout and show the console's last lines.
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
2:	addi	t3, t3, 1
	j	2b
	.size _start, .-_start

	.globl never_reached
	.type never_reached, @function
never_reached:
	ecall
	j	never_reached
	.size never_reached, .-never_reached

	.section .data, "aw"
message:
	.asciz	"console_spin: booting\nconsole_spin: waiting forever\n"

	.include "htif.inc"
	HTIF_MAILBOX
