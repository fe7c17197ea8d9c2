//! Combining a figure's values over its parameters' ends into a band:
//! which combinations to take, the clock's ends for a figure in ns, and the
//! parameter whose ends alone move it most.

use serde::Serialize;

use super::BandInput;
use super::types::{Assign, FULL_MAX, Knob, Replayed};

/// How a band was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Every combination of the parameters' ends.
    EveryCombination,
    /// Each parameter's ends alone, then all at the ends that lowered the
    /// figure and all at those that raised it.
    OneAtATime,
}

/// A figure's band.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Band {
    pub low: f64,
    pub high: f64,
    /// The parameter whose ends alone, the others at the profile's
    /// values, move the figure most (none: nothing moves it).
    pub moved_most_by: Option<String>,
    pub method: Method,
    /// The parameters varied (the clock too, for a figure in ns).
    pub parameters: Vec<String>,
    /// The run's path depends on the model's clock, and the band holds it
    /// fixed (the timer, the clock reads and idling as this run had them).
    pub path_fixed: bool,
}

impl Band {
    /// `low..high`, at the precision the tables print.
    pub fn range_text(&self) -> String {
        format!("{:.1}..{:.1}", self.low, self.high)
    }
}

/// A side of a figure: a run, the sign it enters with (+1, or -1 for a
/// difference's before), and the figure it gives from window cycles per
/// phase (in cycles).
pub struct Side<'a> {
    pub input: &'a BandInput,
    pub sign: f64,
    pub figure: &'a dyn Fn(&BandInput, &Replayed) -> f64,
}

/// The band of `sum(sign · figure)` over the sides; `ns`: divided by the
/// clock (the first side's, whose ends it varies). None without sides.
pub fn band(sides: &[Side<'_>], ns: bool) -> Option<Band> {
    let first = sides.first()?;
    let mut knobs: Vec<Knob> = Vec::new();
    for s in sides {
        for k in s.input.knobs() {
            if !knobs.iter().any(|x| x.key == k.key) {
                knobs.push(k);
            }
        }
    }
    let eval = |a: &Assign| -> f64 {
        sides
            .iter()
            .map(|s| s.sign * (s.figure)(s.input, &s.input.window(a)))
            .sum()
    };
    let clocks = if ns { first.input.clocks() } else { vec![1.0] };
    let clock = if ns {
        first.input.profile.core.clock_ghz.value
    } else {
        1.0
    };
    let central = eval(&Vec::new());
    // Each alone, the others at the profile's values.
    let mut alone: Vec<(String, f64, f64, Assign, Assign)> = Vec::new();
    for k in &knobs {
        let mut lo = (f64::INFINITY, Vec::new());
        let mut hi = (f64::NEG_INFINITY, Vec::new());
        for v in &k.ends {
            let a = vec![(k.key.clone(), v.clone())];
            let f = eval(&a);
            if f < lo.0 {
                lo = (f, a.clone());
            }
            if f > hi.0 {
                hi = (f, a);
            }
        }
        alone.push((k.key.clone(), lo.0, hi.0, lo.1, hi.1));
    }
    let combos: usize = knobs
        .iter()
        .map(|k| k.ends.len())
        .try_fold(1usize, |a, n| a.checked_mul(n))
        .unwrap_or(usize::MAX);
    let (method, mut values) = if combos <= FULL_MAX {
        let mut values = vec![central];
        for c in 0..combos {
            // Combination c, read as digits: the last parameter fastest.
            let mut rest = c;
            let mut a: Assign = Vec::with_capacity(knobs.len());
            for k in knobs.iter().rev() {
                a.push((k.key.clone(), k.ends[rest % k.ends.len()].clone()));
                rest /= k.ends.len();
            }
            a.reverse();
            values.push(eval(&a));
        }
        (Method::EveryCombination, values)
    } else {
        let mut values = vec![central];
        values.extend(alone.iter().flat_map(|a| [a.1, a.2]));
        let low: Assign = alone.iter().flat_map(|a| a.3.clone()).collect();
        let high: Assign = alone.iter().flat_map(|a| a.4.clone()).collect();
        values.push(eval(&low));
        values.push(eval(&high));
        (Method::OneAtATime, values)
    };
    // The clock divides every value (ns): each at each of its ends.
    if ns {
        values = values
            .iter()
            .flat_map(|v| clocks.iter().map(move |c| v / c))
            .collect();
    }
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut swings: Vec<(String, f64)> = alone
        .iter()
        .map(|a| (a.0.clone(), (a.2 - a.1) / clock))
        .collect();
    let mut parameters: Vec<String> = knobs.iter().map(|k| k.key.clone()).collect();
    if ns && clocks.len() > 1 {
        let (lo, hi) = (clocks[0], clocks[clocks.len() - 1]);
        swings.push(("clock_ghz".into(), (central / lo - central / hi).abs()));
        parameters.push("clock_ghz".into());
    }
    let moved_most_by = swings
        .iter()
        .filter(|s| s.1 > 1e-9)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|s| s.0.clone());
    Some(Band {
        low,
        high,
        moved_most_by,
        method,
        parameters,
        path_fixed: sides.iter().any(|s| s.input.clock_dependent),
    })
}
