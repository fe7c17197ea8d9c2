//! The fidelity report as text, Markdown and JSON: one row per measured
//! figure and per pair's difference, each ratio or why there is none, and
//! the summary line. Kept apart from the building (`fidelity.rs`) so that
//! what is compared and how it is shown change separately.

use std::fmt::Write;

use super::{Difference, Fidelity, Figure};

/// Rounded as `compare`'s JSON (`compare::round_floats`), so that the two
/// print the same figure for the same estimate.
pub fn json(f: &Fidelity) -> String {
    serde_json::to_value(f)
        .map(|mut v| {
            crate::report::compare::round_floats(&mut v);
            v
        })
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn value(v: Option<f64>, unit: &str, prec: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:.prec$} {unit}"))
}

fn signed(v: Option<f64>, unit: &str, prec: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:+.prec$} {unit}"))
}

/// "0.63", or why there is no ratio.
fn ratio_cell(f: &Figure) -> String {
    if let Some(r) = f.ratio {
        return format!("{r:.2}");
    }
    match f.status {
        "not comparable" => "none (another architecture or setup)",
        "held out" => "none (held out)",
        "not estimated" => "none (the variant did not finish)",
        _ => "-",
    }
    .into()
}

/// A measured figure as the source gives it: up to 3 decimals, no
/// trailing zeros (189.87, 242.9, 123.997).
fn as_given(v: f64, sign: bool) -> String {
    let s = if sign {
        format!("{v:+.3}")
    } else {
        format!("{v:.3}")
    };
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A difference's ratio, or why it has none.
fn diff_ratio(d: &Difference) -> String {
    match d.ratio {
        Some(r) => format!("{r:.2}"),
        None if !d.comparable => "none (another architecture or setup)".into(),
        None => "none (a variant did not finish)".into(),
    }
}

fn measured_cell(f: &Figure) -> String {
    match f.measured {
        None => "held out".into(),
        Some(m) => format!("{} {}", as_given(m, false), f.unit),
    }
}

pub fn summary_line(f: &Fidelity) -> String {
    let s = &f.summary;
    let mut line = format!(
        "{} of {} absolute figures and {} of {} differences are within ±{:.0}% of the measured figure",
        s.absolute_within,
        s.absolute_compared,
        s.differences_within,
        s.differences_compared,
        100.0 * s.band
    );
    if s.banded > 0 {
        line.push_str(&format!(
            "; {} of {} measured figures lie inside the estimate's band",
            s.inside, s.banded
        ));
    }
    line
}

/// "band 139.4..171.4 ns: the measured figure lies outside it; moved most
/// by csr_write_flush"; none without a band.
fn band_words(b: &super::BandCells, unit: &str, sign: bool) -> Option<String> {
    let (lo, hi) = (b.low?, b.high?);
    let mut s = if sign {
        format!("band {lo:+.1}..{hi:+.1} {unit}")
    } else {
        format!("band {lo:.1}..{hi:.1} {unit}")
    };
    match b.inside {
        Some(true) => s.push_str(": the measured figure lies inside it"),
        Some(false) => s.push_str(": the measured figure lies outside it"),
        None => {}
    }
    if b.band_method == Some(crate::session::band::Method::OneAtATime) {
        s.push_str(" (each value alone, then all low and all high)");
    }
    if let Some(m) = &b.moved_most_by {
        s.push_str(&format!("; moved most by {m}"));
    }
    if b.path_fixed {
        s.push_str("; the path held fixed");
    }
    Some(s)
}

/// "151.4 ns (139.4..171.4)" for a table.
fn with_band(v: Option<f64>, b: &super::BandCells, unit: &str, sign: bool) -> String {
    let Some(v) = v else { return "-".into() };
    let band = match (b.low, b.high) {
        (Some(lo), Some(hi)) if sign => format!(" ({lo:+.1}..{hi:+.1})"),
        (Some(lo), Some(hi)) => format!(" ({lo:.1}..{hi:.1})"),
        _ => String::new(),
    };
    if sign {
        format!("{v:+.1} {unit}{band}")
    } else {
        format!("{v:.1} {unit}{band}")
    }
}

/// "inside", "outside" or empty.
fn inside_cell(b: &super::BandCells) -> &'static str {
    match b.inside {
        Some(true) => "inside",
        Some(false) => "outside",
        None => "",
    }
}

