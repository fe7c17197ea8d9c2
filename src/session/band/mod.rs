//! Bands: how far an estimate moves over its parameters' ends.
//!
//! A run that keeps a tape (`session::tape`) can be costed again by the same
//! core with other values for the parameters its profile gives ends for
//! (`cost::ends`), feeding each model the same retired stream: no guest runs
//! again. The path is the run's own, so where it depends on the model's
//! clock (a read of `time` or `cycle`, a timer interrupt, an idle `wfi`), a
//! band holds that path fixed and says so.
//!
//! A figure's band is the min and max over every combination of the ends of
//! the parameters it depends on (`cost::depends`), the profile's own values
//! included; with more than `FULL_MAX` combinations, over each parameter's
//! ends alone plus all at the ends that lowered it and all at those that
//! raised it (labelled). A difference takes the same combinations on both
//! sides. The clock scales ns figures only, so its ends apply to every
//! combination at no cost.
//!
//! Two things keep it cheap. Predictor parameters change only which
//! transfers mispredict: each distinct predictor is run once, and models
//! whose mispredicts come out the same share them. And a loop's iterations
//! repeat: once an iteration's stream and mispredicts equal the one before
//! and the pipeline has come back to the state it started that one in
//! (`PipeState::congruent`), the next costs the same, so it is added rather
//! than replayed.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde::Serialize;

use super::stats::IDLE;
use super::tape::Tape;
mod combine;
mod job;
mod replay;
mod types;

pub use job::BandJob;

use types::Misps;
pub use types::{Assign, FULL_MAX, Knob, Replayed};

pub use combine::{Band, Method, Side, band};

use crate::cost::{Cat, MILLI, Profile};

/// Parameters that change only the predictors.
const PREDICTOR: &[&str] = &[
    "ras_depth",
    "bht_entries",
    "btb_entries",
    "trap_flushes_ras",
    "ras_privilege_tags",
];

/// Parameters a band never varies: the clock (applied to ns figures
/// apart), the timer's rate and the profile's fixed shape (they move the
/// path, or are facts of the core rather than of the model).
const NOT_VARIED: &[&str] = &["clock_ghz", "timebase_hz"];

/// What a band needs of a finished run: its tape, the profile its model
/// ran, and the window's shape.
pub struct BandInput {
    pub tape: Tape,
    pub profile: Rc<Profile>,
    /// How many phases the counters have.
    pub phases: usize,
    /// Their names, by index.
    pub names: Vec<String>,
    /// The window's divisor (iterations, or 1 for a whole run).
    pub iters: u64,
    /// Events per cost category in the window (`cost::depends`).
    pub counts: Vec<u64>,
    /// The run read the clock, was interrupted by the timer, or idled.
    pub clock_dependent: bool,
    /// Window cycles per phase, by assignment (its text).
    cache: RefCell<HashMap<String, Rc<Replayed>>>,
    /// Mispredict lists, by predictor values: an id per distinct list,
    /// so that predictors that agree share their costings.
    misps: RefCell<HashMap<String, usize>>,
    distinct: RefCell<Vec<Rc<Misps>>>,
    /// A dry run (`job::BandJob::plan`): `window` costs nothing, and notes
    /// each combination not yet in the cache in `missing`.
    dry: std::cell::Cell<bool>,
    missing: RefCell<Vec<Assign>>,
}

impl BandInput {
    pub fn new(
        tape: Tape,
        profile: Rc<Profile>,
        names: Vec<String>,
        iters: u64,
        counts: Vec<u64>,
        clock_dependent: bool,
    ) -> BandInput {
        BandInput {
            tape,
            profile,
            phases: names.len(),
            names,
            iters,
            counts,
            clock_dependent,
            cache: RefCell::default(),
            misps: RefCell::default(),
            distinct: RefCell::default(),
            dry: std::cell::Cell::new(false),
            missing: RefCell::default(),
        }
    }

