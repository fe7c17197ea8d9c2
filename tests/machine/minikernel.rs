//! The ras-trap-entry scenario end to end: the minikernel's properties (the
//! same syscalls in both variants, user registers kept, block mode and
//! stepping alike) and the instruction counts hand-counted in guest-asm/minikernel/kernel.S.

use crate::common;

use std::path::Path;
use std::rc::Rc;

use trapscope::machine::{Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};
use trapscope::trace::{Event, EventKind, Stamped};

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"))
        .unwrap()
}

fn run(s: &Scenario, variant: &str, opts: RunOpts) -> session::VariantRun {
    session::run_variant(s, s.variant(variant).unwrap(), &opts).unwrap()
}

#[test]
fn per_call_instruction_counts_match_the_hand_count() {
    // kernel.S "Hand count per getppid call": user 16, entry 64/63,
    // syscall 58, exit 61; 199 before, 198 after.
    let s = scenario();
    for (v, entry, total) in [("before", 64.0, 199.0), ("after", 63.0, 198.0)] {
        let r = run(&s, v, RunOpts::default());
        assert_eq!(r.exit_code, Some(0), "{v}: {:?}", r.error);
        assert_eq!(r.iterations, 100);
        let p = &r.insns_per_iteration;
        assert_eq!(p["user"], 16.0, "{v}");
        assert_eq!(p["entry"], entry, "{v}");
        assert_eq!(p["syscall"], 58.0, "{v}");
        assert_eq!(p["exit"], 61.0, "{v}");
        assert_eq!(p["total"], total, "{v}");
        assert_eq!(r.traps_per_iteration, 1.0);
    }
}

#[test]
fn syscall_work_knob_takes_the_slow_paths() {
    // kernel.S: with knob_syscall_work = SYSCALL_WORK_SYSCALL_TRACE (4),
    // the task traced by init, every call takes the slow paths and makes
    // both ptrace reports (entry-side cost only, up to the stop): syscall
    // 58 + 35 + 398 = 491 and exit 61 + 36 + 394 = 491 per call (the
    // counts are itemised in kernel.S and tests/kernel/work_trace.rs).
    let s = scenario();
    let r = run(
        &s,
        "before",
        RunOpts {
            set: vec![("syscall_work".into(), 4)],
            ..RunOpts::default()
        },
    );
    assert_eq!(r.exit_code, Some(0));
    assert_eq!(r.insns_per_iteration["syscall"], 491.0);
    assert_eq!(r.insns_per_iteration["exit"], 491.0);
}

#[test]
fn both_variants_make_the_same_syscalls() {
    let s = scenario();
    let b = run(&s, "before", RunOpts::default());
    let a = run(&s, "after", RunOpts::default());
    assert_eq!(b.iterations, a.iterations);
    assert_eq!(b.traps, a.traps);
    assert_eq!(b.events, a.events);
    // 100 timed + 10 warm-up getppid, the exit syscall, and the firmware's
    // SBI reset call: 112 traps.
    assert_eq!(b.traps, 112);
}

/// Events with every address replaced by its symbol, and the two entry
/// symbols folded into one, so the variants can be compared.
fn normalised(s: &Scenario, variant: &str) -> Vec<String> {
    let v = s.variant(variant).unwrap();
    let r = run(
        s,
        variant,
        RunOpts {
            log_events: 100_000,
            ..RunOpts::default()
        },
    );
    let p = &v.program;
    let sym = |a: u64| {
        let d = p.describe(a);
        d.replace("handle_exception_ras", "handle_exception")
    };
    let in_entry = |a: u64| sym(a).starts_with("handle_exception");
    r.log
        .iter()
        .filter_map(|Stamped { event, .. }| match event {
            Event::Retired { .. } => None,
            Event::TrapEnter {
                cause,
                from,
                to,
                epc,
                tval,
                handler,
            } => Some(format!(
                "trap {cause} {from:?}->{to:?} {} {tval:#x} {}",
                sym(*epc),
                sym(*handler)
            )),
            Event::TrapReturn {
                via,
                from,
                to,
                pc,
                target,
            } => Some(format!(
                "ret {via:?} {from:?}->{to:?} {} {}",
                sym(*pc),
                sym(*target)
            )),
            Event::CsrWrite { pc, .. } if in_entry(*pc) => {
                Some(format!("csr in entry {}", event.kind().name()))
            }
            // FS goes Off at the entry's csrrc, in either copy of it.
            Event::FsChange { pc, from, to, .. } if in_entry(*pc) => {
                Some(format!("fs in entry {from}->{to}"))
            }
            Event::CsrWrite { pc, csr, new, .. } if *csr == 0x105 => {
                Some(format!("stvec {} {}", sym(*pc), sym(*new)))
            }
            e => Some(
                format!("{e:?}")
                    .split(" at ")
                    .next()
                    .unwrap_or_default()
                    .to_string()
                    + &match e {
                        Event::CsrWrite { pc, .. } | Event::PrivChange { pc, .. } => sym(*pc),
                        _ => String::new(),
                    },
            ),
        })
        .collect()
}

#[test]
fn event_logs_differ_only_inside_the_entry_code() {
    let s = scenario();
    let b = normalised(&s, "before");
    let a = normalised(&s, "after");
    assert_eq!(b.len(), a.len());
    for (x, y) in b.iter().zip(&a) {
        assert_eq!(x, y);
    }
}

#[test]
fn user_registers_survive_every_syscall() {
    // The syscall ABI preserves every register but a0, which holds the result.
    let s = scenario();
    for v in ["before", "after"] {
        let opts = RunOpts {
            log_events: 8,
            ..RunOpts::default()
        };
        let checked = common::getppid::registers_survive_getppid(&s, v, &opts, v);
        assert_eq!(checked, 110, "{v}: 10 warm-up + 100 timed getppid calls");
    }
}

