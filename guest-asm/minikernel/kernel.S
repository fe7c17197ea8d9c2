# kernel.S: the S-mode minikernel's boot code, knobs and data.
#
# The minikernel is one process (pid 100, parent init = pid 1) running the
# null-syscall benchmark in user.S, and just enough of a RISC-V Linux kernel's
# trap path to follow a getppid() call through it: handle_exception
# (entry.S), do_trap_ecall_u and the syscall (syscall.S),
# syscall_exit_to_user_mode (exit.S) and ret_from_exception (entry.S).
# Optionally (knobs below) the kernel has the vector unit (vector.S,
# vector-syscall.S), and the process clone()s a second task to yield to
# (userctx.S; sched_yield, clone, schedule, __switch_to). For seed 004 (the
# Zalrsc series) it has kernel atomics in an AMO and an LR/SC build, three
# atomics-heavy system calls with their own user program, probes, a
# boot-time AMO speed probe, and firmware that emulates AMOs on a core that
# traps them (zalrsc-*.S; see "Seed 004" below).
#
# Files: fw.S (M-mode firmware, SBI), kernel.S (this), entry.S (trap entry and
# return, __switch_to, ret_from_fork), syscall.S, exit.S (syscall exit,
# schedule), traps.S (vector table, illegal instruction, fatal traps, SBI
# call), vector.S (user vector state), vector-syscall.S (the vector-enabled
# copies of the syscall path), user.S (U-mode benchmark), userctx.S (U-mode
# context-switch benchmark), zalrsc-atomics.S (seed 004: atomics, their
# system calls, atomics_setup, check_amo_speed), zalrsc-fw.S (M-mode AMO
# emulation), zalrsc-kprobes.S (do_trap_break for probes), zalrsc-user.S
# (the atomics benchmark program). Seed 002, generic entry's
# syscall work, each file with its hand counts: sud.S (syscall user
# dispatch, prctl), signal.S and signal-riscv.S (SIGSYS delivery, the
# rt_sigframe, rt_sigaction, rt_sigreturn), trace.S (ptrace reports, the
# locks), tracepoint.S (sys_enter/sys_exit, the static-key patch, the ring
# buffer), audit.S (audit=1 without rules; syscall_work_boot), rseq.S,
# seccomp.S and seccomp-setup.S (the filter path, seccomp(2), the action
# cache), bpf-filter.S (classic BPF's checks and conversion to eBPF), bpf.S
# (the eBPF interpreter); RISC-V's entry before generic entry: entry-arch.S,
# work-arch.S, syscall-arch.S; the user side: user_work.S, user_sud.S,
# user_seccomp.S, user_rseq.S. Shared constants:
# include/minikernel-*.inc (minikernel-atomics.inc and the build template
# minikernel-atomics-build.inc for seed 004; minikernel-signal.inc,
# minikernel-work.inc, minikernel-seccomp.inc, minikernel-arch-entry.inc
# for seed 002), include/cbpf.inc and include/seccomp-filters.inc (the
# classic BPF filters). sv39.S (sv39_enable) and zz-pagefault.S (demand
# paging) are assembled only into minikernel-sv39.elf (SV39 defined).
#
# ---------------------------------------------------------------------------
# Knobs (8-byte little-endian, written by a scenario before the run)
# ---------------------------------------------------------------------------
#   knob_ras_friendly_entry  kernel, default 0. 0: stvec = handle_exception
#                            (before seed 003); 1: stvec = handle_exception_ras
#                            (after seed 003).
#   knob_thread_work_flags   kernel, default 0. Copied into task_bench's
#                            thread_info.flags at boot: _TIF_NOTIFY_RESUME (2),
#                            _TIF_SIGPENDING (4), _TIF_NEED_RESCHED (8) make the
#                            first syscall's exit run exit_to_user_mode_loop.
#                            One-shot, as in Linux: each helper clears its flag.
#   knob_syscall_work        kernel, default 0. Copied into thread_info.
#                            syscall_work (Linux's bits, minikernel-defs.inc):
#                            SYSCALL_WORK_SYSCALL_TRACEPOINT (2, tracepoint.S),
#                            _TRACE (4, init traces the task, trace.S) and
#                            _AUDIT (16, audit=1 without rules, audit.S) send
#                            *every* syscall through syscall_trace_enter and
#                            syscall_exit_work; they add. 8 and 64 are not
#                            modelled. seccomp (1) and SUD (32) set their
#                            own bits through seccomp(2) and prctl(2).
#   knob_arch_entry          kernel, default 0. 1: stvec = handle_exception_arch,
#                            RISC-V's own syscall entry before its conversion
#                            to generic entry (posted from 2022; entry-arch.S).
#   knob_has_vector          kernel, default 0. 0: built without vector
#                            support; the code is exactly what it was before
#                            vector support existed. 1: the hart has V; boot
#                            (riscv_v_setup) installs the vector-enabled
#                            syscall path. See vector.S.
#   knob_riscv_v_vstate_discard_ctl
#                            kernel, default 1: seed 000's sysctl
#                            abi.riscv_v_vstate_discard (0: the mainline
#                            syscall entry does not null the registers).
#   knob_vstate_v3           kernel, default 0: 0 mainline, 1 seed 001's v3,
#                            2 v3 + the __riscv_v_vstate_check_gt fix.
#   knob_iterations          user.S, default 100: timed getppid() calls.
#   knob_warmup              user.S, default 10: untimed calls before them
#                            (with knob_ctx_switches: untimed yields per task).
#   knob_use_vector          user.S, default 0. 1: before the warm-up, run
#                            seed 001's `vsetivli x0, 1, e32, m1, ta, ma;
#                            vmv.v.i v0, 1` once (its use_v = 1).
#   knob_vsetvli             user.S, default 0. 1: before the warm-up, run one
#                            vsetvli (seed 000's null_syscall --vsetvli).
#   knob_ctx_switches        user.S, default 0: the getppid benchmark. N > 0:
#                            instead, clone a second task; both run
#                            vector_touch (the two knobs above), then yield to
#                            each other knob_warmup times untimed and N times
#                            timed (userctx.S).
# Seed 002 (user knobs, each in its own file; all 0 by default):
#   knob_sud                 user_sud.S. 1: prctl(PR_SET_SYSCALL_USER_DISPATCH)
#                            with the selector ALLOW; 2: a SIGSYS handler,
#                            then the selector BLOCK (the handler answers
#                            getppid); 3: an invalid selector (SIGSYS kills,
#                            exit 159).
#   knob_sud_handler         user_sud.S, with knob_sud = 2. 1: the handler
#                            checks and clobbers fs0; 2: it spoils its frame
#                            (rt_sigreturn: SIGSEGV, exit 139).
#   knob_seccomp             user_seccomp.S: the filter seccomp(2) installs
#                            (1 cached allow-list; 2/3/4 args[0] against 1/8/64
#                            constants; 5 ERRNO; 6 KILL_PROCESS, 10 TRAP, both
#                            after the warm-up; 7/8 refused; 9 exerciser).
#   knob_rseq                user_rseq.S. 1: register a struct rseq before
#                            the loop; 2: first the calls rseq(2) must refuse.
# Seed 004 (all off or "as before" by default; details under "Seed 004"):
#   knob_zaamo               kernel, default 1: RISCV_ISA_ZAAMO=y, the kernel
#                            atomics are AMOs. 0: =n, every kernel atomic of
#                            the atomics benchmark is an LR/SC loop.
#   knob_amo_probe           kernel, default 0. 1: run patch 6's AMO speed
#                            probe (check_amo_speed) at boot, then boot on;
#                            2: run it and shut down at once (exit code 0).
#   knob_atomics_bench       zalrsc-user.S, default 0. 1: start the atomics
#                            benchmark program instead of user.S's: each
#                            iteration is one atomics_wake() (syscall 244).
#   knob_probe_bench         zalrsc-user.S, default 0. 1: the same program,
#                            each iteration one cmpxchg_loop() (246), whose
#                            arch_cmpxchg holds cmpxchg_probe_site; 2: one
#                            futex_cmpxchg() (245), whose bounded loop holds
#                            futex_cmpxchg_probe_site. Takes precedence over
#                            knob_atomics_bench.
#   knob_fw_emulate_amo      firmware (zalrsc-fw.S), default 0: install the
#                            AMO-emulating M trap entry if an AMO traps at
#                            boot; 1 always, 2 never, 3 always, as on
#                            a hart that leaves mtval 0 (the encoding is
#                            then fetched through MPRV).
#
# Results (user.S): bench_start_cycle, bench_end_cycle, bench_start_instret,
# bench_end_instret, bench_last_ppid. Counters (kernel, 8 bytes each):
# stat_syscall_trace_enter, stat_syscall_trace_exit, stat_schedule,
# stat_signal, stat_notify_resume, stat_spurious_irq, stat_context_switch
# (schedule() switching to another task), stat_v_first_use (first-use traps
# handled). Seed 004: stat_probe_hits (probes served by do_trap_break),
# stat_futex_eagain (futex_cmpxchg calls that gave up with -EAGAIN),
# amo_speed_verdict (0 not probed, 1 fast, 2 slow), amo_probe_amo_cycles,
# amo_probe_lrsc_cycles, cmpxchg_counter; firmware: fw_amo_emulation (1:
# emulating entry installed), fw_stat_illegal_insn (illegal-instruction
# traps from S/U it saw, the mail's fw_illegal_insn event); user:
# atomics_futex_word, atomics_last_result (an unexpected answer).
#
# Measured windows: the getppid benchmark runs from the first pass through
# bench_timed_loop to bench_timed_done, one iteration per bench_timed_loop
# pass; the context-switch benchmark from the first ctx_timed_loop to
# ctx_timed_done, one iteration (one sched_yield and the switch it makes) per
# ctx_timed_loop pass by either task, 2 * knob_ctx_switches in all; the
# atomics benchmark (knob_atomics_bench / knob_probe_bench) from the first
# atomics_timed_loop to atomics_timed_done, one system call per
# atomics_timed_loop pass. (user.S's main is untouched, so the atomics
# program cannot reuse bench_timed_loop: a symbol has one address.)
#
# ---------------------------------------------------------------------------
# Phases (trapscope attributes each pc to the symbol that contains it)
# ---------------------------------------------------------------------------
#   user      everything in .user.text: user_start, main, syscall
#   entry     handle_exception, handle_exception_ras
#   syscall   do_trap_ecall_u, syscall_enter_from_user_mode,
#             syscall_trace_enter, sys_getppid, sys_exit, sys_ni_syscall
#             (the sys_call_table dispatch is inside do_trap_ecall_u)
#   exit      syscall_exit_to_user_mode, syscall_exit_work,
#             exit_to_user_mode_loop, schedule, arch_do_signal_or_restart,
#             resume_user_mode_work, ret_from_exception
#   firmware  everything in .fw.text: _start, fw_trap_entry, fw_sbi_ecall,
#             fw_redirect_to_s, fw_fail_cause, fw_fail_irq, fw_halt
#   other kernel symbols (kernel_start, do_irq, do_trap_unknown and the
#   do_trap_* / do_page_fault stubs, sbi_system_reset) are off the syscall
#   path; count them as "syscall" (kernel work) if a phase is needed.
#
# With knob_has_vector = 1 (vector.S, vector-syscall.S):
#   syscall   do_trap_ecall_u_v, do_trap_ecall_u_v3, do_trap_ecall_u_v3fix
#             (one of them, chosen at boot, replaces do_trap_ecall_u)
#   exit      syscall_exit_to_user_mode_v, syscall_exit_to_user_mode_v3
#   vector    (suggested phase for the vector work, wherever it runs)
#             __riscv_v_vstate_discard (the sysctl test),
#             __riscv_v_vstate_null (the nulling), riscv_v_vstate_restore,
#             riscv_v_vstate_restore_v3, __riscv_v_vstate_restore,
#             __riscv_v_vstate_save, __switch_to_vector, __switch_to_vector_v3
#   first use (once per task, before any timed loop) do_trap_insn_illegal,
#             riscv_v_first_use_handler, insn_is_vector,
#             irqentry_exit_to_user_mode; user code: vector_touch
# Context-switch benchmark: sys_sched_yield, sys_clone (syscall); schedule,
# __switch_to (a "switch" phase, or exit as schedule already is);
# ret_from_fork (exit, once); user code: lat_ctx_main, ctx_child, ctx_task.
#
# Note that in handle_exception_ras the `j ret_from_exception` after the
# handler returns is still inside handle_exception_ras, so it is "entry".
#
# ---------------------------------------------------------------------------
# Hand count per getppid call
# ---------------------------------------------------------------------------
# Instructions executed per timed-loop iteration, attributed to the symbol
# holding the pc, with every knob at its default (no syscall work, no thread
# flags). Rules: each instruction counts once where it executes; the `ecall`
# counts in U-mode (symbol `syscall`) even though it traps instead of
# retiring (so it is not in minstret), and `sret` counts in exit; the trap
# delivery itself is not an instruction. Counts are of the linked ELF: `call`
# and `tail` are relaxed to one jal/j, `la` is two (auipc+addi), a 12-bit
# `li` is one, `li t0, 0x46600` is two (lui+addiw).
#
#                                                   before (0) / after (1)
#   user                                                  16 / 16
#     main, loop body: li a0,173; jal syscall; bne; addi; blt          5
#     syscall: 7 x mv; ecall; lui (li -4096); bltu; ret               11
#   entry: handle_exception (0) / handle_exception_ras (1)  64 / 63
#     shared part, up to and including `move a0, sp`                  52
#       csrrw tp; bnez (taken: from U)                                 2
#       sd user_sp; ld kernel_sp; addi sp, -288                        3
#       29 x sd (x1, x3, x5..x31)                                     29
#       li SR_SUM_FS_VS (2); ld user_sp; csrrc sstatus                 4
#       csrr sepc, stval, scause, sscratch                             4
#       6 x sd (sp, status, epc, badaddr, cause, tp)                   6
#       csrw sscratch; la gp (2); move a0, sp                          4
#     dispatch (0): la ra (2); bgez; slli; la t1 (2); la t2 (2); add;
#                   bgeu; ld t0; jr t0                                12
#     dispatch (1): bgez; slli; la t1 (2); la t2 (2); add; bgeu;
#                   ld t1; jalr t1; then, after the handler returns,
#                   j ret_from_exception                              11
#   syscall                                               58 / 58
#     do_trap_ecall_u                                                 35
#       prologue 5 (addi sp; sd ra, s0, s1; addi s0)
#       user_mode check 3 (ld status; andi; bnez)
#       epc += 4, orig_a0, a0 = -ENOSYS: 9 (3 ld; mv; addi; li; 3 sd)
#       jal syscall_enter_from_user_mode 1; bounds check 2 (li; bgtu)
#       dispatch 7 (slli; la (2); add; ld; mv a0, s1; jalr); sd a0 1
#       mv a0, s1; jal syscall_exit_to_user_mode 2
#       epilogue 5 (ld ra, s0, s1; addi sp; ret)
#     syscall_enter_from_user_mode                                    13
#       prologue 4; csrsi sstatus; ld syscall_work; andi; bnez;
#       mv a0, a1; epilogue 4
#     sys_getppid: prologue 4; ld real_parent; lw tgid; epilogue 4    10
#   exit                                                  61 / 61
#     syscall_exit_to_user_mode                                       18
#       prologue 5; mv s1, a0; ld syscall_work; andi; bnez; csrci
#       sstatus; ld flags; andi; bnez; epilogue 5
#     ret_from_exception                                              43
#       ld status; andi; bnez; addi; sd kernel_sp; csrw sscratch        6
#       ld status; ld epc; sc.d; csrw sstatus; csrw sepc               5
#       30 x ld (x1, x3..x31); ld sp; sret                            32
#   total per call                                       199 / 198
#
# With knob_syscall_work != 0 every call also takes the slow paths
# (seed 002; trace.S, tracepoint.S, audit.S, rseq.S). Per getppid call, by
# phase ("syscall" holds the entry-side work, "exit" the exit side):
#                                   syscall          exit        total
#   fast path (all 0)                  58              61          199
#   slow paths, no work in them       +35             +36
#   SYSCALL_TRACEPOINT (2)           +283            +266
#   SYSCALL_TRACE (4)                +398            +394
#   SYSCALL_AUDIT (16)                +65             +30
# Each flag alone: fast + slow-path overhead + its own path (trace: 491 /
# 491, tracepoint: 376 / 363, audit: 158 / 127); flags together add their
# paths to one overhead (e.g. 2 | 4 | 16: 839 / 787).
#   slow-path overhead: entry: syscall_enter_from_user_mode +1 (jal, j
#     instead of one mv) and syscall_trace_enter 34 (prologue 7, 3 mv/li,
#     counter 5, SUD, ptrace, seccomp, tracepoint tests 2 each, audit_context
#     test 2, ld nr, beqz, epilogue 7); exit: syscall_exit_to_user_mode +3
#     (mv, jal, j) and syscall_exit_work 33 (prologue 6, 2 mv, counter 5,
#     SUD, audit, tracepoint tests 2 each, single-step 6, trace test 2,
#     epilogue 6).
#   trace (the task traced by init; entry-side cost only: up to the stop,
#     without the switch to the tracer and back): one report is 389
#     (ptrace_report_syscall 21, ptrace_notify 46, ptrace_stop 93,
#     do_notify_parent_cldstop 63, __wake_up_parent 20, ten lock calls 138,
#     the minikernel's tracer 8); entry 7 in syscall_trace_enter + 2
#     (ptrace_report_syscall_entry) + 389, exit 2 + 3 + 389.
#   tracepoints (one ftrace probe each, writing to the ring buffer): one
#     event's shared part is 168 (__traceiter 29, trace_event_buffer_reserve
#     48, ring_buffer_lock_reserve 48, ring_buffer_event_data 2 x 14,
#     trace_event_buffer_commit 35, ring_buffer_unlock_commit 28); entry 3 +
#     trace_sys_enter 5 + ftrace_syscall_enter 59 + 168, exit 3 + 5 +
#     ftrace_syscall_exit 42 + 168.
#   audit (audit=1, no rules: a dummy context): entry 6 +
#     __audit_syscall_entry 36 + ktime_get_coarse_real_ts64 23; exit 5 +
#     __audit_syscall_exit 13 + audit_reset_context 12.
# Each function's instruction list is in tests/kernel/work_trace.rs beside the
# constant it makes up. rseq (knob_rseq, user_rseq.S) adds nothing to a
# getppid: its work runs only on TIF_NOTIFY_RESUME (155 instructions per
# context switch of a registered task, userctx.S, counted there too).
# Every context switch now also runs rseq_preempt (schedule: mv, jal,
# rseq_preempt 4, rseq_set_notify_resume 3 without rseq: +9).
# Checked under QEMU 7.2 as well (-singlestep -d exec, knobs patched into
# the ELF): 2 | 4 | 16 with knob_rseq = 2 runs 1706 instructions from one
# bench_timed_loop to the next; the context-switch benchmark 360.05 per
# iteration, 515.05 with knob_rseq = 1 (+155).
# The fast-path figures were checked by tracing every executed pc of this ELF under
# QEMU (then with the user region relinked higher, as QEMU has no RAM at
# 0x10000; the minikernel now links it at 0x8040_0000 and boots in QEMU
# virt as it is: guest-asm/README.md).
#
# With knob_has_vector = 1, per timed getppid call (entry column (0); the
# RAS-friendly entry is one less). user and entry never change (16, 64/63),
# nor do syscall_enter_from_user_mode (13), sys_getppid (10) and
# ret_from_exception (43). What changes ("V=1": knob_use_vector or
# knob_vsetvli; the vector VS states behind each line are in vector.S):
#
#                                   ecall_u  vector  exit_um  syscall exit total
#   mainline, V=1, discard_ctl 1       41      15      20        79    63   222
#   mainline, V=1, discard_ctl 0       41       4      20        68    63   211
#   mainline, V=0                      37       -      20        60    63   203
#   v3, V=1                            43      22      25        66    90   236
#   v3, V=0                            37       -      20        60    63   203
#   v3+fix, V=1 (second call on)       38       -      20        61    63   204
#   v3+fix, V=0                        38       -      20        61    63   204
# (ecall_u: do_trap_ecall_u_*; exit_um: syscall_exit_to_user_mode_*; vector:
# the helpers, counted in the phase of their caller: the entry's in
# "syscall", the exit's in "exit".)
#   do_trap_ecall_u_*: the 35 of do_trap_ecall_u (the user_mode test reuses
#     its status load for the VS test, so it stays 3), plus
#       mainline: andi, beqz (VS Off: 2; taken) or andi, beqz, jal, then the
#                 Dirty mark ld, ori, sd (6);
#       v3:       andi, beqz (2), or with state: andi, beqz, li, amoor.d,
#                 then ld, andi, ori, sd setting Initial (8);
#       v3+fix:   andi, li, bleu (3; taken while VS <= Initial), or 9.
#   __riscv_v_vstate_discard: auipc+ld of the sysctl, bnez: 3, then
#     __riscv_v_vstate_null 12 (li, csrs, vsetvli, 4 x vmv.v.i, li, slli,
#     vsetvl, csrc, ret); with the sysctl 0: auipc, ld, bnez, ret = 4.
#   syscall_exit_to_user_mode_*: the 18 of syscall_exit_to_user_mode plus
#     andi, bnez on _TIF_RISCV_V_DEFER_RESTORE (20); with the flag set (v3,
#     V=1) also li, amoand.d, mv, jal, j (25), then riscv_v_vstate_restore_v3
#     7 (ld, andi, li, beq, li, bne, j: the Clean test, then the Initial
#     one), the deferred __riscv_v_vstate_discard 3 and __riscv_v_vstate_null
#     12.
# Checked the same way, under QEMU 7.2 with V 1.0 at VLEN 512 (the v3 row
# before its exit went through __riscv_v_vstate_discard with the Clean test
# first: 232 then, 236 now by the count above).
#
# ---------------------------------------------------------------------------
# Seed 004: atomics (zalrsc-atomics.S, zalrsc-fw.S, zalrsc-kprobes.S,
# zalrsc-user.S)
# ---------------------------------------------------------------------------
# With every seed 004 knob at its default, no instruction on any measured
# path changed: the getppid call is still 199 / 198, the vector and context-
# switch figures above still hold, and every function that existed before
# is instruction for instruction the same except three, all off those
# paths: _start has one more instruction (jal t0, fw_amo_emulation_setup),
# kernel_start one more (call atomics_setup), and do_trap_break is a real
# handler (zalrsc-kprobes.S) instead of a jump to do_trap_unknown (no
# existing run takes a breakpoint). Boot runs 16 + 1 more firmware
# instructions (fw_amo_emulation_setup on a core with native AMOs; 28 + the
# trapping amoadd.w on one without) and 20 + 1 more kernel instructions
# (atomics_setup with every knob 0 or default). On a core whose AMOs trap,
# the default getppid loop is still 199 per call: it has no AMO, and mtvec
# is only entered for the final SBI call.
#
# System calls (numbers in minikernel-abi.inc, from the arch-specific block
# 244..257 that RISC-V leaves unused):
#   244 SYS_atomics_wake(uaddr) -> 1     sys_atomics_wake (ZAAMO=y) or
#                                        sys_atomics_wake_zalrsc (=n)
#   245 SYS_futex_cmpxchg(uaddr, old, new) -> value found, -EAGAIN, -EINVAL
#                                        sys_futex_cmpxchg
#   246 SYS_cmpxchg_loop() -> 0          sys_cmpxchg_loop
#
# Atomic operations per call:
#   atomics_wake: 9 atomics. atomic_fetch_add (fully ordered) 1,
#     test_and_set_bit_lock (acquire) 1, futex_atomic_op_inuser (ADD, fully
#     ordered) 1, test_and_set_bit (fully ordered) 1, xchg (fully ordered)
#     1, cmpxchg (fully ordered) 1, atomic_add (relaxed) 2, clear_bit_unlock
#     (release) 1. ZAAMO=y: 8 AMO instructions (amoadd.w.aqrl,
#     amoor.d.aq, amoadd.w.aqrl, amoor.d.aqrl, amoswap.d.aqrl, amoadd.w x2,
#     amoand.d.rl) + 1 LR/SC (cmpxchg). ZAAMO=n: 9 LR/SC sequences, 0 AMOs
#     (lr/sc pairs: 9; sc.rl: 6; fences: 5; lr.aq: 1).
#   futex_cmpxchg: 1 LR/SC (lr.w, sc.w.rl, fence), either build.
#   cmpxchg_loop: 1 cmpxchg (lr.d, sc.d.rl, fence), either build.
#
# Instructions per timed iteration (native AMOs; user = atomics_main's 10 +
# the wrapper's 11; entry 64 / 63 as for getppid; exit 61):
#                                  syscall phase                  total
#   atomics_wake, ZAAMO=y   35 + 13 + 61 + atomics 50 = 159          305
#   atomics_wake, ZAAMO=n   35 + 13 + 61 + atomics 80 = 189          335
#   futex_cmpxchg           35 + 13 + 17 + 14          =  79          225
#   cmpxchg_loop            35 + 13 + 21 + 7           =  76          222
#   (do_trap_ecall_u + syscall_enter_from_user_mode + the sys_* function
#   + the leaves; RAS-friendly entry: one less in entry.)
# The atomics leaves, per call (jal'd, so each includes its ret):
#                              ZAAMO=y   ZAAMO=n
#   arch_atomic_fetch_add          2         7   (lr.w, add, sc.w.rl, bnez,
#                                                 fence, mv, ret)
#   arch_test_and_set_bit_lock     9        12   (mask 5; lr.d.aq, or, sc.d,
#                                                 bnez; and, snez, ret)
#   arch_futex_atomic_op_inuser    9        14   (li, bne, li, [li], csrs,
#                                                 AMO | lr.w/add/sc.w.rl/
#                                                 beqz/fence, sw, li, csrc,
#                                                 ret)
#   arch_test_and_set_bit          9        13   (as _lock + fence)
#   arch_xchg                      2         6   (lr.d, sc.d.rl, bnez,
#                                                 fence, mv, ret)
#   arch_cmpxchg                   7         7   (lr.d, bne, sc.d.rl, bnez,
#                                                 fence, mv, ret)
#   arch_atomic_add (x 2)          2 x 2     5 x 2
#   arch_clear_bit_unlock          8        11   (mask 6; lr.d, and,
#                                                 sc.d.rl, bnez, ret)
#   total                         50        80
# sys_atomics_wake itself (61): prologue 7; uaddr and its alignment test 3;
# la 2; argument setup and jal per atomic, in call order 3, 4 (with its
# bnez), 5, 4 (with its bnez), 3, 4, 3, 3, 3 = 32; mv, li, beq, bnez after
# the futex op 4; li s3 1; re-arming stores and mv 5; epilogue 7.
#
# On a core that traps AMOs (the P8700 profile; firmware emulation in
# zalrsc-fw.S) each AMO becomes a trip through M-mode of 314..317
# instructions on OpenSBI's path (zalrsc-fw.S has the breakdown), all in
# phase "firmware":
#   atomics_wake, ZAAMO=y: 263 x 8 = 2104 for the common part, plus the
#     atomic functions: amoadd.w.aqrl 54 x 2 (fetch_add, the futex op),
#     amoor.d.aq 52, amoor.d.aqrl 52, amoswap.d.aqrl 51, amoadd.w 54 x 2,
#     amoand.d.rl 52 = 423; 305 + 2527 = 2832, and 8 traps to M per call
#   atomics_wake, ZAAMO=n: 335, no trap (the mail's point)
#   futex_cmpxchg, cmpxchg_loop, getppid: unchanged (no AMO)
#
# Probes (zalrsc-kprobes.S). A probe delivered in the kernel costs, on top
# of the probed code: handle_exception from S 66 (54 + dispatch 12; 65 for
# the RAS-friendly entry), do_trap_break 16, kprobe_breakpoint_handler 14,
# ret_from_exception to S 40; 136 in all. Probe sites:
#   cmpxchg_probe_site        the bne between arch_cmpxchg's lr.d and
#                             sc.d.rl. With knob_probe_bench = 1 and a probe
#                             there, the first cmpxchg_loop never returns:
#                             every pass is lr.d, trap (136), bne, sc.d.rl
#                             (fails: the trap dropped the reservation),
#                             bnez = 140 instructions, forever, one probe hit
#                             each (trapscope's livelock detector ends it).
#   futex_cmpxchg_probe_site  the bne between futex_atomic_cmpxchg_inatomic's
#                             lr.w and sc.w.rl. With knob_probe_bench = 2
#                             every pass fails the same way (142 with the
#                             trap: lr.w, bne, sc.w.rl, beqz, addi, bnez);
#                             after 128 passes it returns -EAGAIN:
#                             stat_probe_hits = 128, stat_futex_eagain = 1,
#                             errno = 11, and the program exits with 11.
# Set knob_warmup = 0 for these runs, so the first probed call is timed.
# A probe on the lr itself (arch_cmpxchg's first instruction) does no harm
# on this machine, since the trap comes before the lr runs; with Linux's
# out-of-line single step it would (patch 1 rejects lr and sc as well).
#
# Patch 6 (knob_amo_probe): check_amo_speed times AMO_PROBE_ITERS (16)
# amoadd.w against 16 lr.w/add/sc.w/bnez loops with rdcycle, after one
# untimed operation of each kind. amo_speed_verdict = 1 (fast) if the AMO
# batch took no more cycles than the LR/SC batch, else 2 (slow). Under
# QEMU: native, fast; with AMOs trapping to the firmware, slow.
#
# Phases (suggested; trapscope attributes each pc to its symbol):
#   syscall   sys_atomics_wake, sys_atomics_wake_zalrsc, sys_futex_cmpxchg,
#             sys_cmpxchg_loop
#   atomics   arch_atomic_add, arch_atomic_fetch_add, arch_test_and_set_bit,
#             arch_test_and_set_bit_lock, arch_clear_bit_unlock, arch_xchg,
#             arch_futex_atomic_op_inuser (and their _zalrsc copies),
#             arch_cmpxchg, futex_atomic_cmpxchg_inatomic
#   firmware  fw_trap_entry_full, fw_trap_entry_notval, fw_trap_handler,
#             fw_sse_process_pending, fw_pmu_ctr_incr_fw,
#             fw_illegal_insn_handler, fw_get_insn, fw_truly_illegal_insn,
#             fw_trap_redirect, fw_amo_redirect, fw_expected_trap,
#             fw_illegal_atomic, fw_amo_code (the per-operation dispatchers
#             and the 72 emulations), fw_trap_pass (an "amo-emul" phase if
#             the firmware's share should stand alone)
#   probe     do_trap_break, kprobe_breakpoint_handler (the nested trap's
#             handle_exception and ret_from_exception are entry and exit)
#   boot      atomics_setup, check_amo_speed, fw_amo_emulation_setup
#   user      atomics_user_start, atomics_main (and syscall)
#

	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"

	.section .kernel.text, "ax", @progbits

