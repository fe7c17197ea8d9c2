# signal-riscv.S: signals, the RISC-V half (seed 002): delivery on the way
# out to user mode (arch_do_signal_or_restart: the -ERESTART* handling, a
# struct rt_sigframe on the user stack and the jump to the handler) and the
# way back (rt_sigreturn), with the user copies they make. Modelled by
# function on Linux 6.12's arch/riscv/kernel/signal.c (and
# arch/riscv/lib/uaccess.S's roles); the code is the minikernel's own, in
# syscall.S's compiled-C shape. The generic half is signal.S.
#
# Left out: sigaltstack(2) (no alternate stacks: every frame goes on the
# normal stack, and rt_sigreturn accepts only a disabled uc_stack), the
# vector context (a task with live V state ends the run instead,
# EXIT_SIGFRAME_V), and fault fixups on user accesses (access_ok() is the
# one check; a bad pointer it let through is a kernel fault, as any
# unexpected trap here is).
#
#   arch_do_signal_or_restart(regs)              exit_to_user_mode_loop
#   sys_rt_sigreturn(regs)                       139
#   __asm_copy_to_user(to, from, n), __clear_user(to, n)
#
# Counter: stat_signal (kernel.S) counts arch_do_signal_or_restart calls.
# Hand counts of all of it: sud.S.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-signal.inc"

# FSTATE_CLEAN regs: regs->status.FS = Clean (__fstate_clean; zz-fpu.S has
# the same macro). Clobbers a4, a5.
.macro FSTATE_CLEAN regs
	ld	a5, PT_STATUS(\regs)
	li	a4, ~SR_FS
	and	a5, a5, a4
	li	a4, SR_FS_CLEAN
	or	a5, a5, a4
	sd	a5, PT_STATUS(\regs)
.endm

	.section .kernel.text, "ax", @progbits

# ---------------------------------------------------------------------------
# Delivery
# ---------------------------------------------------------------------------

# arch_do_signal_or_restart(regs): arch/riscv/kernel/signal.c's. A system
# call that would be restarted (-ERESTART*) is set up to run again (a0 back
# to orig_a0, epc back on the ecall); a signal with a handler may revert
# that to -EINTR. Then the signal is delivered (handle_signal), or, with
# none, a restart block's call is swapped in (restore_saved_sigmask: no
# saved mask in the minikernel). regs->cause = -1 stops a second restart.
#   s1 = regs, s2 = continue_addr, s3 = restart_addr, s4 = retval;
#   the struct ksignal is at 0(sp)
	.globl arch_do_signal_or_restart
	.type arch_do_signal_or_restart, @function
arch_do_signal_or_restart:
	addi	sp, sp, -128
	sd	ra, 120(sp)
	sd	s0, 112(sp)
	sd	s1, 104(sp)
	sd	s2, 96(sp)
	sd	s3, 88(sp)
	sd	s4, 80(sp)
	addi	s0, sp, 128
	mv	s1, a0
	la	a5, stat_signal
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	li	s2, 0
	li	s3, 0
	li	s4, 0
	ld	a5, PT_CAUSE(s1)
	li	a4, EXC_SYSCALL
	bne	a5, a4, 1f			# not from a system call
	ld	s2, PT_EPC(s1)			# continue_addr
	addi	s3, s2, -4			# restart_addr: the ecall
	lw	s4, PT_A0(s1)			# retval
	li	a5, -1
	sd	a5, PT_CAUSE(s1)
	addiw	a5, s4, ERESTART_RESTARTBLOCK	# -516..-512 -> 0..4
	li	a4, 4
	bgtu	a5, a4, 1f
	li	a4, ERESTART_RESTARTBLOCK - ERESTARTNOHAND - 1
	beq	a5, a4, 1f			# -515 is not a restart value
	ld	a5, PT_ORIG_A0(s1)
	sd	a5, PT_A0(s1)
	sd	s3, PT_EPC(s1)
1:
	mv	a0, sp
	call	get_signal
	beqz	a0, 5f
	ld	a5, PT_EPC(s1)			# restarting, but a handler runs:
	bne	a5, s3, 4f
	li	a5, -ERESTARTNOHAND
	beq	s4, a5, 3f
	li	a5, -ERESTART_RESTARTBLOCK
	beq	s4, a5, 3f
	li	a5, -ERESTARTSYS
	bne	s4, a5, 4f
	ld	a5, KSIG_KA + KA_FLAGS(sp)
	slli	a5, a5, 35			# SA_RESTART (bit 28)
	bltz	a5, 4f
