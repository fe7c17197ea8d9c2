//! Prediction: the return-address stack (unprivileged spec §2.5, table 2.1
//! hints, with x1 and x5 as link registers), a bimodal branch predictor and a
//! branch target buffer for indirect jumps. Fed with each control transfer and
//! where it really went (the next block's address), it reports mispredicts.

mod ras;
mod tables;

pub use ras::Ras;
pub use tables::{Bimodal, Btb};

use crate::isa::DecodedInsn;
use crate::isa::{Op, RasHint};
pub use crate::trace::PredKind;

/// What the RAS did last, for the TUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RasOp {
    Push {
        pc: u64,
        addr: u64,
    },
    Pop {
        pc: u64,
        predicted: Option<u64>,
        actual: u64,
    },
    PopPush {
        pc: u64,
        predicted: Option<u64>,
        actual: u64,
        pushed: u64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mispredict {
    pub kind: PredKind,
    pub pc: u64,
    pub predicted: Option<u64>,
    pub actual: u64,
}

#[derive(Clone, Debug)]
pub struct Predictors {
    pub ras: Ras,
    pub bht: Bimodal,
    pub btb: Btb,
    pub last_ras_op: Option<RasOp>,
}

impl Predictors {
    /// Heap bytes of the tables (for the checkpoints' memory).
    pub fn heap_bytes(&self) -> usize {
        self.ras.depth() * 9 + self.bht.len() + self.btb.len() * 24
    }

    pub fn new(ras_depth: usize, bht_entries: usize, btb_entries: usize) -> Predictors {
        Predictors {
            ras: Ras::new(ras_depth),
            bht: Bimodal::new(bht_entries),
            btb: Btb::new(btb_entries),
            last_ras_op: None,
        }
    }

    /// Resolves one control transfer that went to `next`.
    /// A trap or xRET on a core whose RAS does not survive it.
    pub fn flush_ras(&mut self) {
        self.ras.clear();
    }

    pub fn resolve(&mut self, d: &DecodedInsn, next: u64) -> Option<Mispredict> {
        let insn = d.insn?;
        let pc = d.pc;
        let link = pc + u64::from(d.len);
        let miss = |kind, predicted: Option<u64>| {
            (predicted != Some(next)).then_some(Mispredict {
                kind,
                pc,
                predicted,
                actual: next,
            })
        };
        match insn.op {
            Op::Branch(_) => {
                let target = pc.wrapping_add(insn.imm as u64);
                let taken = next == target && target != link;
                let guess = self.bht.predict(pc);
                self.bht.update(pc, taken);
                miss(PredKind::Branch, Some(if guess { target } else { link }))
            }
            Op::Jal => {
                if insn.ras_hint() == RasHint::Push {
                    self.ras.push(link);
                    self.last_ras_op = Some(RasOp::Push { pc, addr: link });
                }
                None
            }
            Op::Jalr => match insn.ras_hint() {
                RasHint::Pop => {
                    let predicted = self.ras.pop();
                    self.last_ras_op = Some(RasOp::Pop {
                        pc,
                        predicted,
                        actual: next,
                    });
                    miss(PredKind::Return, predicted)
                }
                RasHint::PopThenPush => {
                    let predicted = self.ras.pop();
                    self.ras.push(link);
                    self.last_ras_op = Some(RasOp::PopPush {
                        pc,
                        predicted,
                        actual: next,
                        pushed: link,
                    });
                    miss(PredKind::Return, predicted)
                }
                RasHint::Push => {
                    self.ras.push(link);
                    self.last_ras_op = Some(RasOp::Push { pc, addr: link });
                    self.indirect(pc, next)
                }
                RasHint::None => self.indirect(pc, next),
            },
            _ => None,
        }
    }

    fn indirect(&mut self, pc: u64, next: u64) -> Option<Mispredict> {
        let predicted = self.btb.lookup(pc);
        self.btb.update(pc, next);
        (predicted != Some(next)).then_some(Mispredict {
            kind: PredKind::Indirect,
            pc,
            predicted,
            actual: next,
        })
    }
}
