//! The trap CSRs, sstatus decoded field by field (priv spec §4.1.1); in
//! M-mode also mstatus, mepc, mcause and medeleg.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::style::{dim, pane_block};
use crate::trace::{Priv, cause_name};
use crate::tui::state::{AppState, Pane};

fn fs_name(v: u64) -> &'static str {
    ["Off", "Initial", "Clean", "Dirty"][(v & 3) as usize]
}

/// xcause as a number and a name, or, while it still holds its reset value
/// and no trap has been taken into that mode, that no trap has happened.
fn cause(c: u64, untrapped: Option<&str>) -> String {
    if c == 0
        && let Some(text) = untrapped
    {
        return format!("0 ({text})");
    }
    if c >> 63 == 1 {
        format!("interrupt {} {}", c & !(1 << 63), cause_name(c))
    } else {
        format!("{c} {}", cause_name(c))
    }
}

/// The sstatus fields that are set (priv spec §4.1.1, Figure 4.2): the
/// one-bit fields by name when 1, SPP and the FS/VS states always, XS and
/// UXL when not 0.
pub fn sstatus_fields(st: u64) -> Vec<String> {
    let bit = |n: u32| (st >> n) & 1 == 1;
    let mut v = Vec::new();
    if bit(63) {
        v.push("SD".to_string());
    }
    v.push(format!("FS:{}", fs_name(st >> 13)));
    v.push(format!("VS:{}", fs_name(st >> 9)));
    if (st >> 15) & 3 != 0 {
        v.push(format!("XS:{}", fs_name(st >> 15)));
    }
    v.push(format!("SPP:{}", if bit(8) { "S" } else { "U" }));
    for (n, name) in [
        (19, "MXR"),
        (18, "SUM"),
        (6, "UBE"),
        (5, "SPIE"),
        (1, "SIE"),
    ] {
        if bit(n) {
            v.push(name.to_string());
        }
    }
    match (st >> 32) & 3 {
        0 => {}
        1 => v.push("UXL:32".into()),
        2 => v.push("UXL:64".into()),
        _ => v.push("UXL:128".into()),
    }
    v
}

/// The mstatus fields that are set, in sstatus's convention (priv spec
/// §3.1.6, Figure 3.7): sstatus's fields, then MPP by mode letter, the
/// M-only one-bit fields by name when 1, SXL when not 0.
pub fn mstatus_fields(m: u64) -> Vec<String> {
    let bit = |n: u32| (m >> n) & 1 == 1;
    let mut v = sstatus_fields(m);
    let mpp = ["U", "S", "H", "M"][((m >> 11) & 3) as usize];
    v.push(format!("MPP:{mpp}"));
    for (n, name) in [
        (22, "TSR"),
        (21, "TW"),
        (20, "TVM"),
        (17, "MPRV"),
        (7, "MPIE"),
        (3, "MIE"),
    ] {
        if bit(n) {
            v.push(name.to_string());
        }
    }
    match (m >> 34) & 3 {
        0 => {}
        1 => v.push("SXL:32".into()),
        2 => v.push("SXL:64".into()),
        _ => v.push("SXL:128".into()),
    }
    v
}

/// Words joined by spaces into lines of at most `width` characters (a word
/// longer than that gets a line of its own), each starting with a space.
fn wrap(words: &[String], width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        line.push(' ');
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let c = &s.live.csrs;
    let p = s.live.program();
    let st = c.sstatus;
    let inner = area.width.saturating_sub(2) as usize;
    // No trap at all yet, or none into this mode.
    let never = s.live.m.last_trap().is_none();
    let untrapped = |into: bool, mode: &'static str| -> Option<String> {
        if never {
            Some("no trap has happened yet".into())
        } else if !into {
            Some(format!("no trap into {mode} yet"))
        } else {
            None
        }
    };
    let s_none = untrapped(s.live.trapped_to.0, "S");
    let m_none = untrapped(s.live.trapped_to.1, "M");
    let row = |name: &str, v: String| {
        Line::from(vec![
            Span::styled(format!("{name:<9}"), dim()),
            Span::raw(v),
        ])
    };
    let mut lines = vec![row("sstatus", format!("{st:#018x}"))];
    // Every set field, wrapped at the pane's width, none cut off.
    lines.extend(
        wrap(&sstatus_fields(st), inner.max(8))
            .into_iter()
            .map(Line::raw),
    );
    lines.extend([
        row("sepc", p.describe(c.sepc)),
        row("scause", cause(c.scause, s_none.as_deref())),
        row("stval", format!("{:#x}", c.stval)),
        row("stvec", p.describe(c.stvec)),
        row("sscratch", format!("{:#x}", c.sscratch)),
    ]);
    if s.priv_() == Priv::M {
        let m = c.mstatus;
        lines.push(row("mstatus", format!("{m:#018x}")));
        lines.extend(
            wrap(&mstatus_fields(m), inner.max(8))
                .into_iter()
                .map(Line::raw),
        );
        lines.push(row("mepc", p.describe(c.mepc)));
        lines.push(row("mcause", cause(c.mcause, m_none.as_deref())));
        lines.push(row("medeleg", format!("{:#x}", c.medeleg)));
    }
    let block = pane_block(s, Pane::Csrs, " CSRs ");
    super::fit::show(
        f,
        area,
        s,
        Pane::Csrs,
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
    fn every_set_sstatus_field_is_listed() {
        // 0x2022: FS Initial, SPIE, SIE (a list cut at the pane's edge lost SIE here).
        assert_eq!(
            sstatus_fields(0x2022),
            ["FS:Initial", "VS:Off", "SPP:U", "SPIE", "SIE"]
        );
        let all = 1 << 63 | 2 << 32 | 1 << 19 | 1 << 18 | 3 << 15 | 3 << 13 | 3 << 9 | 0x162;
        let f = sstatus_fields(all);
        for w in [
            "SD", "FS:Dirty", "VS:Dirty", "XS:Dirty", "SPP:S", "MXR", "SUM", "UBE",
        ] {
            assert!(f.iter().any(|x| x == w), "{w} in {f:?}");
        }
        assert!(f.ends_with(&["SPIE".into(), "SIE".into(), "UXL:64".into()]));
    }

    #[test]
    fn mstatus_reads_as_sstatus_does() {
        // MPP = M (3 << 11), MPIE (bit 7), FS Initial (1 << 13), SXL/UXL 64.
        let m = 3 << 11 | 1 << 7 | 1 << 13 | 2 << 34 | 2 << 32;
        let f = super::mstatus_fields(m);
        for w in ["FS:Initial", "SPP:U", "MPP:M", "MPIE", "UXL:64", "SXL:64"] {
            assert!(f.iter().any(|x| x == w), "{w} in {f:?}");
        }
        assert!(
            !f.iter().any(|x| x == "MIE" || x.starts_with("MPP:3")),
            "{f:?}"
        );
    }

    #[test]
    fn fields_wrap_at_word_boundaries() {
        let words: Vec<String> = ["FS:Initial", "VS:Off", "SPP:U", "SPIE", "SIE"]
            .map(String::from)
            .to_vec();
        assert_eq!(wrap(&words, 40), [" FS:Initial VS:Off SPP:U SPIE SIE"]);
        assert_eq!(wrap(&words, 18), [" FS:Initial VS:Off", " SPP:U SPIE SIE"]);
        for w in 1..40 {
            let joined: Vec<String> = wrap(&words, w)
                .iter()
                .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
                .collect();
            assert_eq!(joined, words, "nothing lost at width {w}");
        }
    }
}