# kernel_start: entered from fw.S in S-mode (a0 = hart id, a1 = no DTB).
# Sets up current, the trap vector and the counters, then "returns" to the
# benchmark's entry point in U-mode with sret, the way the first exec'd
# process leaves the kernel.
	.globl kernel_start
	.type kernel_start, @function
kernel_start:
	.option push
	.option norelax
	la	gp, kernel_gp
	.option pop
	la	tp, task_bench			# current
	la	sp, bench_stack_top
	sd	sp, TASK_TI_KERNEL_SP(tp)	# empty kernel stack for the first trap

	ld	t0, knob_thread_work_flags
	sd	t0, TASK_TI_FLAGS(tp)
	ld	t0, knob_syscall_work
	sd	t0, TASK_TI_SYSCALL_WORK(tp)
	# Bits the minikernel does not model (SYSCALL_EMU, EXIT_TRAP, any
	# unknown one) end the boot with EXIT_BAD_KNOB rather than a run that
	# goes wrong later.
	li	t1, ~(SYSCALL_WORK_SECCOMP | SYSCALL_WORK_SYSCALL_TRACEPOINT | SYSCALL_WORK_SYSCALL_TRACE | SYSCALL_WORK_SYSCALL_AUDIT | SYSCALL_WORK_SYSCALL_USER_DISPATCH)
	and	t1, t0, t1
	li	a2, EXIT_BAD_KNOB
	bnez	t1, 9f
	# Work the kernel side sets up for every task (audit.S, trace.S):
	# an audit context when auditing is on, the sys_enter/sys_exit
	# tracepoints' probes when tracing is.
	call	syscall_work_boot

	# While U-mode runs, sscratch holds current (see handle_exception).
	csrw	sscratch, tp
	li	t0, COUNTEREN_CY_TM_IR
	csrw	scounteren, t0			# U may read cycle/time/instret

	# Pick the trap entry under study. Linux would patch its text; the
	# minikernel keeps both forms and chooses once, at boot.
	ld	t0, knob_ras_friendly_entry
	la	t1, handle_exception
	beqz	t0, 1f
	la	t1, handle_exception_ras
