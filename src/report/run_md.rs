//! The Markdown tables of `run --format md` beside the instructions per
//! phase and per function: how each variant ended, its modelled cycles per
//! phase and by cause, and its hottest lines (the text report's columns,
//! as real tables for a mail or a review).

use std::fmt::Write;

use super::{fmt_num, phase_order};
use crate::scenario::Scenario;
use crate::session::VariantRun;

/// A table cell: `|` escaped (source comments hold `A | B`), lines joined.
pub(super) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn header(o: &mut String, first: &str, runs: &[&VariantRun]) {
    let _ = write!(o, "| {first} |");
    for r in runs {
        let _ = write!(o, " {} |", cell(&r.variant));
    }
    let _ = write!(o, "\n|---|");
    for _ in runs {
        let _ = write!(o, "---:|");
    }
    let _ = writeln!(o);
}

/// How each variant ended: outcome, instructions, traps, iterations.
pub(super) fn outcomes(o: &mut String, runs: &[VariantRun]) {
    let _ = writeln!(
        o,
        "| variant | outcome | instructions | traps | iterations |\n|---|---|---:|---:|---:|"
    );
    for r in runs {
        let end = match (r.exit_code, &r.error) {
            (Some(_), _) if r.outcome == "loop-ended" => "the measured loop ended".to_string(),
            (Some(c), _) => format!("exited with code {c}"),
            (None, Some(e)) => format!("did not finish: {e}"),
            (None, None) => r.outcome.clone(),
        };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} |",
            cell(&r.variant),
            cell(&end),
            r.instructions,
            r.traps,
            r.iterations
        );
    }
    let _ = writeln!(o);
}

/// Modelled cycles per iteration by phase and by cause, and each
/// variant's hot lines, for the variants that have an estimate.
pub(super) fn cycles(o: &mut String, s: &Scenario, runs: &[VariantRun]) {
    let est: Vec<&VariantRun> = runs.iter().filter(|r| r.estimate.is_some()).collect();
    if est.is_empty() {
        return;
    }
    let cores: Vec<String> = est
        .iter()
        .filter_map(|r| r.estimate.as_ref().map(|e| e.core.clone()))
        .collect();
    let mut uniq = cores.clone();
    uniq.dedup();
    let _ = writeln!(
        o,
        "\nModelled cycles per iteration on {}:\n",
        uniq.join(", ")
    );
    header(o, "phase (cycles/iteration)", &est);
    for p in phase_order(s, runs) {
        let _ = write!(o, "| {} |", cell(&p));
        for r in &est {
            let v = r.estimate.as_ref().and_then(|e| e.phases.get(&p)).copied();
            let _ = write!(o, " {} |", v.map_or("0".into(), |v| format!("{v:.1}")));
        }
        let _ = writeln!(o);
    }
    for (what, f) in [
        (
            "**total**",
            (|e: &crate::session::Estimate| format!("{:.1}", e.cycles_per_iteration))
                as fn(&crate::session::Estimate) -> String,
        ),
        ("ns per iteration", |e| {
            format!("{:.1} ns at {} GHz", e.ns_per_iteration, e.clock_ghz)
        }),
    ] {
        let _ = write!(o, "| {what} |");
        for r in &est {
            let _ = write!(o, " {} |", r.estimate.as_ref().map(f).unwrap_or_default());
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o);
    header(o, "cause (cycles/iteration)", &est);
    for c in crate::cost::Cat::ALL {
        let k = c.key();
        let vals: Vec<String> = est
            .iter()
            .map(|r| {
                let e = r.estimate.as_ref();
                let v = e.and_then(|e| e.breakdown.get(k)).copied().unwrap_or(0.0);
                match e.and_then(|e| e.events.get(k)) {
                    Some(n) if v > 0.0 => format!("{} = {v:.1}", fmt_num(*n)),
                    _ => format!("{v:.1}"),
                }
            })
            .collect();
        if est.iter().all(|r| {
            r.estimate
                .as_ref()
                .and_then(|e| e.breakdown.get(k))
                .is_none_or(|v| *v <= 0.0)
        }) {
            continue;
        }
        let _ = writeln!(o, "| {} | {} |", cell(c.label()), vals.join(" | "));
    }
    for r in &est {
        let Some(e) = &r.estimate else { continue };
        if e.hot_lines.is_empty() {
            continue;
        }
        let _ = writeln!(
            o,
            "\nHot lines of {} on {} (cycles per iteration):\n",
            cell(&r.variant),
            e.core
        );
        let _ = writeln!(o, "| cycles | line | source |\n|---:|---|---|");
        for h in &e.hot_lines {
            let _ = writeln!(
                o,
                "| {:.1} | {} | `{}` |",
                h.cycles_per_iteration,
                cell(&h.loc),
                cell(&h.text).replace('`', "'")
            );
        }
    }
}
