//! The retired path of one iteration of the measured loop, instruction by
//! instruction, with what the cost model charged each one: what
//! `report::pathdiff` aligns between two variants.
//!
//! `Stats` feeds a `PathRecorder` only when one is attached
//! (`Stats::path`), so a normal run pays one `Option` test per instruction.
//! An iteration runs from one execution of the iteration marker to the next
//! (or to the window's close), as `Stats::iteration_marks` counts them:
//! each charge belongs to the iteration in which it was made, so the steps'
//! cycles add up to the iteration's.

use std::rc::Rc;

use crate::cost::Cat;
use crate::machine::{DecodedInsn, Outcome};
use crate::scenario::{Scenario, Variant};

use super::stats::Stats;
use super::{RunOpts, SessionError, build_machine, run_to};

mod figures;
pub use figures::{Unit, iteration_figures};

/// One retired instruction and its charges.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub pc: u64,
    pub raw: u32,
    pub len: u8,
    /// Each charge: category, milli-cycles, and whether it is an event of
    /// its own (a mispredict, a flush) rather than cycles of a wait.
    pub charges: Vec<(Cat, u64, bool)>,
    /// A mispredict's (predicted, actual) next pc, when it had one.
    pub mispredict: Option<(Option<u64>, u64)>,
}

impl Step {
    /// The cycles (milli) charged to this instruction.
    pub fn milli(&self) -> u64 {
        self.charges.iter().map(|c| c.1).sum()
    }
}

/// Which iteration to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The last one that completed.
    Last,
    /// The n-th of the measured window (1-based).
    Nth(u64),
}

/// One recorded iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// Its number in the measured window (1-based).
    pub iteration: u64,
    /// The iteration marker's execution that began it (1-based, warm-up
    /// included): `Stats::iteration_marks` entry `hit - 1`.
    pub hit: u64,
    pub steps: Vec<Step>,
}

impl Recorded {
    pub fn milli(&self) -> u64 {
        self.steps.iter().map(Step::milli).sum()
    }
}

/// Records the steps of the iteration `Which` names.
#[derive(Clone, Debug)]
pub struct PathRecorder {
    which: Which,
    cur: Option<Recorded>,
    done: Option<Recorded>,
    /// Charges made outside a retired range (a trap entry at the handler, a
    /// vector instruction's occupancy before it is reported), by pc, until
    /// the instruction at that pc is recorded.
    pending: Vec<(u64, Cat, u64, bool)>,
    /// Measured iterations that began.
    pub began: u64,
    /// The marker's execution (1-based, warm-up included) that began
    /// measured iteration 1.
    pub first_hit: Option<u64>,
}

impl PathRecorder {
    pub fn new(which: Which) -> PathRecorder {
        PathRecorder {
            which,
            cur: None,
            done: None,
            pending: Vec::new(),
            began: 0,
            first_hit: None,
        }
    }

    /// An instruction retired (before its charges).
    #[inline]
    pub fn step(&mut self, d: &DecodedInsn) {
        let Some(cur) = self.cur.as_mut() else {
            return;
        };
        let mut s = Step {
            pc: d.pc,
            raw: d.raw,
            len: d.len,
            charges: Vec::new(),
            mispredict: None,
        };
        if !self.pending.is_empty() {
            self.pending.retain(|&(pc, cat, v, ev)| {
                if pc == d.pc {
                    s.charges.push((cat, v, ev));
                    false
                } else {
                    true
                }
            });
        }
        cur.steps.push(s);
    }

    /// A charge to the instruction last recorded.
    #[inline]
    pub fn charge(&mut self, cat: Cat, milli: u64, event: bool) {
        if let Some(s) = self.cur.as_mut().and_then(|c| c.steps.last_mut()) {
            s.charges.push((cat, milli, event));
        }
    }

    /// The predictors mispredicted the instruction at `pc` (recorded in
    /// the range just retired): where they said it went, and where it did.
    pub fn mispredict(&mut self, pc: u64, predicted: Option<u64>, actual: u64) {
        if let Some(s) = self
            .cur
            .as_mut()
            .and_then(|c| c.steps.iter_mut().rev().find(|s| s.pc == pc))
        {
            s.mispredict = Some((predicted, actual));
        }
    }

    /// A charge made outside a retired range, for the instruction at `pc`:
    /// to that instruction if it was the last recorded, else to the next
    /// one recorded at `pc`.
    pub fn charge_at(&mut self, pc: u64, cat: Cat, milli: u64, event: bool) {
        let Some(cur) = self.cur.as_mut() else {
            return;
        };
        match cur.steps.last_mut() {
            Some(s) if s.pc == pc => s.charges.push((cat, milli, event)),
            _ => self.pending.push((pc, cat, milli, event)),
        }
    }

    /// An iteration boundary may have passed: `open` tells whether the
    /// measured window is open, `index` is the measured iteration now
    /// running and `hit` the marker's executions so far.
    pub fn cut(&mut self, open: bool, index: u64, hit: u64) {
        if let Some(c) = &self.cur
            && (!open || c.iteration != index)
            && let Some(mut c) = self.cur.take()
        {
            // Charged before the boundary: this iteration's.
            if let Some(s) = c.steps.last_mut() {
                s.charges
                    .extend(self.pending.drain(..).map(|(_, c, v, e)| (c, v, e)));
            }
            self.pending.clear();
            self.done = Some(c);
        }
        if open && index > self.began {
            self.began = index;
            if index == 1 {
                self.first_hit = Some(hit);
            }
            let wanted = match self.which {
                Which::Last => true,
                Which::Nth(n) => n == index,
            };
            if wanted {
                self.cur = Some(Recorded {
                    iteration: index,
                    hit,
                    steps: Vec::new(),
                });
            }
        }
    }

