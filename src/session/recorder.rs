//! The recorder of the retired path of one iteration: each instruction
//! with what the cost model charged it (`path.rs` runs a variant with one
//! attached). A leaf of its own because `Stats` holds one and feeds it,
//! while `path.rs` drives `Stats`.
//!
//! `Stats` feeds a `PathRecorder` only when one is attached
//! (`Stats::path`), so a normal run pays one `Option` test per instruction.
//! An iteration runs from one execution of the iteration marker to the next
//! (or to the window's close), as `Stats::iteration_marks` counts them:
//! each charge belongs to the iteration in which it was made, so the steps'
//! cycles add up to the iteration's.

use crate::cost::Cat;
use crate::machine::DecodedInsn;

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
