//! The call stack, from trapscope's own call/return history. The observer
//! sees every `jal`/`jalr` and every trap and xRET, so the stack is exact
//! without frame pointers (the minikernel and tinyconfig kernels have none).
//!
//! The rules:
//! - **Call**: a `jal`/`jalr` whose rd is a link register (x1 or x5: the
//!   RAS hint table of the unprivileged spec, §2.5 "JALR") pushes a frame:
//!   the callee (the target), the return address (pc + length) and the call
//!   site.
//! - **Return**: a `jalr` with a link register in rs1 and none in rd (the
//!   hint's "pop") looks for the frame whose return address is the target,
//!   from the innermost outwards, never past a trap frame. The innermost
//!   frame is an ordinary return. A frame further out pops every frame to
//!   it and counts as a *mismatched return* (the return skipped frames). No
//!   frame at all counts as a mismatched return too and changes nothing but
//!   what a jump would: a `ret` to an address no call pushed (`la ra, X`
//!   then `ret`, or `jr t0` used as a dispatch, as the entry before seed 003
//!   does) is a jump, so one stray return cannot unwind the stack.
//! - **Coroutine swap** (rd and rs1 both link registers, different): a
//!   return, then a call.
//! - **Tail call**: a jump with no link (`j`, `jr`, `tail`) to the entry of
//!   a function other than the current one replaces the innermost frame's
//!   function (the return address stays: the new function returns there).
//! - **Trap**: a trap entry pushes a trap frame (cause, epc, from → to), so
//!   the stack splits at traps; an xRET pops to and including the innermost
//!   trap frame (all of it when there is none: leaving a context the
//!   stack never saw entered, as the boot's first `mret`/`sret` does).
//! - **Bounded**: at most `MAX_DEPTH` frames; a push onto a full stack drops
//!   the oldest frame and counts it (`dropped`), so memory never grows.
//!
//! **Phases nest** (`phase`: what code in no phase symbol's range counts
//! as). A call frame takes its function's phase if that is a phase symbol,
//! else the phase of the frame it was called from; a tail call gives the
//! frame the new function's phase, else that of the frame outside it. A
//! trap frame ends the walk: the interrupted context's phases do not leak
//! into the handler, and code at trap level (the handler, entered by the
//! trap rather than a call) counts by its own range, else by the privilege
//! default. A jump from trap level to a function entry (`jr t0`, `tail`: a
//! dispatch) stands for a call, so the trap frame takes that function's
//! phase: a handler reached by `jalr t1` and one reached by `jr t0` count
//! alike.
//!
//! Context switches are not modelled per task: one hart, one stack. A
//! `__switch_to` that returns into another task's `schedule` is a
//! mismatched return (or a match further out), and the stack stays bounded
//! and consistent.

use std::collections::VecDeque;

use crate::isa::{Op, RasHint};
use crate::machine::{DecodedInsn, Program};
use crate::trace::Priv;

/// The most frames kept (call and trap frames together).
pub const MAX_DEPTH: usize = 256;

/// One frame, with the phase the code running in it inherits (`phase`:
/// see the module's rules; `None` is the privilege default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    Call {
        /// The function running in this frame (the call's target, or a tail
        /// call's).
        callee: u64,
        /// Where the function returns to.
        ret: u64,
        /// The call instruction.
        site: u64,
        phase: Option<u8>,
    },
    Trap {
        cause: u64,
        epc: u64,
        from: Priv,
        to: Priv,
        handler: u64,
        /// `None` (the privilege default) until the handler's code tail-calls
        /// or jumps into a function.
        phase: Option<u8>,
    },
}

impl Frame {
    fn phase(&self) -> Option<u8> {
        match self {
            Frame::Call { phase, .. } | Frame::Trap { phase, .. } => *phase,
        }
    }
}