    /// The iteration recorded, once it completed.
    pub fn done(&self) -> Option<&Recorded> {
        self.done.as_ref()
    }

    /// Whether the iteration wanted is recorded already.
    pub fn finished(&self) -> bool {
        matches!(self.which, Which::Nth(_)) && self.done.is_some()
    }
}

/// A variant's recorded iteration and the run around it.
#[derive(Clone, Debug)]
pub struct PathRun {
    pub variant: String,
    pub label: String,
    pub program: Rc<crate::machine::Program>,
    pub path: Recorded,
    /// Measured iterations that began in the run.
    pub iterations: u64,
    /// The core whose cycles were charged (`None`: instructions only).
    pub core: Option<String>,
    /// The iteration's cycles (milli) as the run's own iteration marks
    /// count them (`Stats::iteration_marks`, or the window's end for the
    /// last), independent of the steps: what the steps must add up to.
    pub marks_milli: Option<u64>,
}

/// Runs `variant` within the scenario's budget and records iteration `which`.
/// An error when the scenario has no measured loop, when the run ends
/// before that iteration completes, or when the variant cannot run.
pub fn record(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
    which: Which,
) -> Result<PathRun, SessionError> {
    if scenario.measure.is_none() {
        return Err(SessionError::NoLoop {
            scenario: scenario.path.clone(),
        });
    }
    let mut m = build_machine(scenario, variant, opts)?;
    m.observer_mut().path = Some(PathRecorder::new(which));
    let budget = opts.budget.unwrap_or(scenario.budget);
    // Stop as soon as the wanted iteration is in: in chunks, so a run that
    // recorded it early does not go on to its budget.
    let mut outcome = Outcome::Stepped;
    while m.executed() < budget {
        let next = (m.executed() + 200_000).min(budget);
        outcome = if opts.single_step {
            let mut o = Outcome::Stepped;
            while o == Outcome::Stepped && m.executed() < next {
                o = m.step();
            }
            o
        } else {
            run_to(&mut m, next)
        };
        if outcome != Outcome::Stepped
            || m.observer()
                .path
                .as_ref()
                .is_some_and(PathRecorder::finished)
            || crate::machine::sigint::requested()
        {
            break;
        }
    }
    let stats: &Stats = m.observer();
    let Some(rec) = stats.path.as_ref() else {
        return Err(SessionError::NoRecorder);
    };
    let Some(path) = rec.done().cloned() else {
        let (_, code, err) = super::describe_outcome(&outcome, &m, budget);
        let end = match (err, code) {
            (Some(e), _) => Some(e),
            (None, Some(c)) if c != 0 => Some(exit_text(c)),
            _ => None,
        };
        return Err(SessionError::Incomplete {
            variant: variant.name.clone(),
            which,
            began: rec.began,
            end,
        });
    };
    let marks_milli = stats.model.as_ref().and_then(|_| {
        let marks = &stats.iteration_marks;
        // The newest 4096 marks are kept: find the entries by hit number.
        let first = stats.iteration_hits.checked_sub(marks.len() as u64)? + 1;
        let at = |hit: u64| marks.get(usize::try_from(hit.checked_sub(first)?).ok()?);
        let start = at(path.hit)?.1;
        let end = match &stats.window_end {
            Some(w) if path.iteration == stats.iterations => w.cycles.iter().sum(),
            _ => at(path.hit + 1)?.1,
        };
        end.checked_sub(start)
    });
    Ok(PathRun {
        variant: variant.name.clone(),
        label: variant.label.clone(),
        program: variant.program.clone(),
        iterations: rec.began,
        core: stats.model.as_ref().map(|m| m.profile.name.clone()),
        marks_milli,
        path,
    })
}

/// Why a run that exited gave no iteration.
fn exit_text(code: u64) -> String {
    format!("the guest exited with code {code:#x} first")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insn(pc: u64) -> DecodedInsn {
        DecodedInsn {
            pc,
            raw: 0x13,
            len: 4,
            insn: None,
        }
    }

    #[test]
    fn records_the_nth_iteration_and_its_charges() {
        let mut r = PathRecorder::new(Which::Nth(2));
        r.cut(true, 1, 1);
        r.step(&insn(0x10));
        r.charge(Cat::Issue, 1000, false);
        r.cut(true, 2, 2);
        r.step(&insn(0x10));
        r.charge(Cat::Issue, 1000, false);
        // A trap entry charged at the handler before it runs.
        r.charge_at(0x80, Cat::TrapEntries, 5000, true);
        r.step(&insn(0x80));
        r.charge(Cat::Issue, 1000, false);
        r.cut(true, 3, 3);
        r.step(&insn(0x10));
        let d = r.done().expect("iteration 2 recorded");
        assert_eq!(d.iteration, 2);
        assert_eq!(d.hit, 2);
        assert_eq!(d.steps.len(), 2);
        assert_eq!(d.steps[1].milli(), 6000);
        assert_eq!(d.milli(), 7000);
        assert!(r.finished());
    }

    #[test]
    fn last_keeps_the_last_complete_and_leftovers_stay_in_theirs() {
        let mut r = PathRecorder::new(Which::Last);
        for i in 1..=3 {
            r.cut(true, i, i);
            r.step(&insn(0x10 * i));
            // Charged for a pc that never ran again in this iteration.
            r.charge_at(0x999, Cat::VectorUnit, i, true);
        }
        r.cut(false, 3, 3);
        let d = r.done().expect("one recorded");
        assert_eq!(d.iteration, 3);
        assert_eq!(d.steps[0].pc, 0x30);
        assert_eq!(d.milli(), 3);
        assert!(!r.finished());
    }
}
