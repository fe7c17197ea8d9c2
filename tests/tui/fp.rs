//! The FP pane and the glyphs that stand in for colour (docs/scenarios/fp-state.md, "FP
//! state"), drawn into a test backend.

use crate::common;
use common::tui::screen;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Lower, Pane, Timing};
use trapscope::tui::update::Action;

fn app_of(scenario: &str) -> AppState {
    common::tui::app_at(scenario, None)
}

/// One pane drawn alone at `w`×`h`, as rows of text.
fn pane_rows(s: &mut AppState, pane: Pane, w: u16, h: u16) -> Vec<String> {
    s.timing = Timing::default();
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw_pane(f, f.area(), s, pane)).unwrap();
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect()
}

fn fp_app() -> AppState {
    app_of("tests/fixtures/fs_state.toml")
}

#[test]
fn v_reaches_the_fp_pane_and_it_shows_the_reset_state() {
    let mut s = fp_app();
    while s.lower != Lower::Fp {
        s.update(Action::ToggleVector);
    }
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("FP registers"), "{text}");
    let rows = pane_rows(&mut s, Pane::Fp, 45, 24).join("\n");
    // Reset (docs/reference/machine.md): mstatus 0, so FS Off; fcsr 0.
    assert!(rows.contains("FS [Off]→ Initial → Clean → Dirty"), "{rows}");
    assert!(rows.contains("fcsr 0x00 frm RNE fflags -"), "{rows}");
    assert!(rows.contains("no transition yet"), "{rows}");
    for name in ["ft0", "fs0", "fa0", "fa7", "fs11", "ft11"] {
        assert!(rows.contains(name), "{name}: {rows}");
    }
}

#[test]
fn the_first_fp_write_marks_the_register_and_moves_fs_to_dirty() {
    let mut s = fp_app();
    s.command("break fs_first_write");
    s.update(Action::Continue);
    let at = s.live.program().symbol("fs_first_write").unwrap().addr;
    assert_eq!(s.live.m.pc(), at);
    let before = pane_rows(&mut s, Pane::Fp, 45, 24).join("\n");
    assert!(before.contains("[Initial]"), "{before}");
    s.update(Action::Step); // fmv.d.x ft4, t0 (t0 = pi's bits)
    let rows = pane_rows(&mut s, Pane::Fp, 45, 24);
    let text = rows.join("\n");
    assert!(text.contains("[Dirty]"), "{text}");
    assert!(text.contains("Initial → Dirty @"), "{text}");
    assert!(
        text.contains("fmv.d.x ft4, t0 writes an f register"),
        "{text}"
    );
    // ft4 carries the written mark and pi; no other register does.
    let ft4 = rows.iter().find(|r| r.starts_with("│ ft4")).unwrap();
    assert!(ft4.contains("ft4*3.14159"), "{ft4}");
    assert_eq!(
        text.matches('*').count(),
        2,
        "the title's legend and ft4:\n{text}"
    );
    // The next step writes a3 (fmv.x.d a3, ft4): the registers pane marks
    // it with the glyph, and only it.
    s.update(Action::Step);
    let regs = pane_rows(&mut s, Pane::Registers, 45, 18).join("\n");
    assert!(regs.contains("  a3*400921fb54442d18"), "{regs}");
    assert_eq!(regs.matches('*').count(), 1, "{regs}");
}

#[test]
fn fcsr_is_decoded_after_the_guest_writes_it() {
    let mut s = fp_app();
    s.command("break fs_csr_write");
    s.update(Action::Continue);
    s.update(Action::Step); // csrw fcsr, t1 (t1 = 0x21: RTZ, NX)
    let text = pane_rows(&mut s, Pane::Fp, 45, 24).join("\n");
    assert!(text.contains("fcsr*0x21 frm RTZ fflags NX"), "{text}");
    assert!(text.contains("Clean → Dirty"), "{text}");
}

