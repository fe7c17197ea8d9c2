//! What the kernel-facing panes say about the kernel's own code: the
//! reservation-clearing `sc` on every trap return, the pt_regs layout's
//! source, and instructions the base disassembler does not know.

use crate::common;
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

/// A vector event names its instruction from the encoding it carries: a
/// snapshot's program holds its code only as a RAM segment at physical
/// addresses, so nothing is found at the kernel's virtual pc (here a
/// program whose only segment is elsewhere). vsetvli t1, zero, e8, m8, ta,
/// ma: zimm 0xc3 (vma, vta, e8 = 000, m8 = 011) << 20 | funct3 111 << 12 |
/// rd 6 << 7 | OP-V 0x57 (V spec §6.1).
#[test]
fn a_vector_event_names_its_instruction_without_code_at_its_pc() {
    let dir = common::scratch("vector-event");
    let elf = common::elf(
        0x8000_0000,
        &[common::Load::code(0x8000_0000, 4, &common::SPIN)],
    );
    let path = common::write(&dir, "spin.elf", &elf);
    let p = trapscope::machine::Program::load(std::path::Path::new(&path)).unwrap();
    let raw = 0xc3 << 20 | 0b111 << 12 | 6 << 7 | 0x57;
    let e = trapscope::trace::Event::Vector {
        pc: 0xffff_ffff_8000_1234,
        class: trapscope::vector::VClass::Config,
        written: 0,
        raw,
    };
    let text = trapscope::report::event_text(&p, &e);
    assert!(text.contains("vsetvli t1, zero, e8, m8, ta, ma"), "{text}");
}

/// generic-entry opens on the u74 (its first core; the P8700, which traps
/// AMOs, is one of five it lists): the lower pane is the RAS, the point of
/// its trap-entry lesson, not the LR/SC reservation. zalrsc-atomics, whose
/// variants run on the P8700, still opens on LR/SC.
#[test]
fn the_lower_pane_follows_the_core_the_tui_opens_on() {
    let s = app_at("scenarios/generic-entry.toml", None);
    assert_eq!(s.lower, Lower::Ras);
    let s = app_at("scenarios/zalrsc-atomics.toml", None);
    assert_eq!(s.lower, Lower::Reservation);
}

/// At power-on (the firmware's `_start`, M-mode) the CSRs pane decodes
/// mstatus as it decodes sstatus: fields by name, modes by letter, not
/// "MPP:3 MPIE0 MIE0".
#[test]
fn mstatus_is_decoded_in_sstatus_convention() {
    let s = app_at("scenarios/ras-trap-entry.toml", None);
    let text = pane(&s, Pane::Csrs, 45, 20);
    assert!(text.contains("mstatus"), "{text}");
    assert!(!text.contains("MPIE0") && !text.contains("MIE0"), "{text}");
    let after: String = text.split("mstatus").nth(1).unwrap().to_string();
    assert!(
        after.contains("MPP:U") || after.contains("MPP:M") || after.contains("MPP:S"),
        "{text}"
    );
    assert!(after.contains("FS:"), "{text}");
}

/// `:break bench_timed_loop` (a label inside `main`, user.S) names what was
/// typed, then where it resolved: "breakpoint at bench_timed_loop
/// (main+0x80)", not only "main+0x80".
#[test]
fn break_names_the_symbol_typed() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.command("break bench_timed_loop");
    let msg = s.message.clone().unwrap().0;
    assert!(
        msg.starts_with("breakpoint at bench_timed_loop (main+0x"),
        "{msg}"
    );
    s.command("break syscall");
    let msg = s.message.clone().unwrap().0;
    assert_eq!(msg, "breakpoint at syscall", "{msg}");
}
