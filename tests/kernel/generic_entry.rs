//! scenarios/generic-entry.toml (seed 002) from the command line: the
//! seed-form table and the exit statuses around a variant that is killed on
//! purpose.

use std::process::Command;

fn trapscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .args(args)
        .output()
        .expect("trapscope runs")
}

#[test]
fn a_variant_killed_on_purpose_does_not_fail_run_or_compare() {
    // seccomp_kill's filter kills the process with SIGSYS: exit code 159,
    // which an expectation of the scenario names, so run and compare report
    // it without failing (exit 0), and without a vector-unit hint.
    let out = trapscope(&[
        "run",
        "scenarios/generic-entry.toml",
        "--core",
        "u74",
        "-v",
        "seccomp_kill",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("V 1.0"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("159"), "{text}");
    // The event exports follow the same rule.
    for format in ["csv", "json"] {
        let out = trapscope(&[
            "run",
            "scenarios/generic-entry.toml",
            "-v",
            "seccomp_kill",
            "--events",
            "--format",
            format,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {err}");
    }
}

#[test]
fn compare_prints_the_seed_table_beside_the_arm64_reference() {
    let out = trapscope(&["compare", "scenarios/generic-entry.toml", "--core", "u74"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("perf bench syscall usec/op"), "{text}");
    assert!(text.contains("perf bench syscall ops/sec"), "{text}");
    // Seed 002's arm64 figures, labelled as not comparable, with change %
    // from the printed means: (0.120872 - 0.123997) / 0.123997 = -2.52 %.
    let reference = text
        .lines()
        .find(|l| {
            l.contains("arm64, qemu-kvm; not comparable in absolute") && l.contains("0.123997")
        })
        .unwrap_or_else(|| panic!("no reference row:\n{text}"));
    assert!(
        reference.contains("0.120872") && reference.contains("-2.52"),
        "{reference}"
    );
}

#[test]
fn a_guest_that_exits_non_zero_unexpectedly_still_fails_compare() {
    // The same scenario with the SUD selector set to an invalid value
    // (knob sud = 3) on the fast variant: the process dies of SIGSYS, and
    // no expectation names fast's exit code, so compare exits 1 naming it.
    let out = trapscope(&[
        "compare",
        "scenarios/generic-entry.toml",
        "--core",
        "u74",
        "--set",
        "sud=3",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("exited with code 159"), "{err}");
}

#[test]
fn exit_codes_say_what_a_guest_code_means() {
    // generic-entry.toml's [exit_codes]: 2 is a failed setup (knob sud = 9
    // is a value user_sud.S does not have), 0x302 the kernel refusing a
    // syscall_work bit it does not model (8, SYSCALL_EMU) at boot.
    let cases = [
        ("sud=9", "exited with code 2: a setup call failed"),
        (
            "syscall_work=8",
            "exited with code 770: the kernel refused a knob at boot",
        ),
    ];
    for (set, want) in cases {
        let out = trapscope(&[
            "run",
            "scenarios/generic-entry.toml",
            "-v",
            "fast",
            "--core",
            "u74",
            "--set",
            set,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{set}: {err}");
        assert!(err.contains(want), "{set}: {err}");
    }
}

#[test]
fn an_exit_code_key_that_is_not_a_number_is_refused_where_it_stands() {
    let dir = std::env::temp_dir().join(format!("trapscope-exit-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::fs::read_to_string("scenarios/generic-entry.toml").unwrap();
    let elf = std::fs::canonicalize("assets/guest/minikernel.elf").unwrap();
    let text = src
        .replace(
            "\"../assets/guest/minikernel.elf\"",
            &format!("{:?}", elf.display().to_string()),
        )
        .replace("\"0x302\" =", "\"0x30g\" =");
    let path = dir.join("bad.toml");
    std::fs::write(&path, &text).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("\"0x30g\""))
        .unwrap()
        + 1;
    let out = trapscope(&["check", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("bad.toml:{line}:1")), "{err}");
    assert!(err.contains("'0x30g' is not an exit code"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
