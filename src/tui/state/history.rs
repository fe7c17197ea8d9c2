//! The time-travel history (every machine's checkpoints and block stream)
//! held within one cap for all variants together, `--history-mib`: each
//! machine holding history (the one on screen and the parked ones) gets an
//! equal share, so a scenario of 19 variants holds no more than one of 2.
//! Within its share a machine thins its checkpoints and drops the stream's
//! oldest chunks (`session::checkpoint`, `session::stream`).

use super::{AppState, Live};

impl AppState {
    /// Machines holding history now: the one on screen and those parked.
    fn machines(&self) -> usize {
        1 + self.parked.iter().flatten().count()
    }

    /// The share a machine built now gets: the history divided as if it
    /// were one more machine (no more than the scenario has variants), so
    /// that building one never takes the total past the cap.
    pub fn new_share(&self) -> usize {
        let n = (self.machines() + 1).min(self.scenario.variants.len());
        self.history / n.max(1)
    }

    /// Shrinks every machine to the share of one more, before one is built.
    pub fn make_room(&mut self) {
        let share = self.new_share();
        give(&mut self.live, share);
        for l in self.parked.iter_mut().flatten() {
            give(l, share);
        }
    }

    /// Gives each machine its share, after machines came or went (the
    /// shares only change then).
    pub fn balance_history(&mut self) {
        let share = self.history / self.machines();
        give(&mut self.live, share);
        for l in self.parked.iter_mut().flatten() {
            give(l, share);
        }
    }

    /// After a move by checkpoint: says so when it re-executed from further
    /// back than checkpoints are taken apart because the history was
    /// thinned (and nothing else was said).
    pub fn note_thinned(&mut self) {
        if self.message.is_some() {
            return;
        }
        if let Some(line) = self.thinned_line() {
            self.say(line);
        }
    }

    /// The words for the last move by checkpoint, if it went through
    /// thinned history.
    pub fn thinned_line(&self) -> Option<String> {
        let c = self.live.cps.as_ref()?;
        let t = c.last;
        let from = t.from?;
        c.thinned_at(&t).then(|| {
            format!(
                "re-executed {} instructions from the checkpoint at {from}: the history is thinned here (--history-mib {})",
                t.ran,
                self.history >> 20
            )
        })
    }

    /// The history all variants together may hold (`--history-mib`).
    pub fn set_history(&mut self, bytes: usize) {
        self.history = bytes;
        self.balance_history();
    }

    /// The history all variants together may hold.
    pub fn history(&self) -> usize {
        self.history
    }
}

/// Puts `l` within `share`: its stream's cap, then its checkpoints'.
fn give(l: &mut Live, share: usize) {
    let st = l.m.observer_mut();
    if st.history() == share {
        return;
    }
    st.set_history(share);
    let cap = st.checkpoint_cap();
    if let Some(c) = l.cps.as_mut() {
        c.set_cap(cap);
    }
}