3:
	li	a5, -EINTR
	sd	a5, PT_A0(s1)
	sd	s2, PT_EPC(s1)
4:
	mv	a0, sp
	mv	a1, s1
	call	handle_signal
	j	9f
5:
	li	a5, -ERESTART_RESTARTBLOCK	# (retval is 0 unless a syscall)
	bne	s4, a5, 9f
	ld	a5, PT_EPC(s1)
	bne	a5, s3, 9f
	li	a5, NR_restart_syscall
	sd	a5, PT_A7(s1)
9:
	ld	ra, 120(sp)
	ld	s0, 112(sp)
	ld	s1, 104(sp)
	ld	s2, 96(sp)
	ld	s3, 88(sp)
	ld	s4, 80(sp)
	addi	sp, sp, 128
	ret
	.size arch_do_signal_or_restart, .-arch_do_signal_or_restart

# handle_signal(ksig, regs): rseq_signal_deliver first (rseq.S), then the
# frame (setup_rt_frame, with the mask to restore: current->blocked, as
# sigmask_to_save() gives without a saved mask), then signal_setup_done.
#   s1 = ksig, s2 = regs
	.type handle_signal, @function
handle_signal:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
	call	rseq_signal_deliver		# (ksig, regs)
	mv	a0, s1
	addi	a1, tp, TASK_SIG_BLOCKED
	mv	a2, s2
	call	setup_rt_frame
	mv	a1, s1
	li	a2, 0				# not single-stepping
	call	signal_setup_done
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size handle_signal, .-handle_signal

# setup_rt_frame(ksig, set, regs) -> 0 or -EFAULT: struct rt_sigframe on
# the user stack (get_sigframe: below regs->sp, 16-byte aligned; no
# alternate stack), filled in as arch/riscv/kernel/signal.c does:
# copy_siginfo_to_user (the siginfo's tail cleared, the kernel_siginfo
# copied), uc_flags and uc_link 0, __save_altstack (no altstack:
# SS_DISABLE), setup_sigcontext, the mask to restore. Then the handler's
# registers: ra = the vdso's rt_sigreturn (here __vdso_rt_sigreturn in the
# user program's text: Linux reads the vdso's address from the mm), epc =
# the handler, sp = the frame, a0..a2 = sig, &info, &uc.
#   s1 = ksig, s2 = set, s3 = regs, s4 = frame
	.globl setup_rt_frame
	.type setup_rt_frame, @function