    /// The parameters this run's figures depend on and whose ends differ.
    pub fn knobs(&self) -> Vec<Knob> {
        let count = |c: Cat| self.counts.get(c as usize).copied().unwrap_or(0);
        self.profile
            .ranged()
            .into_iter()
            .filter(|r| r.ends.len() > 1 && !NOT_VARIED.contains(&r.name))
            .filter(|r| crate::cost::depends::depends_on(r.name, count))
            .map(|r| Knob {
                key: r.key(),
                ends: r.ends,
            })
            .collect()
    }

    /// The clock's ends in GHz (the value alone when it has none).
    pub fn clocks(&self) -> Vec<f64> {
        let c = &self.profile.core.clock_ghz;
        match &c.ends {
            crate::cost::Ends::Range(lo, hi) => vec![*lo, *hi],
            _ => vec![c.value],
        }
    }

    fn profile_with(&self, a: &Assign) -> Profile {
        let mut p = (*self.profile).clone();
        for (k, v) in a {
            let ok = p.set(k, v);
            debug_assert!(ok, "no parameter {k} of that type");
        }
        p
    }

    /// Window cycles (milli) per phase with `a`'s values.
    pub fn window(&self, a: &Assign) -> Rc<Replayed> {
        let p = self.profile_with(a);
        // The costing depends on the mispredicts and the other values.
        let cost: Assign = a
            .iter()
            .filter(|(k, _)| !PREDICTOR.contains(&k.as_str()))
            .cloned()
            .collect();
        let known = self.misps.borrow().get(&predictor_key(&p)).copied();
        let hit = known.and_then(|id| {
            let key = format!("{id}|{}", text(&cost));
            self.cache.borrow().get(&key).cloned()
        });
        if let Some(v) = hit {
            return v;
        }
        if self.dry.get() {
            let mut m = self.missing.borrow_mut();
            if !m.contains(a) {
                m.push(a.clone());
            }
            return Rc::new(Replayed {
                window: vec![0; self.phases],
                marks: Vec::new(),
                end: None,
            });
        }
        let (id, misps) = self.misps_for(&p);
        let key = format!("{id}|{}", text(&cost));
        if let Some(v) = self.cache.borrow().get(&key) {
            return v.clone();
        }
        let v = Rc::new(replay::replay(&self.tape, p, &misps, self.phases, true));
        self.cache.borrow_mut().insert(key, v.clone());
        v
    }

    fn misps_for(&self, p: &Profile) -> (usize, Rc<Misps>) {
        let key = predictor_key(p);
        if let Some(&id) = self.misps.borrow().get(&key) {
            return (id, self.distinct.borrow()[id].clone());
        }
        let m = replay::predict(&self.tape, p);
        let mut d = self.distinct.borrow_mut();
        let id = match d.iter().position(|x| **x == m) {
            Some(id) => id,
            None => {
                d.push(Rc::new(m));
                d.len() - 1
            }
        };
        self.misps.borrow_mut().insert(key, id);
        (id, d[id].clone())
    }

    /// The per-iteration work figure (cycles; idle left out) from window
    /// cycles per phase.
    pub fn work(&self, w: &[u64]) -> f64 {
        let idle = w.get(IDLE as usize).copied().unwrap_or(0);
        per(w.iter().sum::<u64>() - idle, self.iters)
    }
}

impl std::fmt::Debug for BandInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BandInput({} entries, {})",
            self.tape.entries.len(),
            self.profile.name
        )
    }
}

/// The predictors' values, as the key of their mispredicts.
fn predictor_key(p: &Profile) -> String {
    let c = &p.core;
    format!(
        "{} {} {} {} {}",
        c.ras_depth.value,
        c.bht_entries.value,
        c.btb_entries.value,
        c.trap_flushes_ras.value,
        c.ras_privilege_tags.value
    )
}

fn per(milli: u64, iters: u64) -> f64 {
    if iters == 0 {
        0.0
    } else {
        milli as f64 / MILLI as f64 / iters as f64
    }
}

