//! `bench`'s sections on generated guests (guests.rs), each measured in one
//! run: straight-line FP code at two lengths, single against double
//! precision (the cost of intercepts must grow linearly with the code), and
//! the hostile guests timed against a plain loop.

use std::rc::Rc;
use std::time::Instant;

use serde::Serialize;

use super::BenchError;
use super::guests::{self, Hostile};
use crate::cost::Profile;
use crate::machine::storm::StormCounts;
use crate::machine::{Machine, NoObserver, Outcome, Program, Until};

#[derive(Debug, Serialize)]
pub struct FpScaling {
    /// Instructions in the short and the long guest.
    pub short: usize,
    pub long: usize,
    pub single_short_seconds: f64,
    pub single_long_seconds: f64,
    pub double_long_seconds: f64,
    /// time(long) / time(short), single precision (10 if linear).
    pub growth: f64,
    /// Single over double precision, the long guest.
    pub single_over_double: f64,
    /// Intercept code hooks left in the long single guest's machine.
    pub hooks_long: usize,
}

/// Runs `program` to its pass with the full observer and core model;
/// (seconds, intercept hooks).
fn instrumented(program: Program, core: &Rc<Profile>) -> Result<(f64, usize), BenchError> {
    use super::stats::Stats;
    let program = Rc::new(program);
    let stats = Stats::on_core(&program, core.clone());
    let mut m = Machine::new(program, stats)?;
    let t = Instant::now();
    let o = m.run(&Until {
        max_insns: Some(u64::MAX / 2),
        ..Until::default()
    });
    let dt = t.elapsed().as_secs_f64();
    if !matches!(o, Outcome::Exited(0)) {
        return Err(BenchError::Ended {
            what: "generated FP guest",
            outcome: o,
        });
    }
    Ok((dt, m.intercept_hooks()))
}

/// 3,000 and 30,000 distinct F instructions, and 30,000 D ones: the best
/// of three runs each, interleaved, so that a busy spell on a shared host
/// falls on all three.
pub fn fp_scaling(core: &Rc<Profile>) -> Result<FpScaling, BenchError> {
    let (short, long) = (3_000, 30_000);
    let (mut ss, mut sl, mut dl) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut hooks_long = 0;
    for _ in 0..3 {
        ss = ss.min(instrumented(guests::fp_straight(short, true), core)?.0);
        let (t, h) = instrumented(guests::fp_straight(long, true), core)?;
        sl = sl.min(t);
        hooks_long = h;
        dl = dl.min(instrumented(guests::fp_straight(long, false), core)?.0);
    }
    Ok(FpScaling {
        short,
        long,
        single_short_seconds: ss,
        single_long_seconds: sl,
        double_long_seconds: dl,
        growth: sl / ss,
        single_over_double: sl / dl,
        hooks_long,
    })
}

#[derive(Debug, Serialize)]
pub struct HostileTime {
    pub guest: &'static str,
    pub instructions: u64,
    pub seconds: f64,
    /// Its time to its end over the plain loop's to the budget.
    pub ratio: f64,
    /// Its time per instruction over the plain loop's.
    pub per_instruction: f64,
    /// How the run ended when it was not the budget (a cut-off line).
    pub ended: Option<String>,
}

/// Each hostile guest run to `budget` instructions with trapscope's hooks
/// (as `trapscope elf` runs a guest), timed against the plain loop.
pub fn hostile(budget: u64) -> Result<Vec<HostileTime>, BenchError> {
    let mut out: Vec<HostileTime> = Vec::new();
    for kind in Hostile::ALL {
        let program = Rc::new(guests::hostile(kind));
        let mut m = Machine::new(program, NoObserver)?;
        let t = Instant::now();
        let o = m.run(&Until {
            max_insns: Some(budget),
            ..Until::default()
        });
        let seconds = t.elapsed().as_secs_f64();
        if o == Outcome::Interrupted {
            return Err(BenchError::Interrupted);
        }
        let ended = (o != Outcome::Budget).then(|| super::describe_outcome(&o, &m, budget).2);
        let instructions = m.executed().max(1);
        let per = seconds / instructions as f64;
        let (base, base_per) = out.first().map_or((seconds, per), |p| {
            (p.seconds, p.seconds / p.instructions as f64)
        });
        out.push(HostileTime {
            guest: kind.name(),
            instructions,
            seconds,
            ratio: seconds / base,
            per_instruction: per / base_per,
            ended: ended.map(|e| e.unwrap_or_default()),
        });
    }
    Ok(out)
}

