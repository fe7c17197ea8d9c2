//! Space: the lesson's next step, played as a headless replay plays it
//! (`script::play_step_with`), and the replay after its end.

use super::{RUN_BUDGET, long};
use crate::machine::{Outcome, Until};
use crate::tui::state::{AppState, Pane};

impl AppState {
    /// Plays the next script step; at the lesson's end, replays it from
    /// the start.
    pub(super) fn advance(&mut self) {
        if self.player.steps.is_empty() {
            self.say("this scenario has no lesson ([[script]] steps)");
            return;
        }
        // `r` on a variant the lesson does not begin on left it unbegun:
        // it begins at its own start rather than play here.
        if std::mem::take(&mut self.player.elsewhere) && self.player.next == 0 {
            self.go_to_start();
            if !self.message.as_ref().is_some_and(|m| m.1) {
                let at = self.message.take().map(|m| m.0).unwrap_or_default();
                self.say(format!("the lesson plays on {}: {at}", self.variant_name()));
            }
            return;
        }
        let n = self.player.steps.len();
        let Some(step) = self.player.steps.get(self.player.next).cloned() else {
            self.go_to_start();
            if !self.message.as_ref().is_some_and(|m| m.1) {
                let at = self.message.take().map(|m| m.0).unwrap_or_default();
                self.say(format!("replaying the lesson from the start · {at}"));
            }
            return;
        };
        // Past the guest's end no step can be reached: say so rather than
        // narrate a step that did not run.
        if self.live.m.exit_code().is_some() {
            self.say(
                "the guest has ended, so the lesson cannot go on (r: back to the lesson's start)",
            );
            return;
        }
        self.player.active = true;
        self.player.next += 1;
        if let Some(v) = &step.variant
            && let Some(i) = self.scenario.variants.iter().position(|x| &x.name == v)
            && i != self.live.variant
        {
            self.switch_variant(i);
            self.record_switch();
        }
        let mut p = self.progress.take();
        let budget = RUN_BUDGET;
        let mut err = None;
        // Watchpoints play no part in where a step ends.
        self.moved_with(false, |l| {
            let cps = &mut l.cps;
            let mut run = |m: &mut crate::machine::Machine<_>, u: &Until| {
                long::run(m, u, "lesson step", &mut p, cps.as_mut())
            };
            match crate::tui::script::play_step_with(&mut l.m, &step, budget, &mut run) {
                Ok(o) => o,
                Err(e) => {
                    err = Some(e);
                    Outcome::Stepped
                }
            }
        });
        self.progress = p;
        if let Some(e) = err {
            return self.error(e.to_string());
        }
        if self.live.outcome != Some(Outcome::Interrupted) {
            self.highlight = step.highlight.as_deref().and_then(Pane::parse);
            if let Some(l) = self.highlight.and_then(|p| self.lower_showing(p)) {
                self.lower = l;
            }
            self.set_narration(step.say.clone());
        }
        let k = self.player.next;
        let reached = self
            .live
            .outcome
            .as_ref()
            .is_some_and(|o| crate::tui::script::reached(&self.live.m, &step, o));
        if self.live.outcome == Some(Outcome::Interrupted) {
            // Space goes on to the same step (its count starts again).
            self.player.next -= 1;
            self.say(format!(
                "lesson step {k}/{n} stopped (Esc) after {} instructions; Space goes on to it",
                self.live.executed()
            ));
        } else if !reached {
            let what = self.message.take().map(|m| m.0).unwrap_or_default();
            self.error(format!("lesson step {k}/{n} did not arrive: {what}"));
        } else if k == n {
            self.say(format!(
                "lesson step {k}/{n}, the last: the lesson is over (Space replays it from the start)"
            ));
        } else {
            self.say(format!("lesson step {k}/{n} (Space: next)"));
        }
    }
}
