# A guest that never ends: trapscope must stop it at the instruction budget.
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	addi	t0, t0, 1
	j	_start
	.size _start, .-_start

	.section .tohost, "aw"
	.balign 8
	.globl tohost
tohost:	.dword 0
	.globl fromhost
fromhost: .dword 0
