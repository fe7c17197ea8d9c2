//! `n` and `o`: over a call, and out of the current function.

use crate::isa::{Op, RasHint};
use crate::machine::Outcome;
use crate::tui::state::AppState;

/// Instructions `step out` single-steps at most.
const STEP_OUT_LIMIT: u64 = 2_000_000;

impl AppState {
    pub(super) fn step_over(&mut self) {
        let pc = self.live.m.pc();
        let d = self
            .live
            .m
            .read_mem(pc, 4)
            .and_then(|b| crate::machine::decode_range(pc, &b).into_iter().next());
        let call = d.and_then(|d| d.insn.map(|i| (i, d.len))).filter(|(i, _)| {
            matches!(i.op, Op::Jal | Op::Jalr)
                && matches!(i.ras_hint(), RasHint::Push | RasHint::PopThenPush)
        });
        match call {
            Some((_, len)) => {
                let mut u = self.until(vec![]);
                u.addrs.push(pc + u64::from(len));
                self.moved(|l| l.m.run(&u));
            }
            None => self.moved(|l| l.m.step()),
        }
    }

    /// Single-steps until the current function returns: a RAS-pop jump at
    /// the starting call depth and privilege (calls in between nest).
    pub(super) fn step_out(&mut self) {
        let start_priv = self.live.m.priv_();
        let bps = self.breakpoints.clone();
        self.moved(|l| {
            let mut depth = 0i64;
            for _ in 0..STEP_OUT_LIMIT {
                let pc = l.m.pc();
                let hint =
                    l.m.read_mem(pc, 4)
                        .and_then(|b| crate::machine::decode_range(pc, &b).into_iter().next())
                        .and_then(|d| d.insn)
                        .map(|i| i.ras_hint());
                let same = l.m.priv_() == start_priv;
                let o = l.m.step();
                if o != Outcome::Stepped {
                    return o;
                }
                match (hint, same) {
                    (Some(RasHint::Push), true) => depth += 1,
                    (Some(RasHint::Pop | RasHint::PopThenPush), true) => {
                        if depth == 0 {
                            return Outcome::Stepped;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
                if bps.contains(&l.m.pc()) {
                    return Outcome::ReachedAddr(l.m.pc());
                }
            }
            Outcome::Budget
        });
    }
}
