# user_rseq.S: the user side of rseq (seed 002): register a struct rseq
# with rseq(2), as glibc does at thread start, per the user knob knob_rseq:
#   0  nothing (the default)
#   1  register bench_rseq_area (32 bytes, 32-aligned, signature RSEQ_SIG)
#   2  first check that sys_rseq refuses what Linux refuses, then register
#      as 1 does: each row of rseq_checks is one rseq() call and the answer
#      it must get; a wrong answer makes rseq_setup return -EPROTO (the run
#      then exits with status 2)
# The benchmark task's area is bench_rseq_area; with knob_ctx_switches the
# two tasks of userctx.S each register their own (rseq_setup_task).

	.include "minikernel-abi.inc"
	.include "minikernel-work.inc"

.equ EPROTO, 71

	.section .user.text, "ax", @progbits

# long rseq_call(void *rseq, u32 len, int flags, u32 sig) -> 0 or -errno:
# the raw system call (no errno translation).
	.type rseq_call, @function
rseq_call:
	li	a7, SYS_rseq
	ecall
	ret
	.size rseq_call, .-rseq_call

# long rseq_setup(void) -> 0 or a negative errno
	.globl rseq_setup
	.type rseq_setup, @function
rseq_setup:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	ld	a5, knob_rseq
	li	a0, 0
	beqz	a5, 9f
	li	a4, 2
	li	a0, -EINVAL			# a knob value this program lacks
	bgtu	a5, a4, 9f
	bne	a5, a4, 3f
	la	s1, rseq_checks			# knob_rseq = 2: the checks
1:
	ld	a0, 0(s1)
	beqz	a0, 3f				# (a NULL area ends the table)
	lwu	a1, 8(s1)
	lw	a2, 12(s1)
	lwu	a3, 16(s1)
	call	rseq_call
	ld	a4, 24(s1)
	bne	a0, a4, 8f
	addi	s1, s1, 32
	j	1b
3:
	la	a0, bench_rseq_area
	li	a1, ORIG_RSEQ_SIZE
	li	a2, 0
	li	a3, RSEQ_SIG
	call	rseq_call
	j	9f
8:
	sd	s1, rseq_check_failed, a5	# the row that failed
	li	a0, -EPROTO
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size rseq_setup, .-rseq_setup

# void rseq_setup_task(long parent): userctx.S's ctx_task calls it in each
# task; with knob_rseq != 0 the task registers its own area (the parent
# bench_rseq_area, the child ctx_rseq_area); a failure exits with status 2.
	.globl rseq_setup_task
	.type rseq_setup_task, @function
rseq_setup_task:
	ld	a5, knob_rseq
	beqz	a5, 9f
	la	a5, bench_rseq_area
	bnez	a0, 1f
	la	a5, ctx_rseq_area
1:
	mv	a0, a5
	li	a1, ORIG_RSEQ_SIZE
	li	a2, 0
	li	a3, RSEQ_SIG
	li	a7, SYS_rseq
	ecall
	bnez	a0, 8f
9:
	ret
8:
	li	a0, 2
	li	a7, SYS_exit
	ecall
	.size rseq_setup_task, .-rseq_setup_task

	.section .user.data, "aw", @progbits
	.balign 8
	.globl knob_rseq
	.type knob_rseq, @object
knob_rseq:
	.dword 0
	.size knob_rseq, .-knob_rseq
	.globl rseq_check_failed
rseq_check_failed:
	.dword 0
# rseq_checks: (area, len, flags, sig, expected answer), sys_rseq's checks
# in SYSCALL_DEFINE4(rseq)'s order, each against one rule.
	.balign 8
rseq_checks:
	.dword bench_rseq_area + 4		# misaligned
	.word ORIG_RSEQ_SIZE, 0, RSEQ_SIG, 0
	.dword -EINVAL
	.dword bench_rseq_area			# shorter than ORIG_RSEQ_SIZE
	.word ORIG_RSEQ_SIZE - 4, 0, RSEQ_SIG, 0
	.dword -EINVAL
	.dword bench_rseq_area			# an unknown flag
	.word ORIG_RSEQ_SIZE, 2, RSEQ_SIG, 0
	.dword -EINVAL
	.dword bench_rseq_area			# unregister, nothing registered
	.word ORIG_RSEQ_SIZE, RSEQ_FLAG_UNREGISTER, RSEQ_SIG, 0
	.dword -EINVAL
	.dword TASK_SIZE			# past TASK_SIZE: access_ok fails
	.word ORIG_RSEQ_SIZE, 0, RSEQ_SIG, 0
	.dword -EFAULT
	.dword bench_rseq_area			# register
	.word ORIG_RSEQ_SIZE, 0, RSEQ_SIG, 0
	.dword 0
	.dword bench_rseq_area			# again, the same: busy
	.word ORIG_RSEQ_SIZE, 0, RSEQ_SIG, 0
	.dword -EBUSY
	.dword bench_rseq_area			# again, another signature
	.word ORIG_RSEQ_SIZE, 0, RSEQ_SIG + 1, 0
	.dword -EPERM
	.dword ctx_rseq_area			# another area while registered
	.word ORIG_RSEQ_SIZE, 0, RSEQ_SIG, 0
	.dword -EINVAL
	.dword bench_rseq_area			# unregister, wrong signature
	.word ORIG_RSEQ_SIZE, RSEQ_FLAG_UNREGISTER, RSEQ_SIG + 1, 0
	.dword -EPERM
	.dword bench_rseq_area			# unregister
	.word ORIG_RSEQ_SIZE, RSEQ_FLAG_UNREGISTER, RSEQ_SIG, 0
	.dword 0
	.dword 0				# end (rseq_setup then registers)
	.word 0, 0, 0, 0
	.dword 0

# struct rseq per task: 32 bytes, 32-aligned (include/uapi/linux/rseq.h).
	.balign 32
	.globl bench_rseq_area
	.type bench_rseq_area, @object
bench_rseq_area:
	.word 0					# cpu_id_start
	.word RSEQ_CPU_ID_UNINITIALIZED		# cpu_id
	.dword 0				# rseq_cs
	.word 0					# flags
	.word 0					# node_id
	.word 0					# mm_cid
	.word 0
	.size bench_rseq_area, .-bench_rseq_area
	.balign 32
	.globl ctx_rseq_area
	.type ctx_rseq_area, @object
ctx_rseq_area:
	.word 0
	.word RSEQ_CPU_ID_UNINITIALIZED
	.dword 0
	.word 0, 0, 0, 0
	.size ctx_rseq_area, .-ctx_rseq_area
