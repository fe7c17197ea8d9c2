//! The call stack the observer keeps (session::callstack) on the shipped
//! guests: the chain the minikernel's code makes at sys_getppid, and block
//! mode equal to single-step on every scenario.

use std::path::Path;

use trapscope::machine::{Machine, Outcome, Program, Until, decode_range};
use trapscope::scenario::Scenario;
use trapscope::session::callstack::Frame;
use trapscope::session::stats::Stats;
use trapscope::session::{self, RunOpts};
use trapscope::trace::Priv;

fn scenario(name: &str) -> Scenario {
    Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name),
    )
    .unwrap()
}

/// The address right after the first instruction of `func` that `is`
/// picks (a call's return address), read from the ELF's own bytes.
fn after(p: &Program, func: &str, is: impl Fn(&trapscope::isa::Insn, u64) -> bool) -> u64 {
    let s = p.symbol(func).unwrap();
    // A label (no size) inside a function: the code just after it.
    let len = if s.size > 0 { s.size as usize } else { 64 };
    let bytes = p.text_bytes(s.addr, len).unwrap();
    let d = decode_range(s.addr, bytes)
        .into_iter()
        .find(|d| d.insn.is_some_and(|i| is(&i, d.pc)))
        .unwrap_or_else(|| panic!("no such instruction in {func}"));
    d.pc + u64::from(d.len)
}

fn jal_to(p: &Program, target: &str) -> impl Fn(&trapscope::isa::Insn, u64) -> bool {
    let t = p.symbol(target).unwrap().addr;
    move |i, pc| i.op == trapscope::isa::Op::Jal && pc.wrapping_add(i.imm as u64) == t
}

fn jalr(rd: u8, rs1: u8) -> impl Fn(&trapscope::isa::Insn, u64) -> bool {
    move |i, _| i.op == trapscope::isa::Op::Jalr && i.rd == rd && i.rs1 == rs1
}

fn at_first(s: &Scenario, variant: &str, func: &str) -> Machine<Stats> {
    let v = s.variant(variant).unwrap();
    let mut m = session::build_machine(s, v, &RunOpts::default()).unwrap();
    let o = m.run(&Until {
        max_insns: Some(1_000_000),
        addrs: vec![v.program.symbol(func).unwrap().addr],
        ..Until::default()
    });
    assert_eq!(o, Outcome::ReachedAddr(m.pc()), "{variant}");
    m
}

#[derive(Debug, PartialEq)]
enum Seen {
    Ret(u64),
    Trap(u64, u64, Priv, Priv),
}

fn seen(m: &Machine<Stats>) -> Vec<Seen> {
    m.observer()
        .stack
        .frames()
        .map(|f| match *f {
            Frame::Call { ret, .. } => Seen::Ret(ret),
            Frame::Trap {
                cause,
                epc,
                from,
                to,
                ..
            } => Seen::Trap(cause, epc, from, to),
        })
        .collect()
}

#[test]
fn at_sys_getppid_the_stack_is_the_chain_the_guest_code_makes() {
    // guest-asm/minikernel: the boot's sret enters user_start with nothing
    // on the stack (an xRET with no trap frame clears it). Then:
    //   user_start: `call main`                   -> frame, ret user_start+
    //   main: `call vector_touch`, which returns  -> balanced
    //   main (warm-up loop): `call syscall`       -> frame, ret main+
    //   syscall: `ecall`                          -> trap frame, cause 8, U->S
    // before seed 003 (handle_exception):
    //   `jr t0` to do_trap_ecall_u: a return that no frame matches, so no
    //   frame for do_trap_ecall_u
    // after it (handle_exception_ras):
    //   `jalr t1` to do_trap_ecall_u              -> frame, ret handle_exception_ras+
    // do_trap_ecall_u: `call syscall_enter_from_user_mode`, which returns,
    //   then `jalr a5` (sys_call_table[173])     -> frame, ret do_trap_ecall_u+
    // Innermost first.
    let s = scenario("ras-trap-entry.toml");
    for variant in ["before", "after"] {
        let m = at_first(&s, variant, "sys_getppid");
        let p = &m.program;
        assert_eq!(m.pc(), p.symbol("sys_getppid").unwrap().addr);
        let ecall = after(p, "syscall", |i, _| i.op == trapscope::isa::Op::Ecall) - 4;
        let mut want = vec![Seen::Ret(after(p, "do_trap_ecall_u", jalr(1, 15)))];
        if variant == "after" {
            want.push(Seen::Ret(after(p, "handle_exception_ras", jalr(1, 6))));
        }
        want.push(Seen::Trap(8, ecall, Priv::U, Priv::S));
        want.push(Seen::Ret(after(p, "main", jal_to(p, "syscall"))));
        want.push(Seen::Ret(after(p, "user_start", jal_to(p, "main"))));
        assert_eq!(seen(&m), want, "{variant}");
        // Before the patch the `jr t0` of this call and do_trap_ecall_u's
        // `ret` into ret_from_exception of each earlier one (there are none:
        // this is the first getppid) match no frame: one so far.
        let stack = &m.observer().stack;
        let want_mismatched = if variant == "before" { 1 } else { 0 };
        assert_eq!(stack.mismatched, want_mismatched, "{variant}");
        // The helper phases: sys_getppid is a phase symbol ("syscall").
        let names = &m.observer().map.names;
        let ph = m.observer().phase_at(m.pc(), Priv::S);
        assert_eq!(names[ph as usize], "syscall");
    }
}

