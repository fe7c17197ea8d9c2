//! Every exit status trapscope documents, produced by the binary itself.

use crate::common;

use std::time::Duration;

use common::trapscope_within;

const LIMIT: Duration = Duration::from_secs(30);

#[test]
fn help_states_the_default_budgets() {
    let out = trapscope_within(&["elf", "--help"], LIMIT);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[default: 100000000]"), "{text}");
    assert!(text.contains("100M"), "{text}");
    let out = trapscope_within(&["run", "--help"], LIMIT);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let fallback = trapscope::scenario::DEFAULT_BUDGET.to_string();
    assert!(
        text.contains("the scenario's `budget`") && text.contains(&fallback),
        "{text}"
    );
}

/// exit_code.elf with its `exit_code` dword patched to `code`, in a scratch file.
fn exit_code_elf(code: u64) -> String {
    use object::{Object, ObjectSection, ObjectSymbol};
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/bad/exit_code.elf");
    let mut bytes = std::fs::read(&path).unwrap();
    let off = {
        let f = object::File::parse(&*bytes).unwrap();
        let sym = f.symbol_by_name("exit_code").unwrap();
        let sec = f.section_by_index(sym.section_index().unwrap()).unwrap();
        let (start, _) = sec.file_range().unwrap();
        (start + sym.address() - sec.address()) as usize
    };
    assert_eq!(
        bytes[off..off + 8],
        3u64.to_le_bytes(),
        "exit_code.S stores 3"
    );
    bytes[off..off + 8].copy_from_slice(&code.to_le_bytes());
    let dir = common::scratch(&format!("exit-{code}"));
    common::write(&dir, "exit.elf", &bytes)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn elf_exits_with_the_guests_code_and_prints_one_summary_line() {
    // exit_code.S: la (2) + ld + slli + ori + la (2) + sd = 8 instructions, no traps.
    for (code, status) in [(0u64, 0), (3, 3), (7, 7), (256, 255)] {
        let f = exit_code_elf(code);
        let out = trapscope_within(&["elf", &f], LIMIT);
        assert_eq!(out.status.code(), Some(status), "{}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "exited with code {code} after 8 instructions, 0 traps"
            )),
            "{err}"
        );
    }
}

#[test]
fn a_guests_own_124_or_125_says_it_is_the_guests() {
    for (code, what) in [(124u64, "budget"), (125, "fault")] {
        let f = exit_code_elf(code);
        let out = trapscope_within(&["elf", &f], LIMIT);
        assert_eq!(out.status.code(), Some(code as i32));
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "code {code} (the guest's own exit code, not trapscope's {what} status)"
            )),
            "{err}"
        );
        // Through `run`, the same words, and exit 1.
        let set = format!("code={code}");
        let out = trapscope_within(
            &[
                "run",
                "tests/fixtures/exit_code.toml",
                "-v",
                "zero",
                "--set",
                &set,
            ],
            LIMIT,
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("the guest's own exit code"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn budget_is_124_and_a_fault_125() {
    let out = trapscope_within(
        &[
            "elf",
            "assets/guest/bad/loop_forever.elf",
            "--budget",
            "1000",
        ],
        LIMIT,
    );
    common::fails_one_line(&out, 124, &["instruction budget of 1000"]);
    let out = trapscope_within(&["elf", "assets/guest/bad/unsupported.elf"], LIMIT);
    assert_eq!(out.status.code(), Some(125), "{}", stderr(&out));
}

/// The report's outcome line says how far the run got before the error's
/// own text, so the advice ends the line (it read "... raise it with
/// --budget after 1000 instructions, 5 traps").
#[test]
fn a_run_out_of_budget_reports_how_far_it_got_then_why() {
    let out = trapscope_within(
        &[
            "run",
            "scenarios/ras-trap-entry.toml",
            "-v",
            "before",
            "--budget",
            "1000",
        ],
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(124));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("outcome"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("did not finish after 1000 instructions"),
        "{line}"
    );
    assert!(line.ends_with("raise it with --budget"), "{line}");
}

#[test]
fn run_compare_and_check_exit_1_naming_the_variant_and_its_code() {
    for (cmd, needle) in [
        (
            "run",
            "trapscope: variant three: the guest exited with code 3",
        ),
        (
            "compare",
            "trapscope: variant three on generic: the guest exited with code 3",
        ),
    ] {
        let out = trapscope_within(&[cmd, "tests/fixtures/exit_code.toml"], LIMIT);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{cmd}: {}", stderr(&out));
    }
    let out = trapscope_within(&["check", "tests/fixtures/exit_code.toml"], LIMIT);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("FAIL  [generic] variant three: the guest exited with code 3"),
        "{text}"
    );
    // The variant that exits 0 alone succeeds.
    let out = trapscope_within(
        &["run", "tests/fixtures/exit_code.toml", "-v", "zero"],
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn check_accepts_a_nonzero_exit_an_expectation_names() {
    let out = trapscope_within(&["check", "tests/fixtures/exit_code_expected.toml"], LIMIT);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A guest that never exits fails `check` though no expectation names it
/// (check said "0 passed, 0 failed" and exited 0 over a storm cut off).
#[test]
fn check_fails_a_guest_that_never_exits() {
    for (fixture, why) in [
        (
            "tests/fixtures/never_exits.toml",
            "instruction budget of 1000000",
        ),
        ("tests/fixtures/trap_loop.toml", "trap loop"),
    ] {
        let out = trapscope_within(&["check", fixture], LIMIT);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{fixture}: {text}");
        let line = text
            .lines()
            .find(|l| l.contains("FAIL"))
            .unwrap_or_else(|| panic!("{fixture}: {text}"));
        assert!(line.contains("the guest did not exit: "), "{line}");
        assert!(line.contains(why), "{line}");
        assert!(text.contains("0 passed, 1 failed"), "{text}");
    }
}

#[test]
fn bad_input_is_2() {
    let out = trapscope_within(&["run", "tests/fixtures/malformed.toml"], LIMIT);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ctrl_c_ends_a_headless_run_with_130() {
    use std::process::{Command, Stdio};
    use std::time::Instant;
    let cases: [&[&str]; 2] = [
        &[
            "elf",
            "assets/guest/bad/loop_forever.elf",
            "--budget",
            "1000000000000",
        ],
        // Single-stepping: the step loop sees it too.
        &[
            "run",
            "scenarios/ras-trap-entry.toml",
            "--step",
            "--budget",
            "1000000000000",
            "--set",
            "iterations=1000000000",
        ],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Let it get into the run loop.
        std::thread::sleep(Duration::from_millis(500));
        let sent = Instant::now();
        let ok = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if sent.elapsed() > Duration::from_secs(3) {
                let _ = child.kill();
                panic!("{args:?}: still running 3 s after SIGINT");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "trapscope: interrupted (Ctrl-C)\n");
        assert!(out.stdout.is_empty(), "{args:?}: no half report");
    }
}

#[test]
fn a_closed_stdout_is_141() {
    use std::process::{Command, Stdio};
    // `run --events` prints thousands of lines: the pipe is closed before.
    let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenarios/ras-trap-entry.toml", "--events"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(141));
}
