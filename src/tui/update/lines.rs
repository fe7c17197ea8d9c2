//! Status lines that say why a move ended where it did: the knob that
//! bounds a run the guest's end cut short, and the trap `t` stopped at.

use crate::machine::Outcome;
use crate::tui::state::AppState;

impl AppState {
    /// The run ended with the guest (`what`): say so, and which knob
    /// bounds it, so that a `:run N` that ends short of N says why.
    pub(super) fn bounded_by_knob(&self, what: String) -> String {
        let mut line = what;
        let v = &self.scenario.variants[self.live.variant];
        if let Some((k, n)) = self
            .scenario
            .knob_values(v, &self.set)
            .into_iter()
            .find(|(k, _)| k.name == "iterations")
        {
            line.push_str(&format!(
                " after its {n} iterations (the `{}` knob: :set {}=N runs it longer)",
                k.name, k.name
            ));
        }
        line.push_str(" · r: back to the start, b steps back");
        line
    }

    /// After `t`: which trap entry or return it stopped at, and where.
    pub(super) fn say_reached_trap(&mut self) {
        let Some(Outcome::ReachedEvent(k)) = self.live.outcome else {
            return;
        };
        let log = &self.live.stats().log;
        let Some(e) = log.iter().rev().find(|e| e.event.kind() == k) else {
            return;
        };
        let text = crate::report::event_text(self.live.program(), &e.event);
        let (n, at) = (e.n, e.at);
        let here = self.live.program().describe(self.live.m.pc());
        self.say(format!(
            "event #{n}: {text}; now at {here}, {at} instructions into the run"
        ));
    }
}
