//! What `diff` and `run` say when a variant never reaches or never leaves its loop.

use crate::common;

use std::time::Duration;

/// On a core without V, vstate-initial's guests take an illegal
/// instruction at their first vector instruction, before the loop: the
/// diff says why in the words `run` uses, and the minikernel's exit code
/// in hex as its ABI writes it (0x200 | scause 2, an S-mode fault).
#[test]
fn a_diff_on_a_core_without_v_names_the_missing_unit() {
    let out = common::trapscope_within(
        &["diff", "scenarios/vstate-initial.toml", "--core", "u74"],
        Duration::from_secs(120),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no measured iteration began"), "{err}");
    assert!(err.contains("exited with code 0x202"), "{err}");
    assert!(
        err.contains("core u74 has no V 1.0 unit, and this scenario's vector code needs one"),
        "{err}"
    );
}

/// The livelock line names both places by symbol: the SC that keeps
/// failing (arch_cmpxchg's, guest-asm zalrsc-kprobes) and the sc that
/// took its reservation, the trap return's in ret_from_exception. It gave
/// the second as a bare address.
#[test]
fn the_livelock_line_names_the_sc_that_took_the_reservation() {
    let out = common::trapscope_within(
        &["run", "scenarios/probe-in-lrsc.toml", "-v", "cmpxchg"],
        Duration::from_secs(120),
    );
    assert_eq!(out.status.code(), Some(125));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.contains("livelock at pc"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains(" in arch_cmpxchg+0x"), "{line}");
    assert!(
        line.contains("(last: the sc at ret_from_exception+0x"),
        "{line}"
    );
    assert!(!line.contains("[the SC at"), "{line}");
}
