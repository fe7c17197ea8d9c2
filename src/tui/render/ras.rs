//! The return-address stack: entries with symbols, the last push or pop,
//! predicted against actual for the last return, and the mispredicts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::style::{dim, hot, pane_block};
use crate::cost::Cat;
use crate::predict::RasOp;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let st = s.live.stats();
    let Some(model) = st.model.as_ref() else {
        let msg =
            Paragraph::new("no core model: start with a scenario that names `cores`, or :core u74");
        f.render_widget(msg.block(pane_block(s, Pane::Ras, " RAS ")), area);
        return;
    };
    let ras = &model.pred.ras;
    let entries = ras.entries();
    let mut lines = Vec::new();
    let last = match model.pred.last_ras_op {
        Some(RasOp::Push { pc, addr }) => {
            format!("push {} at {}", p.describe(addr), p.describe(pc))
        }
        Some(RasOp::Pop { pc, .. }) => format!("pop at {}", p.describe(pc)),
        Some(RasOp::PopPush { pc, pushed, .. }) => {
            format!("pop, push {} at {}", p.describe(pushed), p.describe(pc))
        }
        None => "none yet".into(),
    };
    lines.push(Line::from(vec![
        Span::styled("last     ", dim()),
        Span::raw(last),
    ]));
    if let Some(
        RasOp::Pop {
            predicted, actual, ..
        }
        | RasOp::PopPush {
            predicted, actual, ..
        },
    ) = model.pred.last_ras_op
    {
        let verdict = if predicted == Some(actual) {
            Span::styled("✓ predicted", Style::new().fg(Color::Green))
        } else {
            Span::styled("✗ mispredict", hot())
        };
        lines.push(Line::from(vec![Span::styled("return   ", dim()), verdict]));
        let pred = predicted.map_or_else(|| "nothing (empty)".into(), |a| p.describe(a));
        lines.push(Line::from(vec![
            Span::styled("  predicted ", dim()),
            Span::raw(pred),
        ]));
        lines.push(Line::from(vec![
            Span::styled("  went to   ", dim()),
            Span::raw(p.describe(actual)),
        ]));
    }
    lines.push(Line::from(vec![
        Span::styled("misses   ", dim()),
        Span::raw(format!(
            "{} RAS ({} in user code)",
            st.now.ledger.count(Cat::RasMispredicts),
            st.now.user_ras_mispredicts
        )),
    ]));
    lines.push(Line::raw(format!(
        "         {} branch · {} indirect",
        st.now.ledger.count(Cat::BranchMispredicts),
        st.now.ledger.count(Cat::IndirectMispredicts),
    )));
    lines.push(Line::styled(
        format!("entries  {}/{} (newest first)", entries.len(), ras.depth()),
        dim(),
    ));
    for (i, a) in entries.iter().enumerate() {
        lines.push(Line::raw(format!("{:>3}  {:#x}  {}", i, a, p.describe(*a))));
    }
    let title = format!(" RAS  {} entries on {} ", ras.depth(), model.profile.name);
    let block = pane_block(s, Pane::Ras, title);
    super::fit::show(
        f,
        area,
        s,
        Pane::Ras,
        block,
        lines,
        super::fit::Flow::Pan,
        true,
    );
}