#[test]
fn block_mode_and_single_step_agree() {
    let s = scenario();
    for v in ["before", "after"] {
        let opts = RunOpts {
            log_events: 100_000,
            ..RunOpts::default()
        };
        let block = run(&s, v, opts.clone());
        let step = run(
            &s,
            v,
            RunOpts {
                single_step: true,
                ..opts
            },
        );
        assert_eq!(block.instructions, step.instructions);
        assert_eq!(block.phases, step.phases);
        assert_eq!(block.insns_per_iteration, step.insns_per_iteration);
        let semantic = |r: &session::VariantRun| -> Vec<Stamped> {
            r.log
                .iter()
                .filter(|e| e.event.kind() != EventKind::Retired)
                .cloned()
                .collect()
        };
        assert_eq!(semantic(&block), semantic(&step), "{v}");
    }
}

#[test]
fn stepping_back_re_executes_to_the_same_state() {
    let s = scenario();
    let v = s.variant("before").unwrap();
    let opts = RunOpts::default();
    let mut m = session::build_machine(&s, v, &opts).unwrap();
    let mut seen = Vec::new();
    // Through boot, into the benchmark and several syscalls.
    for _ in 0..3_000 {
        assert_eq!(m.step(), Outcome::Stepped);
        seen.push((m.executed(), m.pc(), m.priv_(), m.gprs(), m.csr(0x100)));
    }
    for &i in &[0usize, 1, 17, 640, 1_234, 2_999] {
        let (n, pc, p, regs, sstatus) = seen[i];
        let (mut back, o) = session::rewind(&s, v, &opts, n).unwrap();
        assert_eq!(o, Outcome::Stepped);
        assert_eq!(back.executed(), n);
        assert_eq!(back.pc(), pc, "pc after {n} instructions");
        assert_eq!(back.priv_(), p);
        assert_eq!(back.gprs(), regs);
        assert_eq!(back.csr(0x100), sstatus);
    }
}

#[test]
fn run_until_a_symbol_stops_before_it_and_resumes_past_it() {
    let s = scenario();
    let v = s.variant("after").unwrap();
    let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
    let a = v.program.symbol("sys_getppid").unwrap().addr;
    let until = Until {
        addrs: vec![a],
        max_insns: Some(1_000_000),
        ..Until::default()
    };
    let mut last = None;
    for _ in 0..4 {
        assert_eq!(m.run(&until), Outcome::ReachedAddr(a));
        assert_eq!(m.pc(), a);
        if let Some(prev) = last {
            // One whole getppid round trip between two entries: 198
            // instructions after the patch (kernel.S hand count; the warm-up
            // loop has the same 5-instruction body as the timed one).
            assert_eq!(m.executed() - prev, 198);
        }
        last = Some(m.executed());
    }
}

#[test]
fn a_stop_address_added_after_code_ran_still_stops() {
    // sys_getppid has run (and been translated) long before we ask to stop there.
    let s = scenario();
    let v = s.variant("before").unwrap();
    let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
    // Block mode only, so no mode switch drops the translations in between.
    let o = m.run(&Until {
        max_insns: Some(5_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::Budget);
    let a = v.program.symbol("sys_getppid").unwrap().addr;
    let until = Until {
        addrs: vec![a],
        max_insns: Some(1_000),
        ..Until::default()
    };
    assert_eq!(m.run(&until), Outcome::ReachedAddr(a));
    assert_eq!(m.pc(), a);
}

#[test]
fn stepping_a_jump_to_itself_counts_every_execution() {
    // bad/spin_irq.S ends in `spin: j spin` (the pc never changes). With the
    // M timer enabled and armed far away (mie.MTIE, mstatus.MIE in M,
    // mtimecmp = 2^41, past the 2^40 ticks a spin is skipped over:
    // tests/machine/spin_timer.rs) an interrupt could end it, so it is not reported
    // as endless and each execution counts.
    let p = Rc::new(
        trapscope::machine::Program::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/bad/spin_irq.elf"),
        )
        .unwrap(),
    );
    let (cfg, spin) = (
        p.symbol("cfg").unwrap().addr,
        p.symbol("spin").unwrap().addr,
    );
    let mut m = trapscope::machine::Machine::new(p, trapscope::machine::NoObserver).unwrap();
    assert!(m.write_u64(cfg, 1 << 7) && m.write_u64(cfg + 16, 1 << 3));
    assert!(m.write_u64(cfg + 32, 1 << 41));
    while m.pc() != spin {
        assert_eq!(m.step(), Outcome::Stepped);
    }
    let base = m.executed();
    for n in 1..=10 {
        assert_eq!(m.step(), Outcome::Stepped);
        assert_eq!(m.executed(), base + n);
        assert_eq!(m.pc(), spin);
    }
    assert_eq!(session::run_to(&mut m, base + 25), Outcome::Stepped);
    assert_eq!(m.executed(), base + 25);
}

#[test]
fn a_budget_stop_is_the_same_instruction_in_block_and_step_mode() {
    let s = scenario();
    for budget in [1_000, 5_000] {
        let opts = |step| RunOpts {
            budget: Some(budget),
            single_step: step,
            ..RunOpts::default()
        };
        let b = run(&s, "before", opts(false));
        let st = run(&s, "before", opts(true));
        assert_eq!(b.outcome, "budget");
        assert_eq!(b.instructions, budget);
        assert_eq!(st.instructions, budget);
        assert_eq!(b.phases, st.phases);
    }
}
