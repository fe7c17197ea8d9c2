//! The privilege badge and the call stack, innermost first, split at trap
//! frames (`session::callstack`): the pc, then each call's return address,
//! then a rule for each trap with the interrupted context's frames below.
//! Only live frames: nothing that has returned (no "last trap", no last
//! mismatched return) is listed with them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::style::{dim, pane_block};
use crate::machine::Program;
use crate::session::callstack::{Frame as StackFrame, MAX_DEPTH};
use crate::trace::{Priv, cause_name, interrupt_name};
use crate::tui::state::{AppState, Pane};

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

/// A trap frame's cause and origin ("ecall from U", "illegal instruction
/// from S", "S timer interrupt in U") and its cause register ("scause 8",
/// "scause irq 5").
fn trap_text(cause: u64, from: Priv, to: Priv) -> (String, String) {
    let reg = if to == Priv::M { "mcause" } else { "scause" };
    let from = from.letter();
    if cause >> 63 == 1 {
        let code = cause & !(1 << 63);
        let name = interrupt_name(code);
        let short = name
            .strip_prefix("supervisor ")
            .map(|r| format!("S {r}"))
            .or_else(|| name.strip_prefix("machine ").map(|r| format!("M {r}")))
            .unwrap_or_else(|| name.to_string());
        return (format!("{short} in {from}"), format!("{reg} irq {code}"));
    }
    let what = match cause {
        8 | 9 | 11 => "ecall",
        c => cause_name(c),
    };
    (format!("{what} from {from}"), format!("{reg} {cause}"))
}

/// The rule for a trap frame in `width` columns: whole when it fits,
/// otherwise the cause register and the place it was taken at go on a line
/// of their own (what still does not fit is cut at the pane's edge).
fn trap_rule(what: &str, reg: &str, at: &str, width: usize) -> Vec<String> {
    let fits = |l: &String| l.chars().count() <= width;
    let whole = format!("── trap: {what} ({reg}) at {at} ──");
    if fits(&whole) {
        return vec![whole];
    }
    let head = format!("── trap: {what} ({reg}) ──");
    if fits(&head) {
        return vec![head, format!("   at {at}")];
    }
    let head = format!("── trap: {what} ──");
    let head = if fits(&head) {
        head
    } else {
        format!("── {what} ──")
    };
    vec![head, format!("   {reg}, at {at}")]
}

/// The stack's lines, innermost first.
fn stack_lines(s: &AppState, p: &Program, width: usize) -> Vec<Line<'static>> {
    let stack = s.live.call_stack();
    let rule = Style::new().fg(Color::Magenta);
    let mut out = Vec::new();
    for f in stack.frames() {
        match *f {
            StackFrame::Call { ret, .. } => out.push(Line::raw(format!("  {}", p.describe(ret)))),
            StackFrame::Trap {
                cause,
                epc,
                from,
                to,
                ..
            } => {
                let (what, reg) = trap_text(cause, from, to);
                for l in trap_rule(&what, &reg, &p.describe(epc), width) {
                    out.push(Line::styled(l, rule));
                }
            }
        }
    }
    if stack.dropped > 0 {
        out.push(Line::styled(
            format!(
                "  … {} older frames dropped ({MAX_DEPTH} kept)",
                stack.dropped
            ),
            dim(),
        ));
    }
    out
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let width = usize::from(area.width.saturating_sub(2));
    let height = usize::from(area.height.saturating_sub(2));
    let mut lines = vec![Line::from(vec![
        badge(s.priv_()),
        Span::raw(format!("  {}", p.describe(s.live.m.pc()))),
    ])];
    lines.extend(stack_lines(s, p, width));
    // Only live frames: what returned is gone (a returned function's name
    // under the stack would read as a caller). The count of returns that
    // skipped frames is no frame, so it stays, as a count.
    let stack = s.live.call_stack();
    if stack.mismatched > 0 {
        lines.push(Line::styled(
            format!("mismatched returns so far: {}", stack.mismatched),
            dim(),
        ));
    }
    // A short pane keeps the innermost frames and says how many it left out.
    if lines.len() > height {
        let keep = height.saturating_sub(1);
        let left = lines.len() - keep;
        lines.truncate(keep);
        if height > 0 {
            lines.push(Line::styled(format!("  … {left} more lines"), dim()));
        }
    }
    let block = pane_block(s, Pane::Privilege, " Privilege & traps ");
    super::fit::show(
        f,
        area,
        s,
        Pane::Privilege,
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
    fn a_trap_rule_splits_when_the_pane_is_narrow() {
        let (what, reg) = trap_text(8, Priv::U, Priv::S);
        assert_eq!((what.as_str(), reg.as_str()), ("ecall from U", "scause 8"));
        assert_eq!(
            trap_rule(&what, &reg, "user_loop+0x10", 80),
            vec!["── trap: ecall from U (scause 8) at user_loop+0x10 ──"]
        );
        assert_eq!(
            trap_rule(&what, &reg, "user_loop+0x10", 41),
            vec![
                "── trap: ecall from U (scause 8) ──",
                "   at user_loop+0x10"
            ]
        );
        let (what, reg) = trap_text(2, Priv::S, Priv::M);
        assert_eq!(
            trap_rule(&what, &reg, "arch_atomic_fetch_add", 41),
            vec![
                "── trap: illegal instruction from S ──",
                "   mcause 2, at arch_atomic_fetch_add"
            ]
        );
        let (what, reg) = trap_text(1 << 63 | 5, Priv::U, Priv::S);
        assert_eq!(
            (what.as_str(), reg.as_str()),
            ("S timer interrupt in U", "scause irq 5")
        );
        assert_eq!(
            trap_rule(&what, &reg, "irq_work+0xa", 20),
            vec![
                "── S timer interrupt in U ──",
                "   scause irq 5, at irq_work+0xa"
            ]
        );
        assert_eq!(trap_text(9, Priv::S, Priv::M).1, "mcause 9");
    }
}
