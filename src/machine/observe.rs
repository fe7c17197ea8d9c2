//! The observer interface: how the machine hands out what it executed.
//!
//! "Decode once, many observers" (docs/decisions.md C9): the machine decodes each
//! block once and asks the observer to build its per-block table once; after
//! that each execution of the block costs the observer one call.

use crate::isa::DecodedInsn;
use crate::trace::{Event, Priv};

/// A prefix of a block that retired.
pub struct Retire<'a, D> {
    /// The whole block (decoded once) and the observer's table for it.
    pub insns: &'a [DecodedInsn],
    pub data: &'a D,
    /// The instructions `block.insns[from..to]` executed (the last one may
    /// have trapped).
    pub from: usize,
    pub to: usize,
    /// Where execution went next, if it went on normally (not a trap or a stop).
    /// For a block ending in a jump or branch this is the real target.
    pub next: Option<u64>,
    pub priv_: Priv,
    /// Instructions executed before this block.
    pub at: u64,
}

impl<'a, D> Retire<'a, D> {
    /// The instructions that retired.
    pub fn retired(&self) -> &'a [DecodedInsn] {
        &self.insns[self.from..self.to]
    }

    /// The same range seen with another table (for composite observers).
    pub fn with<E>(&self, data: &'a E) -> Retire<'a, E> {
        Retire {
            insns: self.insns,
            data,
            from: self.from,
            to: self.to,
            next: self.next,
            priv_: self.priv_,
            at: self.at,
        }
    }
}

pub trait Observer {
    type BlockData;
    /// Built once per decoded block.
    fn build(&mut self, insns: &[DecodedInsn]) -> Self::BlockData;
    /// Returns the kinds of the events it produced itself (bit `kind as u32`),
    /// so runs can stop at them like at the machine's own.
    fn retired(&mut self, r: &Retire<'_, Self::BlockData>) -> u32;
    fn event(&mut self, at: u64, ev: &Event);
    /// The modelled cycle count, which guest reads of `cycle`/`time` return.
    /// `None` until a cost model is attached: then they read instructions.
    fn cycles(&self) -> Option<u64> {
        None
    }
    /// The modelled `time` CSR (the platform timer's ticks). `None`: it reads
    /// the same as `cycle`.
    fn time(&self) -> Option<u64> {
        None
    }
    /// What the accounting will charge (milli-cycles) for `insns[from..]`,
    /// before they run, if each completes without a mispredict: `out[j]` is
    /// the cost of `insns[from..from + j]`, for j = 0 ..= the rest's length.
    /// It must equal what `retired` then charges for all but the last
    /// instruction of a range, whether the range comes whole or stepped: the
    /// machine finds with it the instruction where the timer fires. Without
    /// a model it leaves `out` empty (time then counts instructions).
    fn costs_ahead(
        &self,
        _data: &Self::BlockData,
        _insns: &[DecodedInsn],
        _from: usize,
        _out: &mut Vec<u64>,
    ) {
    }
    /// `time()` after `milli` more modelled milli-cycles (`None`: no model).
    fn time_ahead(&self, _milli: u64) -> Option<u64> {
        None
    }
    /// `wfi` at `pc` idles until `time()` reaches `ticks`: the model charges
    /// the idle cycles. `false`: no model (the machine advances the count).
    fn idle(&mut self, _pc: u64, _ticks: u64) -> bool {
        false
    }
}

/// An observer that keeps nothing (for raw runs and benchmarks).
#[derive(Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    type BlockData = ();
    fn build(&mut self, _: &[DecodedInsn]) {}
    fn retired(&mut self, _: &Retire<'_, ()>) -> u32 {
        0
    }
    fn event(&mut self, _: u64, _: &Event) {}
}
