# init/rseq.S: trapscope's /init program "rseq" (include/init.inc): an rseq
# area registered before the getppid loop:
#   rseq(&init_rseq_area, 32, 0, INIT_RSEQ_SIG)
# struct rseq (uapi/linux/rseq.h) is 32 bytes, 32-aligned for that length:
# cpu_id_start (0), cpu_id (4), rseq_cs (8), flags (16), node_id (20),
# mm_cid (24). Registration sets TIF_NOTIFY_RESUME, so the registering call's
# exit runs __rseq_handle_notify_resume, which writes the CPU number into
# cpu_id; the setup checks that it did. The loop itself has nothing
# pending: with rseq registered, a getppid costs what it costs without.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
.macro init_banner_text
	.ascii "trapscope-init: rseq loop (rseq area registered; then getppid)\n"
.endm
	.include "init.inc"

	.equ SYS_rseq,		293
	.equ INIT_RSEQ_LEN,	32
	.equ INIT_RSEQ_SIG,	0x53053053	# any value; an abort handler would carry it
	.equ RSEQ_CPU_ID_UNINITIALIZED, -1
	.equ EINVAL,		22
	.equ ENOSYS,		38

	.data
	.balign 32
	.globl init_rseq_area
init_rseq_area:
	.word	0				# cpu_id_start
	.word	RSEQ_CPU_ID_UNINITIALIZED	# cpu_id: the kernel's to write
	.dword	0				# rseq_cs: no critical section
	.word	0				# flags
	.word	0				# node_id
	.word	0				# mm_cid
	.word	0

	.section .rodata, "a", @progbits
init_msg_nosys:
	.ascii "rseq(2) is missing (ENOSYS): enable CONFIG_RSEQ\n"
init_msg_nosys_end:
init_msg_other:
	.ascii "rseq(2) registration failed\n"
init_msg_other_end:
init_msg_cpu:
	.ascii "rseq(2) registered, but the kernel did not write rseq->cpu_id\n"
init_msg_cpu_end:
	.balign 8
init_msg_lens:
	.dword init_msg_nosys_end - init_msg_nosys
	.dword init_msg_other_end - init_msg_other
	.dword init_msg_cpu_end - init_msg_cpu

	.text
	.globl init_setup
	.type init_setup, @function
init_setup:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	la	a0, init_rseq_area
	li	a1, INIT_RSEQ_LEN
	li	a2, 0				# flags: register
	li	a3, INIT_RSEQ_SIG
	li	a7, SYS_rseq
	.globl init_rseq_ecall
init_rseq_ecall:
	ecall
	la	t0, init_msg_lens
	bnez	a0, 7f
	# cpu_id now holds a CPU number (0 on one hart), not -1.
	lw	t1, init_rseq_area + 4
	li	t2, RSEQ_CPU_ID_UNINITIALIZED
	la	a1, init_msg_cpu
	ld	a2, 16(t0)
	beq	t1, t2, 8f
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
7:
	li	t2, -ENOSYS
	la	a1, init_msg_nosys
	ld	a2, 0(t0)
	beq	a0, t2, 8f
	la	a1, init_msg_other
	ld	a2, 8(t0)
8:	# a0 = the result (0 for the cpu_id check), a1 = message, a2 = length
	mv	t1, a0
	mv	a0, a1
	mv	a1, a2
	mv	a2, t1
	call	init_fail
	.size init_setup, .-init_setup
