//! The syscall ABI check shared by the entry tests: across every getppid
//! call from U-mode, every register but a0 comes back as it was, and a0 is
//! the parent's pid (init = 1).

use trapscope::machine::{Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};
use trapscope::trace::{Event, EventKind, Priv};

/// Runs `variant` to its exit, checking each getppid (a7 = 173) call from
/// U-mode; returns how many were checked. `label` names the run in messages.
pub fn registers_survive_getppid(
    s: &Scenario,
    variant: &str,
    opts: &RunOpts,
    label: &str,
) -> usize {
    let mut m = session::build_machine(s, s.variant(variant).unwrap(), opts).unwrap();
    let until = |k| Until {
        kinds: vec![k],
        max_insns: Some(1_000_000),
        ..Until::default()
    };
    let mut checked = 0;
    loop {
        match m.run(&until(EventKind::TrapEnter)) {
            Outcome::ReachedEvent(_) => {}
            Outcome::Exited(0) => break,
            o => panic!("{label}: {o:?}"),
        }
        let from_user = m.observer().log.iter().rev().find_map(|e| match e.event {
            Event::TrapEnter { from, cause, .. } => Some(from == Priv::U && cause == 8),
            _ => None,
        });
        let before = m.gprs();
        // Only getppid returns; exit does not.
        if from_user != Some(true) || before[17] != 173 {
            continue;
        }
        loop {
            match m.run(&until(EventKind::TrapReturn)) {
                Outcome::ReachedEvent(_) => {}
                o => panic!("{label}: {o:?}"),
            }
            if m.priv_() == Priv::U {
                break;
            }
        }
        let after = m.gprs();
        for r in 1..32 {
            if r != 10 {
                assert_eq!(before[r], after[r], "{label}: x{r} changed across getppid");
            }
        }
        assert_eq!(
            after[10], 1,
            "{label}: getppid returns the parent's pid (init = 1)"
        );
        checked += 1;
    }
    checked
}
