//! pt_regs at the current trap frame, decoded by field: the innermost live
//! trap taken to S-mode, at the address the kernel saved it at
//! (`Machine::trap_frame`: sp at the `mv a0, sp` in handle_exception), laid
//! out as the vmlinux's DWARF says `struct pt_regs` is, or for the
//! minikernel as its own `PT_*` offsets (`MINIKERNEL_PT_REGS`).
//!
//! ```text
//! ┌ pt_regs  ecall from U (scause 8) ─────────┐
//! │at 0x80207ec0 (sp at handle_exception+0x9c)│
//! │epc     syscall+0x1c                       │
//! │cause   8 ecall from U                     │
//! │status  SPP=U SPIE FS=Initial              │
//! │ra  00000000804000b4 sp  0000000080403ff0  │
//! └───────────────────────────────────────────┘
//! ```

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::style::{dim, pane_block};
use crate::machine::{MINIKERNEL_PT_REGS, Program, SAVE_FUNCS};
use crate::trace::Priv;
use crate::tui::state::{AppState, Pane};

/// A field of the frame: name, offset, size.
pub type Field = (String, u64, u64);

/// The layout: the program's DWARF `struct pt_regs`, else the minikernel's
/// when the program is one (it has the minikernel's entry), else none.
pub fn layout(p: &Program) -> Option<(Vec<Field>, &'static str)> {
    if !p.pt_regs.is_empty() {
        let f = p
            .pt_regs
            .iter()
            .map(|m| (m.name.clone(), m.offset, m.size))
            .collect();
        return Some((f, "DWARF pt_regs"));
    }
    p.symbol(SAVE_FUNCS[0])?;
    let f = MINIKERNEL_PT_REGS
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), 8 * i as u64, 8))
        .collect();
    Some((f, fallback_name(&|n| p.symbol(n).is_some())))
}

/// What the layout without DWARF is called: the minikernel's own `PT_*`,
/// or on a real kernel (it has `linux_banner`) Linux's riscv order, which
/// the minikernel's copies, assumed for want of DWARF.
fn fallback_name(has: &dyn Fn(&str) -> bool) -> &'static str {
    if has("linux_banner") {
        "Linux riscv order, no DWARF"
    } else {
        "minikernel PT_*"
    }
}

/// sstatus fields a saved status holds (priv spec §4.1.1).
fn status_text(v: u64) -> String {
    let mut out = vec![format!("SPP={}", if v & (1 << 8) != 0 { "S" } else { "U" })];
    for (bit, name) in [(1, "SIE"), (5, "SPIE"), (18, "SUM"), (19, "MXR")] {
        if v & (1 << bit) != 0 {
            out.push(name.to_string());
        }
    }
    let state = ["Off", "Initial", "Clean", "Dirty"];
    out.push(format!("FS={}", state[((v >> 13) & 3) as usize]));
    out.push(format!("VS={}", state[((v >> 9) & 3) as usize]));
    out.join(" ")
}

/// The innermost live trap to S-mode: (its index in `traps`, the frame
/// address if the kernel has saved it).
fn current(s: &AppState) -> Option<(usize, Option<u64>)> {
    let traps = &s.live.traps;
    let i = traps.iter().rposition(|t| t.to == Priv::S)?;
    let before = traps.get(i + 1).map(|t| t.at);
    Some((i, s.live.m.trap_frame(traps[i].at, before)))
}

/// The pane's text lines.
pub fn lines(s: &AppState, width: usize) -> (String, Vec<String>) {
    let p = s.live.program();
    let Some((fields, source)) = layout(p) else {
        return (
            " pt_regs ".into(),
            vec!["no pt_regs layout: the program has no handle_exception and no DWARF struct pt_regs".into()],
        );
    };
    let Some((i, frame)) = current(s) else {
        return (
            " pt_regs ".into(),
            vec!["no trap frame: the hart is in no S-mode trap handler".into()],
        );
    };
    let t = &s.live.traps[i];
    let title = format!(
        " pt_regs  {} ",
        super::backtrace::trap_name(t.cause, t.from, t.to)
    );
    let Some(frame) = frame else {
        return (
            title,
            vec![format!(
                "not saved yet: the kernel saves it before `mv a0, sp` in {}",
                SAVE_FUNCS.join("/")
            )],
        );
    };
    let mut out = vec![format!("at {frame:#x} ({source})")];
    let read = |off: u64, size: u64| -> Option<u64> {
        let b = s.live.m.read_mem(frame + off, size.clamp(1, 8) as usize)?;
        Some(b.iter().rev().fold(0, |v, x| (v << 8) | u64::from(*x)))
    };
    let mut pairs: Vec<String> = Vec::new();
    for (name, off, size) in &fields {
        let Some(v) = read(*off, *size) else {
            out.push(format!("{name:<7} not mapped"));
            continue;
        };
        let decoded = match name.as_str() {
            "epc" => Some(p.describe(v)),
            "cause" => Some(format!(
                "{v} {}",
                if v >> 63 == 1 {
                    crate::trace::interrupt_name(v & !(1 << 63))
                } else {
                    crate::trace::cause_name(v)
                }
            )),
            "status" => Some(status_text(v)),
            "badaddr" | "orig_a0" => Some(format!("{v:#x}")),
            _ => None,
        };
        match decoded {
            Some(d) => out.push(format!("{name:<7} {d}")),
            None if name.len() <= 3 => pairs.push(format!("{name:<3} {v:016x}")),
            None => out.push(format!("{name:<7} {v:016x}")),
        }
    }
    // Two registers a line where they fit.
    let two = width > 2 * 20;
    for c in pairs.chunks(if two { 2 } else { 1 }) {
        out.push(c.join(" "));
    }
    (title, out)
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let width = usize::from(area.width.saturating_sub(2));
    let (title, text) = lines(s, width);
    // One line is a sentence saying why there is no frame: it wraps at
    // words. The frame's lines keep their columns (Left/Right scroll them).
    let prose = text.len() == 1;
    let body: Vec<Line<'static>> = text
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                Line::styled(l, dim())
            } else {
                Line::raw(l)
            }
        })
        .collect();
    let body = if prose {
        super::fit::wrap_lines(body, width)
    } else {
        body
    };
    let block = pane_block(s, Pane::PtRegs, title);
    super::fit::show(
        f,
        area,
        s,
        Pane::PtRegs,
        block,
        body,
        super::fit::Flow::Pan,
        true,
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_real_kernel_without_dwarf_is_not_called_the_minikernel() {
        assert_eq!(
            super::fallback_name(&|n| n == "linux_banner"),
            "Linux riscv order, no DWARF"
        );
        assert_eq!(super::fallback_name(&|_| false), "minikernel PT_*");
    }
}
