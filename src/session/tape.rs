//! The tape: what a run's core model was fed, kept so that other models
//! (the same core with other parameter values) can be fed the same retired
//! stream after the run without running the guest again (`session::band`).
//!
//! It holds each decoded block once, then, in order, the retired ranges
//! (split where the phase changes, so each range has one), the events the
//! model charges (trap entries, xRETs, vector work, idling) and the marks
//! that open and close the measured window and start each iteration.

use std::rc::Rc;

use crate::isa::DecodedInsn;
use crate::vector::VClass;

/// The most entries one tape holds (24 bytes each): a run that retires
/// more ranges than this has no band.
pub const TAPE_MAX: usize = 4 << 20;

/// One step of the retired stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Entry {
    /// Instructions `from..to` of block `block`, all in phase `phase`, run at
    /// privilege `priv_`; `next`: where execution went after the last one
    /// (`None`: it trapped).
    Range {
        block: u32,
        from: u16,
        to: u16,
        phase: u8,
        priv_: u8,
        next: Option<u64>,
    },
    /// A trap was taken; its handler runs in `phase`.
    Trap {
        phase: u8,
    },
    /// An `sret` or `mret` completed.
    Xret,
    /// The vector unit ran an instruction of `class`, charged to `phase`.
    Vector {
        class: VClass,
        phase: u8,
    },
    /// The hart idled until the timer read `target` (time, not work: no
    /// phase's cycles).
    Idle {
        target: u64,
    },
    Mark(Mark),
}

/// Where the measured window and its iterations begin and end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    WindowStart,
    WindowEnd,
    Iteration,
}

/// A run's retired stream, as its core model saw it.
#[derive(Clone, Debug, Default)]
pub struct Tape {
    /// Each block's instructions, by the id `block` gave it.
    pub blocks: Vec<Rc<[DecodedInsn]>>,
    pub entries: Vec<Entry>,
    /// The range being extended: entries are written when it closes.
    open: Option<Open>,
    /// More than `TAPE_MAX` entries came: the tape is incomplete.
    pub overflowed: bool,
    /// The run read the clock or was interrupted by the timer: its path
    /// depends on the model's clock, which a band holds fixed.
    pub clock_dependent: bool,
}

#[derive(Clone, Copy, Debug)]
struct Open {
    block: u32,
    from: u16,
    to: u16,
    phase: u8,
    priv_: u8,
}

impl Tape {
    /// Keeps a newly decoded block; its id for `insn`.
    pub fn block(&mut self, insns: &[DecodedInsn]) -> u32 {
        self.blocks.push(insns.into());
        (self.blocks.len() - 1) as u32
    }

    fn push(&mut self, e: Entry) {
        if self.entries.len() >= TAPE_MAX {
            self.overflowed = true;
            return;
        }
        self.entries.push(e);
    }

    /// Instruction `i` of block `block` retired in `phase` at `priv_`.
    #[inline]
    pub fn insn(&mut self, block: u32, i: usize, phase: u8, priv_: u8) {
        let i = i as u16;
        if let Some(o) = self.open.as_mut()
            && o.block == block
            && o.to == i
            && o.phase == phase
            && o.priv_ == priv_
        {
            o.to += 1;
            return;
        }
        if let Some(o) = self.open.take() {
            // Split at a phase change: the instruction before went on to
            // this one.
            let next = self.blocks[block as usize].get(i as usize).map(|d| d.pc);
            self.close_open(o, next);
        }
        self.open = Some(Open {
            block,
            from: i,
            to: i + 1,
            phase,
            priv_,
        });
    }

    /// Ends the open range: its last instruction went on to `next`.
    pub fn close(&mut self, next: Option<u64>) {
        if let Some(o) = self.open.take() {
            self.close_open(o, next);
        }
    }

    fn close_open(&mut self, o: Open, next: Option<u64>) {
        self.push(Entry::Range {
            block: o.block,
            from: o.from,
            to: o.to,
            phase: o.phase,
            priv_: o.priv_,
            next,
        });
    }

    /// An event or a mark, after the ranges before it.
    pub fn event(&mut self, e: Entry) {
        debug_assert!(self.open.is_none(), "a range is still open");
        self.push(e);
    }

    /// Bytes held, roughly (the blocks' instructions and the entries).
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
            + self
                .blocks
                .iter()
                .map(|b| b.len() * std::mem::size_of::<DecodedInsn>())
                .sum::<usize>()
    }
}
