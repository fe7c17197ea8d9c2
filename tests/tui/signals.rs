//! The terminal after a signal (src/tui/signals.rs): the TUI runs on a
//! pseudo-terminal (python3's pty module, tests/common/pty_run.py), and
//! each signal that ends it must leave the terminal as it was: mouse
//! reporting off (`\x1b[?1000l`), the main screen (`\x1b[?1049l`), the
//! cursor shown (`\x1b[?25h`), and the tty's termios as before the TUI
//! started. SIGTSTP and Ctrl-Z hand the terminal back the same way and
//! stop; SIGCONT takes it again (raw, alternate screen, mouse on) and
//! redraws. A bug caught in an emulator callback ends the TUI with the
//! terminal restored, one line and exit 101. Started as its own session's
//! command (as tmux or setsid start one), nobody could continue a stopped
//! TUI: Ctrl-Z and SIGTSTP leave it running, the terminal its, and Ctrl-Z
//! says why.
//!
//! Skipped, with the reason printed, where python3 is missing.

use std::process::Command;

const HARNESS: &str = include_str!("../common/pty_run.py");

#[derive(Debug)]
struct Step {
    step: String,
    state: String,
    out: String,
    same_tty: bool,
}

/// Runs the TUI under the harness with `steps`, and `env`.
fn pty(steps: &[&str], env: &[(&str, &str)]) -> Option<Vec<Step>> {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not installed (the pty harness needs it)");
        return None;
    }
    let out = Command::new("python3")
        .arg("-c")
        .arg(HARNESS)
        .arg(env!("CARGO_BIN_EXE_trapscope"))
        .args(steps)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "harness: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    Some(
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| Step {
                step: s["step"].as_str().unwrap().into(),
                state: s["state"].as_str().unwrap().into(),
                out: s["out"].as_str().unwrap().into(),
                same_tty: s["same_tty"].as_bool().unwrap(),
            })
            .collect(),
    )
}

/// The last few hundred bytes written, for messages.
fn tail(s: &str) -> &str {
    let mut at = s.len().saturating_sub(300);
    while !s.is_char_boundary(at) {
        at += 1;
    }
    &s[at..]
}

/// The terminal is handed back: mouse off, main screen, cursor shown, the
/// tty's mode as before, in that order of writing.
fn restored(s: &Step) {
    let mouse = s.out.rfind("\x1b[?1000l");
    let screen = s.out.rfind("\x1b[?1049l");
    let cursor = s.out.rfind("\x1b[?25h");
    assert!(
        mouse.is_some() && screen.is_some() && cursor.is_some(),
        "{}: not restored: {:?}",
        s.step,
        tail(&s.out)
    );
    // Nothing re-enters after it.
    let last_enter = s.out.rfind("\x1b[?1049h");
    assert!(last_enter < screen, "{}: {:?}", s.step, tail(&s.out));
    assert!(s.same_tty, "{}: the tty's mode differs from before", s.step);
}

#[test]
fn every_signal_that_ends_the_tui_restores_the_terminal() {
    // (signal, its number on Linux)
    let cases = [
        ("SIGTERM", 15),
        ("SIGHUP", 1),
        ("SIGINT", 2),
        ("SIGQUIT", 3),
    ];
    let runs: Vec<_> = cases
        .iter()
        .map(|&(sig, n)| std::thread::spawn(move || (sig, n, pty(&[sig], &[]))))
        .collect();
    for r in runs {
        let (sig, n, steps) = r.join().unwrap();
        let Some(steps) = steps else { return };
        let s = &steps[0];
        assert_eq!(s.state, format!("signal {n}"), "{sig}: {:?}", tail(&s.out));
        restored(s);
    }
}

#[test]
fn ctrl_z_and_sigtstp_hand_the_terminal_back_and_sigcont_takes_it_again() {
    let Some(steps) = pty(&["SIGTSTP", "SIGCONT", "key:1a", "SIGCONT", "key:71"], &[]) else {
        return;
    };
    let names: Vec<_> = steps
        .iter()
        .map(|s| (s.step.as_str(), s.state.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("SIGTSTP", "stopped"),
            ("SIGCONT", "running"),
            ("key:1a", "stopped"),
            ("SIGCONT", "running"),
            ("key:71", "exit 0"),
        ],
        "{:?}",
        steps.iter().map(|s| tail(&s.out)).collect::<Vec<_>>()
    );
    for s in [&steps[0], &steps[2], &steps[4]] {
        restored(s);
    }
    for s in [&steps[1], &steps[3]] {
        for on in ["\x1b[?1049h", "\x1b[?1000h", "\x1b[2J"] {
            assert!(
                s.out.contains(on),
                "{}: no {on:?}: {:?}",
                s.step,
                tail(&s.out)
            );
        }
        assert!(!s.same_tty, "{}: the tty is not raw again", s.step);
    }
}

#[test]
fn an_internal_error_ends_the_tui_restored_with_one_line_and_101() {
    let Some(steps) = pty(&[], &[("TRAPSCOPE_TEST_HOOK_PANIC", "3000")]) else {
        return;
    };
    let s = &steps[0];
    assert_eq!(s.state, "exit 101", "{:?}", tail(&s.out));
    restored(s);
    let after = &s.out[s.out.rfind("\x1b[?25h").unwrap_or(0)..];
    assert!(
        after.contains("trapscope: internal error: a bug in trapscope at guest pc 0x")
            && after.contains("please report it"),
        "{after:?}"
    );
    assert!(!s.out.contains("panicked"), "{:?}", tail(&s.out));
}

#[test]
fn without_a_job_control_shell_ctrl_z_and_sigtstp_do_not_stop_it() {
    let Some(steps) = pty(&["--orphan", "key:1a", "SIGTSTP", "key:71"], &[]) else {
        return;
    };
    let names: Vec<_> = steps
        .iter()
        .map(|s| (s.step.as_str(), s.state.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("key:1a", "running"),
            ("SIGTSTP", "running"),
            ("key:71", "exit 0"),
        ],
        "{:?}",
        steps.iter().map(|s| tail(&s.out)).collect::<Vec<_>>()
    );
    for s in &steps[..2] {
        // The terminal stays the TUI's: not handed back.
        for off in ["\x1b[?1049l", "\x1b[?1000l"] {
            assert!(
                !s.out.contains(off),
                "{}: {off:?}: {:?}",
                s.step,
                tail(&s.out)
            );
        }
    }
    // Ctrl-Z's line on the status line (drawn in pieces: its words).
    for w in ["tmux", "setsid),", "goes", "quits"] {
        assert!(steps[0].out.contains(w), "{w}: {:?}", tail(&steps[0].out));
    }
    restored(&steps[2]);
}
