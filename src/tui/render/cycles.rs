//! Cycles: the total, per phase and by cause, a sparkline per iteration, the variants'
//! figures per iteration, and each before/after pair's difference.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline};

use super::{dim, hot, pane_block};
use crate::cost::MILLI;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let st = s.live.stats();
    let block = pane_block(s, Pane::Cycles, " Cycles ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let has_model = st.model.is_some();
    let (unit, total): (&str, f64) = if has_model {
        (
            "cycles",
            st.now.cycles.iter().sum::<u64>() as f64 / MILLI as f64,
        )
    } else {
        ("instructions", s.live.executed() as f64)
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("total  ", dim()),
        Span::styled(format!("{total:.1} {unit}"), hot()),
        Span::raw(format!("  ({} instr)", s.live.executed())),
    ])];
    let per_phase: Vec<String> = st
        .map
        .names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let v = if has_model {
                st.now.cycles[i] as f64 / MILLI as f64
            } else {
                st.now.phase[i] as f64
            };
            (v > 0.0).then(|| format!("{n} {v:.0}"))
        })
        .collect();
    lines.push(Line::raw(per_phase.join("  ")));
    // Where the cycles went, by the model's categories (cost::Cat).
    if has_model {
        let parts: Vec<String> = crate::cost::Cat::ALL
            .iter()
            .filter_map(|c| {
                let v = st.now.ledger.milli(*c);
                (v > 0).then(|| Some(format!("{} {:.0}", c.short()?, v as f64 / MILLI as f64)))?
            })
            .collect();
        if !parts.is_empty() {
            lines.push(Line::from(vec![
                Span::styled("by cause  ", dim()),
                Span::raw(parts.join("  ")),
            ]));
        }
    }
    lines.push(Line::styled(
        "per iteration, whole runs (± pair's before):",
        dim(),
    ));
    let per_it = |r: &crate::session::VariantRun| {
        r.estimate.as_ref().map_or(
            r.insns_per_iteration.get("total").copied().unwrap_or(0.0),
            |e| e.cycles_per_iteration,
        )
    };
    let summary = |name: &str| {
        let i = s.scenario.variants.iter().position(|v| v.name == name)?;
        s.summaries.get(i)?.as_ref()
    };
    for (i, sum) in s.summaries.iter().enumerate() {
        let Some(r) = sum else { continue };
        let name = &s.scenario.variants[i].name;
        let v = per_it(r);
        // The difference from the variant's pair `before` (with ns on a
        // core model): this line reports that pair; the lines below give
        // the pairs no variant line stands for.
        let d = s
            .scenario
            .pair_of(name)
            .and_then(|p| summary(&p.before))
            .map(|b| {
                let ns = match (&r.estimate, &b.estimate) {
                    (Some(a), Some(b)) => {
                        format!(" {:+.1} ns", a.ns_per_iteration - b.ns_per_iteration)
                    }
                    _ => String::new(),
                };
                format!("  {:+.1}{ns}", v - per_it(b))
            })
            .unwrap_or_default();
        let mark = if i == s.live.variant { "▶" } else { " " };
        lines.push(Line::raw(format!("{mark} {name:<10} {v:>8.1}{d}")));
    }
    lines.extend(pair_lines(s));
    // The text first: the sparkline gives up its rows when the variants and
    // pairs need them (a scenario with many of each).
    let w = usize::from(inner.width.max(1));
    let need: usize = lines.iter().map(|l| l.width().div_ceil(w).max(1)).sum();
    let room = usize::from(inner.height);
    let spark_rows = if need + 3 <= room { 3 } else { 0 };
    let [text, spark] =
        Layout::vertical([Constraint::Min(1), Constraint::Length(spark_rows)]).areas(inner);
    f.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }),
        text,
    );
    if spark_rows == 0 {
        return;
    }
    let marks: Vec<u64> = st
        .iteration_marks
        .iter()
        .zip(st.iteration_marks.iter().skip(1))
        .map(|(a, b)| {
            if has_model {
                (b.1 - a.1) / MILLI
            } else {
                b.0 - a.0
            }
        })
        .collect();
    let w = spark.width as usize;
    let data: Vec<u64> = marks[marks.len().saturating_sub(w)..].to_vec();
    let title = format!("{unit} per iteration, last {}", data.len());
    f.render_widget(
        Sparkline::default()
            .data(&data)
            .block(ratatui::widgets::Block::new().title(Line::styled(title, dim()))),
        spark,
    );
}

/// Each pair of the scenario, after − before per iteration of the whole
/// runs: instructions, and with a core model cycles and ns
/// (`report::pairs`, as `compare` prints them).
fn pair_lines(s: &AppState) -> Vec<Line<'static>> {
    let run = |name: &str| {
        let i = s.scenario.variants.iter().position(|v| v.name == name)?;
        s.summaries.get(i)?.as_ref()
    };
    let mut out = Vec::new();
    for p in &s.scenario.pairs {
        // A pair its `after` variant's line already reports.
        if s.scenario.pair_of(&p.after) == Some(p) {
            continue;
        }
        let (Some(b), Some(a)) = (run(&p.before), run(&p.after)) else {
            continue;
        };
        let core = a.estimate.as_ref().map_or("", |e| e.core.as_str());
        let d = crate::report::pairs::delta(&s.scenario, core, p, b, a);
        if out.is_empty() {
            out.push(Line::styled("other pairs, after − before:", dim()));
        }
        // One short line a pair (the pane is narrow; the paragraph wraps a
        // longer one): cycles, ns and instructions, after − before.
        let mut text = format!("  {}→{}", p.before, p.after);
        if let (Some(c), Some(n)) = (d.cycles, d.ns) {
            text.push_str(&format!(" {c:+.1} cyc {n:+.1} ns"));
        }
        text.push_str(&format!(" {:+.0} instr", d.instructions));
        out.push(Line::raw(text));
    }
    out
}
