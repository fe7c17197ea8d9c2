//! The core model attached to a run and its clock: timer ticks from modelled cycles, the idle cycles of
//! a `wfi`, and `charge_one`, one instruction's charges. Accounting and the
//! cost look-ahead that places interrupt boundaries inside a block (both in
//! `stats/observer.rs`, beside the per-block table they read) share it, so
//! the cost up to any instruction is the same whether the block runs whole
//! or stepped.

use std::rc::Rc;

use crate::cost::class::Static;
use crate::cost::{At, Cat, CostModel, PipeState, Profile};
use crate::predict::Predictors;

/// The core model attached to a run: predictors and costs for one profile.
pub struct CoreModel {
    pub profile: Rc<Profile>,
    pub pred: Predictors,
    pub cost: CostModel,
    /// The pipeline's state after the last retired instruction.
    pub(super) pipe: PipeState,
    /// Vector occupancy not yet waited for (milli), when vector work
    /// overlaps scalar code (`vector.scalar_waits = false`).
    pub(super) vec_pending: u64,
}

impl CoreModel {
    pub fn new(profile: Rc<Profile>) -> CoreModel {
        let c = &profile.core;
        let cost = CostModel::new(&profile);
        let mut pred = Predictors::new(
            c.ras_depth.value as usize,
            c.bht_entries.value as usize,
            c.btb_entries.value as usize,
        );
        pred.ras.tag_modes(c.ras_privilege_tags.value);
        CoreModel {
            pred,
            pipe: cost.start(),
            cost,
            profile,
            vec_pending: 0,
        }
    }
}

impl CoreModel {
    /// The cycles (milli) the scalar pipe is charged for one vector
    /// instruction of `class`: all of its occupancy when the pipe waits for
    /// every one, what is pending plus its own where the profile's
    /// `waits_at` names it, else none now (it overlaps later scalar code).
    pub(super) fn vector_charge(&mut self, class: &crate::vector::VClass) -> u64 {
        let cost = self.cost.vector_cost(class);
        if self.profile.vector.scalar_waits.value {
            cost
        } else if match class {
            crate::vector::VClass::Config => self.cost.vector_waits().vsetvl,
            crate::vector::VClass::Scalar => self.cost.vector_waits().vmv_x_s,
            _ => false,
        } {
            // The profile says the scalar pipe waits for the unit here.
            std::mem::take(&mut self.vec_pending) + cost
        } else {
            self.vec_pending += cost;
            0
        }
    }

    /// Idling to the timer for `need` milli-cycles: vector work runs down
    /// and everything in flight finishes.
    pub(super) fn idle_for(&mut self, need: u64) {
        self.vec_pending -= self.vec_pending.min(need);
        self.cost.idle(&mut self.pipe);
    }
}

/// `p` with its timer ticking at `hz` instead of its board's rate (a
/// snapshot's platform), said in the parameter's basis; `p` itself without.
pub(super) fn with_timebase(p: Rc<Profile>, hz: Option<u64>) -> Rc<Profile> {
    let Some(hz) = hz else { return p };
    if p.core.timebase_hz.value == hz as f64 {
        return p;
    }
    let mut q = (*p).clone();
    q.core.timebase_hz.value = hz as f64;
    q.core.timebase_hz.basis = crate::cost::Basis::Assumption(format!(
        "the snapshot's platform ticks mtime at {hz} Hz, as its device tree told the kernel (the profile's board: {} Hz)",
        p.core.timebase_hz.value
    ));
    q.core.timebase_hz.unverified = false;
    Rc::new(q)
}

/// The most milli-cycles one `wfi` idles (about 1.2e15 cycles; the machine
/// refuses waits of more than 2^40 ticks before asking).
const IDLE_CAP: u64 = 1 << 60;
/// The most milli-cycles idling brings the clock to, in all.
const IDLE_TOTAL: u64 = 1 << 62;

/// Timer ticks at `milli` modelled milli-cycles (`timebase_hz` at the
/// core's clock).
pub(super) fn ticks(p: &Profile, milli: u64) -> u64 {
    let c = &p.core;
    let cycles = milli as f64 / crate::cost::MILLI as f64;
    (cycles * c.timebase_hz.value / (c.clock_ghz.value * 1e9)) as u64
}

/// The idle milli-cycles from `sum` to the first at which the timer reads
/// `target`. One wfi idles at most IDLE_CAP (a deadline further away is as
/// good as never; the guest's budget ends the run), and the clock stops at
/// IDLE_TOTAL, far below overflow.
pub(super) fn idle_milli(p: &Profile, sum: u64, target: u64) -> u64 {
    let c = &p.core;
    let per_tick = c.clock_ghz.value * 1e9 / c.timebase_hz.value * crate::cost::MILLI as f64;
    let want = target as f64 * per_tick;
    let cap = IDLE_CAP.min(IDLE_TOTAL.saturating_sub(sum));
    let mut need = if !want.is_finite() || want >= sum.saturating_add(cap) as f64 {
        cap
    } else {
        (want.ceil() as u64).saturating_sub(sum)
    };
    if need < cap {
        while need < cap && ticks(p, sum + need) < target {
            need += 1;
        }
        while need > 0 && ticks(p, sum + need - 1) >= target {
            need -= 1;
        }
    }
    need
}

/// One instruction's charges (each passed to `each`), then the overlapped
/// vector work it waits for: vector work runs down while scalar code runs,
/// and an instruction the profile's `vector.waits_at` names waits for what
/// is left. Returns that wait. Shared by accounting and by the cost
/// look-ahead the interrupt boundaries use, so the two cannot disagree.
#[inline]
pub(super) fn charge_one(
    cost: &CostModel,
    pipe: &mut PipeState,
    s: &Static,
    at: At,
    vec_pending: &mut u64,
    mut each: impl FnMut(Cat, u64, bool),
) -> u64 {
    let (mut spent, mut syncs) = (0, false);
    let w = cost.vector_waits();
    let (status, csr) = (w.status_write, w.csr);
    cost.charge_insn(pipe, s, at, |cat, v, event| {
        spent += v;
        syncs |= (status && cat == Cat::StatusWrites)
            || (csr && matches!(cat, Cat::CsrReads | Cat::CsrWrites | Cat::StatusWrites));
        each(cat, v, event);
    });
    *vec_pending -= (*vec_pending).min(spent);
    if syncs {
        std::mem::take(vec_pending)
    } else {
        0
    }
}
