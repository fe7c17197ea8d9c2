# A guest that exits at once with the code stored at `exit_code` (3 as
# built; tests patch the dword to try trapscope's own statuses 124 and 125).
	.section .text, "ax"
	.globl _start
	.type _start, @function
_start:
	la	t0, exit_code
	ld	t1, 0(t0)
	slli	t1, t1, 1
	ori	t1, t1, 1
	la	t0, tohost
	sd	t1, 0(t0)
1:	j	1b
	.size _start, .-_start

	.section .data, "aw"
	.balign 8
	.globl exit_code
	.type exit_code, @object
exit_code:
	.dword 3
	.size exit_code, 8

	.include "htif.inc"
	HTIF_MAILBOX
