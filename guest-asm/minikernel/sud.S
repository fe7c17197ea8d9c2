# sud.S: syscall user dispatch (seed 002), modelled by function on Linux
# 6.12's kernel/entry/syscall_user_dispatch.c and kernel/sys.c's prctl; the
# code is the minikernel's own, in syscall.S's compiled-C shape.
#
# A process turns it on with prctl(PR_SET_SYSCALL_USER_DISPATCH,
# PR_SYS_DISPATCH_ON, offset, len, selector): from then on every system
# call made from outside [offset, offset + len) looks at the byte at
# `selector` in user memory first. ALLOW runs the call; BLOCK turns it into
# a SIGSYS (si_code SYS_USER_DISPATCH) for the process's own handler to
# emulate; any other value kills the process with SIGSYS.
#
# Note on RISC-V: the range test reads regs->epc, which do_trap_ecall_u
# has already moved past the ecall, so a call is "inside" when the
# instruction after its ecall is. And arch_syscall_is_vdso_sigreturn() is
# false here (only x86 has one), so the rt_sigreturn trampoline must lie in
# the allowed range, or rt_sigreturn itself would be dispatched.
#
#   sys_prctl(regs)                      167: PR_SET_SYSCALL_USER_DISPATCH
#   set_syscall_user_dispatch(mode, offset, len, selector)
#   syscall_user_dispatch(regs) -> bool  syscall_trace_enter's first test
#
# The task's state is current->syscall_dispatch (TASK_SUD_*,
# minikernel-defs.inc) and the SYSCALL_WORK_SYSCALL_USER_DISPATCH bit of
# thread_info.syscall_work, set and cleared with AMOs (set_bit/clear_bit).
# syscall_exit_work (exit.S) clears on_dispatch and reports nothing for a
# dispatched call.
#
# ---------------------------------------------------------------------------
# Hand counts (the rules of kernel.S's "Hand count per getppid call")
# ---------------------------------------------------------------------------
# knob_sud (user_sud.S) per timed-loop iteration, handle_exception entry
# (the "before" variant; handle_exception_ras is one less per trap). Phases
# as scenarios/ras-trap-entry.toml's, new functions counting where they are
# called from (syscall_user_dispatch and what it calls: syscall;
# arch_do_signal_or_restart and what it calls: exit; sys_rt_sigreturn and
# what it calls: syscall; the SIGSYS handler and the trampoline: user).
#
# Pieces (instructions executed; "prologue n" / "epilogue n" are the
# frame's addi, sd/ld of ra, s0 and the saved s-registers, addi s0 / ret):
#   do_trap_ecall_u                35 (kernel.S); 27 when nr = -1 skips the
#                                  table (bgtu taken: no dispatch 7, no sd)
#   syscall_enter_from_user_mode   14 on the slow path (13 - mv + jal + j)
#   syscall_trace_enter            28 when SUD says skip: prologue 7; mv,
#                                  mv, li 3; counter 5; andi, beqz 2; mv,
#                                  jal 2; bnez (taken) 1; li -1 1;
#                                  epilogue 7
#                                  37 when it says run: ... bnez 1; ptrace
#                                  andi, beqz 2; seccomp 2; tracepoint 2;
#                                  audit ld, beqz 2; ld nr, beqz 2;
#                                  epilogue 7
#   syscall_user_dispatch
#     in the allowed range         17: prologue 5; mv 1; ld, ld, ld, sub,
#                                  bltu 5; li 0 1; epilogue 5
#     ALLOW                        24: 5 + 1 + 5 (bltu falls through) + ld,
#                                  beqz 2 + li (lui), csrs, lbu, csrc, beqz
#                                  5 + li 0 1 + epilogue 5
#     BLOCK                        50: 5 + 1 + 5 + 2 + 5 (beqz falls
#                                  through) + li, bne 2 + li, sb 2 + ld, sd
#                                  2 + 6 sd (clear_siginfo) + li, sw, li,
#                                  sw 4 + ld, sd 2 + li (lui, addi), sw 3 +
#                                  ld, sw 2 + mv, jal 2 + li, j 2 +
#                                  epilogue 5
#   force_sig_info                 3: mv, li, j
#   force_sig_info_to_task         64 for SIGSYS with a handler, unblocked,
#                                  not pending: prologue 7; mv, mv 2; lw,
#                                  csrrci, addi 3; KA_ADDR 6 (la 2, slli,
#                                  add, slli, add); li, sll, ld, and, ld,
#                                  addi 6; bnez, beqz, beqz (taken) 3; ld,
#                                  li, bgt, and, bnez 5; lw, bnez 2; 6 x
#                                  (ld, sd) + sw 13; or, sd, li, amoor 4;
#                                  ld, andi, bnez (taken) 3; andi, csrs,
#                                  li 3; epilogue 7
#   syscall_exit_to_user_mode      24 with SUD work and a signal pending: 5
#                                  + mv + ld, andi, bnez + mv, jal, j +
#                                  csrci, ld, andi, bnez + mv, jal, j + 5
#                                  21 with SUD work and no flags
#   syscall_exit_work              25 for a dispatched call: prologue 6;
#                                  mv, mv 2; counter 5; andi, beqz 2; lbu,
#                                  beqz 2; sb, j 2; epilogue 6
#                                  35 otherwise: ... lbu, beqz (taken) 2;
#                                  audit 2; tracepoint 2; andi, li, bnez 3;
#                                  andi, snez 2; bnez 1; andi, beqz 2;
#                                  epilogue 6
#   exit_to_user_mode_loop         28, one pass with SIGPENDING alone:
#                                  prologue 6; mv, mv 2; csrsi, andi, beqz
#                                  3; andi, beqz, mv, jal 4; andi, beqz 2;
#                                  csrci, ld, andi, bnez 4; mv 1;
#                                  epilogue 6
#   ret_from_exception             43 (kernel.S)
#   Delivery (signal-riscv.S and signal.S; all of it phase exit):
#     arch_do_signal_or_restart    45: prologue 8; mv 1; counter 5; li x 3
#                                  3; ld, li, bne 3; ld, addi, lw, li, sd
#                                  5; addiw, li, bgtu (taken: the retval is
#                                  the getppid's rolled-back a0, no
#                                  -ERESTART* value) 3; mv, jal 2; beqz 1;
#                                  ld, bne (taken) 2; mv, mv, jal 3; j 1;
#                                  epilogue 8
#     get_signal                   39: prologue 6; mv, csrci 2; addi, jal,
#                                  mv, bnez (taken) 4; addi 1; KA_ADDR 6;
#                                  ld, li, beq, beqz 4; sd, ld, sd, ld, sd
#                                  5; slli, bgez (taken) 2; csrsi, sw, sgtz
#                                  3; epilogue 6
#     dequeue_synchronous_signal   47: prologue 5; mv 1; ld, ld, not, and
#                                  4; li (lui, addi), and, beqz 4; lw, beqz
#                                  2; lw, blez 2; addi, li, sll, and, beqz
#                                  5; not, and, sd 3; jal 1; 6 x (ld, sd)
#                                  12; sw, lw, j 3; epilogue 5
#     recalc_sigpending            15 with nothing left: prologue 4; ld,
#                                  ld, not, and, beqz 5; li, amoand 2;
#                                  epilogue 4 (16 with something pending:
#                                  li, amoor, j)
#     handle_signal                22: prologue 6; mv, mv 2; jal 1; mv,
#                                  addi, mv, jal 4; mv, li, jal 3;
#                                  epilogue 6
#     rseq_signal_deliver          6 with no rseq registered (rseq.S: ld,
#                                  ori, sd the event bit; ld rseq, beqz,
#                                  ret)
#     setup_rt_frame               70: prologue 8; mv x 3 3; ld, addi, andi
#                                  3; li (3: li, slli, addi), bgtu 4; addi,
#                                  li, jal 3; addi, addi, li, jal 4; li
#                                  (lui) 1; 5 x (csrs, sd/sw, csrc) 15; li
#                                  1; mv, mv, jal 3; addi, mv, li, jal 4;
#                                  la 2, sd, ld, sd, sd, lw, sd, sd, addi,
#                                  sd 11; li, j 2; epilogue 8
#     __clear_user                 6 + 3 per dword: the siginfo's 80-byte
#                                  tail, 36
#     __asm_copy_to_user           6 + 5 per dword: kernel_siginfo (6) 36,
#                                  sigmask (1) 11, sc_regs (32) 166, the D
#                                  state (33) 171
#     setup_sigcontext             38, FS not Dirty, no V: prologue 6; mv,
#                                  mv 2; addi, li, jal 3; ld, li (lui),
#                                  and, bne 4; addi, addi, li, jal 4; ld
#                                  (auipc, ld), beqz 3; li 1; 3 x (csrs,
#                                  sw, csrc) 9; epilogue 6
#     signal_setup_done            24: prologue 4; bnez 1; ld, ld, or, ld,
#                                  slli, bltz 6; lw, addi, li, sll, or 5;
#                                  sd, addi, jal 3; j 1; epilogue 4
#     set_current_blocked          18 when the mask changes: prologue 4;
#                                  ld, li (lui, addi), and, ld, beq 6;
#                                  csrci, sd, jal, csrsi 4; epilogue 4
#   Return (signal-riscv.S; phase syscall, under do_trap_ecall_u):
#     sys_rt_sigreturn             38: prologue 6; mv 1; ld, li (3), bgtu
#                                  5; addi, addi, li, jal 4; addi, jal 2;
#                                  mv, addi, jal 3; bnez 1; li, csrs, lw,
#                                  csrc 4; li, bne 2; li, sd, ld, j 4;
#                                  epilogue 6
#     restore_sigcontext           48, FS not Off: prologue 6; mv, mv 2;
#                                  li, jal 2; addi, addi, li, jal 4; ld,
#                                  li, and, beqz 4; mv, jal 2; FSTATE_CLEAN
#                                  7 (ld, li (lui, addi), and, li, or, sd);
#                                  li 1; csrs, lw, csrc, bnez 4; 2 x (csrs,
#                                  lw, csrc) 6; bnez, bnez 2; li, j 2;
#                                  epilogue 6
#     __fstate_restore (zz-fpu.S)  38: li, csrs 2; 32 fld; ld, fscsr, csrc,
#                                  ret 4
#
# The FP state: the user program's FS is Initial, then Clean after the
# first rt_sigreturn (fstate_restore), never Dirty, so the delivery copies
# thread.fstate without __fstate_save and every rt_sigreturn loads it.
#
# knob_sud = 1 (SUD on, selector ALLOW): one trap per iteration
#   user     16
#   entry    64
#   syscall  35 + 14 + 37 + 24 (ALLOW) + 10 (sys_getppid)            = 120
#   exit     21 + 35 + 43                                           =  99
#   total                                                           = 299
#
# knob_sud = 2 (selector BLOCK, the handler emulates getppid): two traps
# per iteration, the dispatched getppid and the handler's rt_sigreturn
#   user     16 + sud_sigsys_handler 15 (ld knob_sud_handler (auipc, ld),
#            beqz; ld, ld, bne, lw, li, bne, lw, li, bne, li, sd, ret)
#            + __vdso_rt_sigreturn 2 (li, ecall)                       =  33
#   entry    64 x 2                                                 = 128
#   syscall  the getppid: 27 + 14 + 28 + 50 + 3 + 64                 = 186
#            rt_sigreturn: 35 + 14 + 37 + 17 (in the range) + 38
#            + 11 (mask) + set_current_blocked 18 + recalc_sigpending
#            15 + restore_sigcontext 48 + 166 + 171 + 38             = 608
#                                                                   = 794
#   exit     the getppid: 24 + 25 + 28 + 45 + 39 + 47 + 15 + 22 + 1
#            + 70 + 36 + 36 + 38 + 166 + 171 + 11 + 24 + 18 + 15
#            + 43, and rseq_signal_deliver 6 for the 1 above         = 879
#            rt_sigreturn: 21 + 35 + 43                             =  99
#                                                                   = 978
#   total                                                           = 1933
# (handle_exception_ras: entry 63 x 2 = 126, total 1931.)
# With knob_sud_handler = 1 the handler also checks and clobbers fs0: 10
# more (li, beq; fcvt.d.l, feq.d, beqz, fld, feq.d, beqz, fmv.d.x; j), 25
# in all, user 43. The kernel's figures do not change: the handler leaves
# FS Dirty, but rt_sigreturn loads the frame's state whatever FS was (not
# Off) and sets it Clean, so every delivery still finds FS Clean and saves
# nothing (fstate_save runs __fstate_save once, at the first, warm-up,
# delivery,
# after sud_setup's fcvt.d.l made FS Dirty).
#
# Checked by tracing every executed pc under QEMU 7.2 (-singlestep -d
# exec,nochain; minikernel-sv39.elf with knob_sud = 2 written into the
# ELF): 1928 per timed iteration with rseq.S's stub rseq_signal_deliver
# (a ret), each function as listed above; knob_sud = 2 with
# knob_sud_handler = 1 exits 0 there too (1938 per iteration),
# with knob_sud_handler = 2 with 139, and knob_sud = 3 with 159.
#
# knob_sud = 3 (selector 2: neither ALLOW nor BLOCK): the first warm-up
# getppid ends the run with exit code 128 + SIGSYS = 159, after four traps
# (rt_sigaction, prctl, that getppid, the firmware's SBI reset call).
# knob_sud_handler = 2 (a nonzero reserved word in the frame): the first
# rt_sigreturn refuses the frame (badframe: force_sig(SIGSEGV)), and the
# SIGSEGV, with no handler, ends the run with 128 + 11 = 139 after five
# traps (rt_sigaction, prctl, getppid, rt_sigreturn, the SBI reset).
# knob_sud = 0: none of this runs; a getppid call is kernel.S's 199 / 198.

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-signal.inc"

	.section .kernel.text, "ax", @progbits