setup_rt_frame:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	sd	s4, 0(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a1
	mv	s3, a2
	ld	s4, PT_SP(s3)			# get_sigframe()
	addi	s4, s4, -RT_SIGFRAME_SIZE
	andi	s4, s4, -16
	li	a5, TASK_SIZE - RT_SIGFRAME_SIZE
	bgtu	s4, a5, 8f			# access_ok(frame, frame_size)
	addi	a0, s4, RT_SIGFRAME_INFO + SI_SIZE
	li	a1, SIGINFO_USER_SIZE - SI_SIZE
	call	__clear_user			# the siginfo's expansion
	addi	a0, s4, RT_SIGFRAME_INFO
	addi	a1, s1, KSIG_INFO
	li	a2, SI_SIZE
	call	__asm_copy_to_user		# the kernel_siginfo
	li	a5, SR_SUM			# __put_user()s: SUM on and off
	csrs	sstatus, a5			# around each
	sd	zero, RT_SIGFRAME_UC + UC_FLAGS(s4)
	csrc	sstatus, a5
	csrs	sstatus, a5
	sd	zero, RT_SIGFRAME_UC + UC_LINK(s4)
	csrc	sstatus, a5
	csrs	sstatus, a5			# __save_altstack()
	sd	zero, RT_SIGFRAME_UC + UC_STACK + SS_SP(s4)
	csrc	sstatus, a5
	li	a4, SS_DISABLE			# sas_ss_flags(): no altstack
	csrs	sstatus, a5
	sw	a4, RT_SIGFRAME_UC + UC_STACK + SS_FLAGS(s4)
	csrc	sstatus, a5
	csrs	sstatus, a5
	sd	zero, RT_SIGFRAME_UC + UC_STACK + SS_SIZE(s4)
	csrc	sstatus, a5
	mv	a0, s4
	mv	a1, s3
	call	setup_sigcontext
	addi	a0, s4, RT_SIGFRAME_UC + UC_SIGMASK
	mv	a1, s2
	li	a2, SIGSET_SIZE
	call	__asm_copy_to_user		# uc_sigmask
	la	a5, __vdso_rt_sigreturn
	sd	a5, PT_RA(s3)
	ld	a5, KSIG_KA + KA_HANDLER(s1)
	sd	a5, PT_EPC(s3)
	sd	s4, PT_SP(s3)
	lw	a5, KSIG_SIG(s1)
	sd	a5, PT_A0(s3)
	sd	s4, PT_A1(s3)			# &frame->info (offset 0)
	addi	a5, s4, RT_SIGFRAME_UC
	sd	a5, PT_A2(s3)
	li	a0, 0
	j	9f
8:
	li	a0, -EFAULT
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	ld	s4, 0(sp)
	addi	sp, sp, 48
	ret
	.size setup_rt_frame, .-setup_rt_frame

# setup_sigcontext(frame, regs): sc_regs from pt_regs' first 32 slots (pc,
# x1..x31); the FP state (has_fpu(): save_fp_state, which is fstate_save
# -- Dirty registers into thread.fstate, FS then Clean -- and a copy of
# thread.fstate); the reserved word 0 and the END header. A task with live
# vector state would need a V context here: not written, so such a task
# ends the run (EXIT_SIGFRAME_V) rather than lose its registers.
#   s1 = frame, s2 = regs
	.type setup_sigcontext, @function
setup_sigcontext:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
	addi	a0, s1, RT_SIGFRAME_UC + UC_MCONTEXT + SC_REGS
	li	a2, 32 * 8
	call	__asm_copy_to_user		# (sc_regs, regs)
	ld	a5, PT_STATUS(s2)		# fstate_save(current, regs)
	li	a4, SR_FS
	and	a5, a5, a4
	bne	a5, a4, 1f			# not Dirty: thread.fstate is current
	mv	a0, tp
	call	__fstate_save
	FSTATE_CLEAN s2
1:
	addi	a0, s1, RT_SIGFRAME_UC + UC_MCONTEXT + SC_FPREGS
	addi	a1, tp, TASK_FSTATE
	li	a2, SC_D_STATE_SIZE
	call	__asm_copy_to_user		# (sc_fpregs.d, &thread.fstate)
	ld	a5, knob_has_vector		# has_vector() &&
	beqz	a5, 2f
	ld	a5, PT_STATUS(s2)		#   riscv_v_vstate_query(regs)
	li	a4, SR_VS
	and	a5, a5, a4
	bnez	a5, 7f
2:
	li	a5, SR_SUM
	csrs	sstatus, a5
	sw	zero, RT_SIGFRAME_UC + UC_MCONTEXT + SC_RESERVED(s1)
	csrc	sstatus, a5
	csrs	sstatus, a5
	sw	zero, RT_SIGFRAME_UC + UC_MCONTEXT + SC_HDR_MAGIC(s1)	# END_MAGIC
	csrc	sstatus, a5
	csrs	sstatus, a5
	sw	zero, RT_SIGFRAME_UC + UC_MCONTEXT + SC_HDR_SIZE(s1)	# END_HDR_SIZE
	csrc	sstatus, a5
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
7:
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	li	a1, SBI_SRST_REASON_FAILURE
	li	a2, EXIT_SIGFRAME_V
	call	sbi_system_reset
6:	j	6b
	.size setup_sigcontext, .-setup_sigcontext

# ---------------------------------------------------------------------------
# rt_sigreturn
# ---------------------------------------------------------------------------

# sys_rt_sigreturn(regs) -> regs->a0: the frame at the user's sp (the
# handler returned through the trampoline with sp where setup_rt_frame put
# it): the mask (set_current_blocked), restore_sigcontext, restore_altstack;
# regs->cause = -1 so that nothing restarts. A bad frame is a SIGSEGV.
#   s1 = regs, s2 = frame; the sigset at 8(sp)
	.globl sys_rt_sigreturn
	.type sys_rt_sigreturn, @function
sys_rt_sigreturn:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	addi	s0, sp, 48
	mv	s1, a0
	ld	s2, PT_SP(s1)			# frame
	li	a5, TASK_SIZE - RT_SIGFRAME_SIZE
	bgtu	s2, a5, 8f			# access_ok(frame, frame_size)
	addi	a0, sp, 8
	addi	a1, s2, RT_SIGFRAME_UC + UC_SIGMASK
	li	a2, SIGSET_SIZE
	call	__asm_copy_to_user		# __copy_from_user(&set, &uc_sigmask)
	addi	a0, sp, 8
	call	set_current_blocked
	mv	a0, s1
	addi	a1, s2, RT_SIGFRAME_UC + UC_MCONTEXT
	call	restore_sigcontext
	bnez	a0, 8f
	li	a5, SR_SUM			# restore_altstack(): only a
	csrs	sstatus, a5			# disabled stack is accepted
	lw	a4, RT_SIGFRAME_UC + UC_STACK + SS_FLAGS(s2)
	csrc	sstatus, a5
	li	a5, SS_DISABLE
	bne	a4, a5, 8f
	li	a5, -1
	sd	a5, PT_CAUSE(s1)
	ld	a0, PT_A0(s1)
	j	9f
8:
	li	a0, SIGSEGV_NR			# badframe: force_sig(SIGSEGV)
	call	force_sig
	li	a0, 0
9:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	addi	sp, sp, 48
	ret
	.size sys_rt_sigreturn, .-sys_rt_sigreturn

# restore_sigcontext(regs, sc) -> 0 or -EINVAL: pt_regs' pc and x1..x31
# from sc_regs; the FP state (restore_fp_state: thread.fstate from the
# frame, then fstate_restore: loaded unless FS is Off, FS then Clean); the
# reserved word must be 0 and the only context header END (the minikernel
# writes no other).
#   s1 = regs, s2 = sc
	.type restore_sigcontext, @function
restore_sigcontext:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	mv	s2, a1
	li	a2, 32 * 8
	call	__asm_copy_to_user		# __copy_from_user(regs, &sc->sc_regs)
	addi	a0, tp, TASK_FSTATE
	addi	a1, s2, SC_FPREGS
	li	a2, SC_D_STATE_SIZE
	call	__asm_copy_to_user		# __copy_from_user(&thread.fstate, &sc_fpregs.d)
	ld	a5, PT_STATUS(s1)		# fstate_restore(current, regs)
	li	a4, SR_FS
	and	a5, a5, a4
	beqz	a5, 1f				# FS Off: no FP state
	mv	a0, tp
	call	__fstate_restore
	FSTATE_CLEAN s1
1:
	li	a5, SR_SUM
	csrs	sstatus, a5
	lw	a4, SC_RESERVED(s2)		# __get_user(rsvd)
	csrc	sstatus, a5
	bnez	a4, 7f
	csrs	sstatus, a5
	lw	a3, SC_HDR_MAGIC(s2)		# __get_user(magic)
	csrc	sstatus, a5
	csrs	sstatus, a5
	lw	a2, SC_HDR_SIZE(s2)		# __get_user(size)
	csrc	sstatus, a5
	bnez	a3, 7f				# not END_MAGIC
	bnez	a2, 7f				# END_HDR_SIZE is 0
	li	a0, 0
	j	9f
7:
	li	a0, -EINVAL
9:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
	.size restore_sigcontext, .-restore_sigcontext

# ---------------------------------------------------------------------------
# User copies (arch/riscv/lib/uaccess.S's roles; signal.S's rt_sigaction
# uses them too): SUM on for the copy, 8 bytes at a time (every copy
# here is a whole number of dwords, at least one), SUM off. Return the
# bytes not copied: always 0 (no fault fixup).
# ---------------------------------------------------------------------------

# __asm_copy_to_user(to, from, n): 6 + 5 per dword. Linux's
# __asm_copy_from_user is an alias of it; the calls that copy from
# user memory say so beside them.
	.globl __asm_copy_to_user
	.type __asm_copy_to_user, @function
__asm_copy_to_user:
	li	a5, SR_SUM
	csrs	sstatus, a5
	add	a2, a0, a2
1:
	ld	a4, 0(a1)
	sd	a4, 0(a0)
	addi	a0, a0, 8
	addi	a1, a1, 8
	bltu	a0, a2, 1b
	csrc	sstatus, a5
	li	a0, 0
	ret
	.size __asm_copy_to_user, .-__asm_copy_to_user

# __clear_user(to, n): 6 + 3 per dword.
	.globl __clear_user
	.type __clear_user, @function
__clear_user:
	li	a5, SR_SUM
	csrs	sstatus, a5
	add	a1, a0, a1
1:
	sd	zero, 0(a0)
	addi	a0, a0, 8
	bltu	a0, a1, 1b
	csrc	sstatus, a5
	li	a0, 0
	ret
	.size __clear_user, .-__clear_user

