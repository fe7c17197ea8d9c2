//! Guests that would run forever without progress end at once, with one
//! line and exit 125: trap loops (guest-asm/bad/trap_loop_mtvec.S,
//! pmp_lockout.S, vector_overwrite.S) and jumps to themselves that no
//! interrupt can end (spin.S, spin_irq.S); and every trap delivery counts
//! against the instruction budget.

use std::path::Path;
use std::process::Command;
use std::rc::Rc;
use std::time::{Duration, Instant};

use trapscope::machine::{Machine, NoObserver, Outcome, Program, Until};
use trapscope::trace::GuestFault;

/// Strict segments, and code written over, loaded without flags or run at
/// a virtual alias.
mod memory;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn elf(args: &[&str]) -> (Option<i32>, String, Duration) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .arg("elf")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        t.elapsed(),
    )
}

fn machine(rel: &str) -> Machine<NoObserver> {
    let p = Rc::new(Program::load(&root().join(rel)).unwrap());
    let mut m = Machine::new(p, NoObserver).unwrap();
    m.enable_vector(128);
    m
}

/// Single-steps until something other than a completed step, at most `max` times.
fn step_until_stop(m: &mut Machine<NoObserver>, max: u64) -> Outcome {
    for _ in 0..max {
        match m.step() {
            Outcome::Stepped => {}
            o => return o,
        }
    }
    Outcome::Stepped
}

/// (guest, cause name, cause number, handler symbol): each loops at its handler.
const LOOPS: [(&str, &str, u64, &str); 3] = [
    // mtvec = bad_handler, a `.word 0`: illegal instruction (cause 2).
    ("trap_loop_mtvec", "illegal instruction", 2, "bad_handler"),
    // A locked R-only PMP entry over the firmware: fetching the handler
    // is an instruction access fault (cause 1).
    ("pmp_lockout", "instruction access fault", 1, "handler"),
    // vse8.v writes zeros over the handler: illegal instruction.
    ("vector_overwrite", "illegal instruction", 2, "handler"),
];

#[test]
fn trap_loops_end_at_once_with_one_line() {
    for (g, name, _, sym) in LOOPS {
        let path = format!("assets/guest/bad/{g}.elf");
        let (code, err, took) = elf(&[&path]);
        assert_eq!(code, Some(125), "{g}: {err}");
        assert!(took < Duration::from_secs(3), "{g} took {took:?}");
        assert_eq!(err.lines().count(), 1, "{g}: {err}");
        assert!(err.starts_with("trapscope: trap loop: "), "{g}: {err}");
        assert!(err.contains(&format!("{name} at 0x")), "{g}: {err}");
        assert!(err.contains(&format!("({sym})")), "{g}: {err}");
        assert!(err.contains("64 times"), "{g}: {err}");
        assert!(err.contains("mtvec points at it"), "{g}: {err}");
        // The loop's own trap is the last one: not said twice.
        assert!(!err.contains("last trap"), "{g}: {err}");
    }
}

#[test]
fn every_trap_delivery_counts_against_the_budget() {
    // Each guest takes its first trap within 10 instructions and then only
    // traps: before this, `--budget 10` never ended.
    for (g, _, _, _) in LOOPS {
        let path = format!("assets/guest/bad/{g}.elf");
        let (code, err, took) = elf(&[&path, "--budget", "10"]);
        assert_eq!(code, Some(124), "{g}: {err}");
        assert!(took < Duration::from_secs(3), "{g} took {took:?}");
        assert!(err.contains("instruction budget of 10"), "{g}: {err}");
    }
}

#[test]
fn trap_loops_are_found_when_single_stepping_too() {
    for (g, _, cause, sym) in LOOPS {
        let mut block = machine(&format!("assets/guest/bad/{g}.elf"));
        let ob = block.run(&Until::default());
        let mut step = machine(&format!("assets/guest/bad/{g}.elf"));
        let os = step_until_stop(&mut step, 10_000);
        let handler = step.program.symbol(sym).unwrap().addr;
        match &os {
            Outcome::Fault(GuestFault::TrapLoop {
                cause: c,
                pc,
                times,
                ..
            }) => {
                assert_eq!((*c, *pc, *times), (cause, handler, 64), "{g}");
            }
            o => panic!("{g}: stepping gave {o:?}"),
        }
        assert_eq!(ob, os, "{g}: block mode and stepping differ");
        assert_eq!(block.executed(), step.executed(), "{g}");
    }
}