# sys_prctl(regs) -> 0 or -errno: prctl(option, arg2, arg3, arg4, arg5).
# Only PR_SET_SYSCALL_USER_DISPATCH is known (no LSM hook to ask first).
	.globl sys_prctl
	.type sys_prctl, @function
sys_prctl:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	lw	a5, PT_ORIG_A0(a0)		# option (int)
	li	a4, PR_SET_SYSCALL_USER_DISPATCH
	bne	a5, a4, 1f
	ld	a3, PT_A4(a0)			# selector = arg5
	ld	a2, PT_A3(a0)			# len = arg4
	ld	a1, PT_A2(a0)			# offset = arg3
	ld	a0, PT_A1(a0)			# mode = arg2
	call	set_syscall_user_dispatch
	j	2f
1:
	li	a0, -EINVAL
2:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size sys_prctl, .-sys_prctl

# set_syscall_user_dispatch(mode, offset, len, selector) -> 0 or -errno:
# task_set_syscall_user_dispatch(current, ...) inline. OFF takes no
# arguments; ON refuses a range that wraps around and a selector outside
# user memory (access_ok(selector, 1): checked once, here). Then the
# fields, on_dispatch = false, and the work bit set or cleared.
	.globl set_syscall_user_dispatch
	.type set_syscall_user_dispatch, @function