/// The call stack and what it has seen.
#[derive(Clone, Debug, Default)]
pub struct CallStack {
    /// Oldest first.
    frames: VecDeque<Frame>,
    /// Function entry addresses (sorted), for telling a tail call from a
    /// jump inside a function.
    entries: std::rc::Rc<[u64]>,
    /// The most frames the stack held at once.
    pub max_depth: usize,
    /// Returns that did not go back to the innermost frame's caller.
    pub mismatched: u64,
    /// The last of them: the return's pc and where it went.
    pub last_mismatch: Option<(u64, u64)>,
    /// Frames dropped from the bottom because the stack was full.
    pub dropped: u64,
    /// Every change folded into one number, so two runs can be compared
    /// operation by operation (block mode against single-step).
    pub digest: u64,
}

impl CallStack {
    /// Heap bytes of its own (the entries are shared between clones).
    pub fn heap_bytes(&self) -> usize {
        self.frames.len() * std::mem::size_of::<Frame>()
    }

    /// A stack for `program`: its function symbols are the entries a tail
    /// call can go to.
    pub fn new(program: &Program) -> CallStack {
        let mut entries: Vec<u64> = program
            .symbols()
            .iter()
            .filter(|s| s.is_func)
            .map(|s| s.addr)
            .collect();
        entries.sort_unstable();
        entries.dedup();
        CallStack::with_entries(entries)
    }

    pub fn with_entries(entries: Vec<u64>) -> CallStack {
        let entries: std::rc::Rc<[u64]> = entries.into();
        CallStack {
            entries,
            ..CallStack::default()
        }
    }

    /// Frames, innermost first.
    pub fn frames(&self) -> impl Iterator<Item = &Frame> {
        self.frames.iter().rev()
    }

    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The phase the innermost frame's code inherits (`None`: the privilege
    /// default).
    pub fn phase(&self) -> Option<u8> {
        self.frames.back().and_then(Frame::phase)
    }

