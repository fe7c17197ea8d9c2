//! Bad input (docs/reference/cli.md, "Exit status"): usage errors are one line, user strings are
//! escaped, content errors carry `file:line:col`, and ELF errors speak ELF.

use crate::common;

use std::time::Duration;

use common::{Load, SPIN, elf, fails_one_line, scratch, trapscope_within, write};

const LIMIT: Duration = Duration::from_secs(10);
const BASE: u64 = 0x8000_0000;

// ---- the command line ------------------------------------------------------

#[test]
fn usage_errors_are_one_line_pointing_at_help() {
    for (args, needles) in [
        (
            &["elf", "assets/guest/bad/spin.elf", "--vlen", "-1"][..],
            &[
                "invalid value '-1' for '--vlen",
                "see 'trapscope elf --help'",
            ][..],
        ),
        (
            &["run", "scenarios/ras-trap-entry.toml", "--budget", "lots"],
            &[
                "invalid value 'lots' for '--budget",
                "see 'trapscope run --help'",
            ],
        ),
        (
            &["run"],
            &[
                "required arguments were not provided: <SCENARIO>",
                "trapscope run --help",
            ],
        ),
        (
            &["compare", "x.toml", "--frobnicate"],
            &[
                "unexpected argument '--frobnicate'",
                "see 'trapscope compare --help'",
            ],
        ),
        (
            &["--frobnicate"],
            &[
                "unexpected argument '--frobnicate'",
                "see 'trapscope --help'",
            ],
        ),
        (
            &["elf", "x.elf", "--mem-limit", "lots"],
            &[
                "--mem-limit",
                "give a number of bytes",
                "trapscope elf --help",
            ],
        ),
    ] {
        let out = trapscope_within(args, LIMIT);
        fails_one_line(&out, 2, needles);
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("trapscope: error: "),
            "{args:?}"
        );
    }
}

/// A word that is no command and no file is a usage error naming the
/// commands, not a scenario that cannot be read; a path (or a name with an
/// extension) that does not exist is still a scenario that cannot be read.
#[test]
fn an_unknown_word_is_an_unknown_command_or_scenario() {
    let out = trapscope_within(&["frobnicate"], LIMIT);
    fails_one_line(
        &out,
        2,
        &[
            "trapscope: error: unknown command or scenario 'frobnicate'",
            "commands: run, compare, fidelity, list, bench, diff, elf, snapshot, review, verify, check",
            "see 'trapscope --help'",
        ],
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    for path in ["frobnicate.toml", "nowhere/frobnicate"] {
        let out = trapscope_within(&[path], LIMIT);
        fails_one_line(&out, 2, &[path, "cannot read scenario"]);
    }
}

#[test]
fn help_and_version_still_print_normally() {
    for args in [
        &["--help"][..],
        &["elf", "--help"],
        &["--version"],
        &["help", "run"],
    ] {
        let out = trapscope_within(args, LIMIT);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("trapscope") || text.contains("Usage"),
            "{args:?}: {text}"
        );
    }
    let out = trapscope_within(&["elf", "--help"], LIMIT);
    assert!(String::from_utf8_lossy(&out.stdout).lines().count() > 5);
}

// ---- user strings ----------------------------------------------------------

/// A scenario whose every string carries ESC and BEL.
fn hostile_scenario() -> String {
    let dir = scratch("escape");
    let elf = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/guest/bad/exit_code.elf")
        .to_string_lossy()
        .into_owned();
    let src = format!(
        r#"title = "\u001b[2Jtitle\u0007"
patch = "patch \u001b]0;owned\u0007"
summary = "sum \u001b[31m"
elf = "{elf}"
cores = ["generic"]

[knobs."kn\u001bob"]
symbol = "exit_code"
default = 0
help = "\u001b"

[[variants]]
name = "v\u001b[1mzero"
label = "lab\u001bel"

[[variants]]
name = "three"
knobs = {{ "kn\u001bob" = 3 }}

[[expect]]
name = "ex\u001bpect"
check = "three.exit_code == 3"
"#
    );
    write(&dir, "hostile.toml", src.as_bytes())
}

fn assert_escaped(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(!bytes.contains(&0x1b), "{what}: raw ESC in {text:?}");
    assert!(!bytes.contains(&0x07), "{what}: raw BEL in {text:?}");
}