1:
	ld	t0, knob_arch_entry		# RISC-V's entry before generic
	beqz	t0, 4f				# entry (entry-arch.S)
	la	t1, handle_exception_arch
4:
	csrw	stvec, t1			# direct mode

	# A kernel built with vector support finds out at boot whether the
	# hart has V (Linux: has_vector(), a static branch fixed at boot).
	# Without it nothing below changes; with it, riscv_v_setup (vector.S)
	# sizes the vector context and installs the vector-enabled copies of
	# the syscall path, the way alternatives would patch the text.
	ld	t0, knob_has_vector
	beqz	t0, 2f
	call	riscv_v_setup
2:
	# sret target: U-mode (SPP = 0) with interrupts enabled there (SPIE),
	# FP Initial and vector Off, as start_thread() sets up a new process.
	li	t0, SR_SPP | SR_SIE | SR_SUM | SR_FS | SR_VS
	csrc	sstatus, t0
	li	t0, SR_SPIE | SR_FS_INITIAL
	csrs	sstatus, t0
	la	t0, user_start
	csrw	sepc, t0

	# The atomics of seed 004 (zalrsc-atomics.S): choose the atomics build
	# (knob_zaamo), run patch 6's AMO speed probe if asked, and start the
	# atomics benchmark instead of user_start if asked (it may rewrite sepc).
	call	atomics_setup

	# A timer tick only if a scenario asks for one (timer.S).
	ld	t0, knob_timer_period
	beqz	t0, 3f
	call	timer_setup
