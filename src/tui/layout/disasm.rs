//! The disassembly view's listing, which both the pane (`render/source/
//! disasm.rs`) and the `/` search (`search.rs`) go by: the rows around an
//! instruction, each with its address, encoding (4 hex digits for a
//! compressed one, 8 otherwise), place as `sym+0xOFF`, and text with jump
//! and branch targets named by symbol and `auipc` pairs' addresses as a
//! `# sym+0xOFF` comment; and the instruction the view is centred on.

use crate::isa::Op;
use crate::machine::{DecodedInsn, Program, decode_range};
use crate::tui::state::{AppState, Hit};

/// One line of the listing.
pub struct Row {
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
pub fn rows(s: &AppState, p: &Program, insns: &[DecodedInsn]) -> Vec<Row> {
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
pub fn listing(s: &AppState, center: u64, h: usize) -> (Vec<DecodedInsn>, usize) {
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
pub fn anchor(s: &AppState) -> u64 {
    match s.search.hit(s) {
        Some(Hit::Insn(pc)) => pc,
        _ => s.live.m.pc(),
    }
}

/// The instruction the view is centred on, scrolling included (where a
/// search starts).
pub fn center(s: &AppState) -> u64 {
    let a = anchor(s);
    let (insns, at) = listing(s, a, 1 + s.source_scroll.unsigned_abs() as usize);
    let i = (at as i64 + s.source_scroll).clamp(0, insns.len() as i64 - 1);
    insns.get(i as usize).map_or(a, |d| d.pc)
}
