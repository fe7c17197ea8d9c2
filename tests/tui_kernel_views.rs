//! What the kernel-facing panes say about the kernel's own code: the
//! reservation-clearing `sc` on every trap return, the pt_regs layout's
//! source, and instructions the base disassembler does not know.

mod common;
use common::tui::app_at;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Lower, Pane};

fn pane(s: &AppState, p: Pane, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw_pane(f, Rect::new(0, 0, w, h), s, p))
        .unwrap();
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// generic-entry's kernel returns through `ret_from_exception`, whose
/// `sc.d zero, a2, (sp)` (guest-asm/minikernel/entry.S, as Linux's) drops
/// any reservation; no LR ever runs in that scenario, so every such sc
/// fails, by design. The pane says what it is for, not a bare failure.
#[test]
fn the_trap_returns_sc_reads_as_clearing_the_reservation() {
    let mut s = app_at("scenarios/generic-entry.toml", None);
    s.go_to_start();
    s.lower = Lower::Reservation;
    let text = pane(&s, Pane::Reservation, 120, 12);
    let squashed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(squashed.contains("last sc ret_from_exception+"), "{text}");
    assert!(squashed.contains("clears the reservation"), "{text}");
    assert!(squashed.contains("not a fault"), "{text}");
}

/// `trapscope diff` disassembles vector instructions as the TUI does
/// (vstate-initial's base_v1 path runs `__riscv_v_vstate_null`'s
/// `vsetvli t1, zero, e8, m8, ta, ma` at vector.S:356), never as `.insn`.
#[test]
fn the_path_diff_names_vector_instructions() {
    let out = common::trapscope_within(
        &["diff", "scenarios/vstate-initial.toml", "--full"],
        std::time::Duration::from_secs(120),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("vsetvli t1, zero, e8, m8, ta, ma"), "{text}");
    assert!(!text.contains(".insn 4"), "{text}");
}
