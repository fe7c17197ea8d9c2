//! The path diff's output (split from pathdiff.rs, whose helpers it uses):
//! text lines shorter than 80 columns, "instructions only" without a core,
//! JSON carrying every row and the difference, and bad input getting one
//! line and exit 2.

use super::*;

fn assert_fits(text: &str, what: &str) {
    assert!(text.lines().count() > 10, "{what}: {text}");
    for l in text.lines() {
        assert!(
            l.chars().count() < 80,
            "{what}: {} columns: {l}",
            l.chars().count()
        );
    }
}

#[test]
fn text_lines_are_shorter_than_80_columns() {
    for (name, core) in [
        ("ras-trap-entry.toml", Some("u74")),
        ("ras-trap-entry.toml", None),
        ("zalrsc-atomics.toml", Some("c910")),
        ("vstate-initial.toml", None),
    ] {
        let s = scenario(name);
        let (a, b) = pathdiff::variants(&s, None, None).unwrap();
        let d = pathdiff::diff_at(&s, &a, &b, &opts(core, false), Which::Last).unwrap();
        assert_fits(&pathdiff::text(&d, false), name);
        assert_fits(&pathdiff::text(&d, true), name);
    }
}

#[test]
fn without_a_core_it_says_instructions_only() {
    let out = common::trapscope_within(&["diff", "scenarios/ras-trap-entry.toml"], LIMIT);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("instructions only, no cycles"), "{text}");
    assert!(!text.contains(" cycles on "), "{text}");
    let total = text
        .lines()
        .skip_while(|l| !l.starts_with("Total"))
        .collect::<Vec<_>>();
    assert_eq!(total.len(), 3, "{text}");
    assert!(total.iter().all(|l| !l.contains("cycles")), "{total:?}");
    assert_fits(&text, "cli");
}

#[test]
fn json_carries_every_row_and_the_difference() {
    // Output larger than a pipe's buffer: read it as it comes.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "diff",
            "scenarios/ras-trap-entry.toml",
            "before",
            "after",
            "--core",
            "u74",
            "--iteration",
            "2",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["core"], "u74");
    assert_eq!(j["a"]["iteration"], 2);
    let rows = j["rows"].as_array().unwrap();
    let count = |op: &str| rows.iter().filter(|r| r["op"] == op).count() as u64;
    let (na, nb) = (
        j["a"]["instructions"].as_u64().unwrap(),
        j["b"]["instructions"].as_u64().unwrap(),
    );
    assert_eq!(count("same") + count("only_a"), na);
    assert_eq!(count("same") + count("only_b"), nb);
    let sum = |side: &str| -> u64 { rows.iter().filter_map(|r| r[side]["milli"].as_u64()).sum() };
    let (ma, mb) = (
        j["a"]["milli"].as_u64().unwrap(),
        j["b"]["milli"].as_u64().unwrap(),
    );
    assert_eq!((sum("a"), sum("b")), (ma, mb));
    assert_eq!(j["diff_milli"].as_i64().unwrap(), mb as i64 - ma as i64);
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    let ras = "scenarios/ras-trap-entry.toml";
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["diff", ras, "before", "nope"],
            &["nope", "variants: before, after"],
        ),
        (&["diff", ras, "before"], &["two variants"]),
        (&["diff", ras, "before", "before"], &["itself"]),
        (
            &["diff", ras, "--iteration", "500"],
            &["iteration 500 never completed", "100 measured"],
        ),
        (
            &["diff", "scenarios/amo-speed-probe.toml"],
            &["no measured loop"],
        ),
    ];
    for (args, needles) in cases {
        let out = common::trapscope_within(args, LIMIT);
        common::fails_one_line(&out, 2, needles);
    }
    // A scenario of one variant.
    let dir = common::scratch("pathdiff-one");
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    let toml = format!(
        "title = \"one\"\npatch = \"none\"\nsummary = \"one variant\"\nelf = \"{}\"\n[[variants]]\nname = \"only\"\n[measure]\nstart = \"bench_timed_loop\"\nend = \"bench_timed_done\"\niteration = \"bench_timed_loop\"\n",
        elf.display()
    );
    let f = common::write(&dir, "one.toml", toml.as_bytes());
    let out = common::trapscope_within(&["diff", &f], LIMIT);
    common::fails_one_line(&out, 2, &["two variants", "has 1"]);
}