#[test]
fn scause_at_reset_says_no_trap_has_happened() {
    let mut s = app_of("scenarios/ras-trap-entry.toml");
    let text = pane_rows(&mut s, Pane::Csrs, 43, 13).join("\n");
    assert!(
        text.contains("scause   0 (no trap has happened yet)"),
        "{text}"
    );
    assert!(!text.contains("misaligned"), "{text}");
    // In the first syscall's handler, the cause is named.
    s.command("break do_trap_ecall_u");
    s.update(Action::Continue);
    let text = pane_rows(&mut s, Pane::Csrs, 43, 13).join("\n");
    assert!(text.contains("scause   8 ecall from U-mode"), "{text}");
}

#[test]
fn every_set_sstatus_field_shows_at_the_panes_width() {
    // In user mode the minikernel's sstatus is 0x2022 (FS Initial, SPIE,
    // SIE; kernel.S sets SPIE and FS Initial before its sret) plus UXL = 2.
    let mut s = app_of("scenarios/ras-trap-entry.toml");
    s.command("break user_start");
    s.update(Action::Continue);
    assert_eq!(s.live.csrs.sstatus & 0xffff_ffff, 0x2022);
    for w in [43u16, 30, 24] {
        let text = pane_rows(&mut s, Pane::Csrs, w, 13).join("\n");
        for field in ["FS:Initial", "VS:Off", "SPP:U", "SPIE", "SIE", "UXL:64"] {
            assert!(text.contains(field), "{field} at width {w}:\n{text}");
        }
    }
}

#[test]
fn the_current_vs_state_is_bracketed_not_only_coloured() {
    let mut s = app_of("scenarios/vector-context-switch.toml");
    let text = pane_rows(&mut s, Pane::Vs, 45, 5).join("\n");
    assert!(text.contains("[Off]"), "{text}");
    assert!(text.contains(" Initial "), "{text}");
}

#[test]
fn the_fp_pane_draws_at_any_size() {
    let mut s = fp_app();
    s.command("break fs_csr_write");
    s.update(Action::Continue);
    for (w, h) in [(0, 0), (1, 1), (10, 3), (45, 6), (30, 40), (120, 40)] {
        pane_rows(&mut s, Pane::Fp, w, h);
    }
}

#[test]
fn the_fp_lesson_opens_on_the_fp_pane_and_its_steps_keep_it_there() {
    let mut s = app_of("scenarios/fp-lazy-switch.toml");
    assert_eq!(s.lower, Lower::Fp, "its lesson highlights the fp pane");
    // The lesson's third step stops at __fstate_save in the dirty variant:
    // the previous task's FS is Dirty, so its registers are stored.
    s.lower = Lower::Ras;
    for _ in 0..3 {
        s.update(Action::Advance);
    }
    assert_eq!(s.variant_name(), "dirty");
    assert_eq!(s.lower, Lower::Fp, "a step highlighting fp brings it up");
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("FP registers"), "{text}");
    let sym = s.live.program().symbol("__fstate_save").unwrap().addr;
    assert_eq!(s.live.m.pc(), sym);
    // fp_touch ran once in this task: fs0 = 1.0, FS Dirty before the entry
    // turned it Off (the kernel runs with FS Off).
    let rows = pane_rows(&mut s, Pane::Fp, 45, 24).join("\n");
    assert!(rows.contains("[Off]"), "{rows}");
    assert!(
        rows.contains(" fs0 1 ") || rows.contains(" fs0*1 "),
        "{rows}"
    );
}

#[test]
fn stepping_back_marks_the_f_register_that_changed() {
    let mut s = fp_app();
    s.command("break fs_first_write");
    s.update(Action::Continue);
    s.update(Action::Step); // fmv.d.x ft4, t0
    s.update(Action::Step); // fmv.x.d a3, ft4: no f register written
    let rows = pane_rows(&mut s, Pane::Fp, 45, 24).join("\n");
    assert!(!rows.contains("ft4*"), "{rows}");
    // Back over both: ft4 goes back to 0, which is a change from pi.
    s.update(Action::StepBack);
    s.update(Action::StepBack);
    let rows = pane_rows(&mut s, Pane::Fp, 45, 24).join("\n");
    assert!(rows.contains("ft4*0 "), "{rows}");
    assert!(rows.contains("[Initial]"), "{rows}");
}
