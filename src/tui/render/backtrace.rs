//! The backtrace: the live frames of the exact call stack
//! (`CallStack::backtrace`), innermost first, each as `#N sym+0xOFF
//! file:line`, split at trap frames by a rule naming the trap. Only frames
//! not yet returned from appear: a function that returned is gone.
//!
//! ```text
//! ┌ Backtrace ──────────────────────────────┐
//! │#0 sys_getppid+0x4 syscall.S:121         │
//! │#1 do_trap_ecall_u+0x34 syscall.S:52     │
//! │── ecall from U (scause 8) ──            │
//! │#2 syscall+0x1c user.S:40                │
//! │#3 bench_timed_loop+0x8 user.S:60        │
//! └─────────────────────────────────────────┘
//! ```

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;

use super::style::{dim, pane_block};
use crate::machine::Program;
use crate::session::callstack::{BtLine, MAX_DEPTH};
use crate::trace::{Priv, cause_name, interrupt_name};
use crate::tui::state::{AppState, Pane};

/// A trap's one-line name: "ecall from U (scause 8)".
pub fn trap_name(cause: u64, from: Priv, to: Priv) -> String {
    let reg = if to == Priv::M { "mcause" } else { "scause" };
    let from = from.letter();
    if cause >> 63 == 1 {
        let code = cause & !(1 << 63);
        return format!("{} in {from} ({reg} irq {code})", interrupt_name(code));
    }
    let what = match cause {
        8 | 9 | 11 => "ecall",
        c => cause_name(c),
    };
    format!("{what} from {from} ({reg} {cause})")
}

/// `sym+0xOFF file:line` (the file's last path component: kernel paths
/// are long).
pub fn location(p: &Program, pc: u64) -> String {
    let mut s = p.describe(pc);
    if let Some(l) = p.loc_string(pc) {
        let short = l.rsplit('/').next().unwrap_or(&l);
        s.push(' ');
        s.push_str(short);
    }
    s
}

/// The backtrace's text lines, innermost first.
pub fn lines(s: &AppState) -> Vec<String> {
    let p = s.live.program();
    let stack = s.live.call_stack();
    let mut n = 0;
    let mut out = Vec::new();
    for l in stack.backtrace(s.live.m.pc()) {
        match l {
            BtLine::At(pc) => {
                out.push(format!("#{n} {}", location(p, pc)));
                n += 1;
            }
            BtLine::Trap {
                cause, from, to, ..
            } => out.push(format!("── {} ──", trap_name(cause, from, to))),
        }
    }
    if stack.dropped > 0 {
        out.push(format!(
            "… {} older frames dropped ({MAX_DEPTH} kept)",
            stack.dropped
        ));
    }
    out
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let rule = Style::new().fg(Color::Magenta);
    let lines: Vec<Line<'static>> = lines(s)
        .into_iter()
        .map(|l| {
            if l.starts_with("──") {
                Line::styled(l, rule)
            } else if l.starts_with('…') {
                Line::styled(l, dim())
            } else {
                Line::raw(l)
            }
        })
        .collect();
    let block = pane_block(s, Pane::Backtrace, " Backtrace ");
    super::fit::show(
        f,
        area,
        s,
        Pane::Backtrace,
        block,
        lines,
        super::fit::Flow::Pan,
        true,
    );
}
