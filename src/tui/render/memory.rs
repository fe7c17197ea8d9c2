//! Memory as the hart sees it (`Machine::read_mem`: through the page tables
//! when paging is on), one 64-bit little-endian word per row with its
//! bytes as ASCII: at `:x`'s address (the Memory pane) or around sp (the
//! Stack pane). A row that starts a symbol gets the symbol's name above
//! it; a word that points into a symbol is annotated `→ sym+0xOFF`;
//! unmapped words read as `not mapped`.
//!
//! ```text
//! ┌ Memory  cell (0x80002000) ────────────────┐
//! │  <cell>                                   │
//! │W 0000000080002000 0000000000000007 ........│
//! │  0000000080002008 0000000080000120 → patch│
//! └───────────────────────────────────────────┘
//! ```

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::style::{dim, pane_block};
use crate::machine::Program;
use crate::tui::state::{AppState, Pane};

/// Which of the two views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// `:x ADDR [N]`.
    At,
    /// Around sp: two words above it (the caller's side), the rest below.
    Stack,
}

/// Words shown above sp in the stack view.
const ABOVE_SP: u64 = 2;

/// Below this a word is a number, not a pointer (the first page is never
/// mapped; a vmlinux's debugging symbols sit near 0).
const LOWEST_POINTER: u64 = 0x1000;

/// The symbol a word points into, if any: inside a sized symbol, or at the
/// start of any symbol.
pub fn points_at(p: &Program, value: u64) -> Option<String> {
    if value < LOWEST_POINTER {
        return None;
    }
    let (s, off) = p.symbol_at(value)?;
    (off == 0 || off < s.size).then(|| p.describe(value))
}

/// The bytes as ASCII, a dot for anything not printable.
fn ascii(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if (0x20..0x7f).contains(&b) {
                b as char
            } else {
                '.'
            }
        })
        .collect()
}

/// The rows for `count` bytes from `start` (8 a row), in `width` columns,
/// with `mark` saying which glyph a row's first column gets.
pub fn rows(
    s: &AppState,
    start: u64,
    count: u64,
    width: usize,
    mark: impl Fn(u64) -> Option<char>,
) -> Vec<Line<'static>> {
    let p = s.live.program();
    let mut out = Vec::new();
    let words = count.div_ceil(8);
    // A narrow pane shows the low half of addresses that all share their
    // upper half (the title has the whole address).
    let last = start.wrapping_add(words.saturating_sub(1) * 8);
    let short = width < 60 && start >> 32 == last >> 32 && last >= start;
    for i in 0..words {
        let a = start.wrapping_add(i * 8);
        // Symbols that start in this word, named above it.
        let syms = p.symbols();
        let first = syms.partition_point(|x| x.addr < a);
        for sym in syms[first..]
            .iter()
            .take_while(|x| x.addr < a.wrapping_add(8))
        {
            let off = sym.addr - a;
            let at = if off == 0 {
                String::new()
            } else {
                format!(" (+{off})")
            };
            out.push(Line::styled(
                format!("  <{}>{at}", sym.name),
                Style::new().fg(Color::Cyan),
            ));
        }
        let glyph = mark(a).unwrap_or(' ');
        let addr = if short {
            format!("{:08x}", a & 0xffff_ffff)
        } else {
            format!("{a:016x}")
        };
        let mut spans = vec![Span::raw(format!("{glyph}{addr} "))];
        match s.live.m.read_mem(a, 8) {
            Some(b) => {
                let v = u64::from_le_bytes(b.as_slice().try_into().unwrap_or([0; 8]));
                let style = if glyph == ' ' {
                    Style::new()
                } else {
                    Style::new().add_modifier(Modifier::BOLD)
                };
                spans.push(Span::styled(format!("{v:016x}"), style));
                let used = 1 + addr.len() + 1 + 16;
                let sym = points_at(p, v);
                // The ASCII where it fits, then the symbol; a narrow pane
                // gives the symbol the ASCII's place.
                match sym {
                    Some(t) if width < used + 10 + 4 + t.chars().count() => spans.push(
                        Span::styled(format!(" → {t}"), Style::new().fg(Color::Cyan)),
                    ),
                    sym => {
                        if width > used {
                            spans.push(Span::styled(format!(" {}", ascii(&b)), dim()));
                        }
                        if let Some(t) = sym {
                            spans.push(Span::styled(
                                format!(" → {t}"),
                                Style::new().fg(Color::Cyan),
                            ));
                        }
                    }
                }
            }
            None => spans.push(Span::styled("not mapped", dim())),
        }
        out.push(Line::from(spans));
    }
    out
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState, view: View) {
    let width = usize::from(area.width.saturating_sub(2));
    let height = u64::from(area.height.saturating_sub(2));
    let p = s.live.program();
    let watched = |a: u64| {
        let pa = s.live.m.phys_of(a)?;
        s.debug
            .watches
            .iter()
            .any(|w| pa < w.watch.phys + w.watch.len && w.watch.phys < pa + 8)
            .then_some('W')
    };
    let (title, pane, lines) = match view {
        View::At => match s.debug.memory {
            Some((addr, n)) => {
                let mut lines = rows(s, addr, n, width, watched);
                for (i, w) in s.debug.watches.iter().enumerate() {
                    let phys = if w.watch.phys == w.vaddr {
                        String::new()
                    } else {
                        format!(", pa {:#x}", w.watch.phys)
                    };
                    lines.push(Line::styled(
                        format!("W {}: {}, {} bytes{phys}", i + 1, w.what, w.watch.len),
                        dim(),
                    ));
                }
                (
                    format!(" Memory  {} ({addr:#x}) ", p.describe(addr)),
                    Pane::Memory,
                    lines,
                )
            }
            None => (
                " Memory ".to_string(),
                Pane::Memory,
                vec![Line::styled(":x ADDR|SYM [N] shows memory there", dim())],
            ),
        },
        View::Stack => {
            let sp = s.live.regs[2];
            let start = (sp & !7).wrapping_sub(ABOVE_SP * 8);
            let mark = |a: u64| {
                if a == sp & !7 {
                    Some('▶')
                } else {
                    watched(a)
                }
            };
            (
                format!(" Stack  sp {sp:#x} (▶) "),
                Pane::Stack,
                rows(s, start, height.max(1) * 8, width, mark),
            )
        }
    };
    let block = pane_block(s, pane, title);
    super::fit::show(f, area, s, pane, block, lines, super::fit::Flow::Pan, false);
}