3:
.ifdef SV39
	# minikernel-sv39.elf only: translation on for the user program (sv39.S).
	call	sv39_enable
.endif
	# A new process starts with no kernel values in its registers; user.S
	# sets up its own stack.
	li	ra, 0
	li	sp, 0
	li	gp, 0
	li	tp, 0
	li	t0, 0
	li	t1, 0
	li	a0, 0
	li	a1, 0
	sret
9:
	li	a0, SBI_SRST_TYPE_SHUTDOWN	# a knob the kernel cannot run with
	li	a1, SBI_SRST_REASON_FAILURE
	call	sbi_system_reset		# a2 = the exit code
1:	j	1b
	.size kernel_start, .-kernel_start

# ---------------------------------------------------------------------------
	.section .kernel.data, "aw", @progbits
	.balign 8
# The value the kernel keeps in gp (Linux: __global_pointer$, in its small
# data). Nothing here addresses through gp; it is loaded because a kernel
# entry has to, and those two instructions are part of the cost.
	.globl kernel_gp
kernel_gp:

.macro KNOB name, default
	.globl \name
	.type \name, @object
\name:
	.dword \default
	.size \name, .-\name
.endm

	KNOB knob_ras_friendly_entry, 0
	KNOB knob_thread_work_flags, 0
	KNOB knob_syscall_work, 0
	KNOB knob_arch_entry, 0
	# The vector knobs (vector.S and vector-syscall.S say what each one changes).
	KNOB knob_has_vector, 0
	KNOB knob_riscv_v_vstate_discard_ctl, 1
	KNOB knob_vstate_v3, 0