set_syscall_user_dispatch:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	beqz	a0, 1f				# PR_SYS_DISPATCH_OFF
	li	a5, PR_SYS_DISPATCH_ON
	bne	a0, a5, 7f
	beqz	a1, 2f
	add	a5, a1, a2
	bleu	a5, a1, 7f			# offset && offset + len <= offset
2:
	beqz	a3, 3f
	li	a5, TASK_SIZE - 1
	bgtu	a3, a5, 6f			# !access_ok(selector, 1)
	j	3f
1:
	or	a5, a1, a2
	or	a5, a5, a3
	bnez	a5, 7f				# OFF with arguments
3:
	sd	a3, TASK_SUD_SELECTOR(tp)
	sd	a1, TASK_SUD_OFFSET(tp)
	sd	a2, TASK_SUD_LEN(tp)
	sb	zero, TASK_SUD_ON_DISPATCH(tp)
	li	a5, SYSCALL_WORK_SYSCALL_USER_DISPATCH
	addi	a4, tp, TASK_TI_SYSCALL_WORK
	beqz	a0, 4f
	amoor.d	zero, a5, (a4)			# set_task_syscall_work()
	j	5f
4:
	not	a5, a5
	amoand.d zero, a5, (a4)			# clear_task_syscall_work()
5:
	li	a0, 0
	j	9f
