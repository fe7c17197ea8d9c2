# rseq.S: restartable sequences, modelled on Linux 6.12's kernel/rseq.c and
# include/linux/rseq.h: the rseq(2) system call, the notify-resume work on
# the way back to user mode, and the hooks that ask for it (a context
# switch: rseq_preempt, from schedule(); a migration: rseq_migrate, never
# on one hart; a signal delivery: rseq_signal_deliver, from signal.S).
#
# The cost is all behind TIF_NOTIFY_RESUME: a getppid with rseq registered
# and nothing pending runs no instruction more. Something must set the
# flag: the registration itself (the first return to user after it), a
# context switch away from the task, or a signal delivered to it.
#
# Not modelled (NOT_MODELLED: the run stops as a kernel fault): a struct
# rseq_cs registered by the user (the user side never enters a critical
# section, so rseq->rseq_cs is 0, and each notify-resume clears it again);
# force_sigsegv() on a bad user pointer (access_ok fails). A user pointer
# that passes access_ok but maps nothing faults in the kernel (no exception
# table here). The minikernel has one hart: cpu_id, node_id and mm_cid are 0.
# resume_user_mode_work's other clients (task_work, the key request cache,
# memcg's over-high reclaim, blkcg throttling) do not exist here; Linux
# tests each with a load and a branch.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-work.inc"

.macro NOT_MODELLED
	unimp
.endm

	.section .kernel.text, "ax", @progbits

# resume_user_mode_work(regs) (include/linux/resume_user_mode.h): clear
# notify-resume (smp_mb__after_atomic: a full fence on RISC-V), count it,
# then rseq_handle_notify_resume(NULL, regs): the work when current->rseq.
	.globl resume_user_mode_work
	.type resume_user_mode_work, @function
resume_user_mode_work:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a5, ~_TIF_NOTIFY_RESUME
	amoand.d zero, a5, (tp)			# clear_thread_flag()
	fence	rw, rw				# smp_mb__after_atomic()
	la	a5, stat_notify_resume
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	ld	a5, TASK_RSEQ(tp)		# rseq_handle_notify_resume()
	beqz	a5, 1f
	mv	a1, a0
	li	a0, 0				# no ksignal
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	tail	__rseq_handle_notify_resume
1:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size resume_user_mode_work, .-resume_user_mode_work

# __rseq_handle_notify_resume(ksig, regs): abort a critical section the
# task was in (rseq_ip_fixup, only with regs), then publish the cpu ids
# (rseq_update_cpu_node_id). PF_EXITING cannot be set here (no exit path
# returns to user), so its test is left out. Errors: force_sigsegv().
	.globl __rseq_handle_notify_resume
	.type __rseq_handle_notify_resume, @function
__rseq_handle_notify_resume:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	beqz	a1, 1f
	mv	a0, a1
	call	rseq_ip_fixup
	bltz	a0, 7f
1:
	mv	a0, tp
	call	rseq_update_cpu_node_id
	bnez	a0, 7f
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:	NOT_MODELLED				# force_sigsegv(sig)
	.size __rseq_handle_notify_resume, .-__rseq_handle_notify_resume

# rseq_ip_fixup(regs) -> 0 or -errno: read the task's rseq_cs (with
# rseq_get_rseq_cs: 0 means none, and the copy is zeroed); the ip is then
# outside it (post_commit_offset 0), so clear_rseq_cs(t->rseq) writes 0
# back to rseq->rseq_cs (a put_user) and that is all.
#   s1 = ip; struct rseq_cs at 0(sp)
	.globl rseq_ip_fixup
	.type rseq_ip_fixup, @function
rseq_ip_fixup:
	addi	sp, sp, -64
	sd	ra, 56(sp)
	sd	s0, 48(sp)
	sd	s1, 40(sp)
	addi	s0, sp, 64
	ld	s1, PT_EPC(a0)			# instruction_pointer(regs)
	mv	a0, tp
	mv	a1, sp
	call	rseq_get_rseq_cs
	bnez	a0, 9f
	ld	a5, RSEQ_CS_START_IP(sp)	# in_rseq_cs(ip, &rseq_cs)?
	ld	a4, RSEQ_CS_POST_COMMIT_OFFSET(sp)
	sub	a5, s1, a5
	bltu	a5, a4, 7f			# inside: rseq_need_restart() ...
	ld	a0, TASK_RSEQ(tp)		# clear_rseq_cs(t->rseq)
	call	clear_rseq_cs
9:
	ld	ra, 56(sp)
	ld	s0, 48(sp)
	ld	s1, 40(sp)
	addi	sp, sp, 64
	ret
7:	NOT_MODELLED
	.size rseq_ip_fixup, .-rseq_ip_fixup

# rseq_get_rseq_cs(t, rseq_cs) -> 0 or -errno: get_user(ptr,
# &t->rseq->rseq_cs) (rseq_get_rseq_cs_ptr_val); 0: memset(rseq_cs, 0).
	.globl rseq_get_rseq_cs
	.type rseq_get_rseq_cs, @function