/// spin_irq.S's `cfg`: mie, mideleg, mstatus bits to set, mode (0 M, 1 S),
/// mtimecmp (0: the timer stays unarmed).
fn spin_irq(cfg: [u64; 5]) -> (Machine<NoObserver>, u64) {
    let mut m = machine("assets/guest/bad/spin_irq.elf");
    let at = m.program.symbol("cfg").unwrap().addr;
    for (i, v) in cfg.into_iter().enumerate() {
        assert!(m.write_u64(at + 8 * i as u64, v));
    }
    let spin = m.program.symbol("spin").unwrap().addr;
    (m, spin)
}

const MIE: u64 = 1 << 3;
const SIE: u64 = 1 << 1;
const MTIE: u64 = 1 << 7;
const STIE: u64 = 1 << 5;

#[test]
fn a_spin_is_endless_only_if_no_enabled_interrupt_could_be_taken() {
    // (cfg, can an interrupt end it?) per priv spec §3.1.6.1 / §3.1.9: an
    // interrupt must be takeable in the spin's mode and able to become
    // pending. In a `j .` loop nothing writes mip or the CLINT, so only an
    // armed timer (mtimecmp far away: it does not fire within the test) or a
    // bit already pending can; S timer and software bits are written by
    // software only (no Sstc), so they cannot. "Far away" is past the 2^40
    // ticks a spin is skipped over (tests/machine/spin_timer.rs: a nearer deadline
    // is idled to), so the spin goes on to the budget.
    const ARMED: u64 = 1 << 41;
    let cases: [([u64; 5], bool); 9] = [
        ([MTIE, 0, MIE, 0, ARMED], true), // M timer armed, M with MIE=1
        ([MTIE, 0, MIE, 0, 0], false),    // ... the timer never armed
        ([MTIE, 0, 0, 0, ARMED], false),  // ... MIE=0 in M
        ([0, 0, MIE, 0, ARMED], false),   // nothing in mie
        ([STIE, STIE, MIE | SIE, 0, ARMED], false), // delegated to S, hart in M: never
        ([STIE, STIE, 0, 1, ARMED], false), // S timer in S with SIE=0
        ([STIE, STIE, SIE, 1, ARMED], false), // ... SIE=1, but STIP is software's
        ([MTIE, 0, 0, 1, ARMED], true),   // M interrupt from S: MIE does not matter
        ([MTIE, STIE, 0, 1, 0], false),   // ... but the timer is not armed
    ];
    for (cfg, wakes) in cases {
        for single in [false, true] {
            let (mut m, spin) = spin_irq(cfg);
            let o = if single {
                step_until_stop(&mut m, 200)
            } else {
                m.run(&Until {
                    max_insns: Some(200),
                    ..Until::default()
                })
            };
            if wakes {
                let ok = if single {
                    o == Outcome::Stepped
                } else {
                    o == Outcome::Budget
                };
                assert!(ok, "{cfg:x?} single={single}: {o:?}");
                assert_eq!(m.pc(), spin);
            } else {
                let Outcome::Fault(GuestFault::Spin { pc, place }) = &o else {
                    panic!("{cfg:x?} single={single}: {o:?}");
                };
                assert_eq!((*pc, place.as_str()), (spin, "spin"));
                // It ran once, then was reported.
                assert!(m.executed() < 30, "{}", m.executed());
            }
        }
    }
}

#[test]
fn a_jump_to_itself_is_reported_at_once() {
    // bad/spin.S: `_start: j _start` at reset (mie = 0).
    let (code, err, took) = elf(&["assets/guest/bad/spin.elf"]);
    assert_eq!(code, Some(125), "{err}");
    assert!(took < Duration::from_secs(3));
    assert_eq!(
        err.trim_end(),
        "trapscope: spins forever at 0x80000000 (_start): a jump to itself, and no enabled interrupt could end it"
    );
    // Stepping: the first execution of the jump is reported, both modes alike.
    let mut m = machine("assets/guest/bad/spin.elf");
    let o = m.step();
    assert!(
        matches!(
            o,
            Outcome::Fault(GuestFault::Spin {
                pc: 0x8000_0000,
                ..
            })
        ),
        "{o:?}"
    );
    assert_eq!(m.executed(), 1);
    let mut b = machine("assets/guest/bad/spin.elf");
    assert_eq!(b.run(&Until::default()), o);
    assert_eq!(b.executed(), 1);
}

