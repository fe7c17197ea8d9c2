//! The lines that explain a difference between two variants on one core:
//! instructions, then each category of the cost model's breakdown, with the
//! count × unit cost where a category has one.

use crate::cost::Cat;
use crate::session::{Estimate, VariantRun};

fn fmt(v: f64) -> String {
    if (v - v.round()).abs() < 0.005 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
    }
}

/// One line of the explanation: as text, and as a Markdown table's cells
/// (what, before, after, the change in cycles).
pub(super) struct Row {
    pub text: String,
    pub cells: [String; 4],
}

fn row(text: String, what: &str, before: String, after: String, change: String) -> Row {
    Row {
        text,
        cells: [what.to_string(), before, after, change],
    }
}

/// "of which in user code": RAS mispredicts of user returns (the return of
/// the user function that made the syscall or took the interrupt).
fn user_ras_line(e0: &Estimate, e1: &Estimate) -> Option<Row> {
    let get = |e: &Estimate| e.events.get("user_ras_mispredicts").copied().unwrap_or(0.0);
    let (u0, u1) = (get(e0), get(e1));
    ((u1 - u0).abs() > 0.004).then(|| {
        row(
            format!(
                "  of which in user code        {} → {} (user returns after the trap)",
                fmt(u0),
                fmt(u1)
            ),
            "of which in user code (user returns after the trap)",
            fmt(u0),
            fmt(u1),
            String::new(),
        )
    })
}

/// "RAS mispredicts: 3 → 0 (-3 × 3 cycles = -9)" for each category that moved.
pub(super) fn difference_lines(
    r0: &VariantRun,
    e0: &Estimate,
    r1: &VariantRun,
    e1: &Estimate,
) -> Vec<Row> {
    let mut out = Vec::new();
    let i0 = r0.insns_per_iteration.get("total").copied().unwrap_or(0.0);
    let i1 = r1.insns_per_iteration.get("total").copied().unwrap_or(0.0);
    if (i1 - i0).abs() > 0.004 {
        out.push(row(
            format!(
                "{:<36} {} → {} per iteration",
                "instructions (all kinds)",
                fmt(i0),
                fmt(i1),
            ),
            "instructions (all kinds)",
            fmt(i0),
            fmt(i1),
            String::new(),
        ));
    }
    // Idle time is not in the per-iteration total (session::estimate), so
    // it makes none of the difference.
    for c in Cat::ALL.into_iter().filter(|c| *c != Cat::Idle) {
        let k = c.key();
        let (c0, c1) = (
            e0.breakdown.get(k).copied().unwrap_or(0.0),
            e1.breakdown.get(k).copied().unwrap_or(0.0),
        );
        let dc = c1 - c0;
        if matches!(
            c,
            Cat::Issue | Cat::IssueRules | Cat::DataStalls | Cat::StructuralStalls
        ) {
            if dc.abs() > 0.004 {
                out.push(row(
                    format!("{:<36} {:.2} → {:.2} cycles ({dc:+.2})", c.label(), c0, c1),
                    c.label(),
                    format!("{c0:.2} cycles"),
                    format!("{c1:.2} cycles"),
                    format!("{dc:+.2}"),
                ));
            }
            continue;
        }
        let (n0, n1) = (
            e0.events.get(k).copied().unwrap_or(0.0),
            e1.events.get(k).copied().unwrap_or(0.0),
        );
        if (n1 - n0).abs() < 0.004 && dc.abs() < 0.004 {
            continue;
        }
        let delta = if n1 >= n0 {
            format!("+{}", fmt(n1 - n0))
        } else {
            format!("-{}", fmt(n0 - n1))
        };
        match e1.unit_cycles.get(k) {
            Some(unit) => out.push(row(
                format!(
                    "{:<36} {} → {} ({delta} × {} cycles = {dc:+.2})",
                    c.label(),
                    fmt(n0),
                    fmt(n1),
                    fmt(*unit)
                ),
                c.label(),
                fmt(n0),
                fmt(n1),
                format!("{delta} × {} = {dc:+.2}", fmt(*unit)),
            )),
            // Vector occupancy has no single unit: it follows LMUL and vl.
            None => out.push(row(
                // The counts and the cycles they cost, each with its own
                // difference (out of order, bubbles overlap other work).
                format!(
                    "{:<36} {} → {} ({delta}; {dc:+.2} cycles)",
                    c.label(),
                    fmt(n0),
                    fmt(n1)
                ),
                c.label(),
                fmt(n0),
                fmt(n1),
                format!("{delta}; {dc:+.2}"),
            )),
        }
        // The RAS line's own share in user code, right under it.
        if k == "ras_mispredicts" {
            out.extend(user_ras_line(e0, e1));
        }
    }
    let (t0, t1) = (e0.cycles_per_iteration, e1.cycles_per_iteration);
    out.push(row(
        format!("{:<36} {t0:.2} → {t1:.2} cycles ({:+.2})", "total", t1 - t0),
        "**total**",
        format!("{t0:.2} cycles"),
        format!("{t1:.2} cycles"),
        format!("{:+.2}", t1 - t0),
    ));
    out
}
