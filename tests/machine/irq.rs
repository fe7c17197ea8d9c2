//! Interrupts (docs/decisions.md D10): the timer scenario's expectations from the RAS
//! hint table, delivery identical in block mode and single-step, the
//! platform devices seen from guests, and wfi's faults.

use std::path::Path;
use std::process::Command;
use std::rc::Rc;

use trapscope::cost::Profile;
use trapscope::machine::{DecodedInsn, Machine, Observer, Outcome, Program, Retire, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, VariantRun};
use trapscope::trace::{Event, EventKind, Priv};

const IRQ: u64 = 1 << 63;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scenario() -> Scenario {
    Scenario::load(&root().join("scenarios/irq-trap-entry.toml")).unwrap()
}

fn run(s: &Scenario, v: &str, core: Option<&str>, step: bool, set: &[(&str, u64)]) -> VariantRun {
    let opts = RunOpts {
        core: core.map(|c| Rc::new(Profile::find(c).unwrap())),
        single_step: step,
        log_events: 200_000,
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..RunOpts::default()
    };
    session::run_variant(s, s.variant(v).unwrap(), &opts).unwrap()
}

fn traps(r: &VariantRun) -> Vec<(u64, Priv, Priv, u64, u64)> {
    r.log
        .iter()
        .filter_map(|e| match e.event {
            Event::TrapEnter {
                cause,
                from,
                to,
                epc,
                handler,
                ..
            } => Some((cause, from, to, epc, handler)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_tick_lands_in_the_user_loop_as_mti_then_delegated_sti() {
    let s = scenario();
    let p = &s.variant("before").unwrap().program;
    let sym = |n: &str| p.symbol(n).unwrap().addr;
    let spin = sym("irq_spin");
    for core in ["u74", "c910"] {
        for (v, entry) in [
            ("before", "handle_exception"),
            ("after", "handle_exception_ras"),
        ] {
            let r = run(&s, v, Some(core), false, &[]);
            assert_eq!(r.exit_code, Some(0), "{core} {v}");
            let t: Vec<_> = traps(&r).into_iter().filter(|t| t.0 & IRQ != 0).collect();
            assert_eq!(t.len(), 2, "{core} {v}: {t:?}");
            // The M timer (7, never delegable) goes to the firmware from U;
            // its mret comes back to the same instruction, where the S timer
            // (5) the firmware raised is taken, delegated by mideleg.
            let (c, from, to, epc, h) = t[0];
            assert_eq!(
                (c, from, to, h),
                (IRQ | 7, Priv::U, Priv::M, sym("fw_trap_entry"))
            );
            assert!(
                epc == spin || epc == spin + 2 || epc == spin + 4,
                "{epc:#x}"
            );
            assert_eq!(
                t[1],
                (IRQ | 5, Priv::U, Priv::S, epc, sym(entry)),
                "{core} {v}"
            );
            assert_eq!(r.interrupts["s_timer"], 1);
            assert_eq!(r.interrupts["m_timer"], 1);
        }
    }
}

#[test]
fn ras_on_the_interrupt_path_follows_the_hint_table() {
    // Hand count (scenarios/irq-trap-entry.toml, guest-asm/minikernel/
    // timer.S): before, do_irq's `ret` pops irq_work_done, which no call
    // in the kernel pushed (`tail do_irq` has no hint), and irq_work's `ret`
    // after sret finds the entry below it: 2 mispredicts, 1 in user code.
    // After, `call do_irq` pushes what its `ret` pops: none.
    let s = scenario();
    for core in ["u74", "c910"] {
        let b = run(&s, "before", Some(core), false, &[]).estimate.unwrap();
        let a = run(&s, "after", Some(core), false, &[]).estimate.unwrap();
        assert_eq!(b.events["ras_mispredicts"], 2.0, "{core}");
        assert_eq!(b.events["user_ras_mispredicts"], 1.0, "{core}");
        assert_eq!(a.events["ras_mispredicts"], 0.0, "{core}");
        assert_eq!(a.events["user_ras_mispredicts"], 0.0, "{core}");
        // M timer, S timer, and do_irq's set_timer ecall.
        assert_eq!(b.events["traps"], 3.0, "{core}");
    }
}

fn semantic(r: &VariantRun) -> Vec<trapscope::trace::Stamped> {
    r.log
        .iter()
        .filter(|e| e.event.kind() != EventKind::Retired)
        .cloned()
        .collect()
}

#[test]
fn block_mode_equals_single_step_with_interrupts() {
    let s = scenario();
    // (Short runs: a single-stepped run logs every instruction, and the log
    // is bounded.) One tick; many short ticks (stops inside blocks); and ticks
    // landing anywhere in the getppid benchmark, kernel and firmware
    // included (irq_bench = 0 runs user.S with the timer on).
    let cases: [&[(&str, u64)]; 4] = [
        &[("timer_period", 20), ("spins", 20_000)],
        &[("timer_irqs", 40), ("timer_period", 7), ("spins", 20_000)],
        &[("irq_bench", 0), ("timer_irqs", 30), ("timer_period", 11)],
        // A tick every few instructions' worth of time: stops at more
        // addresses than the machine keeps hooks for.
        &[("irq_bench", 0), ("timer_irqs", 500), ("timer_period", 2)],
    ];
    for core in [Some("u74"), Some("c910"), Some("generic"), None] {
        for set in cases {
            for v in ["before", "after"] {
                let block = run(&s, v, core, false, set);
                let step = run(&s, v, core, true, set);
                let name = format!("{core:?} {v} {set:?}");
                assert_eq!(block.exit_code, Some(0), "{name}");
                assert_eq!(block.instructions, step.instructions, "{name}");
                let (sb, ss) = (semantic(&block), semantic(&step));
                if let Some(i) = (0..sb.len().min(ss.len())).find(|&i| sb[i] != ss[i]) {
                    panic!("{name}: event {i}: block {:?} step {:?}", sb[i], ss[i]);
                }
                assert_eq!(sb.len(), ss.len(), "{name}");
                assert_eq!(block.interrupts, step.interrupts, "{name}");
                if let (Some(eb), Some(es)) = (&block.estimate, &step.estimate) {
                    assert_eq!(eb.cycles_total, es.cycles_total, "{name}");
                    assert_eq!(eb.breakdown, es.breakdown, "{name}");
                }
                // One tick, or several before the program ends.
                let n = block.interrupts["s_timer"];
                if set.iter().any(|k| k.0 == "timer_irqs") {
                    assert!(n >= 2, "{name}: {n}");
                } else {
                    assert_eq!(n, 1, "{name}");
                }
            }
        }
    }
}

#[test]
fn run_events_shows_the_interrupt() {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args([
            "run",
            "scenarios/irq-trap-entry.toml",
            "--events",
            "--core",
            "u74",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("supervisor timer interrupt (interrupt 5) U->S"),
        "{text}"
    );
    assert!(text.contains("machine timer interrupt (interrupt 7) U->M"));
    assert!(text.contains("interrupts    m_timer 1, s_timer 1"));
}

/// Keeps every event but retired blocks.
#[derive(Default)]
struct Events(Vec<Event>);

impl Observer for Events {
    type BlockData = ();
    fn build(&mut self, _: &[DecodedInsn]) {}
    fn retired(&mut self, _: &Retire<'_, ()>) -> u32 {
        0
    }
    fn event(&mut self, _: u64, ev: &Event) {
        if ev.kind() != EventKind::Retired {
            self.0.push(ev.clone());
        }
    }
}

fn machine(rel: &str) -> Machine<Events> {
    let p = Rc::new(Program::load(&root().join(rel)).unwrap());
    Machine::new(p, Events::default()).unwrap()
}

#[test]
fn the_interrupt_self_test_is_the_same_stepped() {
    let mut b = machine("assets/guest/tests/interrupts.elf");
    let ob = b.run(&Until {
        max_insns: Some(1_000_000),
        ..Until::default()
    });
    assert_eq!(ob, Outcome::Exited(0));
    let mut s = machine("assets/guest/tests/interrupts.elf");
    let mut os = Outcome::Stepped;
    while os == Outcome::Stepped && s.executed() < 1_000_000 {
        os = s.step();
    }
    assert_eq!(os, Outcome::Exited(0));
    assert_eq!(b.executed(), s.executed());
    assert_eq!(b.observer().0, s.observer().0);
    // Vectored entries: MSI at BASE + 12, MTI at BASE + 28, SSI at BASE + 4.
    let base = b.program.symbol("irq_vtab").unwrap().addr;
    let vectored: Vec<(u64, u64)> = b
        .observer()
        .0
        .iter()
        .filter_map(|e| match e {
            Event::TrapEnter { cause, handler, .. } if (base..base + 64).contains(handler) => {
                Some((*cause & !IRQ, handler - base))
            }
            _ => None,
        })
        .collect();
    assert_eq!(vectored, [(3, 12), (7, 28), (1, 4)]);
}

fn elf(rel: &str) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(["elf", rel])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn wfi_that_nothing_can_wake_is_a_guest_fault() {
    let (code, _, err) = elf("assets/guest/bad/wfi_forever.elf");
    assert_eq!(code, Some(125), "{err}");
    assert!(err.contains("waits forever at pc 0x80000004"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_uart_output_is_printed_and_the_test_device_ends_the_run() {
    let (code, out, err) = elf("assets/guest/tests/platform.elf");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("platform ok\n"), "{out}");
    // 0x3333 | 7 << 16: a failure with code 7.
    let (code, _, err) = elf("assets/guest/bad/poweroff_fail.elf");
    assert_eq!(code, Some(7), "{err}");
}

#[test]
fn a_segment_over_a_device_is_refused_at_load() {
    let mut p = Program::load(&root().join("assets/guest/tests/platform.elf")).unwrap();
    p.segments.push(trapscope::program::Segment {
        vaddr: 0x1000_0000,
        memsz: 0x10,
        data: vec![0; 0x10],
        exec: false,
        write: true,
        index: 9,
    });
    let err = Machine::new(Rc::new(p), Events::default())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("overlaps the UART at 0x10000000"), "{err}");
}

#[test]
fn run_and_the_tui_show_the_uart_output() {
    let path = root().join("tests/fixtures/uart.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(["run", "tests/fixtures/uart.toml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("  uart output\n    | platform ok\n"),
        "{text}"
    );

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use trapscope::tui::state::{AppState, Timing};
    use trapscope::tui::update::Action;
    let s = Scenario::load(&path).unwrap();
    let mut app = AppState::new(Rc::new(s), None).unwrap();
    app.update(Action::Continue);
    app.timing = Timing::default();
    let mut t = Terminal::new(TestBackend::new(160, 45)).unwrap();
    t.draw(|f| trapscope::tui::render::draw(f, &app)).unwrap();
    let buf = t.backend().buffer().clone();
    let screen: String = (0..45)
        .map(|y| (0..160).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    assert!(screen.contains("uart › platform ok"), "{screen}");
}

#[test]
fn an_interrupt_is_possible_only_when_enabled_and_armed() {
    // At reset mie is 0: nothing can break a spin. In the irq scenario,
    // once the kernel armed the timer (MTIE by set_timer), the user loop
    // can be interrupted.
    let mut m = machine("assets/guest/bad/spin.elf");
    assert!(!m.interrupt_possible());
    let s = scenario();
    let v = s.variant("before").unwrap();
    let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
    let spin = v.program.symbol("irq_spin").unwrap().addr;
    let o = m.run(&Until {
        addrs: vec![spin],
        max_insns: Some(10_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::ReachedAddr(spin));
    assert!(m.interrupt_possible());
}

#[test]
fn wfi_idles_the_model_clock_the_same_stepped() {
    // guest-asm/tests/interrupts.S waits three times with wfi for a timer
    // deadline (checks 1, 8 and 35's part when TW works) and checks from
    // inside that mtime reached it: under a core model the idle cycles are
    // charged, in block mode and stepped alike.
    let s = Scenario::load(&root().join("tests/fixtures/interrupts.toml")).unwrap();
    for core in ["u74", "c910", "generic"] {
        let b = run(&s, "only", Some(core), false, &[]);
        let st = run(&s, "only", Some(core), true, &[]);
        assert_eq!(b.exit_code, Some(0), "{core}: {:?}", b.error);
        assert_eq!(semantic(&b), semantic(&st), "{core}");
        let (eb, es) = (b.estimate.unwrap(), st.estimate.unwrap());
        assert_eq!(eb.cycles_total, es.cycles_total, "{core}");
        assert_eq!(eb.breakdown, es.breakdown, "{core}");
        // At least two waits of 200 and 300 ticks, less the few cycles
        // between arming and the wfi.
        let p = Profile::find(core).unwrap();
        let per_tick = p.core.clock_ghz.value * 1e9 / p.core.timebase_hz.value;
        assert!(
            eb.breakdown["idle"] > 400.0 * per_tick,
            "{core}: {:?}",
            eb.breakdown
        );
        assert!(eb.events["idle"] >= 2.0, "{core}");
    }
}

#[test]
fn a_deadline_beyond_any_run_waits_forever() {
    // bad/wfi_far.S: mtimecmp = 2^63, MTIE, `1: wfi; j 1b` (wfi at +0x14:
    // lui, c.li, c.slli, sd, li, csrw). The timer could
    // wake it, but not within 2^40 ticks: a guest fault at once, on a core
    // model or without one, block or stepped.
    let s = Scenario::load(&root().join("tests/fixtures/wfi_far.toml")).unwrap();
    for core in [Some("u74"), None] {
        let b = run(&s, "only", core, false, &[]);
        let st = run(&s, "only", core, true, &[]);
        assert_eq!(b.outcome, "fault", "{core:?}");
        assert!(b.instructions < 10, "{core:?}: {}", b.instructions);
        assert_eq!(semantic(&b), semantic(&st), "{core:?}");
    }
    let (code, _, err) = elf("assets/guest/bad/wfi_far.elf");
    assert_eq!(code, Some(125), "{err}");
    assert!(err.contains("waits forever at pc 0x80000014"), "{err}");
    assert!(err.contains("more than 2^40 ticks away"), "{err}");
}
