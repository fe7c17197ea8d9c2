//! Cycles: the total, per phase and by cause, a sparkline per iteration, the variants'
//! figures per iteration, and each before/after pair's difference.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline};

use super::style::{dim, hot, pane_block};
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
    // The instruction count gives way when the line would wrap (the status
    // line has it too).
    let head = format!("{total:.1} {unit}");
    let count = format!("  ({} instr)", s.live.executed());
    let fits = 7 + head.chars().count() + count.chars().count() <= inner.width as usize;
    let mut lines = vec![Line::from(vec![
        Span::styled("total  ", dim()),
        Span::styled(head, hot()),
        Span::raw(if fits { count } else { String::new() }),
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
    let w = usize::from(inner.width.max(1));
    let phases_line = packed(None, &per_phase, w);
    let mut cause_line = None;
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
            cause_line = Some(packed(Some("by cause"), &parts, w));
        }
    }
    // The runs: the header, a line per variant, the other pairs.
    let mut runs = Vec::new();
    let span = if s.scenario.measure.is_some() {
        "per iteration"
    } else {
        "whole run (no measured loop)"
    };
    let against = if s.scenario.pairs.is_empty() {
        ""
    } else {
        " (± its pair's before)"
    };
    runs.push(Line::styled(format!("{span}{against}:"), dim()));
    // Which line is the live variant's (kept in view when the list is cut).
    let mut live_row = None;
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
        let Some(r) = sum else {
            if s.idle.summarising() {
                let name = &s.scenario.variants[i].name;
                runs.push(Line::raw(format!("  {name:<10}  (running…)")));
            }
            continue;
        };
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
        let mark = if i == s.live.variant {
            live_row = Some(runs.len());
            "▶"
        } else {
            " "
        };
        let band = r
            .estimate
            .as_ref()
            .and_then(|e| e.band.as_ref())
            .map_or(String::new(), |b| {
                format!(" ({:.1}..{:.1})", b.cycles.low, b.cycles.high)
            });
        runs.push(Line::raw(format!("{mark} {name:<10} {v:>8.1}{band}{d}")));
    }
    runs.extend(pair_lines(s));
    // What fits: the runs and pairs come first (every pair must show); the
    // sparkline, then the cause and phase lines give way to them in a short
    // pane, and a line says what a taller one would show.
    let rows = |ls: &[Line<'_>]| -> usize { ls.iter().map(|l| l.width().div_ceil(w).max(1)).sum() };
    let room = usize::from(inner.height);
    let head = [lines.pop().unwrap_or_default()];
    // Each optional part is kept whole or not at all.
    let optional: Vec<Vec<Line<'static>>> = [Some(phases_line), cause_line]
        .into_iter()
        .flatten()
        .collect();
    let mut keep = optional.len();
    while keep > 0 && rows(&head) + rows(&optional[..keep].concat()) + rows(&runs) > room {
        keep -= 1;
    }
    let mut lines: Vec<Line<'static>> = head.into_iter().collect();
    lines.extend(optional.into_iter().take(keep).flatten());
    let fixed = rows(&lines);
    let mut shown = 0;
    let mut used = fixed;
    for l in &runs {
        let h = rows(std::slice::from_ref(l));
        if used + h > room.saturating_sub(1) && shown + 1 < runs.len() {
            break;
        }
        used += h;
        shown += 1;
    }
    // When the live variant's line would be cut, the window moves down to
    // it: the header, a line for those above, then the rest up to it.
    // `start` is the first line after the header, `body` how many follow.
    let mut start = 1;
    let mut body = shown.saturating_sub(1);
    let h = |l: &Line<'_>| rows(std::slice::from_ref(l));
    if let Some(lr) = live_row
        && lr >= shown
        && shown >= 3
    {
        // Lines up to the live one, from it back, as far as they fit below
        // the header, the "above" line and a "below" line.
        let room_left = room.saturating_sub(fixed + h(&runs[0]) + 2);
        let mut used = 0;
        start = lr;
        while start > 1 && used + h(&runs[start]) + h(&runs[start - 1]) <= room_left {
            used += h(&runs[start]);
            start -= 1;
        }
        body = lr + 1 - start;
    }
    // Up/Down (the pane focused) move the window from there, line by line,
    // as far as the last line.
    let cut = runs.len() > start + body || start > 1;
    let last_start = runs.len().saturating_sub(body.max(1)).max(1);
    let clip = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    s.views
        .note_extent(Pane::Cycles, 0, if cut { clip(last_start - 1) } else { 0 });
    s.views.note_base(Pane::Cycles, 0, clip(start - 1));
    if cut && s.views.moved(Pane::Cycles) {
        // Up/Down (the pane focused) moved the window: from the line they
        // chose, as many as fit.
        let (_, y) = s.views.offset(Pane::Cycles);
        start = (1 + usize::from(y)).min(last_start);
        let room_left = room.saturating_sub(fixed + h(&runs[0]) + 2);
        let mut used = 0;
        body = 0;
        while start + body < runs.len() && (body == 0 || used + h(&runs[start + body]) <= room_left)
        {
            used += h(&runs[start + body]);
            body += 1;
        }
    }
    let keys = if s.focus == Pane::Cycles {
        "Up/Down"
    } else {
        "S-Tab, Up/Down"
    };
    let hidden = runs.len().saturating_sub(start + body);
    let mut runs = runs.into_iter();
    lines.extend(runs.next());
    if start > 1 {
        lines.push(Line::styled(
            format!("… {} more above ({keys})", start - 1),
            dim(),
        ));
    }
    lines.extend(runs.skip(start - 1).take(body));
    if hidden > 0 {
        lines.push(Line::styled(
            format!("… {hidden} more lines below ({keys})"),
            dim(),
        ));
    }
    let need = rows(&lines);
    // A sparkline needs two iteration marks to draw one bar.
    let spark_rows = if need + 3 <= room && st.iteration_marks.len() >= 2 {
        3
    } else {
        0
    };
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

/// `items` in lines of at most `w` columns, broken between items, never
/// inside one (an item wider than the pane is cut by the paragraph's wrap);
/// lines after the first are indented under the label.
pub(crate) fn packed(label: Option<&str>, items: &[String], w: usize) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    if let Some(l) = label {
        cur.push(Span::styled(format!("{l}  "), dim()));
        used = l.chars().count() + 2;
    }
    for it in items {
        let n = it.chars().count();
        let gap = if used == 0 || (label.is_some() && cur.len() == 1 && out.is_empty()) {
            0
        } else {
            2
        };
        if used > 0 && used + gap + n > w {
            out.push(Line::from(std::mem::take(&mut cur)));
            cur.push(Span::raw("  "));
            used = 2;
            cur.push(Span::raw(it.clone()));
            used += n;
            continue;
        }
        cur.push(Span::raw(format!("{}{it}", " ".repeat(gap))));
        used += gap + n;
    }
    if !cur.is_empty() {
        out.push(Line::from(cur));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::packed;

    fn text(l: &ratatui::text::Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn packed_breaks_between_items_only() {
        let items: Vec<String> = [
            "user 270",
            "firmware 135",
            "kernel 133",
            "entry 1151",
            "exit 1106",
        ]
        .map(String::from)
        .to_vec();
        let lines = packed(Some("by cause"), &items, 30);
        let t: Vec<String> = lines.iter().map(text).collect();
        // 'by cause  user 270  firmware 135' is 32 > 30, so firmware starts the second line.
        assert_eq!(t[0], "by cause  user 270");
        assert_eq!(t[1], "  firmware 135  kernel 133");
        assert_eq!(t[2], "  entry 1151  exit 1106");
        for l in &t {
            assert!(l.chars().count() <= 30, "{l:?}");
        }
        // Every item is whole on one line.
        for it in &items {
            assert!(t.iter().any(|l| l.contains(it.as_str())), "{it}");
        }
    }
}
