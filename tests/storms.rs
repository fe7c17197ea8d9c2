//! Hostile guests that trap or rewrite their own code every few
//! instructions are cut off with one line long before the default budget
//! (machine/storm.rs; README "Speed"), and a plain loop is not. Their
//! timings against the plain loop are `bench`'s.

use std::rc::Rc;

use trapscope::machine::{Machine, NoObserver, Outcome, Until};
use trapscope::session::guests::{Hostile, hostile};
use trapscope::trace::GuestFault;

/// `trapscope elf`'s default budget.
const BUDGET: u64 = 100_000_000;

fn run(kind: Hostile, budget: u64) -> (Outcome, u64) {
    let mut m = Machine::new(Rc::new(hostile(kind)), NoObserver).unwrap();
    let o = m.run(&Until {
        max_insns: Some(budget),
        ..Until::default()
    });
    (o, m.executed())
}

#[test]
fn storms_are_cut_off_with_one_line() {
    for kind in Hostile::ALL {
        if kind == Hostile::Plain {
            continue;
        }
        let (o, executed) = run(kind, BUDGET);
        let Outcome::Fault(f @ GuestFault::Storm { .. }) = &o else {
            panic!("{}: {o:?} after {executed} instructions", kind.name());
        };
        // Within two windows of a million instructions (the count starts
        // with the first trap; each storm traps or rewrites in under 8).
        assert!(executed <= 2 << 20, "{}: {executed}", kind.name());
        let line = f.to_string();
        assert!(!line.contains('\n'), "{line}");
        let what = if kind == Hostile::SelfModifying {
            "writes over code it had run"
        } else {
            "traps within"
        };
        assert!(
            line.starts_with("cut off as a storm: ") && line.contains(what),
            "{}: {line}",
            kind.name()
        );
        assert!(line.contains("(README: Speed)"), "{line}");
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
        assert!(msg.contains("(last trap: "), "{}: {msg}", kind.name());
        let words: Vec<&str> = msg.split(' ').collect();
        for w in words.windows(3) {
            let repeated =
                w[0].starts_with("0x") && w[1] == "in" && w[2].trim_end_matches(')') == w[0];
            assert!(!repeated, "{}: {msg}", kind.name());
        }
    }
}
