//! `B`: back to the last time a breakpoint was reached (issue 14).

use crate::machine::{Outcome, Until};
use crate::session;
use crate::tui::state::AppState;

impl AppState {
    /// Back to the last time a breakpoint was reached before now: found in
    /// the stream of retired blocks (`session::stream`), then gone to by
    /// checkpoint. Only what fell off the stream's front is searched by
    /// re-executing.
    pub(super) fn reverse_continue(&mut self) {
        if self.breakpoints.is_empty() {
            self.error("no breakpoints: set one with p or :break SYMBOL");
            return;
        }
        let now = self.live.executed();
        let stream = &self.live.stats().stream;
        if let Some(n) = stream.last_hit_before(now, &self.breakpoints) {
            self.go_to(n);
            if !self.message.as_ref().is_some_and(|m| m.1) {
                let here = self.live.program().describe(self.live.m.pc());
                self.say(format!(
                    "reverse-continue: the last breakpoint hit, {} instructions back, at {here}",
                    now - n
                ));
            }
            return;
        }
        let searched_from = stream.starts_at();
        if searched_from == 0 {
            return self.error("no breakpoint was reached before this point");
        }
        // Before the stream: re-execute from power-on up to its start.
        let v = &self.scenario.variants[self.live.variant];
        let Ok(mut m) = session::build_machine(&self.scenario, v, &self.opts()) else {
            return;
        };
        let end = searched_from.min(now);
        let u = self.until(vec![]);
        let mut last = None;
        loop {
            let left = end.saturating_sub(m.executed());
            if left == 0 {
                break;
            }
            match m.run(&Until {
                max_insns: Some(left),
                ..u.clone()
            }) {
                Outcome::ReachedAddr(_) if m.executed() < end => last = Some(m.executed()),
                _ => break,
            }
        }
        match last {
            Some(n) => {
                self.go_to(n);
                if !self.message.as_ref().is_some_and(|m| m.1) {
                    self.say(format!(
                        "reverse-continue: the last breakpoint hit, {} instructions back, found by re-executing from power-on: the block stream is thinned before instruction {searched_from}",
                        now - n
                    ));
                }
            }
            None => self.error(
                "no breakpoint was reached before this point (searched by re-executing: the block stream is thinned this far back)",
            ),
        }
    }
}
