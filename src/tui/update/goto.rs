//! `:goto N`: to event number N of the events pane (`Stamped::n`), back
//! by checkpoint or forward by running on until the event has happened.

use super::{RUN_BUDGET, long};
use crate::machine::{Outcome, Until};
use crate::tui::state::AppState;

/// Instructions per piece of the run forward to an event not yet reached.
const PIECE: u64 = 100_000;

impl AppState {
    pub(crate) fn goto_event(&mut self, i: u64) {
        if self.live.stats().log.numbered() <= i {
            let start = self.live.executed();
            self.run_until_event(i);
            if self.live.stats().log.numbered() <= i {
                if !self.message.as_ref().is_some_and(|m| m.1) {
                    let newest = self.live.stats().log.numbered();
                    let (why, back) = match self.live.outcome {
                        // Esc leaves the machine where it stopped.
                        Some(Outcome::Interrupted) => ("stopped (Esc)".to_string(), false),
                        Some(Outcome::Budget) | None => {
                            (format!("not within {RUN_BUDGET} instructions"), true)
                        }
                        Some(_) => ("the run ended first".to_string(), true),
                    };
                    // A number past the run's end moves nothing: the
                    // machine goes back to where the command was typed.
                    let stay = if back {
                        self.go_to(start);
                        format!("; staying at {start} instructions")
                    } else {
                        String::new()
                    };
                    self.error(format!(
                        "goto: no event #{i}: {why}; the run has reached #{}{stay}",
                        newest.saturating_sub(1)
                    ));
                }
                return;
            }
        }
        let log = &self.live.stats().log;
        let Some((at, ev)) = log.numbered_event(i).map(|e| (e.at, e.event.clone())) else {
            return self.error(format!(
                "goto: event #{i} fell out of the log (it keeps the newest events)"
            ));
        };
        self.go_to(at);
        if self.live.executed() != at {
            return; // stopped (Esc) or failed: go_to said why
        }
        let what = crate::report::event_text(self.live.program(), &ev);
        self.say(format!(
            "at event #{i} ({what}), {at} instructions into the run"
        ));
    }

    /// Runs on (no watch stops it) until event `i` has happened, the run
    /// ends, or `RUN_BUDGET` instructions pass.
    fn run_until_event(&mut self, i: u64) {
        let mut p = self.progress.take();
        self.moved_with(false, |l| {
            let start = l.m.executed();
            loop {
                let u = Until {
                    max_insns: Some(PIECE),
                    ..Until::default()
                };
                let o = long::run(&mut l.m, &u, "goto", &mut p, l.cps.as_mut());
                if l.stats().log.numbered() > i || o != Outcome::Budget {
                    return o;
                }
                if l.m.executed() - start >= RUN_BUDGET {
                    return Outcome::Budget;
                }
            }
        });
        self.progress = p;
    }
}