#[test]
fn a_probe_hit_nests_a_trap_in_the_syscall_that_is_still_running() {
    // scenarios/probe-in-lrsc.toml, cmpxchg variant (knob_probe_bench = 1,
    // warm-up 0; knob_ras_friendly_entry keeps its default 0 from
    // kernel.S, the entry before seed 003). guest-asm/minikernel/
    // zalrsc-user.S: atomics_user_start `call atomics_main`; in the timed
    // loop at atomics_timed_loop `call syscall` (nr 246); the `ecall` traps.
    // handle_exception `jr t0` to do_trap_ecall_u (no frame), which
    // `jalr a5` calls sys_cmpxchg_loop, which calls arch_cmpxchg; the probe
    // at cmpxchg_probe_site (between its lr and sc) raises a breakpoint
    // from S to S; handle_exception `jr t0` to do_trap_break (no frame),
    // which calls kprobe_breakpoint_handler. Innermost first:
    let s = scenario("probe-in-lrsc.toml");
    let m = at_first(&s, "cmpxchg", "kprobe_breakpoint_handler");
    let p = &m.program;
    let site = p.symbol("cmpxchg_probe_site").unwrap().addr;
    let ecall = after(p, "syscall", |i, _| i.op == trapscope::isa::Op::Ecall) - 4;
    let want = vec![
        Seen::Ret(after(
            p,
            "do_trap_break",
            jal_to(p, "kprobe_breakpoint_handler"),
        )),
        Seen::Trap(3, site, Priv::S, Priv::S),
        Seen::Ret(after(p, "sys_cmpxchg_loop", jal_to(p, "arch_cmpxchg"))),
        Seen::Ret(after(p, "do_trap_ecall_u", jalr(1, 15))),
        Seen::Trap(8, ecall, Priv::U, Priv::S),
        Seen::Ret(after(p, "atomics_timed_loop", jal_to(p, "syscall"))),
        Seen::Ret(after(p, "atomics_user_start", jal_to(p, "atomics_main"))),
    ];
    assert_eq!(seen(&m), want);
}

#[test]
fn the_old_entry_mismatches_two_returns_per_call_and_the_new_none() {
    // Per getppid, before seed 003: `jr t0` (rs1 = t0, a link register: a
    // return by the hint table) to do_trap_ecall_u, and do_trap_ecall_u's
    // `ret` to ret_from_exception, which `la ra` set by hand: 2. After it,
    // every return goes back to its call: 0. The deepest point is the final
    // sys_exit: main, syscall, trap, sys_exit, sbi_system_reset, the ecall
    // to M = 6 frames, and one more after the patch (do_trap_ecall_u's own
    // frame from `jalr t1`).
    let s = scenario("ras-trap-entry.toml");
    let opts = RunOpts::default();
    let b = session::run_variant(&s, s.variant("before").unwrap(), &opts).unwrap();
    let a = session::run_variant(&s, s.variant("after").unwrap(), &opts).unwrap();
    assert_eq!(b.call_stack.mismatched_returns_per_iteration, 2.0);
    assert_eq!(a.call_stack.mismatched_returns_per_iteration, 0.0);
    assert_eq!(a.call_stack.mismatched_returns, 0);
    assert_eq!(b.call_stack.max_depth, 6);
    assert_eq!(a.call_stack.max_depth, 7);
    assert_eq!(b.call_stack.dropped_frames, 0);
}

#[test]
fn run_json_carries_the_call_stack_figures() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenarios/ras-trap-entry.toml", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for v in j["variants"].as_array().unwrap() {
        let c = &v["call_stack"];
        for k in [
            "max_depth",
            "mismatched_returns",
            "mismatched_returns_per_iteration",
            "dropped_frames",
        ] {
            assert!(c.get(k).is_some(), "call_stack lacks {k}: {c}");
        }
    }
}

/// The stack's whole history (digest), figures and final frames, with the
/// instructions and cycles per phase it decides.
fn fingerprint(s: &Scenario, v: &trapscope::scenario::Variant, step: bool) -> String {
    let opts = RunOpts {
        core: s.cores.first().cloned(),
        ..RunOpts::default()
    };
    let mut m = session::build_machine(s, v, &opts).unwrap();
    if step {
        while m.executed() < s.budget && m.step() == Outcome::Stepped {}
    } else {
        session::run_to(&mut m, s.budget);
    }
    let o = m.observer();
    let k = &o.stack;
    format!(
        "{:#x} {} {} {} {:?} {:?} {:?} {:?}",
        k.digest,
        k.max_depth,
        k.mismatched,
        k.dropped,
        k.frames().collect::<Vec<_>>(),
        o.now.phase,
        o.now.cycles,
        o.window().mismatched_returns,
    )
}

#[test]
fn block_mode_and_single_step_keep_the_same_stack_on_every_scenario() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let s = Scenario::load(&path).unwrap();
        for v in &s.variants {
            let block = fingerprint(&s, v, false);
            let step = fingerprint(&s, v, true);
            assert_eq!(block, step, "{} {}", path.display(), v.name);
            n += 1;
        }
    }
    assert!(n >= 22, "every variant of every scenario ({n})");
}
