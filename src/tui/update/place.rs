//! A place in a run that outlives a change of core or of variant: the
//! iteration, the pc, and how many times the pc was reached since that
//! iteration began. An instruction count does not: the model's clock sets
//! the guest's time, so another core moves timer interrupts, and another
//! variant may take more traps (a first-use trap) or run other code.

use super::{RUN_BUDGET, long};
use crate::machine::{Outcome, Until};
use crate::tui::state::{AppState, Live};

/// Where the machine is, as a place in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Iteration marks passed (0: before the first, or no measured loop).
    pub k: u64,
    pub pc: u64,
    /// Arrivals at `pc` since the k-th mark (or since power-on) before
    /// this one.
    pub arrivals: u64,
}

/// What `go_to_place` found again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    Place,
    /// The same iteration's start: the pc is not reached there as often.
    Iteration,
    Lost,
}

impl AppState {
    /// The live machine's place; `None` when the block stream no longer
    /// reaches back to where the count starts (it keeps about 15 million
    /// instructions).
    pub(crate) fn place(&self) -> Option<Place> {
        let st = self.live.stats();
        let k = st.iteration_hits;
        let from = if k == 0 {
            0
        } else {
            // The mark's own instruction is not an arrival of this
            // iteration: the count starts right after it.
            st.iteration_marks.back()?.0
        };
        let pc = self.live.m.pc();
        let arrivals = st.stream.hits_between(from, self.live.executed(), pc)?;
        Some(Place { k, pc, arrivals })
    }

    /// Puts the live machine at `pl` after a change that keeps the
    /// program (a core, say): from power-on (or the checkpoint before the
    /// k-th mark) to the mark, then to the arrival. Where the pc is not
    /// reached as often in that iteration (code this core does not run,
    /// such as an AMO's emulation), the iteration's start.
    pub(crate) fn go_to_place(&mut self, pl: Place) -> Kept {
        self.go_to(0);
        let iter_addr = self.iteration_addr(&self.live);
        let mut p = self.progress.take();
        let mut found = Ok(false);
        let mut mark_at = None;
        self.moved_with(false, |l| {
            if pl.k > 0 {
                let Some(a) = iter_addr else {
                    return Outcome::Stepped;
                };
                let u = Until {
                    max_insns: Some(RUN_BUDGET),
                    addrs: vec![a],
                    kinds: vec![],
                };
                // Up to the k-th mark and over it.
                while l.stats().iteration_hits < pl.k {
                    if l.m.pc() == a {
                        l.m.step();
                        continue;
                    }
                    match long::run(&mut l.m, &u, "finding the place", &mut p, l.cps.as_mut()) {
                        Outcome::ReachedAddr(_) => {}
                        o => return o,
                    }
                }
            }
            mark_at = Some(l.executed());
            found = seek(l, pl.pc, pl.arrivals, iter_addr, &mut p);
            Outcome::Stepped
        });
        self.progress = p;
        match (found, mark_at) {
            (Ok(true), _) => Kept::Place,
            (Ok(false), Some(at)) if pl.k > 0 => {
                self.go_to(at);
                if self.live.executed() == at {
                    Kept::Iteration
                } else {
                    Kept::Lost
                }
            }
            _ => Kept::Lost,
        }
    }

    /// The symbol that marks an iteration, in `l`'s program.
    pub(super) fn iteration_addr(&self, l: &Live) -> Option<u64> {
        let sym = self.scenario.measure.as_ref()?.iteration.clone();
        l.program().symbol(&sym).map(|x| x.addr)
    }
}

/// From right after `l`'s k-th iteration mark (or power-on, for k = 0),
/// runs to arrival number `arrivals + 1` at `pc` before the next mark.
/// `Ok(true)`: there; `Ok(false)`: `pc` is not reached that often in this
/// iteration, and the machine is somewhere past the mark;
/// `Err(Outcome::Interrupted)`: Esc.
pub(super) fn seek(
    l: &mut Live,
    pc: u64,
    arrivals: u64,
    iter_addr: Option<u64>,
    progress: &mut Option<long::ProgressFn>,
) -> Result<bool, Outcome> {
    let mut seen = 0;
    if l.m.pc() == pc {
        if arrivals == 0 {
            return Ok(true);
        }
        seen = 1;
    }
    let mut addrs = vec![pc];
    addrs.extend(iter_addr.filter(|&a| a != pc));
    let u = Until {
        max_insns: Some(RUN_BUDGET),
        addrs,
        kinds: vec![],
    };
    loop {
        match long::run(&mut l.m, &u, "finding the place", progress, l.cps.as_mut()) {
            Outcome::ReachedAddr(a) if a == pc => {
                if seen == arrivals {
                    return Ok(true);
                }
                seen += 1;
            }
            Outcome::Interrupted => return Err(Outcome::Interrupted),
            // The next iteration began, or the run ended.
            _ => return Ok(false),
        }
    }
}
