# init/pipe.S: trapscope's /init program "pipe" (include/init-path.inc): two
# processes pass one byte back and forth through two pipes, lmbench
# lat_ctx's and lat_pipe's shape. Each iteration is two context switches on
# one hart: the parent's read blocks (schedule -> __switch_to the child), the
# child's read blocks (back to the parent); on a kernel with FP or V, each
# switch saves and restores what the task has live.
#
# Once: pipe2(p1), pipe2(p2), then clone(SIGCHLD) (fork). The parent loops
#   write(p1[1], &byte, 1)   the marker, init_ecall
#   read(p2[0], &byte, 1)    blocks until the child has answered
# and the child, in a loop of its own at other addresses of the same text,
#   read(p1[0], &byte, 1); write(p2[1], &byte, 1)
# So the marker and init_loop are the parent's alone: only the parent's
# executions count, and the child never reaches them.
#
# User side per iteration, by hand (a `la` or `lw SYMBOL` is auipc + 1):
# the parent's loop lw 2, la 2, li, li, ecall, bne, lw 2, la 2, li, li,
# ecall, bne, addi, j: 18; the child's lw 2, la 2, li, li, ecall, bne, lw 2,
# la 2, li, li, ecall, bne, j: 17. 35 in all.

	.equ SIGCHLD,		17

.macro init_banner_text
	.ascii "trapscope-init: pipe loop (a byte to a child and back through two pipes per iteration)\n"
.endm
	.include "init-path.inc"

	init_msg init_msg_pipe, "pipe2 failed\n"
	init_msg init_msg_clone, "clone (fork) failed\n"
	init_msg init_msg_io, "a pipe read or write did not move one byte\n"

	.bss
	.balign 8
init_p1:	.skip 8				# parent -> child: read end, write end
init_p2:	.skip 8				# child -> parent
init_byte:	.skip 8

	.text
	.globl init_main
	.type init_main, @function
init_main:
	la	a0, init_p1
	li	a1, 0
	li	a7, SYS_pipe2
	ecall
	bnez	a0, 7f
	la	a0, init_p2
	li	a1, 0
	li	a7, SYS_pipe2
	ecall
	bnez	a0, 7f
	li	a0, SIGCHLD			# flags: fork's
	li	a1, 0				# the same stack, copied
	li	a2, 0
	li	a3, 0
	li	a4, 0
	li	a7, SYS_clone
	ecall
	bltz	a0, 8f
	beqz	a0, init_child
	li	s1, 0				# finished iterations (x9)
	li	s2, 1
	.globl init_loop
init_loop:
	lw	a0, init_p1 + 4			# write end of p1
	la	a1, init_byte
	li	a2, 1
	li	a7, SYS_write
	.globl init_ecall
init_ecall:
	ecall
	bne	a0, s2, 9f
	lw	a0, init_p2			# read end of p2
	la	a1, init_byte
	li	a2, 1
	li	a7, SYS_read
	ecall					# blocks: switch to the child
	bne	a0, s2, 9f
	addi	s1, s1, 1
	j	init_loop
7:	init_die init_msg_pipe, a0
8:	init_die init_msg_clone, a0
9:	init_die init_msg_io, a0
	.size init_main, .-init_main

# The child: echo each byte back. It never reaches init_loop or init_ecall.
	.globl init_child
	.type init_child, @function
init_child:
	li	s2, 1
1:	lw	a0, init_p1			# read end of p1
	la	a1, init_byte
	li	a2, 1
	li	a7, SYS_read
	ecall					# blocks: switch to the parent
	bne	a0, s2, 9f
	lw	a0, init_p2 + 4			# write end of p2
	la	a1, init_byte
	li	a2, 1
	li	a7, SYS_write
	ecall
	bne	a0, s2, 9f
	j	1b
9:	init_die init_msg_io, a0
	.size init_child, .-init_child