# Event counters for the slow paths; trapscope or a test may read them.
.macro COUNTER name
	.globl \name
	.type \name, @object
\name:
	.dword 0
	.size \name, .-\name
.endm

	COUNTER stat_syscall_trace_enter
	COUNTER stat_syscall_trace_exit
	COUNTER stat_schedule
	COUNTER stat_signal
	COUNTER stat_notify_resume
	COUNTER stat_spurious_irq
	COUNTER stat_context_switch
	COUNTER stat_v_first_use

# TASK name, pid, parent, stack, comm, rq_next, vbuf: a task_struct (layout
# in minikernel-defs.inc). The flags words start at 0; kernel_start copies
# the knobs into the running task. rq_next links the runnable tasks into a
# ring; vbuf is the vector save area the task is given on its first vector
# instruction (0: none). thread and vstate start zeroed.
.macro TASK name, pid, parent, stack, comm, rq_next, vbuf
	.balign 8
	.globl \name
	.type \name, @object
\name:
	.dword 0				# thread_info.flags
	.dword 0				# thread_info.syscall_work
	.dword 0				# thread_info.kernel_sp
	.dword 0				# thread_info.user_sp
	.word \pid				# pid
	.word \pid				# tgid (single-threaded)
	.dword \parent				# real_parent
	.dword \stack				# stack
	.ascii "\comm"				# comm[16], NUL padded
	.org \name + TASK_RQ_NEXT		# (errors if the name is too long)
	.dword \rq_next				# run queue link
	.org \name + TASK_V_BUFFER		# thread, vstate: zero
	.dword \vbuf				# vector save area
	.org \name + TASK_STRUCT_SIZE
	.size \name, .-\name
