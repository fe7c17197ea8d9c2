//! Bad input gets one clear line and a non-zero exit, never a panic.

use std::path::Path;
use std::process::{Command, Output};

fn trapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

/// Asserts a failure with `code`, whose stderr contains every `needle`.
fn fails(out: &Output, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in: {err}");
    }
}

#[test]
fn malformed_scenario_names_file_line_and_column() {
    let out = trapscope(&["run", "tests/fixtures/malformed.toml"]);
    // Line 3 is `elf = "../../assets/guest/minikernel.elf` (40 characters):
    // the string never closes, and TOML reports the end of the line.
    fails(
        &out,
        2,
        &[
            "tests/fixtures/malformed.toml:3:41:",
            "invalid basic string",
        ],
    );
}

#[test]
fn unknown_knob_in_a_variant_points_at_it() {
    let out = trapscope(&["run", "tests/fixtures/unknown_knob.toml"]);
    // `nope` is on line 11; `nope` starts at column 27 (after "knobs = { iterations = 2, ").
    fails(
        &out,
        2,
        &[
            "unknown_knob.toml:11:27:",
            "unknown knob 'nope'",
            "knobs: iterations",
        ],
    );
}

#[test]
fn knob_naming_a_missing_symbol_is_an_error() {
    let out = trapscope(&["run", "tests/fixtures/knob_missing_symbol.toml"]);
    fails(
        &out,
        2,
        &["knob_missing_symbol.toml:6:10:", "no_such_symbol"],
    );
}

#[test]
fn missing_guest_elf_is_an_error() {
    let out = trapscope(&["run", "tests/fixtures/missing_elf.toml"]);
    fails(&out, 2, &["missing_elf.toml:3:7:", "no-such-guest.elf"]);
}

#[test]
fn unknown_variant_and_knob_on_the_command_line() {
    let out = trapscope(&[
        "run",
        "scenarios/ras-trap-entry.toml",
        "--variant",
        "sideways",
    ]);
    fails(&out, 2, &["unknown variant 'sideways'", "before", "after"]);
    let out = trapscope(&["run", "scenarios/ras-trap-entry.toml", "--set", "nope=1"]);
    fails(&out, 2, &["unknown knob 'nope'"]);
    let out = trapscope(&[
        "run",
        "scenarios/ras-trap-entry.toml",
        "--set",
        "iterations",
    ]);
    fails(&out, 2, &["NAME=VALUE"]);
}

#[test]
fn missing_truncated_and_foreign_elfs() {
    let out = trapscope(&["elf", "no/such/file.elf"]);
    fails(&out, 2, &["no/such/file.elf"]);

    let dir = std::env::temp_dir().join(format!("trapscope-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let real = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/bad/loop_forever.elf"),
    )
    .unwrap();
    let truncated = dir.join("truncated.elf");
    std::fs::write(&truncated, &real[..100]).unwrap();
    let out = trapscope(&["elf", truncated.to_str().unwrap()]);
    fails(&out, 2, &["truncated.elf"]);

    let text = dir.join("text.elf");
    std::fs::write(&text, "hello, not an ELF").unwrap();
    let out = trapscope(&["elf", text.to_str().unwrap()]);
    fails(&out, 2, &["not an ELF"]);

    // The host's own executable: a real ELF, but not RISC-V.
    let out = trapscope(&["elf", env!("CARGO_BIN_EXE_trapscope")]);
    fails(&out, 2, &["not a RISC-V RV64 ELF"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn guest_jumping_to_unmapped_memory_is_the_guests_fault() {
    let out = trapscope(&["elf", "assets/guest/bad/jump_unmapped.elf"]);
    // jump_unmapped.S: `li t0, 0x40000000; jr t0`.
    fails(&out, 125, &["guest fault at pc 0x40000000", "unmapped"]);
}

#[test]
fn guest_that_never_ends_stops_at_the_budget() {
    let out = trapscope(&[
        "elf",
        "assets/guest/bad/loop_forever.elf",
        "--budget",
        "10000",
    ]);
    fails(&out, 124, &["instruction budget of 10000"]);
}

#[test]
fn unsupported_instruction_reports_pc_and_encoding() {
    let out = trapscope(&["elf", "assets/guest/bad/unsupported.elf"]);
    // unsupported.S: li (1 insn at 0x80000000), csrs (0x80000004), then
    // vrgather.vv v1,v2,v3 at 0x80000008 = funct6 0b001100, vm 1, vs2 2,
    // vs1 3, OPIVV, vd 1, opcode 0x57: 0x322180d7.
    fails(&out, 125, &["pc 0x80000008", "0x322180d7"]);
}

#[test]
fn unknown_core_lists_the_known_ones_and_a_path_works() {
    let out = trapscope(&["run", "scenarios/ras-trap-entry.toml", "--core", "pentium"]);
    fails(&out, 2, &["unknown core 'pentium'", "u74", "c910"]);
    let out = trapscope(&[
        "compare",
        "scenarios/ras-trap-entry.toml",
        "--core",
        "pentium",
    ]);
    fails(&out, 2, &["unknown core 'pentium'"]);
    // A user's own profile by path.
    let out = trapscope(&[
        "run",
        "scenarios/ras-trap-entry.toml",
        "-v",
        "after",
        "--core",
        "assets/cores/generic.toml",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("on generic"));
    let out = trapscope(&[
        "run",
        "scenarios/ras-trap-entry.toml",
        "--core",
        "tests/fixtures/cores/no_basis.toml",
    ]);
    fails(
        &out,
        2,
        &["no_basis.toml:47:7:", "needs a `source` or an `assumption`"],
    );
}

#[test]
fn a_false_expectation_fails_check_with_its_location() {
    let out = trapscope(&["check", "tests/fixtures/false_expectation.toml"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL") && text.contains("false_expectation.toml:14:9"),
        "{text}"
    );
}

#[test]
fn a_vector_scenario_on_a_core_without_v_says_so() {
    // vstate-discard's minikernel probes V at boot (knob has_vector = 1); the
    // U74 has no V, so the guest oopses and exits non-zero: the line says
    // which core lacks the unit and which of the scenario's cores has it.
    let out = trapscope(&["run", "scenarios/vstate-discard.toml", "--core", "u74"]);
    fails(
        &out,
        1,
        &[
            "the guest exited with code",
            "core u74 has no V 1.0 unit",
            "its cores are x280",
        ],
    );
    // On a core with V the same scenario runs clean.
    let ok = trapscope(&["run", "scenarios/vstate-discard.toml", "--core", "x60"]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}