/// An assignment as text: its cache key and how reports name it.
fn text(a: &Assign) -> String {
    a.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
pub(super) fn replay_plain(input: &BandInput, a: &Assign, reuse: bool) -> Replayed {
    let p = input.profile_with(a);
    let misps = replay::predict(&input.tape, &p);
    replay::replay(&input.tape, p, &misps, input.phases, reuse)
}

/// What a band needs of a finished run whose core model was fed `tape`;
/// none without a core model, or with a tape that overflowed.
pub(crate) fn input_of(
    stats: &super::stats::Stats,
    tape: Tape,
    whole_run: bool,
) -> Option<BandInput> {
    let model = stats.model.as_ref()?;
    if tape.overflowed {
        return None;
    }
    let w = stats.window();
    let iters = if whole_run { 1 } else { stats.iterations };
    let counts = Cat::ALL.iter().map(|c| w.ledger.count(*c)).collect();
    // The path moves with the model's clock if the timer interrupted the
    // run, the hart idled to it, or the measured loop read a counter (a
    // read before or after the loop, like a benchmark's start and end
    // stamps, only reports).
    let clock_dependent = w.ledger.count(Cat::CounterReads) > 0
        || stats.interrupts.keys().any(|k| k.ends_with("timer"))
        || stats.now.cycles.get(IDLE as usize).is_some_and(|v| *v > 0);
    Some(BandInput::new(
        tape,
        model.profile.clone(),
        stats.map.names.clone(),
        iters,
        counts,
        clock_dependent,
    ))
}

/// The per-iteration figure's bands, in cycles and in ns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EstimateBand {
    pub cycles: Band,
    pub ns: Band,
}

/// The band of the per-iteration work figure, in cycles and ns, summed
/// over `sides` (a run and its sign: a difference is after +1, before -1).
pub fn of_work(sides: &[(&BandInput, f64)]) -> Option<EstimateBand> {
    let work = |i: &BandInput, r: &Replayed| i.work(&r.window);
    of(sides, &work)
}

/// The band of one phase's cycles per iteration over `n` events (a figure
/// measured per event), in cycles and ns; none if no run has the phase.
pub fn of_phase(sides: &[(&BandInput, f64)], phase: &str, n: f64) -> Option<EstimateBand> {
    let f = |i: &BandInput, r: &Replayed| {
        i.names
            .iter()
            .position(|x| x == phase)
            .map_or(0.0, |k| per(r.window[k], i.iters) / n)
    };
    of(sides, &f)
}

/// The cycles band of one iteration on each side: the iteration that began
/// at each side's iteration mark `hit` (a path diff's), summed with signs.
pub fn of_iteration(sides: &[(&BandInput, f64, u64)]) -> Option<Band> {
    let figures: Vec<_> = sides
        .iter()
        .map(|(_, _, hit)| {
            let hit = *hit;
            move |_: &BandInput, r: &Replayed| {
                r.iteration(hit)
                    .map_or(f64::NAN, |m| m as f64 / MILLI as f64)
            }
        })
        .collect();
    let sides: Vec<Side<'_>> = sides
        .iter()
        .zip(&figures)
        .map(|((input, sign, _), f)| Side {
            input,
            sign: *sign,
            figure: f,
        })
        .collect();
    let b = band(&sides, false)?;
    (b.low.is_finite() && b.high.is_finite()).then_some(b)
}

fn of(
    sides: &[(&BandInput, f64)],
    figure: &dyn Fn(&BandInput, &Replayed) -> f64,
) -> Option<EstimateBand> {
    let sides: Vec<Side<'_>> = sides
        .iter()
        .map(|(input, sign)| Side {
            input,
            sign: *sign,
            figure,
        })
        .collect();
    Some(EstimateBand {
        cycles: band(&sides, false)?,
        ns: band(&sides, true)?,
    })
}

#[cfg(test)]
mod tests;
