//! Hostile guests that trap, rewrite their own code or run emulated
//! instructions every few instructions are cut off with one line long
//! before the default budget (machine/traps/storm.rs; docs/measurements/speed.md), and a
//! plain loop, loads under MPRV and a page table in a device are not. Their
//! timings against the plain loop, and what each event costs against what
//! the rule charges, are `bench`'s. Spaced out to trap just less often than
//! the cut-off, they run on, and what a headless run holds stays bounded
//! (docs/measurements/speed.md: memory bounds).

use crate::common;

use std::rc::Rc;

use trapscope::machine::storm::{EXTRA_PER_WINDOW, TRAP_COST, WINDOW};
use trapscope::machine::{Machine, NoObserver, Outcome, Until};
use trapscope::session::callstack::MAX_DEPTH;
use trapscope::session::guests::{Hostile, hostile, hostile_spaced};
use trapscope::session::stats::Stats;
use trapscope::session::stats::traps::MAX_OPEN;
use trapscope::trace::GuestFault;

/// `trapscope elf`'s default budget.
const BUDGET: u64 = 100_000_000;

fn run(kind: Hostile, budget: u64) -> (Outcome, u64) {
    run_spaced(kind, 0, budget)
}

fn run_spaced(kind: Hostile, pad: u32, budget: u64) -> (Outcome, u64) {
    let mut m = Machine::new(Rc::new(hostile_spaced(kind, pad)), NoObserver).unwrap();
    let o = m.run(&Until {
        max_insns: Some(budget),
        ..Until::default()
    });
    (o, m.executed())
}

#[test]
fn storms_are_cut_off_with_one_line() {
    for kind in Hostile::ALL.into_iter().filter(|k| k.is_storm()) {
        let (o, executed) = run(kind, BUDGET);
        let Outcome::Fault(f @ GuestFault::Storm { .. }) = &o else {
            panic!("{}: {o:?} after {executed} instructions", kind.name());
        };
        // Within two windows of a million instructions (the count starts
        // with the first trap; each storm traps or rewrites in under 8).
        assert!(executed <= 2 << 20, "{}: {executed}", kind.name());
        let line = f.to_string();
        assert!(!line.contains('\n'), "{line}");
        let what = match kind {
            Hostile::SelfModifying => "writes over code it had run (",
            Hostile::Lrsc | Hostile::MprvLrsc => "emulated LR/SC/AMOs within",
            _ => "traps within",
        };
        assert!(
            line.starts_with("cut off as a storm: ") && line.contains(what),
            "{}: {line}",
            kind.name()
        );
        assert!(line.contains("(docs/measurements/speed.md)"), "{line}");
    }
}

/// The kinds that are not storms run to the budget: loads under MPRV are
/// translated by the emulator itself, and a page table in a device is
/// walked once per translation it caches.
#[test]
fn hostile_guests_that_are_not_storms_run_to_the_budget() {
    for kind in Hostile::ALL.into_iter().filter(|k| !k.is_storm()) {
        let (o, executed) = run(kind, 3_000_000);
        assert_eq!(o, Outcome::Budget, "{}", kind.name());
        assert!(executed > 3_000_000 - 4, "{}: {executed}", kind.name());
    }
}

/// Spaced out to one trap in about 20 instructions (pad 16: the loop's 2
/// or 3, the pad and the handler's 4), a storm used to run on at 5-8 times
/// a plain loop's time per instruction; the rule charges each trap
/// TRAP_COST, more than 2 windows' worth at that rate, so it is cut off.
/// So are an LR/SC loop, each LR and SC run in software, and code that
/// rewrites a 300-instruction loop once a pass (one write in 305 passed
/// the old one-in-256 rule at 40 times the cost: each write drops the
/// loop's decoded code, which is decoded again).
#[test]
fn storms_spaced_below_their_cost_are_cut_off() {
    for (kind, pad) in [
        (Hostile::Ecall, 16),
        (Hostile::AccessFault, 16),
        (Hostile::Interrupt, 16),
        (Hostile::Lrsc, 0),
        (Hostile::MprvLrsc, 8),
        (Hostile::SelfModifying, 300),
    ] {
        let (o, executed) = run_spaced(kind, pad, BUDGET);
        assert!(
            matches!(o, Outcome::Fault(GuestFault::Storm { .. })),
            "{} pad {pad}: {o:?} after {executed}",
            kind.name()
        );
        assert!(executed <= 2 << 20, "{}: {executed}", kind.name());
    }
}

