//! The measured figures beside `compare`'s estimates: the table's cell
//! (the scenario's figure, then the reviewer's from `--measured`) and the
//! lines that state each gap.

use crate::report::measured;
use crate::scenario::Scenario;
use crate::session::{Estimate, VariantRun};

/// The measured figure, and its difference from the measured figure of the
/// variant's pair `before` when both were measured.
/// The scenario's figure, then the one given with `--measured` ("yours").
pub(super) fn reference_cell(
    s: &Scenario,
    core: &str,
    variant: &str,
    before: Option<&str>,
) -> String {
    let own = figure_cell(s, core, variant, before, false);
    match measured::lookup(s, core, variant, true) {
        None => own,
        Some(_) => {
            let yours = figure_cell(s, core, variant, before, true);
            if own == "-" {
                format!("yours: {yours}")
            } else {
                format!("{own}; yours: {yours}")
            }
        }
    }
}

fn figure_cell(
    s: &Scenario,
    core: &str,
    variant: &str,
    before: Option<&str>,
    given: bool,
) -> String {
    let find = |v: &str| measured::lookup(s, core, v, given);
    match find(variant) {
        None => "-".into(),
        Some(r) if given && r.ns.is_some() && r.cycles.is_some() => {
            format!(
                "{:.2} ns, {} cycles",
                r.ns.unwrap_or_default(),
                r.cycles.unwrap_or_default()
            )
        }
        Some(r) => match (r.ns, before.and_then(find).and_then(|x| x.ns)) {
            // A figure per event (`phase`/`per`): `fidelity` sets it against
            // the phase's share; here only its value.
            (None, _) if r.per_event.is_some() => r
                .cycles
                .map_or("held out".into(), |c| format!("{c} cycles per event")),
            (None, _) if r.cycles.is_some() => {
                format!("{} cycles", r.cycles.unwrap_or_default())
            }
            (None, _) => "held out".into(),
            (Some(ns), Some(base)) => {
                format!(
                    "{ns:.2} ns ({:+.2} ns, {})",
                    ns - base,
                    pct(ns - base, base)
                )
            }
            (Some(ns), _) => format!("{ns:.2} ns"),
        },
    }
}

/// The estimate beside the measured figure: the gap is stated, not hidden.
pub(super) fn gap_lines(
    s: &Scenario,
    core: &str,
    ests: &[(&VariantRun, &Estimate)],
) -> Vec<String> {
    let mut out = Vec::new();
    // The scenario's figures, then those given with --measured.
    for given in [false, true] {
        let whose = if given { "your measured" } else { "measured" };
        for (r, e) in ests {
            let Some(m) = measured::lookup(s, core, &r.variant, given) else {
                continue;
            };
            if let Some(ns) = m.ns {
                out.push(format!(
                    "{core} {}: estimate {:.1} ns vs {whose} {ns:.2} ns (the estimate is {:.0}% of the measured figure)",
                    r.variant,
                    e.ns_per_iteration,
                    100.0 * e.ns_per_iteration / ns
                ));
            }
            if let Some(c) = m.cycles.filter(|_| given) {
                out.push(format!(
                    "{core} {}: estimate {:.1} cycles vs {whose} {c} cycles (the estimate is {:.0}% of the measured figure)",
                    r.variant,
                    e.cycles_per_iteration,
                    100.0 * e.cycles_per_iteration / c
                ));
            }
        }
        let find = |v: &str| ests.iter().find(|(r, _)| r.variant == v).map(|(_, e)| *e);
        for p in &s.pairs {
            let m = |v: &str| measured::lookup(s, core, v, given).and_then(|x| x.ns);
            if let (Some(e0), Some(e1), Some(m0), Some(m1)) =
                (find(&p.before), find(&p.after), m(&p.before), m(&p.after))
            {
                out.push(format!(
                    "{core} difference, {} → {}: estimate {:+.1} ns vs {whose} {:+.2} ns",
                    p.before,
                    p.after,
                    e1.ns_per_iteration - e0.ns_per_iteration,
                    m1 - m0
                ));
            }
        }
    }
    // What each figure is, one line per variant it was measured on.
    for r in s
        .references
        .iter()
        .filter(|r| r.comparable && r.core == core && !measured::is_given(r))
    {
        out.push(format!(
            "{core} measured, {}: {} ({})",
            r.variant, r.what, r.source
        ));
    }
    out
}

/// `d` as a signed percentage of `base`, one decimal; empty for a zero
/// base (also the table's change column in `compare.rs`).
pub(super) fn pct(d: f64, base: f64) -> String {
    if base == 0.0 {
        return String::new();
    }
    format!("{:+.1}%", 100.0 * d / base)
}
