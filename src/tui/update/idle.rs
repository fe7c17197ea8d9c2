//! Work the TUI does while it waits for keys, in slices of a
//! few milliseconds so that a key is never kept waiting longer:
//!
//! 1. the whole runs behind the cycles pane, one variant at a time;
//! 2. the variant Tab goes to next runs ahead with checkpoints (parked, as
//!    Tab leaves it) to where the live one is, so that Tab restores a
//!    checkpoint instead of running there.

use std::time::{Duration, Instant};

use crate::session::{RunOpts, VariantJob};
pub use crate::tui::state::Idle;
use crate::tui::state::{AppState, Live};

/// Instructions between looks at the clock.
const PIECE: u64 = 5_000;

impl AppState {
    fn summary_opts(&self) -> RunOpts {
        RunOpts {
            log_events: 0,
            history: crate::session::NO_HISTORY,
            bands: true,
            ..self.opts()
        }
    }

    /// How far the variant not on screen should have run ahead: the live
    /// one's iteration (Tab maps by iteration), or its instruction count.
    fn prerun_wanted(&self, l: &Live) -> bool {
        use crate::machine::Outcome;
        if l.outcome
            .as_ref()
            .is_some_and(|o| matches!(o, Outcome::Exited(_) | Outcome::Fault(_)))
        {
            return false;
        }
        let (k, n) = (self.live.stats().iteration_hits, self.live.executed());
        let st = l.stats();
        // Never far past the live one's count, whatever its iterations
        // (a variant whose loop is longer, or whose mark never comes).
        let far = l.executed() > n.saturating_mul(2).saturating_add(1_000_000);
        if self.scenario.measure.is_some() && k > 0 {
            st.iteration_hits <= k && !far
        } else {
            l.executed() < n
        }
    }

    /// Whether there is idle work to do.
    pub fn idle_pending(&self) -> bool {
        if self.idle.summarising() {
            return true;
        }
        self.prerun_next().is_some()
    }

    /// The variant Tab goes to next, if it is behind: the one run ahead
    /// (each variant's checkpoints take memory, so not all of them; `:variant`
    /// to another one runs it there, with a progress line).
    fn prerun_next(&self) -> Option<usize> {
        let n = self.scenario.variants.len();
        let v = (self.live.variant + 1) % n;
        if v == self.live.variant {
            return None;
        }
        match self.parked.get(v) {
            Some(Some(l)) => self.prerun_wanted(l).then_some(v),
            Some(None) => Some(v),
            None => None,
        }
    }

    /// Does idle work for about `slice`; true when something on screen
    /// changed (a summary arrived).
    pub fn idle_step(&mut self, slice: Duration) -> bool {
        let until = Instant::now() + slice;
        if self.idle.summarising() {
            return self.summarise(until);
        }
        self.prerun(until);
        self.balance_history();
        false
    }

    fn summarise(&mut self, until: Instant) -> bool {
        if self.idle.job.is_none() && self.idle.todo.is_empty() {
            return self.band_step(until);
        }
        if self.idle.job.is_none() {
            let Some(v) = self.idle.todo.first().copied() else {
                return false;
            };
            self.idle.todo.remove(0);
            let opts = self.summary_opts();
            match VariantJob::new(&self.scenario, &self.scenario.variants[v], &opts) {
                Ok(j) => self.idle.job = Some((v, j)),
                Err(_) => return false,
            }
        }
        let opts = self.summary_opts();
        let Some((v, job)) = self.idle.job.as_mut() else {
            return false;
        };
        while Instant::now() < until {
            if job.advance(PIECE) {
                let v = *v;
                let mut r = job.finish(&self.scenario, &self.scenario.variants[v], &opts);
                // Its band comes after every run is in, a combination at a
                // time; the summary keeps no tape.
                if let Some(input) = r.band_input.take() {
                    self.idle
                        .bands
                        .push((v, crate::session::band::BandJob::new(input)));
                }
                if let Some(slot) = self.summaries.get_mut(v) {
                    *slot = Some(r);
                }
                self.idle.job = None;
                return true;
            }
        }
        false
    }

    /// Makes the first pending band for about until `until`; true when one
    /// arrived.
    fn band_step(&mut self, until: Instant) -> bool {
        let Some((v, job)) = self.idle.bands.first_mut() else {
            return false;
        };
        let Some(b) = job.advance(until) else {
            return false;
        };
        let v = *v;
        self.idle.bands.remove(0);
        if let Some(e) = self
            .summaries
            .get_mut(v)
            .and_then(|s| s.as_mut())
            .and_then(|r| r.estimate.as_mut())
        {
            e.band = Some(b);
        }
        true
    }

    /// Runs the first variant not on screen that is behind, with checkpoints.
    fn prerun(&mut self, until: Instant) {
        let Some(v) = self.prerun_next() else {
            return;
        };
        let mut l = match self.parked[v].take() {
            Some(l) => l,
            None => {
                self.make_room();
                match Live::new(&self.scenario, v, &self.opts()) {
                    Ok(l) => l,
                    Err(_) => return,
                }
            }
        };
        // Watchpoints are the screen's: a machine running ahead unseen
        // stops at none.
        l.m.set_watches(&[]);
        while Instant::now() < until && self.prerun_wanted(&l) {
            let u = crate::machine::Until {
                max_insns: Some(PIECE),
                ..Default::default()
            };
            let o = l.m.run(&u);
            if let Some(c) = l.cps.as_mut() {
                let _ = c.note(&mut l.m);
            }
            if o != crate::machine::Outcome::Budget {
                l.outcome = Some(o);
                break;
            }
        }
        self.parked[v] = Some(l);
    }
}