rseq_get_rseq_cs:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_RSEQ(a0)
	addi	a5, a5, RSEQ_RSEQ_CS
	li	a4, TASK_SIZE - 8		# access_ok(ptr, 8)
	bgtu	a5, a4, 8f
	li	a4, SR_SUM			# __enable_user_access()
	csrs	sstatus, a4
	ld	a5, 0(a5)
	csrc	sstatus, a4			# __disable_user_access()
	bnez	a5, 7f				# a critical section: copy it in
	sd	zero, 0(a1)			# memset(rseq_cs, 0, sizeof)
	sd	zero, 8(a1)
	sd	zero, 16(a1)
	sd	zero, 24(a1)
	li	a0, 0
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
8:
	li	a0, -EFAULT
	j	9b
7:	NOT_MODELLED
	.size rseq_get_rseq_cs, .-rseq_get_rseq_cs

# clear_rseq_cs(rseq) -> 0 or -EFAULT: put_user(0UL, &rseq->rseq_cs).
	.globl clear_rseq_cs
	.type clear_rseq_cs, @function
clear_rseq_cs:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	addi	a5, a0, RSEQ_RSEQ_CS
	li	a4, TASK_SIZE - 8
	bgtu	a5, a4, 8f
	li	a4, SR_SUM
	csrs	sstatus, a4
	sd	zero, 0(a5)
	csrc	sstatus, a4
	li	a0, 0
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
8:
	li	a0, -EFAULT
	j	9b
	.size clear_rseq_cs, .-clear_rseq_cs

# rseq_update_cpu_node_id(t) -> 0 or -EFAULT: one user_write_access_begin
# (access_ok over rseq_len, then SUM) around four unsafe_put_user()s:
# cpu_id_start, cpu_id, node_id, mm_cid (all 0: one hart, one node, one
# mm_cid). Then trace_rseq_update(t): a tracepoint whose static key is off,
# a nop.
	.globl rseq_update_cpu_node_id
	.type rseq_update_cpu_node_id, @function
rseq_update_cpu_node_id:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_RSEQ(a0)
	lwu	a4, TASK_RSEQ_LEN(a0)
	li	a3, TASK_SIZE			# access_ok(rseq, len)
	bgtu	a4, a3, 8f
	sub	a3, a3, a4
	bgtu	a5, a3, 8f
	li	a4, SR_SUM
	csrs	sstatus, a4
	sw	zero, RSEQ_CPU_ID_START(a5)	# raw_smp_processor_id()
	sw	zero, RSEQ_CPU_ID(a5)
	sw	zero, RSEQ_NODE_ID(a5)		# cpu_to_node()
	sw	zero, RSEQ_MM_CID(a5)		# task_mm_cid(t)
	csrc	sstatus, a4
	.option push
	.option norvc
	nop					# trace_rseq_update(t): key off
	.option pop
	li	a0, 0
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
8:
	li	a0, -EFAULT
	j	9b
	.size rseq_update_cpu_node_id, .-rseq_update_cpu_node_id

# rseq_set_notify_resume(t): set_tsk_thread_flag(t, TIF_NOTIFY_RESUME)
# when t has rseq registered. Inline in Linux; one copy here.
	.globl rseq_set_notify_resume
	.type rseq_set_notify_resume, @function
rseq_set_notify_resume:
	ld	a5, TASK_RSEQ(a0)
	beqz	a5, 1f
	li	a5, _TIF_NOTIFY_RESUME
	amoor.d	zero, a5, (a0)			# (thread_info.flags at 0)
1:
	ret
	.size rseq_set_notify_resume, .-rseq_set_notify_resume

# rseq_preempt(t): from schedule(), for the task being switched out
# (prepare_task_switch): note a preemption event, ask for notify-resume.
	.globl rseq_preempt
	.type rseq_preempt, @function
rseq_preempt:
	ld	a5, TASK_RSEQ_EVENT_MASK(a0)
	ori	a5, a5, RSEQ_EVENT_PREEMPT
	sd	a5, TASK_RSEQ_EVENT_MASK(a0)
	tail	rseq_set_notify_resume
	.size rseq_preempt, .-rseq_preempt

# rseq_migrate(t): the same for a migration (set_task_cpu); never called on
# one hart, kept for completeness of the hooks.
	.globl rseq_migrate
	.type rseq_migrate, @function
rseq_migrate:
	ld	a5, TASK_RSEQ_EVENT_MASK(a0)
	ori	a5, a5, RSEQ_EVENT_MIGRATE
	sd	a5, TASK_RSEQ_EVENT_MASK(a0)
	tail	rseq_set_notify_resume
	.size rseq_migrate, .-rseq_migrate

# rseq_signal_deliver(ksig, regs): signal.S's setup_rt_frame calls it, as
# Linux's does: note a signal event, then rseq_handle_notify_resume(ksig,
# regs) at once (the ip fixup must happen before the frame is built).
	.globl rseq_signal_deliver
	.type rseq_signal_deliver, @function
