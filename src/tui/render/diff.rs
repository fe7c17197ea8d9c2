//! The path diff view (`D`): the live variant's path against its pair
//! partner's for one iteration, aligned (`report::pathdiff`), each row with
//! both cycle figures and its events, then the per-function subtotals; the
//! total stays at the bottom. While open it takes the left column (and the
//! middle one where the left is narrow) under a shorter source pane, which
//! Enter points at the selected row's line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::style::{dim, hot, pane_block};
use crate::report::pathdiff::{self, Op, PathDiff, cycles, signed};
use crate::tui::state::{AppState, Pane};

/// Draws the source and the diff over the left column (`left`: the union
/// of the source, narration and events panes).
pub fn overlay(f: &mut Frame<'_>, left: Rect, s: &AppState) {
    f.render_widget(Clear, left);
    let [src, diff] = crate::tui::layout::diff_split(left);
    super::draw_pane(f, src, s, Pane::Source);
    render(f, diff, s);
}

fn mark_style(o: &Op) -> (char, Style) {
    match o {
        Op::Same(..) => ('=', Style::default()),
        Op::Del(_) => ('-', Style::new().fg(Color::Red)),
        Op::Ins(_) => ('+', Style::new().fg(Color::Green)),
    }
}

/// One row of the alignment as text: mark, A's and B's cycles, the events
/// (`ras|-`: A's, then B's, where they differ), where and what.
pub fn row_text(d: &PathDiff, k: usize) -> String {
    let with = d.core.is_some();
    let (a, b) = match d.ops[k] {
        Op::Same(i, j) => (Some(&d.a.lines[i]), Some(&d.b.lines[j])),
        Op::Del(i) => (Some(&d.a.lines[i]), None),
        Op::Ins(j) => (None, Some(&d.b.lines[j])),
    };
    let Some(l) = a.or(b) else {
        return String::new();
    };
    let (m, _) = mark_style(&d.ops[k]);
    let cyc = |x: Option<&pathdiff::Line>| x.map_or(".".to_string(), |l| cycles(l.milli));
    let nums = if with {
        format!("{:>5} {:>5} ", cyc(a), cyc(b))
    } else {
        String::new()
    };
    // A's location (B's on a row only B has); its events, then B's.
    let tag = |x: Option<&pathdiff::Line>| {
        x.map_or(String::new(), |l| {
            l.events
                .iter()
                .map(|(c, _)| c.short().unwrap_or(c.key()))
                .collect::<Vec<_>>()
                .join(",")
        })
    };
    let ev = match (a, b) {
        (Some(_), Some(_)) => {
            let (ta, tb) = (tag(a), tag(b));
            if ta == tb {
                ta
            } else {
                format!(
                    "{}|{}",
                    if ta.is_empty() { "-" } else { &ta },
                    if tb.is_empty() { "-" } else { &tb }
                )
            }
        }
        _ => tag(a.or(b)),
    };
    format!("{m} {nums}{ev:<10} {:<26} {}", l.at, l.text)
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let d = match &s.diff.result {
        Some(Ok(d)) => d.clone(),
        Some(Err(e)) => {
            let p = Paragraph::new(format!("no diff: {e}"))
                .wrap(ratatui::widgets::Wrap { trim: true })
                .block(pane_block(s, Pane::Diff, " Path diff "));
            f.render_widget(p, area);
            return;
        }
        None => {
            let p = Paragraph::new("computing…").block(pane_block(s, Pane::Diff, " Path diff "));
            f.render_widget(p, area);
            return;
        }
    };
    let core = d
        .core
        .as_deref()
        .map_or(" · instructions only (no core)".to_string(), |c| {
            format!(" · {c}")
        });
    let title = format!(
        " Diff A {} · B {} · iteration {} ({}){core} · Enter: source · D: close ",
        d.a.variant,
        d.b.variant,
        d.a.iteration,
        d.choice.tag()
    );
    let inner_h = area.height.saturating_sub(2) as usize;
    // The total stays on the last line.
    let body_h = inner_h.saturating_sub(1);
    s.views.note_page(Pane::Diff, body_h);
    let n = d.ops.len();
    let sel = s.diff.selected.min(n.saturating_sub(1));
    let with = d.core.is_some();
    // The rows, then the per-function subtotals under the last one: the
    // window follows the selection, and at the last row it shows the end of
    // the subtotals (as far as the selected row stays on screen).
    let mut all: Vec<Line> = Vec::with_capacity(n + d.functions.len() + 1);
    for k in 0..n {
        let (_, style) = mark_style(&d.ops[k]);
        let (glyph, style) = if k == sel {
            ("▸", style.add_modifier(Modifier::REVERSED))
        } else {
            (" ", style)
        };
        all.push(Line::from(vec![
            Span::raw(glyph),
            Span::styled(row_text(&d, k), style),
        ]));
    }
    all.push(Line::from(Span::styled(
        if with {
            "per function    A insns  A cyc  B insns  B cyc  B-A"
        } else {
            "per function    A insns  B insns  B-A"
        },
        dim(),
    )));
    for fun in &d.functions {
        let t = if with {
            format!(
                "  {:<26} {:>5} {:>6} {:>6} {:>6} {:>6}",
                fun.function,
                fun.a_insns,
                cycles(fun.a_milli),
                fun.b_insns,
                cycles(fun.b_milli),
                signed(fun.b_milli as i64 - fun.a_milli as i64)
            )
        } else {
            format!(
                "  {:<26} {:>5} {:>6} {:>+6}",
                fun.function,
                fun.a_insns,
                fun.b_insns,
                fun.b_insns as i64 - fun.a_insns as i64
            )
        };
        all.push(Line::from(t));
    }
    let len = all.len();
    let first = if sel + 1 == n {
        len.saturating_sub(body_h).min(sel)
    } else {
        sel.saturating_sub(body_h / 2)
            .min(len.saturating_sub(body_h.min(len)))
    };
    let mut rows: Vec<Line> = all.into_iter().skip(first).take(body_h).collect();
    while rows.len() < body_h {
        rows.push(Line::from(""));
    }
    let (na, nb) = (d.a.lines.len() as i64, d.b.lines.len() as i64);
    let total = if with {
        format!(
            "total  A {} cycles  B {} cycles  B-A {} cycles ({:+} insns)  row {}/{}",
            cycles(d.a.milli),
            cycles(d.b.milli),
            signed(d.diff_milli()),
            nb - na,
            sel + 1,
            n
        )
    } else {
        format!(
            "total  A {na} insns  B {nb} insns  B-A {:+} insns  row {}/{}",
            nb - na,
            sel + 1,
            n
        )
    };
    rows.push(Line::from(Span::styled(total, hot())));
    let p = Paragraph::new(rows).block(pane_block(s, Pane::Diff, title));
    f.render_widget(p, area);
}
