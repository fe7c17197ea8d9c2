//! Every core-profile value is range-checked at load, and the error points
//! at the value (`file:line:col`). Each case is a shipped profile with one
//! value replaced.

use crate::common;

use std::path::Path;

use trapscope::cost::Profile;

/// x60.toml (V, VLEN 256, DLEN 128) with `field`'s value replaced by `value`:
/// the parse error, and where the value sits (line, column) in the text.
fn with_value(base: &str, field: &str, value: &str) -> (String, usize, usize) {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/cores/{base}.toml")),
    )
    .unwrap();
    // `section.field` names a key that two sections share (alu, fp).
    let (section, field) = field.split_once('.').unwrap_or(("", field));
    let key = format!("{field} = {{ value = ");
    let mut in_section = section.is_empty();
    let mut out = String::new();
    let mut at = None;
    for (i, line) in src.lines().enumerate() {
        if line.starts_with('[') {
            in_section = section.is_empty() || line == format!("[{section}]");
        }
        if let Some(rest) = line.strip_prefix(&key).filter(|_| in_section) {
            let comma = rest.find(',').unwrap();
            out.push_str(&format!("{key}{value}{}\n", &rest[comma..]));
            at = Some((i + 1, key.len() + 1));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    let (line, col) = at.unwrap_or_else(|| panic!("{field} not in {base}.toml"));
    let path = Path::new("bad.toml");
    let err = Profile::parse(path, &out)
        .map(|_| ())
        .expect_err(&format!("{field} = {value} was accepted"));
    (err.to_string(), line, col)
}

fn refused(base: &str, field: &str, value: &str, needle: &str) {
    let (err, line, col) = with_value(base, field, value);
    let at = format!("bad.toml:{line}:{col}:");
    assert!(
        err.starts_with(&at),
        "{field} = {value}: expected {at} in {err}"
    );
    assert!(
        err.contains(needle),
        "{field} = {value}: expected {needle:?} in {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn vlen_is_a_power_of_two_from_128_to_65536() {
    for v in ["1", "64", "96", "129", "131072"] {
        refused("x60", "vlen", v, "not a power of two from 128 to 65536");
    }
    refused("x60", "vlen", "0", "present = true");
    // The bounds themselves are fine (with DLEN at most VLEN).
    for (vlen, dlen) in [("128", "128"), ("65536", "128")] {
        let src = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cores/x60.toml"),
        )
        .unwrap()
        .replace("vlen = { value = 256", &format!("vlen = {{ value = {vlen}"))
        .replace("dlen = { value = 128", &format!("dlen = {{ value = {dlen}"));
        Profile::parse(Path::new("ok.toml"), &src).unwrap();
    }
}

#[test]
fn dlen_is_a_power_of_two_no_larger_than_vlen() {
    for v in ["0", "96", "512"] {
        refused(
            "x60",
            "dlen",
            v,
            "DLEN must be a power of two no larger than VLEN (256)",
        );
    }
    // Without a vector unit, DLEN is 0 too.
    refused("u74", "dlen", "128", "vlen = 0");
}

#[test]
fn clocks_are_finite_and_positive() {
    for v in ["nan", "inf", "-inf", "0.0", "-1.5"] {
        refused("x60", "clock_ghz", v, "must be finite and > 0");
        refused("x60", "timebase_hz", v, "must be finite and > 0");
    }
}

#[test]
fn issue_width_and_tables_are_sizes_the_model_can_index() {
    refused(
        "x60",
        "issue_width",
        "0",
        "issue_width = 0: must be from 1 to 8",
    );
    refused("x60", "ras_depth", "0", "ras_depth = 0: must be from 1");
    refused("x60", "ras_depth", "100000", "ras_depth = 100000");
    refused("x60", "bht_entries", "0", "bht_entries = 0");
    refused("x60", "btb_entries", "0", "btb_entries = 0");
    refused("x60", "bht_entries", "16777216", "to 1048576");
}

#[test]
fn cycle_counts_have_a_sane_maximum() {
    refused(
        "x60",
        "div",
        "4000000000",
        "div = 4000000000: must be from 0 to 10000",
    );
    refused(
        "x60",
        "latency.alu",
        "20000",
        "latency.alu = 20000: must be from 0 to 10000",
    );
    refused("x60", "mispredict_branch", "20000", "from 0 to 10000");
    refused("x60", "whole_reg_per_reg", "99999", "from 0 to 10000");
}

#[test]
fn elf_vlen_follows_the_same_rule() {
    for v in ["64", "96", "131072"] {
        let out = common::trapscope_within(
            &[
                "elf",
                "assets/guest/bad/loop_forever.elf",
                "--vlen",
                v,
                "--budget",
                "10",
            ],
            std::time::Duration::from_secs(10),
        );
        common::fails_one_line(&out, 2, &[&format!("--vlen {v}"), "power of two from 128"]);
    }
    // 0 still means no vector unit; 128 is the default.
    for v in ["0", "128", "65536"] {
        let out = common::trapscope_within(
            &[
                "elf",
                "assets/guest/bad/loop_forever.elf",
                "--vlen",
                v,
                "--budget",
                "10",
            ],
            std::time::Duration::from_secs(10),
        );
        assert_eq!(out.status.code(), Some(124), "--vlen {v}");
    }
}

#[test]
fn a_bad_profile_on_the_command_line_is_one_line_with_its_location() {
    let dir = common::scratch("profile-ranges");
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cores/x60.toml"),
    )
    .unwrap()
    .replace("clock_ghz = { value = 1.6", "clock_ghz = { value = nan");
    let f = common::write(&dir, "nan.toml", src.as_bytes());
    let out = common::trapscope_within(
        &["run", "scenarios/ras-trap-entry.toml", "--core", &f],
        std::time::Duration::from_secs(10),
    );
    // x60.toml line 19: `clock_ghz = { value = ` is 22 characters.
    common::fails_one_line(&out, 2, &["nan.toml:19:23:", "clock_ghz = NaN"]);
}

#[test]
fn pipes_bypasses_and_flush_rules_are_names_the_model_knows() {
    refused(
        "x60",
        "issue.alu",
        "\"AG\"",
        "write pipe letters from A to F",
    );
    refused("x60", "issue.load", "\"\"", "write pipe letters");
    refused("x60", "issue.alu", "\"AA\"", "each once");
    refused("x60", "issue.alu", "\"Aé\"", "write pipe letters");
    refused("x60", "pipes", "9", "pipes = 9: must be from 1 to 8");
    refused("x60", "bypass_to", "\"alu,fpu\"", "unknown name \"fpu\"");
    refused("x60", "bypass_from", "\"jal\"", "unknown name \"jal\"");
    refused(
        "x60",
        "csr_write_flush",
        "\"some\"",
        "write one of all, rocket, status, none",
    );
    refused("u74", "waits_at", "\"fence\"", "unknown name \"fence\"");
    refused("x60", "frontend_stages", "40", "more than the pipeline's");
    refused("c910", "window", "0", "window = 0: must be from 1");
    // An in-order core issues at most one instruction per pipe.
    refused(
        "u74",
        "issue_width",
        "3",
        "at most one instruction per pipe, and it has 2 pipes",
    );
    refused(
        "u74",
        "alu_early",
        "4",
        "cannot come later than the late one",
    );
}
