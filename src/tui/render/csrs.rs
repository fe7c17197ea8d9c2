//! The trap CSRs, sstatus decoded field by field (priv spec §4.1.1); in
//! M-mode also mstatus, mepc, mcause and medeleg.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{dim, pane_block};
use crate::trace::{Priv, cause_name};
use crate::tui::state::{AppState, Pane};

fn fs_name(v: u64) -> &'static str {
    ["Off", "Initial", "Clean", "Dirty"][(v & 3) as usize]
}

fn cause(c: u64) -> String {
    if c >> 63 == 1 {
        format!("interrupt {} {}", c & !(1 << 63), cause_name(c))
    } else {
        format!("{c} {}", cause_name(c))
    }
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let c = &s.live.csrs;
    let p = s.live.program();
    let st = c.sstatus;
    let bit = |n: u32| (st >> n) & 1;
    let row = |name: &str, v: String| {
        Line::from(vec![
            Span::styled(format!("{name:<9}"), dim()),
            Span::raw(v),
        ])
    };
    let mut lines = vec![
        row("sstatus", format!("{st:#018x}")),
        Line::raw(format!(
            " SD{} VS:{} FS:{} SUM{} SPP:{} SPIE{} SIE{}",
            st >> 63,
            fs_name(st >> 9),
            fs_name(st >> 13),
            bit(18),
            if bit(8) == 1 { "S" } else { "U" },
            bit(5),
            bit(1)
        )),
        row("sepc", p.describe(c.sepc)),
        row("scause", cause(c.scause)),
        row("stval", format!("{:#x}", c.stval)),
        row("stvec", p.describe(c.stvec)),
        row("sscratch", format!("{:#x}", c.sscratch)),
    ];
    if s.priv_() == Priv::M {
        let m = c.mstatus;
        lines.push(row(
            "mstatus",
            format!(
                "{m:#x} MPP:{} MPIE{} MIE{}",
                (m >> 11) & 3,
                (m >> 7) & 1,
                (m >> 3) & 1
            ),
        ));
        lines.push(row("mepc", p.describe(c.mepc)));
        lines.push(row("mcause", cause(c.mcause)));
        lines.push(row("medeleg", format!("{:#x}", c.medeleg)));
    }
    f.render_widget(
        Paragraph::new(lines).block(pane_block(s, Pane::Csrs, " CSRs ")),
        area,
    );
}