    fn fold(&mut self, tag: u64, a: u64, b: u64) {
        for x in [tag, a, b] {
            self.digest = (self.digest ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn push(&mut self, f: Frame) {
        if self.frames.len() == MAX_DEPTH {
            self.frames.pop_front();
            self.dropped += 1;
        }
        self.frames.push_back(f);
        self.max_depth = self.max_depth.max(self.frames.len());
    }

    /// The control transfer `d`, which went to `target`. `phase_of` gives
    /// the phase whose symbol range holds an address.
    pub fn transfer(
        &mut self,
        d: &DecodedInsn,
        target: u64,
        phase_of: &impl Fn(u64) -> Option<u8>,
    ) {
        let Some(insn) = d.insn else { return };
        if !matches!(insn.op, Op::Jal | Op::Jalr) {
            return;
        }
        let link = d.pc.wrapping_add(u64::from(d.len));
        match insn.ras_hint() {
            RasHint::Push => self.call(d.pc, target, link, phase_of),
            RasHint::Pop => self.ret(d.pc, target, phase_of),
            RasHint::PopThenPush => {
                self.ret(d.pc, target, phase_of);
                self.call(d.pc, target, link, phase_of);
            }
            RasHint::None => self.jump(d.pc, target, phase_of),
        }
    }

    fn call(&mut self, site: u64, target: u64, ret: u64, phase_of: &impl Fn(u64) -> Option<u8>) {
        let phase = phase_of(target).or(self.phase());
        self.fold(1, target, ret);
        self.push(Frame::Call {
            callee: target,
            ret,
            site,
            phase,
        });
    }

    fn ret(&mut self, pc: u64, target: u64, phase_of: &impl Fn(u64) -> Option<u8>) {
        let found = self
            .frames
            .iter()
            .rev()
            .take_while(|f| matches!(f, Frame::Call { .. }))
            .position(|f| matches!(f, Frame::Call { ret, .. } if *ret == target));
        self.fold(2, pc, target);
        if found != Some(0) {
            self.mismatched += 1;
            self.last_mismatch = Some((pc, target));
        }
        match found {
            Some(k) => {
                let keep = self.frames.len() - k - 1;
                self.frames.truncate(keep);
            }
            None => self.jump(pc, target, phase_of),
        }
    }

    /// A jump with no link: a tail call when it goes to another function's
    /// entry, otherwise nothing the stack records.
    fn jump(&mut self, pc: u64, target: u64, phase_of: &impl Fn(u64) -> Option<u8>) {
        if self.entries.binary_search(&target).is_err() {
            return;
        }
        let n = self.frames.len();
        let outer = n
            .checked_sub(2)
            .and_then(|i| self.frames.get(i))
            .and_then(Frame::phase);
        let Some(top) = self.frames.back_mut() else {
            return;
        };
        match top {
            Frame::Call { callee, phase, .. } => {
                if *callee == target {
                    return;
                }
                *callee = target;
                *phase = phase_of(target).or(outer);
            }
            // Nothing outside the trap counts: the new function's own phase.
            Frame::Trap { phase, .. } => *phase = phase_of(target),
        }
        self.fold(3, pc, target);
    }

    /// A trap taken from `from` to `to` at `epc` (priv spec §3.1.6, §4.1.1).
    pub fn trap(&mut self, cause: u64, epc: u64, from: Priv, to: Priv, handler: u64) {
        self.fold(4, cause, epc);
        self.push(Frame::Trap {
            cause,
            epc,
            from,
            to,
            handler,
            phase: None,
        });
    }

    /// `sret`/`mret` (priv spec §3.3.2): back to the context the innermost
    /// trap interrupted.
    pub fn xret(&mut self) {
        self.fold(5, 0, 0);
        while let Some(f) = self.frames.pop_back() {
            if matches!(f, Frame::Trap { .. }) {
                break;
            }
        }
    }
}

/// One line of a backtrace (`CallStack::backtrace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BtLine {
    /// A live frame, where it is executing: the pc for the innermost, the
    /// call site below a call frame, the interrupted pc below a trap.
    At(u64),
    /// The stack splits here: a trap taken from `from` to `to` at `epc`.
    Trap {
        cause: u64,
        epc: u64,
        from: Priv,
        to: Priv,
    },
}

impl CallStack {
    /// The live frames, innermost first, each where it is executing, split
    /// at trap frames: `pc`, then the call site of each call frame (the
    /// caller's frame is at its call), and for each trap frame the trap,
    /// then the pc it interrupted. Only frames not yet returned from are
    /// here: a function that returned left the stack with its `ret`.
    pub fn backtrace(&self, pc: u64) -> Vec<BtLine> {
        let mut out = vec![BtLine::At(pc)];
        for f in self.frames() {
            match *f {
                Frame::Call { site, .. } => out.push(BtLine::At(site)),
                Frame::Trap {
                    cause,
                    epc,
                    from,
                    to,
                    ..
                } => {
                    out.push(BtLine::Trap {
                        cause,
                        epc,
                        from,
                        to,
                    });
                    out.push(BtLine::At(epc));
                }
            }
        }
        out
    }
}

/// What a run's report says of its call stack (`run --format json`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The most frames (calls and traps together) on the stack at once.
    pub max_depth: usize,
    /// Returns that did not go back to the innermost call, over the run.
    pub mismatched_returns: u64,
    /// The same per iteration of the measured window.
    pub mismatched_returns_per_iteration: f64,
    /// Frames dropped because the stack was `MAX_DEPTH` deep.
    pub dropped_frames: u64,
}

impl Summary {
    pub fn new(s: &CallStack, per_iteration: f64) -> Summary {
        Summary {
            max_depth: s.max_depth,
            mismatched_returns: s.mismatched,
            mismatched_returns_per_iteration: per_iteration,
            dropped_frames: s.dropped,
        }
    }
}

#[cfg(test)]
mod tests;
