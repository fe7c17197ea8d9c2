//! The in-order issue scoreboard (U74, X280, X60); ARCHITECTURE.md, "How a
//! retired range is accounted".
//!
//! Up to `issue_width` instructions issue per cycle, in program order. An
//! instruction issues in the current cycle only if a slot is left, the
//! pipes its class may use can take it together with the instructions
//! already in the cycle (each on a pipe of its own), its sources are ready
//! and, for a divide, the divider is free. A source is ready `lat` cycles
//! after its producer issued; a consumer that reads through the bypass
//! (LLVM's ReadAdvance, SiFive7's late ALU) may issue `late_advance` cycles
//! earlier when the producer's result takes the bypass. An ALU op whose
//! operands are ready at issue produces its result `alu_early` cycles later.
//!
//! The cost of an instruction is how far it moves the issue point, split
//! into the cycle of its issue group (`Issue`), a pair the width allowed but
//! the pipes refused (`IssueRules`), operand waits (`DataStalls`) and the
//! divider (`StructuralStalls`). Redirects (mispredicts, taken-branch
//! bubbles, flushing CSR writes, xRET, fences) add their cycles at the
//! instruction and start a new issue group. The state is carried from one
//! instruction to the next, so a block and the same instructions stepped
//! one at a time give the same cycles.

use super::class::{Kind, Static};
use super::model::Cat;
use super::params::Params;
use super::validate::GROUP_MAX;

#[derive(Clone, Debug)]
pub struct InOrder {
    /// The cycle the last instruction issued in.
    cycle: u64,
    /// Pipe masks of the instructions issued in `cycle`.
    group: [u8; GROUP_MAX],
    used: usize,
    /// A new group must start (after a redirect, or at the start).
    closed: bool,
    /// The first cycle an ordinary reader of each register may issue.
    ready: [u64; 64],
    /// The value in the register takes the bypass.
    bypassed: [bool; 64],
    /// The first cycle the divider takes a new divide.
    div_free: u64,
}

impl Default for InOrder {
    fn default() -> InOrder {
        InOrder {
            cycle: 0,
            group: [0; GROUP_MAX],
            used: 0,
            closed: true,
            ready: [0; 64],
            bypassed: [false; 64],
            div_free: 0,
        }
    }
}

/// Whether instructions with pipe masks `masks` can each have a pipe of
/// their own (a matching, by trying each pipe in turn: at most 8 pipes and
/// 8 instructions).
fn assignable(masks: &[u8], taken: u8) -> bool {
    let Some((&m, rest)) = masks.split_first() else {
        return true;
    };
    (0..8).any(|p| {
        let bit = 1u8 << p;
        m & bit != 0 && taken & bit == 0 && assignable(rest, taken | bit)
    })
}

impl InOrder {
    /// Issues one instruction; `sink` gets each part of its cost (milli).
    /// Returns whether it read a source through the bypass (it executed
    /// late, in SiFive7's M2 rather than AG).
    #[inline]
    pub fn issue(&mut self, p: &Params, s: &Static, mut sink: impl FnMut(Cat, u64, bool)) -> bool {
        let width = p.width.min(GROUP_MAX);
        // The slot rule: the current cycle if it has room.
        let slot = if self.closed || self.used >= width {
            self.cycle + 1
        } else {
            self.cycle
        };
        // The pipe rule: every instruction of the group on a pipe of its own.
        let pipes_ok = |t: u64, this: &InOrder| {
            t > this.cycle
                || match this.used {
                    0 => true,
                    // Two instructions: two distinct pipes between them.
                    1 => (this.group[0] | s.pipes).count_ones() >= 2 && this.group[0] != 0,
                    n => {
                        let mut masks = [0u8; GROUP_MAX + 1];
                        masks[..n].copy_from_slice(&this.group[..n]);
                        masks[n] = s.pipes;
                        assignable(&masks[..=n], 0)
                    }
                }
        };
        let ruled = if pipes_ok(slot, self) { slot } else { slot + 1 };
        // Operands (x0 is never written, so its entry stays ready at 0; the
        // f registers follow the x registers, `class::F`).
        let adv = u64::from(p.late_advance);
        let read = |r: usize, late: bool| {
            let t = self.ready[r];
            if late && self.bypassed[r] {
                t.saturating_sub(adv)
            } else {
                t
            }
        };
        let need = (0..3)
            .map(|k| read(s.src[k] as usize, s.late[k]))
            .max()
            .unwrap_or(0);
        let data = need.max(ruled);
        let at = if s.kind == Kind::Div {
            data.max(self.div_free)
        } else {
            data
        };
        // Parts of the cost, which sum to at - cycle.
        const M: u64 = super::model::MILLI;
        if slot > self.cycle {
            sink(Cat::Issue, (slot - self.cycle) * M, true);
        }
        if ruled > slot {
            sink(Cat::IssueRules, (ruled - slot) * M, true);
        }
        if data > ruled {
            sink(Cat::DataStalls, (data - ruled) * M, true);
        }
        if at > data {
            sink(Cat::StructuralStalls, (at - data) * M, true);
        }
        // A source not ready at issue was read through the bypass: the
        // instruction executes late.
        let late = s.src.iter().any(|&r| self.ready[r as usize] > at);
        // The result.
        if s.rd != 0 {
            let early = s.kind == Kind::Alu && p.alu_early > 0 && !late;
            let lat = if early { p.alu_early } else { s.lat };
            self.ready[s.rd as usize] = at + u64::from(lat);
            self.bypassed[s.rd as usize] = s.bypass;
        }
        if s.kind == Kind::Div {
            self.div_free = at + u64::from(p.div_busy.max(1));
        }
        if at > self.cycle || self.closed {
            self.cycle = at;
            self.used = 0;
            self.closed = false;
        }
        if self.used < GROUP_MAX {
            self.group[self.used] = s.pipes;
            self.used += 1;
        }
        late
    }

    /// `cycles` more before the next instruction, which starts a new group.
    pub fn redirect(&mut self, cycles: u64) {
        self.cycle += cycles;
        self.closed = true;
    }

    /// Whether `self` and `o` schedule every later instruction alike, each
    /// counted from its own last issue cycle: a register ready at or before
    /// that cycle is ready for any reader (issue never goes back), and then
    /// whether it took the bypass no longer matters.
    pub fn congruent(&self, o: &InOrder) -> bool {
        let rel = |t: u64, now: u64| t.saturating_sub(now);
        self.used == o.used
            && self.closed == o.closed
            && self.group[..self.used] == o.group[..o.used]
            && rel(self.div_free, self.cycle) == rel(o.div_free, o.cycle)
            && (0..64).all(|r| {
                let (a, b) = (rel(self.ready[r], self.cycle), rel(o.ready[r], o.cycle));
                a == b && (a == 0 || self.bypassed[r] == o.bypassed[r])
            })
    }

    /// The same state `d` cycles later.
    pub fn shift(&mut self, d: u64) {
        self.cycle += d;
        for r in self.ready.iter_mut() {
            *r += d;
        }
        self.div_free += d;
    }

    /// The cycle the last instruction issued in.
    pub fn now(&self) -> u64 {
        self.cycle
    }

    /// Everything in flight has finished (a trap's refill, a `wfi`).
    pub fn quiesce(&mut self) {
        for r in self.ready.iter_mut() {
            *r = (*r).min(self.cycle);
        }
        self.div_free = self.div_free.min(self.cycle);
        self.closed = true;
    }
}