6:
	li	a0, -EFAULT
	j	9f
7:
	li	a0, -EINVAL
9:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size set_syscall_user_dispatch, .-set_syscall_user_dispatch

# syscall_user_dispatch(regs) -> bool (true: the call is not run), in
# Linux's order: inside the allowed range -> false; (the vdso sigreturn
# test: false on RISC-V); the selector byte, read from user memory with SUM
# on around the load as __get_user does (a selector of 0 dispatches every
# call outside the range); ALLOW -> false; neither ALLOW nor BLOCK ->
# force_exit_sig(SIGSYS), true; BLOCK -> on_dispatch = true,
# syscall_rollback() (a0 = orig_a0, so the handler sees the arguments as
# they were), trigger_sigsys() (inline: a SIGSYS siginfo with the call's
# address, number and arch, to force_sig_info), true.
# (__get_user's fault, Linux's SIGSEGV: the selector passed access_ok() at
# prctl time; a fault on it would be a kernel fault here.)
#   s1 = regs; the kernel_siginfo at 0(sp)
	.globl syscall_user_dispatch
	.type syscall_user_dispatch, @function
syscall_user_dispatch:
	addi	sp, sp, -80
	sd	ra, 72(sp)
	sd	s0, 64(sp)
	sd	s1, 56(sp)
	addi	s0, sp, 80
	mv	s1, a0
	ld	a5, PT_EPC(s1)			# instruction_pointer(regs)
	ld	a4, TASK_SUD_OFFSET(tp)
	ld	a3, TASK_SUD_LEN(tp)
	sub	a5, a5, a4
	bltu	a5, a3, 8f			# pc - offset < len: allowed
	ld	a5, TASK_SUD_SELECTOR(tp)
	beqz	a5, 3f
	li	a4, SR_SUM			# __get_user(state, selector)
	csrs	sstatus, a4
	lbu	a3, 0(a5)			# char is unsigned on RISC-V
	csrc	sstatus, a4
	beqz	a3, 8f				# SYSCALL_DISPATCH_FILTER_ALLOW
	li	a4, SYSCALL_DISPATCH_FILTER_BLOCK
	bne	a3, a4, 7f