#[test]
fn control_characters_from_files_are_escaped_in_headless_output() {
    let s = hostile_scenario();
    for args in [
        &["run", &s][..],
        &["run", &s, "--format", "md"],
        &["run", &s, "--format", "json"],
        &["run", &s, "--events"],
        &["compare", &s],
        &["compare", &s, "--format", "md"],
        &["check", &s],
        &["run", &s, "-v", "nope"],
    ] {
        let out = trapscope_within(args, LIMIT);
        assert_escaped(&format!("{args:?} stdout"), &out.stdout);
        assert_escaped(&format!("{args:?} stderr"), &out.stderr);
    }
    let out = trapscope_within(&["run", &s], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\\u{1b}[2Jtitle\\u{7}"), "{text}");
    assert!(text.contains("variant v\\u{1b}[1mzero"), "{text}");
    let out = trapscope_within(&["check", &s], LIMIT);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ex\\u{1b}pect"));
}

// ---- content errors carry file:line:col -------------------------------------

fn scenario_with(name: &str, body: &str) -> String {
    let dir = scratch(&format!("content-{name}"));
    let elf = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/guest/bad/exit_code.elf")
        .to_string_lossy()
        .into_owned();
    let src = format!("title = \"t\"\npatch = \"p\"\nelf = \"{elf}\"\n{body}");
    write(&dir, &format!("{name}.toml"), src.as_bytes())
}

#[test]
fn no_variants_points_at_the_empty_list() {
    // Line 4 is `variants = []`: the list starts at column 12.
    let s = scenario_with("novariants", "variants = []\n");
    let out = trapscope_within(&["run", &s], LIMIT);
    fails_one_line(
        &out,
        2,
        &["novariants.toml:4:12:", "at least one [[variants]] entry"],
    );
}

#[test]
fn a_bad_script_step_points_at_the_step() {
    // Lines 4-5 the variant, 7 `[[script]]`, 8-10 its body with both targets.
    let s = scenario_with(
        "badstep",
        "[[variants]]\nname = \"only\"\n\n[[script]]\nuntil = \"_start\"\nevent = \"trap\"\nsay = \"both\"\n",
    );
    let out = trapscope_within(&["run", &s], LIMIT);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("script step 1: give exactly one of"), "{err}");
    // The span of a table-array entry starts at its `[[script]]` header.
    assert!(err.contains("badstep.toml:7:1:"), "{err}");
}

#[test]
fn names_no_cores_points_at_the_scenario() {
    // No `cores`: the first variant's name, line 5 (`name = "only"`, column 8).
    let s = scenario_with("nocores", "[[variants]]\nname = \"only\"\n");
    let out = trapscope_within(&["compare", &s], LIMIT);
    fails_one_line(&out, 2, &["nocores.toml:5:8:", "names no cores", "--core"]);
    // `cores = []`: the empty list, line 4 column 9.
    let s = scenario_with("emptycores", "cores = []\n[[variants]]\nname = \"only\"\n");
    let out = trapscope_within(&["compare", &s], LIMIT);
    fails_one_line(&out, 2, &["emptycores.toml:4:9:", "names no cores"]);
}

/// A required top-level key that is missing points into the top-level
/// table (its first key), not at 1:1, which is a comment here; one missing
/// from a table points at that table's header, as before.
#[test]
fn a_missing_top_level_key_points_at_the_top_level_table() {
    let dir = scratch("nopatch");
    let elf = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/guest/bad/exit_code.elf")
        .to_string_lossy()
        .into_owned();
    // Lines 1-2 comments, 3 blank, 4 `title`: no `patch` anywhere.
    let src = format!(
        "# a scenario\n# without its patch\n\ntitle = \"t\"\nelf = \"{elf}\"\n\n[[variants]]\nname = \"only\"\n"
    );
    let s = write(&dir, "nopatch.toml", src.as_bytes());
    let out = trapscope_within(&["run", &s], LIMIT);
    fails_one_line(
        &out,
        2,
        &["nopatch.toml:4:1:", "missing field `patch`", "top-level"],
    );
    // A variant without its name: its [[variants]] header, line 7.
    let src = src
        .replace("name = \"only\"\n", "label = \"x\"\n")
        .replace("elf =", "patch = \"p\"\nelf =");
    let s = write(&dir, "noname.toml", src.as_bytes());
    let out = trapscope_within(&["run", &s], LIMIT);
    fails_one_line(&out, 2, &["noname.toml:8:1:", "missing field `name`"]);
}

#[test]
fn invalid_utf8_points_at_the_first_bad_byte() {
    let dir = scratch("utf8");
    // Line 2, after `patch = "ab` (11 characters): column 12.
    let f = write(&dir, "bad.toml", b"title = \"t\"\npatch = \"ab\xff\xfe\"\n");
    let out = trapscope_within(&["run", &f], LIMIT);
    fails_one_line(&out, 2, &["bad.toml:2:12:", "invalid UTF-8"]);
    // In a profile too: `name = "é` is 9 characters, then a lead byte
    // (0xc3) followed by `"`, which is not UTF-8: column 10.
    let p = write(&dir, "core.toml", b"name = \"\xc3\xa9\xc3\"\n");
    let out = trapscope_within(
        &["run", "scenarios/ras-trap-entry.toml", "--core", &p],
        LIMIT,
    );
    fails_one_line(
        &out,
        2,
        &["core.toml:1:10:", "invalid UTF-8", "core profile"],
    );
}

// ---- ELF errors in ELF terms ----------------------------------------------------

fn good_elf() -> Vec<u8> {
    elf(BASE, &[Load::code(BASE, 0x1000, &SPIN)])
}

fn elf_error(name: &str, bytes: &[u8], needles: &[&str]) {
    let dir = scratch(&format!("elf-{name}"));
    let f = write(&dir, &format!("{name}.elf"), bytes);
    let out = trapscope_within(&["elf", &f, "--budget", "10"], LIMIT);
    let mut all = vec![format!("{name}.elf")];
    all.extend(needles.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    fails_one_line(&out, 2, &refs);
}

#[test]
fn the_hand_made_elf_itself_runs() {
    let dir = scratch("elf-good");
    let f = write(&dir, "good.elf", &good_elf());
    let out = trapscope_within(&["elf", &f, "--budget", "10"], LIMIT);
    // Its code is `j .`: it loads and runs, and the spin is reported at once.
    fails_one_line(&out, 125, &["spins forever at 0x80000000"]);
}

#[test]
fn a_big_endian_elf_says_ei_data() {
    let mut b = good_elf();
    b[5] = 2;
    elf_error("bigendian", &b, &["big-endian", "EI_DATA=2"]);
}

#[test]
fn a_32_bit_elf_says_ei_class() {
    let mut b = good_elf();
    b[4] = 1;
    elf_error("class32", &b, &["32-bit", "EI_CLASS=1"]);
}

#[test]
fn a_foreign_machine_names_e_machine() {
    let mut b = good_elf();
    b[18..20].copy_from_slice(&62u16.to_le_bytes());
    elf_error(
        "x86",
        &b,
        &["not a RISC-V RV64 ELF", "e_machine is 62", "x86-64"],
    );
    b[18..20].copy_from_slice(&183u16.to_le_bytes());
    elf_error("arm", &b, &["e_machine is 183", "EM_AARCH64"]);
}

#[test]
fn an_odd_entry_point_is_refused() {
    let b = elf(BASE + 1, &[Load::code(BASE, 0x1000, &SPIN)]);
    elf_error(
        "odd",
        &b,
        &["entry point e_entry 0x80000001 is odd", "2-byte aligned"],
    );
}

#[test]
fn an_entry_point_outside_every_segment_is_refused() {
    let b = elf(0x1000, &[Load::code(BASE, 0x1000, &SPIN)]);
    elf_error(
        "outside",
        &b,
        &["e_entry 0x1000 is outside every loaded segment"],
    );
}

#[test]
fn truncated_headers_say_which() {
    let b = good_elf();
    elf_error("short", &b[..40], &["truncated", "40 bytes", "needs 64"]);
    // The program header table starts at 64 and is 56 bytes long.
    elf_error(
        "phdrs",
        &b[..100],
        &["truncated", "program header table", "100 bytes"],
    );
    // The segment's 4 bytes start at 120.
    elf_error(
        "segment",
        &b[..122],
        &["program header 0", "truncated", "p_filesz 0x4"],
    );
}

#[test]
fn inconsistent_program_headers_are_refused() {
    let mut b = good_elf();
    b[54..56].copy_from_slice(&32u16.to_le_bytes());
    elf_error("phentsize", &b, &["e_phentsize is 32", "56 bytes"]);
    // p_filesz (at 64 + 32) larger than p_memsz.
    let mut b = elf(BASE, &[Load::code(BASE, 2, &SPIN)]);
    b[64 + 40..64 + 48].copy_from_slice(&2u64.to_le_bytes());
    elf_error(
        "filesz",
        &b,
        &["program header 0", "p_filesz 0x4 is larger than p_memsz"],
    );
}

#[test]
fn a_negative_number_is_a_bad_value_not_an_unknown_flag() {
    let out = trapscope_within(
        &["elf", "--vlen", "-1", "assets/guest/tests/ecall_u.elf"],
        LIMIT,
    );
    fails_one_line(&out, 2, &["invalid value '-1' for '--vlen"]);
    let out = trapscope_within(
        &["run", "scenarios/ras-trap-entry.toml", "--budget", "-5"],
        LIMIT,
    );
    fails_one_line(&out, 2, &["invalid value '-5' for '--budget"]);
}
