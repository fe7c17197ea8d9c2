//! Long actions in pieces, so that a key is seen while they run: a continue, a lesson
//! step or a re-execution runs `CHUNK` instructions at a time, and between
//! pieces the TUI's progress hook draws how far it got and says whether to
//! go on. Esc or Ctrl-C also sets the machine's interrupt flag, which stops
//! a piece at the next block. Without a hook (tests, `run --script`) the
//! action runs whole. Pieces end at instruction boundaries the machine
//! stops at anyway, so the end state is the one a whole run reaches.

use std::time::Instant;

use crate::machine::{Machine, Outcome, Until};
use crate::session::checkpoint::Checkpoints;
use crate::session::stats::Stats;
pub use crate::tui::state::{Progress, ProgressFn};

/// Instructions per piece.
pub const CHUNK: u64 = 100_000;

/// `m.run(u)`, in pieces when there is a progress hook or a store of
/// checkpoints, which takes one between pieces as its interval says.
pub fn run(
    m: &mut Machine<Stats>,
    u: &Until,
    what: &str,
    progress: &mut Option<ProgressFn>,
    mut cps: Option<&mut Checkpoints>,
) -> Outcome {
    if progress.is_none() && cps.is_none() {
        return m.run(u);
    }
    let piece = cps.as_ref().map_or(CHUNK, |c| c.every.min(CHUNK));
    let started = Instant::now();
    let from = m.executed();
    let limit = u.max_insns.map_or(u64::MAX, |b| from.saturating_add(b));
    let mut first = true;
    loop {
        let before = m.executed();
        let left = limit.saturating_sub(before);
        // Resuming at a stop address is an arrival (only the action's own
        // starting pc is passed over, as `Machine::run` does).
        if !first && u.addrs.contains(&m.pc()) {
            return Outcome::ReachedAddr(m.pc());
        }
        first = false;
        let o = m.run(&Until {
            max_insns: Some(left.min(piece)),
            ..u.clone()
        });
        if let Some(c) = cps.as_deref_mut() {
            // A failed checkpoint only makes going back slower.
            let _ = c.note(m);
        }
        if o != Outcome::Budget || m.executed() >= limit {
            return o;
        }
        if m.executed() == before {
            // A block longer than the piece: run the rest whole.
            return m.run(&Until {
                max_insns: Some(left),
                ..u.clone()
            });
        }
        let total = u.max_insns.filter(|&b| b != super::RUN_BUDGET);
        let Some(p) = progress.as_mut() else {
            continue;
        };
        if !p(&Progress {
            what,
            done: m.executed() - from,
            total,
            started,
        }) {
            return Outcome::Interrupted;
        }
    }
}

/// `session::run_to(m, target)`, in pieces when there is a progress hook.
pub fn run_to<O: crate::machine::Observer + 'static>(
    m: &mut Machine<O>,
    target: u64,
    what: &str,
    progress: &mut Option<ProgressFn>,
) -> Outcome {
    let Some(p) = progress.as_mut() else {
        return crate::session::run_to(m, target);
    };
    let started = Instant::now();
    loop {
        let next = target.min(m.executed().saturating_add(CHUNK));
        let o = crate::session::run_to(m, next);
        if o != Outcome::Stepped || m.executed() >= target {
            return o;
        }
        if !p(&Progress {
            what,
            done: m.executed(),
            total: Some(target),
            started,
        }) {
            return Outcome::Interrupted;
        }
    }
}

/// A runner for `Checkpoints::run_to` and `go_to`: each piece between
/// checkpoints run to its count, the progress hook asked between pieces
/// (a store's pieces are shorter than `CHUNK`, so `run_to` alone would
/// never ask it). `Outcome::Interrupted` when the hook says stop.
pub fn pieces<'a>(
    what: &'a str,
    total: u64,
    progress: &'a mut Option<ProgressFn>,
) -> impl FnMut(&mut Machine<Stats>, u64) -> Outcome + 'a {
    let started = Instant::now();
    let from = None::<u64>;
    let mut from = from;
    move |m: &mut Machine<Stats>, to: u64| {
        let first = *from.get_or_insert(m.executed());
        let o = run_to(m, to, what, progress);
        match progress.as_mut() {
            Some(hook) if o == Outcome::Stepped && m.executed() < total => {
                let go_on = hook(&Progress {
                    what,
                    done: m.executed().saturating_sub(first),
                    total: Some(total.saturating_sub(first)),
                    started,
                });
                if go_on { o } else { Outcome::Interrupted }
            }
            _ => o,
        }
    }
}