#[test]
fn a_plain_loop_runs_to_its_budget() {
    let (o, executed) = run(Hostile::Plain, 5_000_000);
    assert_eq!(o, Outcome::Budget);
    // The budget is checked before each block of the loop (4 instructions).
    assert!(executed > 5_000_000 - 4, "{executed}");
}

/// The whole line `run`/`elf` print names each place once: the hostile
/// guests have no symbols, so the pc stands alone ("at 0x80000404", never
/// "at 0x80000404 in 0x80000404").
#[test]
fn a_storm_line_names_each_place_once() {
    for kind in [Hostile::Ebreak, Hostile::Interrupt, Hostile::Trigger] {
        let mut m = Machine::new(Rc::new(hostile(kind)), NoObserver).unwrap();
        let o = m.run(&Until {
            max_insns: Some(BUDGET),
            ..Until::default()
        });
        let (_, _, msg) = trapscope::session::describe_outcome(&o, &m, BUDGET);
        let msg = msg.unwrap_or_default();
        // The storm names its last trap, once (no "last trap" added).
        assert!(msg.contains("(the last: "), "{}: {msg}", kind.name());
        assert!(!msg.contains("last trap"), "{}: {msg}", kind.name());
        let words: Vec<&str> = msg.split(' ').collect();
        for w in words.windows(3) {
            let repeated =
                w[0].starts_with("0x") && w[1] == "in" && w[2].trim_end_matches(')') == w[0];
            assert!(!repeated, "{}: {msg}", kind.name());
        }
    }
}

/// The storms that trap, each kind (the self-modifying one stores instead).
const TRAPPING: [Hostile; 6] = [
    Hostile::Ebreak,
    Hostile::Trigger,
    Hostile::EbreakNoReturn,
    Hostile::Interrupt,
    Hostile::AccessFault,
    Hostile::Ecall,
];

/// Instructions added to each loop: one trap in more than the rule's
/// one in TRAP_COST / 2 (each trap's charge over the two windows' worth a
/// window may carry), so just under the cut-off.
const PAD: u32 = ((TRAP_COST * WINDOW).div_ceil(EXTRA_PER_WINDOW)) as u32;

/// Runs each trapping storm, spaced out, `total` instructions with the
/// observer the reports use and its default block stream (32 MiB; the
/// command line's runs keep none), and checks what it holds: open traps and
/// frames within their caps, the stream within its own, and the process's
/// resident memory grown by less than 100 MiB over the run.
fn spaced_storms_stay_bounded(total: u64) {
    let core = std::rc::Rc::new(trapscope::cost::Profile::find("u74").unwrap());
    for kind in TRAPPING {
        let program = Rc::new(hostile_spaced(kind, PAD));
        let stats = Stats::on_core(&program, core.clone());
        let mut m = Machine::new(program, stats).unwrap();
        let before = common::rss_bytes();
        let o = m.run(&Until {
            max_insns: Some(total),
            ..Until::default()
        });
        let name = kind.name();
        assert_eq!(o, Outcome::Budget, "{name}: not cut off");
        assert!(m.executed() > total - 100, "{name}: {}", m.executed());
        let st = m.observer();
        // The loop is at most PAD + 3 instructions and the handler 5.
        let traps = st.now.traps;
        assert!(
            traps >= total / (u64::from(PAD) + 8),
            "{name}: {traps} traps"
        );
        assert!(st.traps.open.len() <= MAX_OPEN, "{name}");
        assert!(st.stack.depth() <= MAX_DEPTH, "{name}");
        assert!(
            st.stream.sealed_bytes() <= st.stream.cap(),
            "{name}: stream {} bytes",
            st.stream.sealed_bytes()
        );
        let grown = common::rss_bytes().saturating_sub(before);
        assert!(grown < 100 << 20, "{name}: grew {} MiB", grown >> 20);
        eprintln!(
            "{name}: {} instructions, {traps} traps, {} open, resident +{} MiB",
            m.executed(),
            st.traps.open.len(),
            grown >> 20
        );
    }
}

/// A million instructions a storm: quick in a debug build.
#[test]
fn spaced_storms_stay_bounded_briefly() {
    if !common::alone(module_path!(), "spaced_storms_stay_bounded_briefly") {
        return;
    }
    spaced_storms_stay_bounded(1_000_000);
}

/// Forty million a storm, where the tester saw 1 GB: a release build's
/// test (`cargo test --release --test machine -- storms::`), ignored in
/// debug ones.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "40 M instructions a storm: cargo test --release"
)]
fn spaced_storms_stay_bounded_over_forty_million() {
    if !common::alone(
        module_path!(),
        "spaced_storms_stay_bounded_over_forty_million",
    ) {
        return;
    }
    spaced_storms_stay_bounded(40_000_000);
}