3:
	li	a5, 1
	sb	a5, TASK_SUD_ON_DISPATCH(tp)	# sd->on_dispatch = true
	ld	a5, PT_ORIG_A0(s1)		# syscall_rollback()
	sd	a5, PT_A0(s1)
	sd	zero, 0(sp)			# trigger_sigsys(): clear_siginfo()
	sd	zero, 8(sp)
	sd	zero, 16(sp)
	sd	zero, 24(sp)
	sd	zero, 32(sp)
	sd	zero, 40(sp)
	li	a5, SIGSYS
	sw	a5, SI_SIGNO(sp)
	li	a5, SYS_USER_DISPATCH
	sw	a5, SI_CODE(sp)
	ld	a5, PT_EPC(s1)			# KSTK_EIP(current)
	sd	a5, SI_CALL_ADDR(sp)
	li	a5, AUDIT_ARCH_RISCV64 - (1 << 32)	# (the low 32 bits)
	sw	a5, SI_ARCH(sp)			# syscall_get_arch()
	ld	a5, PT_A7(s1)			# syscall_get_nr()
	sw	a5, SI_SYSCALL(sp)
	mv	a0, sp
	call	force_sig_info
	li	a0, 1
	j	9f
7:
	li	a0, SIGSYS			# a selector value of neither kind
	call	force_exit_sig
	li	a0, 1
	j	9f
8:
	li	a0, 0
9:
	ld	ra, 72(sp)
	ld	s0, 64(sp)
	ld	s1, 56(sp)
	addi	sp, sp, 80
	ret
	.size syscall_user_dispatch, .-syscall_user_dispatch
