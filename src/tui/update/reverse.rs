//! `b`: back to the state before this one, and `B`: back to the last time
//! a breakpoint was reached; `b` pressed k times in a row is one move.

use super::Action;
use crate::machine::{Outcome, Until};
use crate::session;
use crate::trace::EventKind;
use crate::tui::state::AppState;

impl AppState {
    /// `b` pressed `n` times in a row: one re-execution.
    pub fn step_back_by(&mut self, n: u64) {
        if self.live.executed() == 0 {
            return self.update(Action::StepBack); // says why nothing moves
        }
        // The last press goes through `step_back_one`, so that the run of
        // presses ends on a state `b` can reach (a trap delivered before
        // any instruction ran shares its count with the state before it).
        let to = self.live.executed().saturating_sub(n.saturating_sub(1));
        if n > 1 {
            self.go_to(to);
        }
        if self.live.executed() > 0 {
            self.step_back_one();
        }
        self.record_after();
    }

    /// Traps entered at instruction count `n`, in the log as it is now.
    /// An event's `at` counts the instructions executed with it, so a trap
    /// at `n` either came from instruction `n` itself (an ecall, a fault:
    /// part of reaching count `n`), or was delivered at count `n` before the
    /// next instruction ran (a probe's breakpoint, an interrupt), which
    /// moves the machine without counting an instruction.
    fn traps_at(&self, n: u64) -> u64 {
        self.live
            .stats()
            .log
            .iter()
            .rev()
            .take_while(|e| e.at >= n)
            .filter(|e| e.at == n && e.event.kind() == EventKind::TrapEnter)
            .count() as u64
    }

    /// The first state at count `n`, where going to a count lands: before
    /// any trap delivered there without an instruction.
    fn first_at(&mut self, n: u64) {
        if self.live.executed() == n && n > 0 {
            // Going to the count the machine is at does not move it.
            self.go_to(n - 1);
        }
        self.go_to(n);
    }

    /// `b`: the state before this one. Several states can share a count
    /// (see `traps_at`): the first of them, then one per trap delivered
    /// without an instruction. The log tells how many of those the machine
    /// is past; going to the count and single-stepping that many, less
    /// one, gives the state before.
    pub(super) fn step_back_one(&mut self) {
        let n = self.live.executed();
        let here = self.traps_at(n);
        if here > 0 {
            self.first_at(n);
            if self.live.executed() != n {
                return; // stopped (Esc) or failed: go_to said why
            }
            let past = here.saturating_sub(self.traps_at(n));
            if past > 0 {
                return self.steps_on(n, past - 1);
            }
        }
        // The last state at `n - 1`: its first, plus every trap delivered
        // there without an instruction.
        let before = self.traps_at(n - 1);
        self.go_to(n - 1);
        if self.live.executed() == n - 1 {
            let z = before.saturating_sub(self.traps_at(n - 1));
            self.steps_on(n - 1, z);
        }
    }

    /// From the first state at count `n`, `k` single steps that deliver a
    /// trap without counting an instruction.
    fn steps_on(&mut self, n: u64, k: u64) {
        if k == 0 || self.live.executed() != n {
            return;
        }
        self.moved_with(false, |l| {
            let mut o = Outcome::Stepped;
            for _ in 0..k {
                o = l.m.step();
                if o != Outcome::Stepped || l.m.executed() != n {
                    break;
                }
            }
            o
        });
    }

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
