//! The disassembly view (`d`, or where the pc has no source): each
//! instruction's address, encoding (4 hex digits for a compressed one, 8
//! otherwise), place as `sym+0xOFF`, and text with jump and branch targets
//! named by symbol and `auipc` pairs' addresses as a `# sym+0xOFF` comment,
//! and the heat column of its source line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::heat::Heat;
use super::{current, dim, fit, pane_block};
use crate::isa::Op;
use crate::machine::{DecodedInsn, Program, decode_range};
use crate::tui::search::{self, Hit};
use crate::tui::state::{AppState, Pane};

/// One line of the listing.
pub(crate) struct Row {
    pub pc: u64,
    /// The encoding in hex.
    pub enc: String,
    /// `sym+0xOFF` of the pc.
    pub place: String,
    pub text: String,
}

impl Row {
    /// The text a search looks through: all the row shows but the heat.
    pub fn searchable(&self) -> String {
        format!("{:x} {} {} {}", self.pc, self.enc, self.place, self.text)
    }
}

/// `sym+0xOFF` of `addr` when a symbol is near it.
fn name(p: &Program, addr: u64) -> Option<String> {
    p.symbol_at(addr).map(|_| p.describe(addr))
}

/// The rows of decoded instructions (a pair's `auipc` is the row before).
pub(crate) fn rows(s: &AppState, p: &Program, insns: &[DecodedInsn]) -> Vec<Row> {
    let _ = s;
    let mut prev: Option<&DecodedInsn> = None;
    insns
        .iter()
        .map(|d| {
            let text = match d.insn {
                None => format!(".insn {:#x}", d.raw),
                Some(i) if i.op == Op::Vector => crate::machine::disasm(&i, d.pc),
                Some(i) => {
                    let mut t = crate::isa::disasm_named(&i, d.pc, |a| name(p, a));
                    let pair = prev
                        .and_then(|q| Some((q.pc, q.insn?)))
                        .and_then(|(qpc, q)| crate::isa::pair_target(&q, qpc, &i));
                    if let Some(a) = pair {
                        t.push_str(&format!("  # {}", name(p, a).unwrap_or(format!("{a:#x}"))));
                    }
                    t
                }
            };
            prev = Some(d);
            Row {
                pc: d.pc,
                enc: if d.len == 2 {
                    format!("{:04x}", d.raw & 0xffff)
                } else {
                    format!("{:08x}", d.raw)
                },
                place: p.describe(d.pc),
                text,
            }
        })
        .collect()
}

/// Instructions around `center`, decoded forward from the start of its
/// function (RVC makes backwards decoding ambiguous), and `center`'s index.
fn listing(s: &AppState, center: u64, h: usize) -> (Vec<DecodedInsn>, usize) {
    let p = s.live.program();
    let start = p
        .symbol_at(center)
        .map_or(center, |(sym, _)| sym.addr)
        .max(center.saturating_sub(0x400));
    let want = (center - start) as usize + 4 * h;
    let bytes = s
        .live
        .m
        .read_mem(start, want)
        .or_else(|| s.live.m.read_mem(center, 4 * h))
        .unwrap_or_default();
    let base = if bytes.len() == want { start } else { center };
    let insns = decode_range(base, &bytes);
    let at = insns.iter().position(|d| d.pc == center).unwrap_or(0);
    (insns, at)
}

/// The instruction the view is on: the search's match or the pc.
fn anchor(s: &AppState) -> u64 {
    match s.search.hit(s) {
        Some(Hit::Insn(pc)) => pc,
        _ => s.live.m.pc(),
    }
}

/// The instruction the view is centred on, scrolling included (where a
/// search starts).
pub(crate) fn center(s: &AppState) -> u64 {
    let a = anchor(s);
    let (insns, at) = listing(s, a, 1 + s.source_scroll.unsigned_abs() as usize);
    let i = (at as i64 + s.source_scroll).clamp(0, insns.len() as i64 - 1);
    insns.get(i as usize).map_or(a, |d| d.pc)
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let pc = s.live.m.pc();
    let heat = Heat::of(s);
    let (title, head) = title(s, area, &heat);
    let h = (area.height.saturating_sub(2) as usize).saturating_sub(head.len());
    let (insns, at) = listing(s, anchor(s), h);
    let first = at.saturating_sub(h / 2) as i64 + s.source_scroll;
    let first = first.clamp(0, insns.len().saturating_sub(h) as i64) as usize;
    // The place column where there is room for it, as wide as its widest
    // place on screen (Left/Right reach what the pane has no room for).
    let place_w: usize = match area.width {
        w if w >= 110 => 26,
        w if w >= 84 => 18,
        _ => 0,
    };
    // The heat of a source line goes on its first instruction.
    let before = first
        .checked_sub(1)
        .and_then(|i| insns.get(i))
        .and_then(|d| p.loc(d.pc));
    let rows = rows(s, p, &insns[first..(first + h).min(insns.len())]);
    let place_w = match place_w {
        0 => 0,
        w => rows
            .iter()
            .map(|r| r.place.chars().count() + 1)
            .max()
            .unwrap_or(0)
            .max(w),
    };
    let mut last = before;
    let rows: Vec<fit::Row> = rows
        .into_iter()
        .map(|r| {
            let loc = p.loc(r.pc);
            let hot = match loc {
                Some(l) if Some(l) != last => heat.line(s, l),
                _ => String::new(),
            };
            last = loc;
            // A breakpoint and the pc each keep their glyph when they meet
            // (stopped at a breakpoint), so a text capture shows both.
            let bp = if s.breakpoints.contains(&r.pc) {
                "●"
            } else {
                " "
            };
            let cur = if r.pc == pc {
                "▶"
            } else if search::is_hit(s, Hit::Insn(r.pc)) {
                search::GLYPH
            } else {
                " "
            };
            let mark = format!("{bp}{cur}");
            let style = if r.pc == pc {
                current()
            } else {
                Style::default()
            };
            let gutter = vec![
                Span::styled(format!("{hot:>6} "), super::super::hot()),
                Span::styled(format!("{mark}{:>8x} ", r.pc), dim()),
                Span::styled(format!("{:<9}", r.enc), dim()),
            ];
            let mut body = Vec::new();
            if place_w > 0 {
                body.push(Span::styled(format!("{:<place_w$}", r.place), dim()));
            }
            body.extend(search::spans(s, Hit::Insn(r.pc), r.text, style));
            fit::Row { gutter, body }
        })
        .collect();
    let block = pane_block(s, Pane::Source, title);
    fit::show_rows(f, area, s, Pane::Source, block, head, rows);
}

/// The title: where the view is, the heat column's heading and why the
/// source is not shown, if it is not; what the border has no room for goes
/// on lines at the top of the pane.
fn title(s: &AppState, area: Rect, heat: &Heat) -> (String, Vec<Line<'static>>) {
    let p = s.live.program();
    let pc = s.live.m.pc();
    let place = match anchor(s) {
        a if a == pc => p.describe(pc),
        a => format!("{} (pc {})", p.describe(a), p.describe(pc)),
    };
    // The pc's source exists but may not be shown: say so once, here.
    let refused = p
        .loc(anchor(s))
        .and_then(|l| s.sources.refusal(l.file))
        .map(|w| crate::escape::escape_line(&w).into_owned())
        .unwrap_or_default();
    let parts = [
        "Disassembly".to_string(),
        place,
        format!("[{}]", heat.title()),
        refused,
    ];
    fit::title_parts(&parts, area.width, super::marked(s))
}
