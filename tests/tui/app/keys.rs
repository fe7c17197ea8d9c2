//! Keys, commands and terminal sizes (split from app.rs, whose app and pane
//! reader it uses): command errors in the status line, typing through the
//! command line, help listing every key, reverse-continue, `break` at
//! sym+offset and file:line, and what a tiny, too small or missing terminal
//! gets.

use super::*;

#[test]
fn commands_report_errors_in_the_status_line() {
    let mut s = app();
    s.command("break no_such_symbol");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no_such_symbol")));
    s.command("set nope=1");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("unknown knob 'nope'")));
    s.command("core pentium");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("unknown core")));
    s.command("frobnicate");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("unknown command")));
    s.command("run 10");
    assert_eq!(s.live.executed(), 10);
}

#[test]
fn typing_a_command_goes_through_the_command_line() {
    let mut s = app();
    s.update(Action::CommandStart);
    for c in "run 5".chars() {
        s.update(Action::Input(c));
    }
    assert_eq!(s.mode, Mode::Command("run 5".into()));
    let text = screen(&mut s, 160, 45);
    assert!(text.contains(":run 5"), "{text}");
    s.update(Action::Submit);
    assert_eq!(s.live.executed(), 5);
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn a_tiny_terminal_says_how_big_it_must_be() {
    let mut s = app();
    let text = screen(&mut s, 80, 24);
    assert!(text.contains("at least 100×30"), "{text}");
    assert!(text.contains("80×24"), "{text}");
}

#[test]
fn help_lists_every_key_of_the_keymap() {
    let mut s = app();
    s.update(Action::Help);
    let text = screen(&mut s, 160, 45);
    for (k, what) in [
        ("s", "step one instruction"),
        ("Tab", "switch variant"),
        ("B", "reverse-continue"),
        ("q", "quit"),
    ] {
        assert!(text.contains(what), "help lacks {k}:\n{text}");
    }
    assert!(text.contains("break SYM|SYM+0xOFF|FILE:LINE"), "{text}");
    s.update(Action::Step); // any key closes it
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!(
        s.live.executed(),
        0,
        "the key that closes help does nothing else"
    );
}

#[test]
fn reverse_continue_goes_back_to_the_previous_breakpoint_hit() {
    let mut s = app();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    let first = s.live.executed();
    s.update(Action::Step);
    s.update(Action::Continue);
    let second = s.live.executed();
    assert!(second > first);
    s.update(Action::ReverseContinue);
    assert_eq!(s.live.executed(), first);
}

#[test]
fn without_a_terminal_the_tui_says_so() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the TUI needs a terminal"), "{err}");
}

#[test]
fn a_terminal_too_small_for_the_panes_takes_only_quit() {
    use trapscope::tui::acts_at;
    assert!(!acts_at(&Action::Step, 30, 8));
    assert!(!acts_at(&Action::Advance, 99, 45));
    assert!(!acts_at(&Action::Advance, 120, 29));
    assert!(acts_at(&Action::Quit, 30, 8));
    assert!(acts_at(
        &Action::Step,
        render::MIN_WIDTH,
        render::MIN_HEIGHT
    ));
}

#[test]
fn break_takes_sym_plus_offset_and_file_line() {
    let mut s = app();
    let p = s.live.program().clone();
    let entry = p.symbol("do_trap_ecall_u").unwrap().addr;
    // The form every pane prints: the symbol's address plus 4.
    s.command("break do_trap_ecall_u+0x4");
    assert!(s.breakpoints.contains(&(entry + 4)), "{:?}", s.message);
    // syscall.S line 24 is do_trap_ecall_u's first instruction (the label
    // is on line 23 of guest-asm/minikernel/syscall.S).
    s.command("break syscall.S:24");
    assert!(s.breakpoints.contains(&entry), "{:?}", s.message);
    s.command("break minikernel/syscall.S:24");
    assert!(s.breakpoints.contains(&entry), "{:?}", s.message);
    // Errors say what is wrong.
    s.command("break syscall.S:x");
    assert!(
        matches!(&s.message, Some((m, true)) if m.contains("line number")),
        "{:?}",
        s.message
    );
    s.command("break nosuch.S:3");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no source file 'nosuch.S'")));
    s.command("break nope+0x4");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no symbol 'nope'")));
    s.command("delete do_trap_ecall_u+4");
    assert!(!s.breakpoints.contains(&(entry + 4)), "decimal offsets too");
}