/// What one hostile guest's traps, rewrites and emulated instructions cost,
/// measured with the storm rule off, against what the rule charges them;
/// and the guest spaced out to just under the rule, timed with it on.
#[derive(Debug, Serialize)]
pub struct StormCost {
    pub guest: &'static str,
    /// `addi`s added to its loop for the measurement.
    pub pad: u32,
    pub instructions: u64,
    pub counts: StormCounts,
    /// Its time beyond its instructions', in plain-loop instructions.
    pub measured_extra: f64,
    /// What the rule charges for `counts`.
    pub charged: u64,
    /// The least pad (in steps of `EDGE_STEP`) at which the rule lets it run
    /// to the budget, if any up to `MAX_PAD`.
    pub edge_pad: Option<u32>,
    /// Its time per instruction there, over the plain loop's.
    pub edge_per_instruction: Option<f64>,
}

/// The most `addi`s a hostile loop holds (guests.rs: before its handler).
pub const MAX_PAD: u32 = 700;
/// The pads tried for the edge.
pub const EDGE_STEP: u32 = 4;
/// Instructions of each timed run: two of the rule's windows and more.
const COST_BUDGET: u64 = 3 << 20;

fn timed(
    kind: Hostile,
    pad: u32,
    measuring: bool,
) -> Result<(f64, u64, StormCounts, bool), BenchError> {
    let program = Rc::new(guests::hostile_spaced(kind, pad));
    let mut best: Option<(f64, u64, StormCounts, bool)> = None;
    for _ in 0..3 {
        let mut m = Machine::new(program.clone(), NoObserver)?;
        if measuring {
            m.measure_storms();
        }
        let t = Instant::now();
        let o = m.run(&Until {
            max_insns: Some(COST_BUDGET),
            ..Until::default()
        });
        let dt = t.elapsed().as_secs_f64();
        if o == Outcome::Interrupted {
            return Err(BenchError::Interrupted);
        }
        let r = (dt, m.executed(), m.storm_counts(), o == Outcome::Budget);
        if best.as_ref().is_none_or(|b| dt < b.0) {
            best = Some(r);
        }
        if !r.3 {
            break; // cut off: one run says so
        }
    }
    best.ok_or(BenchError::NoRun)
}

/// Each storm kind at pad 0 and `MAX_PAD` with the rule off, and at the
/// edge of the rule with it on, against the plain loop's time per
/// instruction.
pub fn storm_costs() -> Result<Vec<StormCost>, BenchError> {
    let (plain_s, plain_n, _, _) = timed(Hostile::Plain, 0, true)?;
    let per = plain_s / plain_n as f64;
    let mut out = Vec::new();
    for kind in Hostile::ALL.into_iter().filter(|k| k.is_storm()) {
        // The edge: the rule cuts the run off below it and not above it
        // (its charges grow as the pad shrinks), found by bisection.
        let runs = |pad: u32| -> Result<bool, BenchError> { Ok(timed(kind, pad, false)?.3) };
        let edge = if !runs(MAX_PAD)? {
            None
        } else {
            let (mut lo, mut hi) = (0u32, MAX_PAD / EDGE_STEP);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if runs(mid * EDGE_STEP)? {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            Some(lo * EDGE_STEP)
        };
        let edge_per_instruction = match edge {
            Some(pad) => {
                let (s, n, _, _) = timed(kind, pad, false)?;
                Some(s / n as f64 / per)
            }
            None => None,
        };
        for pad in [0, MAX_PAD] {
            let (s, n, counts, _) = timed(kind, pad, true)?;
            out.push(StormCost {
                guest: kind.name(),
                pad,
                instructions: n,
                counts,
                measured_extra: s / per - n as f64,
                charged: counts.charges(),
                edge_pad: edge,
                edge_per_instruction,
            });
        }
    }
    Ok(out)
}
