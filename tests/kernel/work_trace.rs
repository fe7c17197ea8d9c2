//! Seed 002's kernel-side syscall work (ptrace reports, the sys_enter /
//! sys_exit tracepoints, audit) and rseq, end to end on the minikernel's
//! getppid loop (tests/data/work-trace.toml) and its context-switch
//! benchmark (tests/data/work-trace-ctx.toml). Every expected count below
//! is a hand count of the guest code (guest-asm/minikernel/trace.S,
//! tracepoint.S, audit.S, rseq.S, and the slow-path skeleton in syscall.S /
//! exit.S), per getppid call; the same figures are in kernel.S's comment
//! block on knob_syscall_work.

use std::path::Path;

use trapscope::machine::{Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, VariantRun};

fn scenario(name: &str) -> Scenario {
    Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

fn run_with(s: &Scenario, variant: &str, set: &[(&str, u64)], step: bool) -> VariantRun {
    let opts = RunOpts {
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        single_step: step,
        ..RunOpts::default()
    };
    session::run_variant(s, s.variant(variant).unwrap(), &opts).unwrap()
}

fn getppid(set: &[(&str, u64)]) -> VariantRun {
    let r = run_with(&scenario("work-trace.toml"), "getppid", set, false);
    assert_eq!(r.exit_code, Some(0), "{set:?}: {:?}", r.error);
    assert_eq!(r.iterations, 100, "{set:?}");
    r
}

// The fast path (kernel.S): syscall 58, exit 61; user 16, entry 64.
const FAST_SYSCALL: f64 = 58.0;
const FAST_EXIT: f64 = 61.0;

// The slow paths' own cost with no work in them, shared by every flag:
//   entry 35: syscall_enter_from_user_mode +1 (jal + j instead of mv) and
//     syscall_trace_enter's 34: prologue 7, mv, mv, li 3, the counter 5
//     (la 2, ld, addi, sd), the SUD, ptrace, seccomp and tracepoint tests 2
//     each, the audit_context test 2 (ld, beqz), ld nr, beqz, epilogue 7.
//   exit 36: syscall_exit_to_user_mode +3 (mv, jal, j) and
//     syscall_exit_work's 33: prologue 6, mv, mv, the counter 5, the SUD,
//     audit and tracepoint tests 2 each, report_single_step 6 (andi, li,
//     bnez, andi, snez, bnez), the trace test 2, epilogue 6.
const SLOW_ENTRY: f64 = 35.0;
const SLOW_EXIT: f64 = 36.0;

// ptrace (SYSCALL_WORK_SYSCALL_TRACE): one report costs 389 after its
// wrapper, entry-side cost only (up to the stop, without the switch to the
// tracer and back):
//   ptrace_report_syscall 21: prologue 4; lw ptrace, andi, beqz; andi,
//     snez, slli, ori (exit_code 0x85); jal; bnez signr; ld flags, andi,
//     bnez; li a0; epilogue 4.
//   ptrace_notify 46: prologue 6; mv, mv; BUG_ON's li 2, and, li, bne;
//     ld ext, ld task_works, bnez;
//     addi, jal (lock); clear_siginfo 6 sd; li, sw signo, sw code, lw pid,
//     sw pid, sw uid; mv, li, mv, mv, jal ptrace_stop; mv; ld, addi, jal
//     (unlock); mv; epilogue 6.
//   ptrace_stop 93: prologue 8; mv, lw ptrace, beqz; mv x3; ld, mv, jal
//     (pi_lock); mv, li, sw state; ld, mv, jal (unlock); lw, lui, or, sw
//     (JOBCTL_TRACED); fence w,w; sd, sd, sw (message, last_siginfo,
//     exit_code); li, beq (CLD_STOPPED); lw, lui, addiw, and, sw; lui, and,
//     bnez; lui, and, bnez; lw, sraiw, li, beq (PTRACE_EVENT_STOP); lw,
//     lui, and, bnez (TRAPPING); ld, addi, jal (siglock unlock); auipc,
//     addi, jal (read_lock); lw, beqz; mv, li, mv, jal (notify parent);
//     auipc, addi, jal (read_unlock); mv, jal (the tracer); ld, addi, jal
//     (siglock); lw, sd, sd, sw; lw, lui, addiw, and, sw; lui, and, beqz
//     (recalc_sigpending_tsk); mv; epilogue 8.
//   do_notify_parent_cldstop 63: prologue 7; mv, mv, beqz; ld parent;
//     clear_siginfo 6 sd; li, sw, lw, sw, sw; ld ext, ld utime, ld stime;
//     auipc, ld (the divisor's reciprocal); srli, mulhu, srli, sd twice;
//     sw code; li, bne; lw, andi, sw (si_status); ld, addi, jal (lock); mv;
//     ld, ld, li, beq (SIG_IGN); mv, mv, jal (wake); ld, addi, mv, jal
//     (unlock); epilogue 7.
//   __wake_up_parent 20: prologue 5; ld, addi, mv, jal; mv, ld, addi, bne
//     (empty queue); mv, jal; epilogue 5.
//   locks 138: _raw_spin_lock_irq 12 (prologue 4, csrci, li, amoswap,
//     bnez, epilogue 4) x 2; _raw_spin_unlock_irq 10 x 2;
//     _raw_spin_lock_irqsave 14 x 3; _raw_spin_unlock_irqrestore 10 x 3;
//     _raw_read_lock 12; _raw_read_unlock 10.
//   ptrace_tracer_resume_now 8: sw, lw, li (2), and, sw, sw, ret.
const PTRACE_REPORT: f64 = 21.0 + 46.0 + 93.0 + 63.0 + 20.0 + 138.0 + 8.0;
//   entry: syscall_trace_enter's mv, jal, mv, bnez, andi, bnez, ld work (7)
//     and ptrace_report_syscall_entry 2 (li, j); exit: syscall_exit_work's
//     mv, jal (2) and ptrace_report_syscall_exit 3 (bnez, li, j).
const TRACE_ENTRY: f64 = 7.0 + 2.0 + PTRACE_REPORT;
const TRACE_EXIT: f64 = 2.0 + 3.0 + PTRACE_REPORT;

// Tracepoints (SYSCALL_WORK_SYSCALL_TRACEPOINT), shared pieces per event:
//   __traceiter_* 29: prologue 7; la 2, ld funcs, beqz; mv, mv; ld func,
//     ld data, mv, mv, jalr; ld next, addi, bnez; li; epilogue 7.
//   trace_event_buffer_reserve 48: prologue 7; mv, mv; ld, andi, bnez;
//     csrr, andi, seqz, ld, andi, snez, slli, or, slli (trace_ctx); sd, sd;
//     ld, andi, bnez; la 2, mv, jal, beqz; sd event; jal event_data; lhu,
//     sh, sb, srli, sb, lw, sw (the trace_entry); sd entry; epilogue 7.
//   ring_buffer_lock_reserve 48: prologue 7; mv; lw, bnez; li 2, bgtu;
//     lw, andi, bnez, ori, sw (recursion); addi, li, amoadd; addi, andi
//     (length); rdtime; ld, sub, srli, bnez (delta); sd stamp; addi,
//     amoadd, add, li, bgtu (tail); add, addi; srli, addi, slli, or, sw
//     (header); epilogue 7.
//   ring_buffer_event_data 14, twice: prologue 4; lw, andi, li, bne; bnez;
//     addi; epilogue 4.
//   trace_event_buffer_commit 35: prologue 5; mv; nop, nop; li, la 2, sb;
//     ld, la 2, ld, beq; la 2, jal; la 2, li 2, add, ld; andi, bnez, andi,
//     bnez; epilogue 5.
//   ring_buffer_unlock_commit 28: prologue 4; la 2, li, amoadd; ld, li,
//     bne; ld, sd; addi, li, amoadd; la 2, ld, bnez; lw, addi, and, sw;
//     epilogue 4.
const EVENT: f64 = 29.0 + 48.0 + 48.0 + 2.0 * 14.0 + 35.0 + 28.0;
//   trace_sys_enter / _exit 5: the patched site (j), mv, mv, li, j.
//   ftrace_syscall_enter 59 (getppid: nb_args 0): prologue 8; lw nr, li,
//     bgeu; mv; slli, add, ld file, beqz; ld, andi, bnez; la 2, add, ld
//     meta, beqz; lw, slli, addi (size); mv, mv, jal; beqz; ld, jal; sw nr;
//     6 x (ld, sd) syscall_get_arguments; addi, addi, beqz (memcpy of 0);
//     mv, jal commit; epilogue 8.
//   ftrace_syscall_exit 42: prologue 6; lw, li, bgeu; mv; slli, add, li 2,
//     add, ld file, beqz; ld, andi, bnez; la 2, add, ld, beqz; li, mv, jal,
//     beqz; ld, jal; sw nr; ld, sd ret; mv, jal; epilogue 6.
//   syscall_trace_enter: ld nr, mv, jal (3); syscall_exit_work: mv, ld
//     ret, jal (3).
const TRACEPOINT_ENTRY: f64 = 3.0 + 5.0 + 59.0 + EVENT;
const TRACEPOINT_EXIT: f64 = 3.0 + 5.0 + 42.0 + EVENT;

// audit (SYSCALL_WORK_SYSCALL_AUDIT: audit=1, no rules, a dummy context):
//   entry: syscall_trace_enter's 5 argument loads and jal (6);
//     __audit_syscall_entry 36: prologue 4; ld ctx; lw 2 audit_enabled,
//     beqz, beqz; lw, bnez, lw, bnez; lw state, beqz; lw 2 audit_n_rules,
//     seqz, sw dummy, beqz; li 2, sw arch; sw major, 4 sd argv; li, sw,
//     sw (context, current_state); addi; ld, ld, addi, j (tail);
//     ktime_get_coarse_real_ts64 23: prologue 4; la 2; lw, andi, bnez;
//     fence; ld, ld, lw, srl; sd, sd; fence; lw, bne; epilogue 4.
//   exit: syscall_exit_work's ld ret, li 2, sltu, jal (5);
//     __audit_syscall_exit 13: prologue 4; ld, beqz; lw dummy, bnez; mv;
//     ld, ld, addi, j (tail); audit_reset_context 12: prologue 4; beqz,
//     sw, lw, beqz; epilogue 4.
const AUDIT_ENTRY: f64 = 6.0 + 36.0 + 23.0;
const AUDIT_EXIT: f64 = 5.0 + 13.0 + 12.0;

fn expect(work: u64) -> (f64, f64) {
    let mut s = FAST_SYSCALL + SLOW_ENTRY;
    let mut e = FAST_EXIT + SLOW_EXIT;
    if work & 2 != 0 {
        s += TRACEPOINT_ENTRY;
        e += TRACEPOINT_EXIT;
    }
    if work & 4 != 0 {
        s += TRACE_ENTRY;
        e += TRACE_EXIT;
    }
    if work & 16 != 0 {
        s += AUDIT_ENTRY;
        e += AUDIT_EXIT;
    }
    (s, e)
}

#[test]
fn each_flag_alone_adds_exactly_its_path() {
    for work in [2, 4, 16] {
        let r = getppid(&[("syscall_work", work)]);
        let p = &r.insns_per_iteration;
        let (s, e) = expect(work);
        assert_eq!(p["user"], 16.0, "work {work}");
        assert_eq!(p["entry"], 64.0, "work {work}");
        assert_eq!(p["syscall"], s, "work {work}");
        assert_eq!(p["exit"], e, "work {work}");
        assert_eq!(r.traps_per_iteration, 1.0, "work {work}");
    }
}

#[test]
fn flags_together_cost_their_paths_plus_one_slow_path_overhead() {
    // e.g. trace + audit = trace alone + audit alone - the shared slow-path
    // overhead (which both include): the paths do not interact.
    let alone = |w: u64| {
        let p = getppid(&[("syscall_work", w)]).insns_per_iteration;
        (p["syscall"], p["exit"])
    };
    let (ts, te) = alone(4);
    let (as_, ae) = alone(16);
    for work in [6, 18, 20, 22] {
        let p = getppid(&[("syscall_work", work)]).insns_per_iteration;
        assert_eq!((p["syscall"], p["exit"]), expect(work), "work {work}");
    }
    let p = getppid(&[("syscall_work", 20)]).insns_per_iteration;
    assert_eq!(p["syscall"], ts + as_ - FAST_SYSCALL - SLOW_ENTRY);
    assert_eq!(p["exit"], te + ae - FAST_EXIT - SLOW_EXIT);
}

#[test]
fn no_flag_keeps_the_fast_path() {
    let p = getppid(&[]).insns_per_iteration;
    assert_eq!(p["syscall"], FAST_SYSCALL);
    assert_eq!(p["exit"], FAST_EXIT);
    assert_eq!(p["total"], 199.0);
}

#[test]
fn block_mode_and_single_step_agree_with_all_the_work_on() {
    let s = scenario("work-trace.toml");
    let set = [("syscall_work", 22), ("rseq", 1)];
    let b = run_with(&s, "getppid", &set, false);
    let st = run_with(&s, "getppid", &set, true);
    assert_eq!(b.exit_code, Some(0));
    assert_eq!(b.insns_per_iteration, st.insns_per_iteration);
    assert_eq!(b.events, st.events);
    assert_eq!(b.results, st.results);
}

#[test]
fn the_tracepoints_write_two_events_per_syscall() {
    // Every syscall after boot: 10 warm-up + 100 timed getppid, each an
    // enter and an exit event, and exit(), whose enter event is the last
    // (sys_exit does not return).
    let r = getppid(&[("syscall_work", 2)]);
    assert_eq!(r.results["rb_entries"], 221.0);
    let r = getppid(&[]);
    assert_eq!(r.results["rb_entries"], 0.0);
}

#[test]
fn a_full_ring_buffer_wraps_and_keeps_recording() {
    // 1510 getppid calls write 1510 x (20 + 28) = 72480 bytes of events
    // (header + trace_entry + nr: 20; + ret: 28) into the 64 KiB area
    // (minikernel-work.inc's RB_DATA_SIZE): it wraps once (overwrite mode)
    // and every event is still committed.
    let s = scenario("work-trace.toml");
    let r = run_with(
        &s,
        "getppid",
        &[("syscall_work", 2), ("iterations", 1500)],
        false,
    );
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(r.iterations, 1500);
    assert_eq!(r.results["rb_entries"], 2.0 * 1510.0 + 1.0);
}

/// The JAL encoding (unprivileged spec, "Unconditional Jumps"): imm[20],
/// imm[10:1], imm[11], imm[19:12] in bits 31..12, rd = x0.
fn jal_x0(from: u64, to: u64) -> u32 {
    let off = to.wrapping_sub(from) as u32;
    0x6f | (off & 0xff000)
        | ((off >> 11) & 1) << 20
        | ((off >> 1) & 0x3ff) << 21
        | ((off >> 20) & 1) << 31
}

#[test]
fn the_static_key_site_is_a_nop_until_the_tracepoint_has_a_probe() {
    let s = scenario("work-trace.toml");
    for (work, enabled) in [(0, false), (2, true)] {
        let opts = RunOpts {
            set: vec![("syscall_work".into(), work)],
            ..RunOpts::default()
        };
        let mut m = session::build_machine(&s, s.variant("getppid").unwrap(), &opts).unwrap();
        let sym = |n: &str| m.program.symbol(n).unwrap().addr;
        let done = sym("bench_timed_done");
        let sites = [
            (
                sym("trace_sys_enter_key_site"),
                sym("trace_sys_enter_do_trace"),
            ),
            (
                sym("trace_sys_exit_key_site"),
                sym("trace_sys_exit_do_trace"),
            ),
        ];
        let o = m.run(&Until {
            addrs: vec![done],
            max_insns: Some(2_000_000),
            ..Until::default()
        });
        assert_eq!(o, Outcome::ReachedAddr(done), "work {work}");
        for (site, target) in sites {
            let b = m.read_mem(site, 4).unwrap();
            let insn = u32::from_le_bytes(b.try_into().unwrap());
            let want = if enabled { jal_x0(site, target) } else { 0x13 };
            assert_eq!(insn, want, "work {work}: site {site:#x}");
        }
    }
}

#[test]
fn a_traced_task_is_running_again_after_each_stop() {
    // task_bench's ptrace block (minikernel-work.inc) after 110 reports of
    // each kind: still traced (PT_PTRACED | PT_TRACESYSGOOD), TASK_RUNNING,
    // exit_code 0, JOBCTL_TRACED clear, no last_siginfo.
    let s = scenario("work-trace.toml");
    let opts = RunOpts {
        set: vec![("syscall_work".into(), 4)],
        ..RunOpts::default()
    };
    let mut m = session::build_machine(&s, s.variant("getppid").unwrap(), &opts).unwrap();
    let task = m.program.symbol("task_bench").unwrap().addr;
    let done = m.program.symbol("bench_timed_done").unwrap().addr;
    let o = m.run(&Until {
        addrs: vec![done],
        max_insns: Some(2_000_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::ReachedAddr(done));
    let word = |off: u64| m.read_u64(task + off).unwrap();
    assert_eq!(word(592) & 0xffff_ffff, 0x9, "ptrace");
    assert_eq!(word(592) >> 32, 0, "__state");
    assert_eq!(word(600) & 0xffff_ffff, 0, "exit_code");
    assert_eq!((word(600) >> 32) & (1 << 27), 0, "JOBCTL_TRACED");
    assert_eq!(word(616), 0, "last_siginfo");
}

#[test]
fn rseq_registered_costs_a_getppid_nothing() {
    // Registered, nothing pending: the loop runs exactly the fast path.
    // The one notify-resume is the registration's own return (rseq_set_
    // notify_resume), which published cpu_id 0 over the area's initial
    // RSEQ_CPU_ID_UNINITIALIZED.
    let off = getppid(&[]);
    let on = getppid(&[("rseq", 1)]);
    assert_eq!(on.insns_per_iteration, off.insns_per_iteration);
    assert_eq!(on.insns_per_iteration["total"], 199.0);
    assert_eq!(off.results["notify_resume"], 0.0);
    assert_eq!(on.results["notify_resume"], 1.0);
    assert_ne!(off.results["rseq_area"], 0.0);
    assert_eq!(on.results["rseq_area"], 0.0);
}

#[test]
fn sys_rseq_refuses_what_linux_refuses() {
    // knob_rseq = 2: user_rseq.S's table of rseq() calls and the answers
    // SYSCALL_DEFINE4(rseq) gives (misaligned, short, bad flags, nothing
    // to unregister, past TASK_SIZE, busy, another signature, another
    // area, unregister with a wrong signature, unregister), then a final
    // registration. Two of them register: two notify-resumes.
    let r = getppid(&[("rseq", 2)]);
    assert_eq!(r.results["rseq_check_failed"], 0.0);
    assert_eq!(r.results["notify_resume"], 2.0);
    assert_eq!(r.insns_per_iteration["total"], 199.0);
}

// rseq's cost per context switch when both tasks registered: every switch
// marks the task leaving (rseq_preempt), whose return to user then runs the
// notify-resume work:
//   rseq_set_notify_resume +2 (li, amoor.d: rseq is set);
//   syscall_exit_to_user_mode +3 (mv, jal exit_to_user_mode_loop, j);
//   exit_to_user_mode_loop 28: prologue 6; mv, mv; csrsi; andi, beqz x 3;
//     mv, jal; csrci, ld, andi, bnez; mv; epilogue 6;
//   resume_user_mode_work 20: prologue 4; li, amoand.d, fence; the counter
//     5; ld rseq, beqz; mv, li; ld, ld, addi, j (tail);
//   __rseq_handle_notify_resume 15: prologue 4; beqz; mv, jal; bltz; mv,
//     jal; bnez; epilogue 4;
//   rseq_ip_fixup 21: prologue 5; ld epc; mv, mv, jal; bnez; ld, ld, sub,
//     bltu; ld, jal; epilogue 5;
//   rseq_get_rseq_cs 24: prologue 4; ld, addi; li 3 (TASK_SIZE - 8), bgtu;
//     lui, csrs, ld, csrc; bnez; 4 sd (memset); li; epilogue 4;
//   clear_rseq_cs 18: prologue 4; addi; li 3, bgtu; lui, csrs, sd, csrc;
//     li; epilogue 4;
//   rseq_update_cpu_node_id 24: prologue 4; ld, lwu; li 2 (TASK_SIZE),
//     bgtu, sub, bgtu; lui, csrs; 4 sw; csrc; nop (trace_rseq_update); li;
//     epilogue 4.
const RSEQ_PER_SWITCH: f64 = 2.0 + 3.0 + 28.0 + 20.0 + 15.0 + 21.0 + 24.0 + 18.0 + 24.0;

#[test]
fn a_context_switch_triggers_rseq_and_the_pair_isolates_it() {
    let s = scenario("work-trace-ctx.toml");
    let off = run_with(&s, "ctx", &[], false);
    let on = run_with(&s, "ctx", &[("rseq", 1)], false);
    for r in [&off, &on] {
        assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
        assert_eq!(r.iterations, 100);
    }
    let (a, b) = (&off.insns_per_iteration, &on.insns_per_iteration);
    assert_eq!(b["exit"] - a["exit"], RSEQ_PER_SWITCH);
    for phase in ["user", "entry", "syscall"] {
        assert_eq!(a[phase], b[phase], "{phase}");
    }
    // Every switch away from a task with rseq marks it, and the task runs
    // the work when it next returns to user: every switch's but the last
    // (the child, switched out for good while the parent exits). Each task
    // registered before its first yield, and each registration's own
    // return adds one: switches - 1 + 2. Without rseq: none.
    let switches = on.results["context_switches"];
    assert!(switches >= 120.0, "{switches}");
    assert_eq!(off.results["notify_resume"], 0.0);
    assert_eq!(on.results["notify_resume"], switches + 1.0);
}
