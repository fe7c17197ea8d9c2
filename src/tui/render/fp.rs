//! The FP register file: sstatus.FS (priv spec §3.1.6.6) with its last
//! transition, fcsr with frm and fflags decoded (F spec §11.2), and f0–f31
//! by ABI name as doubles, a NaN-boxed single (F spec §12.2: upper 32 bits
//! all ones) as that single. What the last action wrote carries a `*` as
//! well as the colour, so it survives a text capture.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::style::{dim, hot, pane_block};
use crate::isa::FABI;
use crate::report::vs_name;
use crate::trace::Event;
use crate::tui::state::{AppState, Pane};

/// The mark of a register the last action wrote.
pub const WRITTEN: char = '*';

/// frm (fcsr bits 7:5), Table 11.1. 5 and 6 are reserved; 7 (DYN) is only
/// meaningful in an instruction's rm field, so in frm it is invalid too.
pub fn frm_name(frm: u64) -> &'static str {
    match frm & 7 {
        0 => "RNE",
        1 => "RTZ",
        2 => "RDN",
        3 => "RUP",
        4 => "RMM",
        7 => "DYN (invalid in frm)",
        _ => "reserved",
    }
}

/// The accrued exception flags set in fflags (fcsr bits 4:0), Table 11.2,
/// or "-" when none is.
pub fn fflags_text(fflags: u64) -> String {
    const NAMES: [(u64, &str); 5] = [
        (0x10, "NV"),
        (0x08, "DZ"),
        (0x04, "OF"),
        (0x02, "UF"),
        (0x01, "NX"),
    ];
    let set: Vec<&str> = NAMES
        .iter()
        .filter(|(b, _)| fflags & b != 0)
        .map(|(_, n)| *n)
        .collect();
    if set.is_empty() {
        "-".into()
    } else {
        set.join(" ")
    }
}

/// A value in at most `w` characters: the shortest text that reads back
/// exactly if it fits, else fewer significant digits in exponent form.
fn fit(v: f64, w: usize) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.into();
    }
    let plain = format!("{v}");
    if plain.len() <= w {
        return plain;
    }
    let exp = format!("{v:e}");
    if exp.len() <= w {
        return exp;
    }
    (0..16)
        .rev()
        .map(|p| format!("{v:.p$e}"))
        .find(|t| t.len() <= w)
        .unwrap_or_else(|| exp.chars().take(w).collect())
}