.endm

	# init never runs here; it only has to exist as the benchmark's parent.
	# Its own parent would be the idle task (pid 0); it points to itself.
	TASK task_init, INIT_PID, task_init, 0, "init", 0, 0
	# The benchmark is the only runnable task: its ring is itself.
	TASK task_bench, BENCH_PID, task_init, bench_stack, "null_syscall", task_bench, bench_vstate_area
	# The second task of the context-switch benchmark: not runnable until
	# the benchmark clone()s it (sys_clone fills it in).
	TASK task_ctx, CTX_PID, task_bench, ctx_stack, "lat_ctx", 0, ctx_vstate_area

	.section .kernel.bss, "aw", @nobits
	.balign 16
	.globl bench_stack
	.type bench_stack, @object
bench_stack:
	.skip THREAD_SIZE
	.size bench_stack, .-bench_stack
bench_stack_top:

	.globl ctx_stack
	.type ctx_stack, @object
ctx_stack:
	.skip THREAD_SIZE
	.size ctx_stack, .-ctx_stack

# Vector save areas, one per task that can run user code: 32 registers of up
# to 64 bytes (VLEN 512). Aligned like a cache line, as a slab object would be.
	.balign 64
	.globl bench_vstate_area
	.type bench_vstate_area, @object
bench_vstate_area:
	.skip RISCV_V_MAX_VSIZE
	.size bench_vstate_area, .-bench_vstate_area
	.globl ctx_vstate_area
	.type ctx_vstate_area, @object
ctx_vstate_area:
	.skip RISCV_V_MAX_VSIZE
	.size ctx_vstate_area, .-ctx_vstate_area
