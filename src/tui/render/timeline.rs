//! The privilege badge and the chain of nested traps: for each trap still
//! open, its cause and the functions the handler has gone through.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{dim, pane_block};
use crate::trace::{Event, Priv, cause_name};
use crate::tui::state::{AppState, Pane, TrapFrame};

fn badge(p: Priv) -> Span<'static> {
    let color = match p {
        Priv::U => Color::Green,
        Priv::S => Color::Yellow,
        Priv::M => Color::Red,
    };
    Span::styled(
        format!(" {}-mode ", p.letter()),
        Style::new()
            .bg(color)
            .fg(Color::Black)
            .add_modifier(Modifier::BOLD),
    )
}

/// Functions executed since the trap was taken (until the trap nested in it,
/// if any), in order of first visit.
fn chain(s: &AppState, t: &TrapFrame, until: Option<u64>) -> Vec<String> {
    let p = s.live.program();
    let mut out: Vec<String> = Vec::new();
    for (i, e) in s.live.stats().log.since(t.index + 1) {
        if until.is_some_and(|u| i >= u) {
            break;
        }
        if let Event::Retired { pc, .. } = e.event {
            let name = p
                .symbol_at(pc)
                .map_or_else(|| format!("{pc:#x}"), |(sym, _)| sym.name.clone());
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let mut lines = vec![Line::from(vec![
        badge(s.priv_()),
        Span::raw(format!("  {}", p.describe(s.live.m.pc()))),
    ])];
    let traps = &s.live.traps;
    for (k, t) in traps.iter().enumerate() {
        let what = match t.cause {
            8 | 9 | 11 => "ecall".to_string(),
            c => cause_name(c).to_string(),
        };
        let indent = if k == 0 {
            String::new()
        } else {
            format!("{}↳ ", "  ".repeat(k - 1))
        };
        let mut parts = vec![format!(
            "{indent}{what} ({}→{})",
            t.from.letter(),
            t.to.letter()
        )];
        parts.extend(chain(s, t, traps.get(k + 1).map(|n| n.index)));
        lines.push(Line::raw(parts.join(" → ")));
    }
    if let Some((t, target)) = &s.live.last_return {
        lines.push(Line::styled(
            format!(
                "last: {} from {} ↩ {}",
                cause_name(t.cause),
                p.describe(t.epc),
                p.describe(*target)
            ),
            dim(),
        ));
    }
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(pane_block(s, Pane::Privilege, " Privilege & traps ")),
        area,
    );
}