/// Records every retired pc and every other event with its stamp.
#[derive(Default)]
struct Record {
    pcs: Vec<u64>,
    events: Vec<(u64, trapscope::trace::Event)>,
}

impl trapscope::machine::Observer for Record {
    type BlockData = ();
    fn build(&mut self, _: &[trapscope::machine::DecodedInsn]) {}
    fn retired(&mut self, r: &trapscope::machine::Retire<'_, ()>) -> u32 {
        self.pcs.extend(r.retired().iter().map(|d| d.pc));
        0
    }
    fn event(&mut self, at: u64, ev: &trapscope::trace::Event) {
        if !matches!(ev, trapscope::trace::Event::Retired { .. }) {
            self.events.push((at, ev.clone()));
        }
    }
}

fn recorded(rel: &str, single: bool) -> (Outcome, u64, Record) {
    let p = Rc::new(Program::load(&root().join(rel)).unwrap());
    let mut m = Machine::new(p, Record::default()).unwrap();
    m.enable_vector(128);
    let o = if single {
        let mut o = Outcome::Stepped;
        for _ in 0..1_000_000 {
            o = m.step();
            if o != Outcome::Stepped {
                break;
            }
        }
        o
    } else {
        m.run(&Until {
            max_insns: Some(1_000_000),
            ..Until::default()
        })
    };
    let n = m.executed();
    (o, n, std::mem::take(m.observer_mut()))
}

/// Block mode and single-stepping give the same outcome, instructions and
/// events on `rel`; returns the outcome.
pub fn same_in_both_modes(rel: &str) -> Outcome {
    let (ob, nb, rb) = recorded(rel, false);
    let (os, ns, rs) = recorded(rel, true);
    assert_eq!(ob, os, "{rel}: outcomes");
    assert_eq!(nb, ns, "{rel}: executed");
    assert_eq!(rb.pcs, rs.pcs, "{rel}: retired pcs");
    assert_eq!(rb.events, rs.events, "{rel}: events");
    ob
}

#[test]
fn faulting_guests_behave_the_same_in_block_mode_and_single_step() {
    for g in [
        "bad/trap_loop_mtvec",
        "bad/pmp_lockout",
        "bad/vector_overwrite",
        "bad/spin",
        "bad/jump_unmapped",
        "bad/paged_stvec",
    ] {
        let o = same_in_both_modes(&format!("assets/guest/{g}.elf"));
        assert!(matches!(o, Outcome::Fault(_)), "{g}: {o:?}");
    }
    for t in [
        "access_fault",
        "sv39",
        "vector_fault",
        "smc",
        "smc_mprv",
        "smc_data",
        "smc_paged",
    ] {
        let o = same_in_both_modes(&format!("assets/guest/tests/{t}.elf"));
        assert_eq!(o, Outcome::Exited(0), "{t}");
    }
}

#[test]
fn a_raw_run_sees_no_trap_loop_in_a_guest_that_makes_progress() {
    // The minikernel's user loop makes the same ecall at the same pc again
    // and again; a raw run (`bench`) counts no instructions, so it must not
    // take that for a storm.
    let p = Rc::new(Program::load(&root().join("assets/guest/minikernel.elf")).unwrap());
    let mut m = Machine::new_raw(p, NoObserver).unwrap();
    m.enable_vector(128);
    let o = m.run(&Until::default());
    assert_eq!(o, Outcome::Exited(0));
}

#[test]
fn a_handler_that_paging_leaves_unmapped_is_a_trap_loop() {
    // bad/paged_stvec.S: Sv39 on, stvec = 0x4000_0000 (no PTE), an illegal
    // instruction in S: each delivery faults fetching the handler (cause
    // 12, delegated to S), at the handler's address.
    let (code, err, took) = elf(&["assets/guest/bad/paged_stvec.elf"]);
    assert_eq!(code, Some(125), "{err}");
    assert!(took < Duration::from_secs(3));
    assert!(
        err.starts_with(
            "trapscope: trap loop: instruction page fault at 0x40000000, 64 times in a row"
        ),
        "{err}"
    );
    assert!(err.contains("stvec points at it"), "{err}");
}