/// One f register's value in `w` characters: the double, or for a
/// NaN-boxed single "s:" and the single (with the double, a NaN, first when
/// there is room for both).
pub fn value_text(bits: u64, w: usize) -> String {
    if bits >> 32 == 0xffff_ffff {
        let single = f64::from(f32::from_bits(bits as u32));
        if w >= 16 {
            return format!("NaN s:{}", fit(single, w - 6));
        }
        return format!("s:{}", fit(single, w.saturating_sub(2)));
    }
    fit(f64::from_bits(bits), w)
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let fp = &s.live.fp;
    let changed = s.live.fchanged;
    let inner = area.width.saturating_sub(2) as usize;
    let rows = area.height.saturating_sub(2) as usize;
    let mut lines = Vec::new();

    // FS, current state bracketed (and coloured).
    let mut states = vec![Span::styled("FS ", dim())];
    for v in 0..4u8 {
        if v > 0 {
            states.push(Span::styled("→", dim()));
        }
        if v == fp.fs {
            states.push(Span::styled(
                format!("[{}]", vs_name(v)),
                Style::new()
                    .bg(Color::Magenta)
                    .fg(Color::White)
                    .add_modifier(Modifier::BOLD),
            ));
        } else {
            states.push(Span::raw(format!(" {} ", vs_name(v))));
        }
    }
    lines.push(Line::from(states));

    // The last transition, from the event log.
    let last = s
        .live
        .stats()
        .log
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            Event::FsChange { from, to, pc, why } => Some((e.at, *from, *to, *pc, why.clone())),
            _ => None,
        });
    let why = match last {
        Some((at, from, to, pc, why)) => {
            lines.push(Line::raw(format!(
                "{} → {} @{at} {}",
                vs_name(from),
                vs_name(to),
                s.live.program().describe(pc)
            )));
            Some(why)
        }
        None => {
            lines.push(Line::styled("no transition yet", dim()));
            None
        }
    };
    // The cause goes here where all 16 register rows still fit, else
    // under them (Down reaches it).
    let mut cause_below = None;
    if let Some(why) = why {
        if rows >= 16 + 4 {
            lines.push(Line::styled(why, dim()));
        } else {
            cause_below = Some(Line::styled(why, dim()));
        }
    }

    let fcsr_mark = if changed >> 32 & 1 == 1 { WRITTEN } else { ' ' };
    lines.push(Line::from(vec![
        Span::styled("fcsr", dim()),
        Span::styled(
            format!("{fcsr_mark}{:#04x}", fp.fcsr),
            if fcsr_mark == WRITTEN {
                hot()
            } else {
                Style::default()
            },
        ),
        Span::raw(format!(
            " frm {} fflags {}",
            frm_name(fp.fcsr >> 5),
            fflags_text(fp.fcsr & 0x1f)
        )),
    ]));

    // f0..f31 in two columns: f_i beside f_{i+16}.
    let cell_w = inner.saturating_sub(1) / 2;
    let value_w = cell_w.saturating_sub(5);
    let cell = |i: usize| -> Vec<Span<'static>> {
        let w = changed >> i & 1 == 1;
        let mark = if w { WRITTEN } else { ' ' };
        let style = if w { hot() } else { Style::default() };
        vec![
            Span::styled(format!("{:>4}", FABI[i]), dim()),
            Span::styled(
                format!("{mark}{:<value_w$}", value_text(fp.f[i], value_w)),
                style,
            ),
        ]
    };
    for r in 0..16 {
        let mut spans = cell(r);
        spans.push(Span::raw(" "));
        spans.extend(cell(r + 16));
        lines.push(Line::from(spans));
    }
    lines.extend(cause_below);
    let title = format!(" FP registers  {WRITTEN} written ");
    let block = pane_block(s, Pane::Fp, title);
    super::fit::show(
        f,
        area,
        s,
        Pane::Fp,
        block,
        lines,
        super::fit::Flow::Pan,
        true,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frm_and_fflags_decode_by_the_f_spec_tables() {
        assert_eq!(frm_name(0), "RNE");
        assert_eq!(frm_name(1), "RTZ");
        assert_eq!(frm_name(4), "RMM");
        assert_eq!(frm_name(5), "reserved");
        assert!(frm_name(7).starts_with("DYN"));
        assert_eq!(fflags_text(0), "-");
        assert_eq!(fflags_text(0x11), "NV NX");
        assert_eq!(fflags_text(0x1f), "NV DZ OF UF NX");
    }

    #[test]
    fn values_fit_their_cell() {
        // pi as a double: too long for 15, shortened in exponent form.
        let pi = std::f64::consts::PI.to_bits();
        let t = value_text(pi, 15);
        assert!(t.len() <= 15 && t.starts_with("3.14"), "{t}");
        assert_eq!(value_text(1.5f64.to_bits(), 15), "1.5");
        assert_eq!(value_text(0, 15), "0");
        // A NaN-boxed 1.5f is shown as the single.
        let boxed = 0xffff_ffff_0000_0000 | u64::from(1.5f32.to_bits());
        assert_eq!(value_text(boxed, 15), "s:1.5");
        assert_eq!(value_text(boxed, 20), "NaN s:1.5");
        // Upper half not all ones: a double (here a tiny denormal-free one).
        let t = value_text(1e300f64.to_bits(), 15);
        assert_eq!(t, "1e300");
        for w in 0..20 {
            assert!(value_text(pi, w).chars().count() <= w.max(3), "{w}");
        }
    }
}