pub fn text(f: &Fidelity) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "estimates beside the figures measured on hardware (ratio = estimate / measured; no measured figure is a model input)"
    );
    for name in &f.scenarios {
        let _ = writeln!(o, "\n{name}");
        if f.without_figures.contains(name) {
            let _ = writeln!(o, "  no measured figures");
            continue;
        }
        for g in f.figures.iter().filter(|g| &g.scenario == name) {
            let _ = writeln!(
                o,
                "  {:<6} {:<9} estimate {:<14} measured {:<14} ratio {}",
                g.core,
                g.variant,
                value(g.estimate, g.unit, 1),
                measured_cell(g),
                ratio_cell(g)
            );
            let _ = writeln!(o, "         {} ({})", g.what, g.source);
            if let Some(b) = band_words(&g.band, g.unit, false) {
                let _ = writeln!(o, "         {b}");
            }
            if !g.unverified.is_empty() {
                let _ = writeln!(o, "         unverified: {}", g.unverified.join(", "));
            }
        }
        for d in f.differences.iter().filter(|d| &d.scenario == name) {
            let measured = format!("{} {}", as_given(d.measured, true), d.unit);
            let whose = if d.given { "your measured" } else { "measured" };
            let _ = writeln!(
                o,
                "  {:<6} {} → {}: estimated difference {}, {whose} {measured}, ratio {}",
                d.core,
                d.before,
                d.after,
                signed(d.estimate, d.unit, 1),
                diff_ratio(d)
            );
            if let Some(b) = band_words(&d.band, d.unit, true) {
                let _ = writeln!(o, "         {b}");
            }
            if !d.unverified.is_empty() {
                let _ = writeln!(o, "         unverified: {}", d.unverified.join(", "));
            }
        }
    }
    let _ = writeln!(o, "\n{}", summary_line(f));
    o
}

/// The scenario's file name, for the Markdown tables.
fn short(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// A table cell: `|` escaped, lines joined.
fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn markdown(f: &Fidelity) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Per iteration of each scenario's measured loop; ratio = estimate / measured. No measured figure is a model input.\n"
    );
    let _ = writeln!(
        o,
        "| scenario | core | variant | estimate (band) | measured | ratio | in band | moved most by | what was measured (source) | unverified parameters |"
    );
    let _ = writeln!(o, "|---|---|---|---:|---:|---:|---|---|---|---|");
    for g in &f.figures {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} |",
            short(&g.scenario),
            g.core,
            g.variant,
            with_band(g.estimate, &g.band, g.unit, false),
            measured_cell(g),
            ratio_cell(g),
            inside_cell(&g.band),
            g.band.moved_most_by.as_deref().unwrap_or(""),
            md_cell(&g.what),
            md_cell(&g.source),
            g.unverified.join(", ")
        );
    }
    let _ = writeln!(
        o,
        "\n| scenario | core | pair (after − before) | estimated difference (band) | measured difference | ratio | in band | moved most by | unverified parameters |"
    );
    let _ = writeln!(o, "|---|---|---|---:|---:|---:|---|---|---|");
    for d in &f.differences {
        let mut measured = format!("{} {}", as_given(d.measured, true), d.unit);
        if d.given {
            measured.push_str(" (yours)");
        }
        let _ = writeln!(
            o,
            "| {} | {} | {} → {} | {} | {measured} | {} | {} | {} | {} |",
            short(&d.scenario),
            d.core,
            d.before,
            d.after,
            with_band(d.estimate, &d.band, d.unit, true),
            diff_ratio(d),
            inside_cell(&d.band),
            d.band.moved_most_by.as_deref().unwrap_or(""),
            d.unverified.join(", ")
        );
    }
    if !f.without_figures.is_empty() {
        let names: Vec<&str> = f.without_figures.iter().map(|n| short(n)).collect();
        let _ = writeln!(o, "\nNo measured figures: {}.", names.join(", "));
    }
    let _ = writeln!(o, "\n{}.", summary_line(f));
    o
}