rseq_signal_deliver:
	ld	a5, TASK_RSEQ_EVENT_MASK(tp)
	ori	a5, a5, RSEQ_EVENT_SIGNAL
	sd	a5, TASK_RSEQ_EVENT_MASK(tp)
	ld	a5, TASK_RSEQ(tp)
	beqz	a5, 1f
	tail	__rseq_handle_notify_resume
1:
	ret
	.size rseq_signal_deliver, .-rseq_signal_deliver

# sys_rseq(regs) -> 0 or -errno: rseq(rseq, rseq_len, flags, sig),
# SYSCALL_DEFINE4(rseq)'s checks in its order.
#   s1 = rseq, s2 = rseq_len, s3 = sig
	.globl sys_rseq
	.type sys_rseq, @function
sys_rseq:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	ld	s1, PT_ORIG_A0(a0)
	lwu	s2, PT_A1(a0)
	lw	a2, PT_A2(a0)			# int flags
	lwu	s3, PT_A3(a0)
	ld	a5, TASK_RSEQ(tp)
	andi	a4, a2, RSEQ_FLAG_UNREGISTER
	bnez	a4, 5f
	bnez	a2, 81f				# unknown flags
	bnez	a5, 4f				# already registered
	li	a4, ORIG_RSEQ_SIZE		# rseq_len < ORIG_RSEQ_SIZE
	bltu	s2, a4, 81f
	andi	a3, s1, RSEQ_ALIGN - 1		# IS_ALIGNED(rseq, 32): for the
	bnez	a3, 81f				# original size and for larger ones
	li	a3, TASK_SIZE			# access_ok(rseq, rseq_len)
	bgtu	s2, a3, 83f
	sub	a3, a3, s2
	bgtu	s1, a3, 83f
	li	a4, SR_SUM			# rseq_get_rseq_cs_ptr_val(): the
	csrs	sstatus, a4			# user's rseq_cs (access_ok above)
	ld	a5, RSEQ_RSEQ_CS(s1)
	csrc	sstatus, a4
	beqz	a5, 1f
	mv	a0, s1				# clear_rseq_cs(rseq)
	call	clear_rseq_cs
	bnez	a0, 9f
1:
	sd	s1, TASK_RSEQ(tp)
	sw	s2, TASK_RSEQ_LEN(tp)
	sw	s3, TASK_RSEQ_SIG(tp)
	mv	a0, tp				# rseq_set_notify_resume(current)
	call	rseq_set_notify_resume
	li	a0, 0
	j	9f
4:	# registered already: the same area is -EBUSY, with another
	# signature -EPERM, anything else -EINVAL
	bne	a5, s1, 81f
	lwu	a4, TASK_RSEQ_LEN(tp)
	bne	a4, s2, 81f
	lwu	a4, TASK_RSEQ_SIG(tp)
	bne	a4, s3, 82f
	li	a0, -EBUSY
	j	9f
5:	# RSEQ_FLAG_UNREGISTER
	li	a4, RSEQ_FLAG_UNREGISTER
	bne	a2, a4, 81f
	bne	a5, s1, 81f
	beqz	a5, 81f
	lwu	a4, TASK_RSEQ_LEN(tp)
	bne	a4, s2, 81f
	lwu	a4, TASK_RSEQ_SIG(tp)
	bne	a4, s3, 82f
	mv	a0, tp
	call	rseq_reset_rseq_cpu_node_id
	bnez	a0, 9f
	sd	zero, TASK_RSEQ(tp)
	sw	zero, TASK_RSEQ_SIG(tp)
	sw	zero, TASK_RSEQ_LEN(tp)
	li	a0, 0
	j	9f
81:
	li	a0, -EINVAL
	j	9f
82:
	li	a0, -EPERM
	j	9f
83:
	li	a0, -EFAULT
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
	.size sys_rseq, .-sys_rseq

# rseq_reset_rseq_cpu_node_id(t) -> 0 or -EFAULT: on unregistration, four
# put_user()s: cpu_id_start 0, cpu_id RSEQ_CPU_ID_UNINITIALIZED, node_id
# 0, mm_cid 0 (one access window here; Linux opens one per put_user).
	.globl rseq_reset_rseq_cpu_node_id
	.type rseq_reset_rseq_cpu_node_id, @function
rseq_reset_rseq_cpu_node_id:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	ld	a5, TASK_RSEQ(a0)
	li	a3, TASK_SIZE - ORIG_RSEQ_SIZE
	bgtu	a5, a3, 8f
	li	a4, SR_SUM
	csrs	sstatus, a4
	sw	zero, RSEQ_CPU_ID_START(a5)
	li	a3, RSEQ_CPU_ID_UNINITIALIZED
	sw	a3, RSEQ_CPU_ID(a5)
	sw	zero, RSEQ_NODE_ID(a5)
	sw	zero, RSEQ_MM_CID(a5)
	csrc	sstatus, a4
	li	a0, 0
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
8:
	li	a0, -EFAULT
	j	9b
	.size rseq_reset_rseq_cpu_node_id, .-rseq_reset_rseq_cpu_node_id
