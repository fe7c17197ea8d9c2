//! What a run's outcome means, in words.

use crate::machine::{Machine, Outcome};
use crate::trace::GuestFault;

/// A short name, the exit code, and an error message for the outcome.
pub fn describe_outcome<O: crate::machine::Observer>(
    o: &Outcome,
    m: &Machine<O>,
    budget: u64,
) -> (&'static str, Option<u64>, Option<String>) {
    match o {
        Outcome::Exited(c) if m.loop_ended() => ("loop-ended", Some(*c), None),
        Outcome::Exited(c) => ("exited", Some(*c), None),
        Outcome::Budget => (
            "budget",
            None,
            Some(format!(
                "the guest did not end within the instruction budget of {budget} (pc {}); raise it with --budget",
                m.program.place(m.pc())
            )),
        ),
        Outcome::Fault(f) => {
            let mut msg = f.to_string();
            if let GuestFault::Livelock { pc, failures, why } = f {
                // With symbols: the SC that fails, and the place that
                // took its reservation (a trap return's sc, most often).
                let last = why.in_words(&|a| m.program.offset_place(a));
                msg = format!(
                    "livelock at pc {}: the SC failed {failures} times in a row (last: {})",
                    m.program.place(*pc),
                    last.strip_prefix("fails: ").unwrap_or(&last)
                );
            }
            // A trap loop and a storm name their last trap already.
            if !matches!(f, GuestFault::TrapLoop { .. } | GuestFault::Storm { .. })
                && let Some((cause, epc)) = m.last_trap()
            {
                msg.push_str(&format!(
                    " (last trap: {} at {})",
                    crate::trace::cause_name(cause),
                    m.program.place(epc)
                ));
            }
            ("fault", None, Some(msg))
        }
        Outcome::Breakpoint(pc) => (
            "breakpoint",
            None,
            Some(format!(
                "stopped at the guest's ebreak at {} (a user breakpoint)",
                m.program.place(*pc)
            )),
        ),
        Outcome::ReachedAddr(pc) => ("stopped", None, Some(format!("stopped at {pc:#x}"))),
        Outcome::ReachedEvent(k) => (
            "stopped",
            None,
            Some(format!("stopped at a {} event", k.name())),
        ),
        Outcome::Stepped => ("stepped", None, None),
        Outcome::Watch(h) => ("watch", None, Some(h.describe(&m.program))),
        Outcome::Interrupted => (
            "interrupted",
            None,
            Some(format!("interrupted at pc {:#x}", m.pc())),
        ),
    }
}
