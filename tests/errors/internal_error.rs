//! The last guard (src/machine/guard.rs): a panic inside an emulator
//! callback cannot unwind through the emulator, so it used to abort the
//! process. Now the run stops, and the command ends with one line and exit
//! 101, with no half report. Debug builds make the N-th callback panic on
//! `TRAPSCOPE_TEST_HOOK_PANIC=N`, which is how these tests reach it.

use std::process::{Command, Output};

fn trapscope(args: &[&str], panic_at: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("TRAPSCOPE_TEST_HOOK_PANIC", panic_at)
        .output()
        .unwrap()
}

#[test]
fn a_panic_in_a_callback_ends_the_command_with_one_line_and_101() {
    let cases: [&[&str]; 4] = [
        &["elf", "assets/guest/tests/ecall_u.elf"],
        &["run", "scenarios/ras-trap-entry.toml"],
        &["compare", "scenarios/ras-trap-entry.toml"],
        &["check", "scenarios/ras-trap-entry.toml"],
    ];
    for args in cases {
        let out = trapscope(args, "40");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(101), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("trapscope: internal error: a bug in trapscope at guest pc 0x"),
            "{args:?}: {err}"
        );
        assert!(err.contains("TRAPSCOPE_TEST_HOOK_PANIC=40"), "{err}");
        assert!(err.trim_end().ends_with("please report it"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        // `check` names the scenario before it runs anything; nothing else.
        let heading = usize::from(args[0] == "check");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.lines().count() <= heading,
            "{args:?}: a half report: {stdout}"
        );
    }
    // Without the switch the same commands succeed.
    let out = trapscope(&["elf", "assets/guest/tests/ecall_u.elf"], "");
    assert_eq!(out.status.code(), Some(0));
}
