//! Moving the live machine forward: the one way every forward move ends
//! (`moved`, `moved_with`: the checkpoint note, the new state read, the
//! line that says how the move ended), and the stops a free run obeys.

use super::{RUN_BUDGET, long};
use crate::machine::{Outcome, Until};
use crate::trace::EventKind;
use crate::tui::state::{AppState, Live};

impl AppState {
    /// As `moved`, for a run that may be long: in pieces with progress,
    /// and Esc stops it where it is.
    pub(super) fn moved_long(&mut self, what: &str, u: &Until) {
        let mut p = self.progress.take();
        self.moved(|l| long::run(&mut l.m, u, what, &mut p, l.cps.as_mut()));
        self.progress = p;
        if self.live.outcome == Some(Outcome::Interrupted) {
            let here = self.live.program().describe(self.live.m.pc());
            self.say(format!(
                "{what} stopped (Esc) at {here} after {} instructions; c goes on",
                self.live.executed()
            ));
        }
    }

    /// Stops for breakpoints and the budget, plus `kinds`.
    pub fn until(&self, kinds: Vec<EventKind>) -> Until {
        Until {
            max_insns: Some(RUN_BUDGET),
            addrs: self.breakpoints.iter().copied().collect(),
            kinds,
        }
    }

    /// Moves the machine forward with `f` and reads the new state; the
    /// watchpoints stop it.
    pub fn moved(&mut self, f: impl FnOnce(&mut Live) -> Outcome) {
        self.moved_with(true, f);
    }

    /// As `moved`; `watched`: whether the watchpoints stop `f`. They are in
    /// the machine only while the move they stop runs: a step back, `r`, a
    /// re-execution for Tab or for naming a recorded step, and a lesson
    /// step (which must end at the same instruction however it is played)
    /// all run with none.
    pub fn moved_with(&mut self, watched: bool, f: impl FnOnce(&mut Live) -> Outcome) {
        let before = self.live.changed;
        if watched {
            self.live.m.set_watches(&self.debug.watch_list());
        }
        let o = f(&mut self.live);
        self.live.m.set_watches(&[]);
        if let Some(c) = self.live.cps.as_mut() {
            // A failed checkpoint only makes going back slower.
            let _ = c.note(&mut self.live.m);
        }
        self.live.refresh(before);
        self.source_scroll = 0;
        self.events_scroll = 0;
        self.describe(&o);
        self.live.outcome = Some(o);
        self.update_narration();
    }

    pub(super) fn describe(&mut self, o: &Outcome) {
        let p = self.live.program().clone();
        match o {
            Outcome::Stepped | Outcome::ReachedEvent(_) => self.message = None,
            Outcome::ReachedAddr(a) => self.say(format!("stopped at {}", p.describe(*a))),
            Outcome::Breakpoint(a) => self.say(format!("ebreak at {}", p.describe(*a))),
            Outcome::Exited(_) if self.live.m.loop_ended() => {
                let line = self.bounded_by_knob("the measured loop ended".to_string());
                self.say(line)
            }
            Outcome::Exited(c) => {
                let line = self.bounded_by_knob(format!("the guest exited with code {c}"));
                self.say(line)
            }
            Outcome::Budget => self.say(format!(
                "ran {RUN_BUDGET} instructions without stopping; c goes on"
            )),
            Outcome::Fault(f) => self.error(f.to_string()),
            Outcome::Interrupted => self.say("interrupted".to_string()),
            Outcome::Watch(h) => self.say(h.describe(&p)),
        }
    }
}
