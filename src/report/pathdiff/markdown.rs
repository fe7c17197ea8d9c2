//! The path diff as Markdown tables (for a review thread).

use std::fmt::Write;

use super::render::{NO_CORE, event_rows, instead_text, mark};
use super::{Line, PathDiff, cycles, events_detail, events_text, signed};

/// A table cell: `|` escaped, no line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn code(s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("`{}`", s.replace('`', "'"))
    }
}

/// Markdown: the alignment, the per-function subtotals, the events and the
/// total, as tables.
pub fn markdown(d: &PathDiff, full: bool) -> String {
    let with = d.core.is_some();
    let folds = if full { Vec::new() } else { d.folds() };
    let mut fold = folds.iter().peekable();
    let mut skip_to = 0;
    let mut s = String::new();
    let core = d
        .core
        .as_deref()
        .map_or(String::new(), |c| format!(" on {c}"));
    let _ = writeln!(
        s,
        "## Path diff: {} → {}, iteration {}{core}\n",
        cell(&d.a.variant),
        cell(&d.b.variant),
        d.a.iteration
    );
    let _ = writeln!(s, "Scenario `{}`.", d.scenario.replace('`', "'"));
    for (n, side) in [("A", &d.a), ("B", &d.b)] {
        let _ = write!(s, "{n} = **{}**", cell(&side.variant));
        if !side.label.is_empty() {
            let _ = write!(s, " ({})", cell(&side.label));
        }
        let _ = writeln!(
            s,
            ": {} instructions{}.",
            side.lines.len(),
            if with {
                format!(", {} cycles", cycles(side.milli))
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(s, "\nShown: {}", cell(&d.choice_words()));
    let _ = writeln!(s, "\nLines matched by {}.", d.matched_by.words());
    for g in d.gave_up_words() {
        let _ = writeln!(s, "\n**{}**", cell(&g));
    }
    if !with {
        let _ = writeln!(s, "\n{NO_CORE}");
    }
    let _ = writeln!(s, "\n`=` on both paths, `-` only in A, `+` only in B.\n");
    if with {
        let _ = writeln!(
            s,
            "| | A | B | source | instruction | A cyc | B cyc | events |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|--:|--:|---|");
    } else {
        let _ = writeln!(s, "| | A | B | source | instruction | events |");
        let _ = writeln!(s, "|---|---|---|---|---|---|");
    }
    for (k, (o, (a, b))) in d.ops.iter().zip(d.rows()).enumerate() {
        if k < skip_to {
            continue;
        }
        if let Some(&&(from, to)) = fold.peek()
            && k == from
        {
            fold.next();
            skip_to = to;
            let cyc = d.fold_cycles((from, to));
            let _ = writeln!(
                s,
                "| … | | | | {} rows the same on both paths{cyc} (`--full` shows them) |{} |",
                to - from,
                if with { " | |" } else { "" }
            );
            continue;
        }
        let at = |x: Option<&Line>| x.map_or(String::new(), |l| code(&l.at));
        let Some(l) = a.or(b) else { continue };
        let mut src = l.source.clone().unwrap_or_default();
        let mut insn = code(&l.text);
        if let (Some(a), Some(b)) = (a, b) {
            if a.source != b.source {
                src = format!("{src} / {}", b.source.clone().unwrap_or_default());
            }
            if a.text != b.text {
                insn = format!("{} / {}", code(&a.text), code(&b.text));
            }
        }
        let mut ev = Vec::new();
        for (n, x) in [("A", a), ("B", b)] {
            if let Some(x) = x.filter(|x| !x.events.is_empty()) {
                ev.push(format!("{n}: {}", events_text(x, with)));
            }
        }
        let cyc = |x: Option<&Line>| x.map_or(String::new(), |l| cycles(l.milli));
        let m = match mark(o) {
            '=' => "=".to_string(),
            c => format!("**{c}**"),
        };
        let mid = if with {
            format!(" {} | {} |", cyc(a), cyc(b))
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "| {m} | {} | {} | {} | {} |{mid} {} |",
            cell(&at(a)),
            cell(&at(b)),
            cell(&src),
            cell(&insn),
            cell(&ev.join("; "))
        );
    }
    let _ = writeln!(s, "\n### Per function\n");
    if with {
        let _ = writeln!(
            s,
            "| function | A insns | A cyc | B insns | B cyc | B − A cyc |"
        );
        let _ = writeln!(s, "|---|--:|--:|--:|--:|--:|");
    } else {
        let _ = writeln!(s, "| function | A insns | B insns | B − A |");
        let _ = writeln!(s, "|---|--:|--:|--:|");
    }
    for f in &d.functions {
        if with {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                code(&cell(&f.function)),
                f.a_insns,
                cycles(f.a_milli),
                f.b_insns,
                cycles(f.b_milli),
                signed(f.b_milli as i64 - f.a_milli as i64)
            );
        } else {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:+} |",
                code(&cell(&f.function)),
                f.a_insns,
                f.b_insns,
                f.b_insns as i64 - f.a_insns as i64
            );
        }
    }
    let rows = event_rows(d);
    let _ = writeln!(
        s,
        "\n### Events, and what the other path has at that line\n"
    );
    if rows.is_empty() {
        let _ = writeln!(s, "None on either path.");
    } else {
        let _ = writeln!(s, "| A | A events | B | B events |");
        let _ = writeln!(s, "|---|---|---|---|");
        for r in rows {
            let (a, b) = (r.a, r.b);
            let one = |x: Option<&Line>| match x {
                None => (instead_text(&r.instead, true), String::new()),
                Some(l) => (
                    format!("{} {}", code(&l.at), code(&l.text)),
                    if l.events.is_empty() {
                        "none".into()
                    } else {
                        events_detail(l, with)
                    },
                ),
            };
            let (aa, ae) = one(a);
            let (ba, be) = one(b);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                cell(&aa),
                cell(&ae),
                cell(&ba),
                cell(&be)
            );
        }
    }
    let _ = writeln!(s, "\n### Total\n");
    let (na, nb) = (d.a.lines.len() as i64, d.b.lines.len() as i64);
    if with {
        let bs = d.bands.as_ref();
        let band = |b: Option<&crate::session::band::Band>, sign: bool| match b {
            Some(b) if sign => format!(" ({:+.1}..{:+.1})", b.low, b.high),
            Some(b) => format!(" ({:.1}..{:.1})", b.low, b.high),
            None => String::new(),
        };
        let _ = writeln!(s, "| | instructions | cycles |");
        let _ = writeln!(s, "|---|--:|--:|");
        let _ = writeln!(
            s,
            "| A {} | {na} | {}{} |",
            cell(&d.a.variant),
            cycles(d.a.milli),
            band(bs.map(|b| &b.a), false)
        );
        let _ = writeln!(
            s,
            "| B {} | {nb} | {}{} |",
            cell(&d.b.variant),
            cycles(d.b.milli),
            band(bs.map(|b| &b.b), false)
        );
        let _ = writeln!(
            s,
            "| B − A | {:+} | {}{} |",
            nb - na,
            signed(d.diff_milli()),
            band(bs.map(|b| &b.b_minus_a), true)
        );
        if bs.is_some() {
            let _ = writeln!(
                s,
                "\n(low..high): over the ends of the profile's unverified and assumed values (docs/reference/bands.md)."
            );
        }
    } else {
        let _ = writeln!(s, "| | instructions |");
        let _ = writeln!(s, "|---|--:|");
        let _ = writeln!(s, "| A {} | {na} |", cell(&d.a.variant));
        let _ = writeln!(s, "| B {} | {nb} |", cell(&d.b.variant));
        let _ = writeln!(s, "| B − A | {:+} |", nb - na);
    }
    s
}
