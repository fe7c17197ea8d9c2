//! `--format md` renders real Markdown tables, and figures a reviewer
//! measured (`--measured`, or a `[[reference]]` table in their own
//! scenario) stand beside the estimates.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn trapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = trapscope(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const RAS: &str = "scenarios/ras-trap-entry.toml";

/// Cells of a table row (`\|` is a pipe inside a cell).
fn cells(line: &str) -> usize {
    line.replace("\\|", "").matches('|').count() - 1
}

/// Every run of `|` lines is a table: a header, a `|---|` separator, rows
/// of the header's width; and no bullet item holds fixed-width columns.
/// Returns the tables' headers.
fn tables(md: &str) -> Vec<String> {
    let lines: Vec<&str> = md.lines().collect();
    let mut heads = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("- ") {
            assert!(
                !l.contains("    "),
                "fixed-width columns in a bullet item: {l:?}"
            );
        }
        if !l.starts_with('|') {
            i += 1;
            continue;
        }
        assert!(
            i == 0 || lines[i - 1].is_empty(),
            "no blank line before {l:?}"
        );
        let sep = lines.get(i + 1).copied().unwrap_or("");
        assert!(
            sep.starts_with("|---") && sep.chars().all(|c| "|-: ".contains(c)),
            "{l:?} has no separator row: {sep:?}"
        );
        let w = cells(l);
        assert_eq!(cells(sep), w, "{sep:?} under {l:?}");
        heads.push(l.to_string());
        i += 2;
        while i < lines.len() && lines[i].starts_with('|') {
            assert_eq!(cells(lines[i]), w, "{:?} in the table {l:?}", lines[i]);
            i += 1;
        }
    }
    heads
}

#[test]
fn compare_md_explains_each_difference_in_a_table() {
    let md = stdout(&["compare", RAS, "--format", "md"]);
    let heads = tables(&md);
    assert!(
        heads
            .iter()
            .filter(|h| h.starts_with("| what | before | after | cycles |"))
            .count()
            >= 2,
        "a difference table per core: {heads:?}"
    );
    // The total row closes it, and the text report is what it was: lines.
    assert!(md.contains("| **total** |"), "{md}");
    let text = stdout(&["compare", RAS]);
    assert!(!text.contains("| what |"));
    assert!(text.contains("what makes the difference"));
}

#[test]
fn run_md_gives_tables_of_outcomes_cycles_causes_and_hot_lines() {
    let md = stdout(&["run", RAS, "--core", "u74", "--format", "md"]);
    let heads = tables(&md);
    for h in [
        "| variant | outcome |",
        "| phase (instructions/iteration) |",
        "| phase (cycles/iteration) |",
        "| cause (cycles/iteration) |",
        "| cycles | line | source |",
        "| function (per iteration) |",
    ] {
        assert!(heads.iter().any(|x| x.starts_with(h)), "no {h}: {heads:?}");
    }
    // The cycles table's total is the estimate's.
    let j: Value =
        serde_json::from_str(&stdout(&["run", RAS, "--core", "u74", "--format", "json"])).unwrap();
    let want: Vec<String> = j["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            format!(
                "{:.1}",
                v["estimate"]["cycles_per_iteration"].as_f64().unwrap()
            )
        })
        .collect();
    assert!(
        md.contains(&format!("| **total** | {} |", want.join(" | "))),
        "{md}"
    );
}

#[test]
fn check_md_is_a_table_of_the_same_verdicts() {
    let text = stdout(&["check", RAS]);
    let md = stdout(&["check", RAS, "--format", "md"]);
    let heads = tables(&md);
    assert_eq!(heads, ["| result | core | expectation | detail |"]);
    let verdicts = |s: &str, marks: [&str; 3]| {
        s.lines()
            .filter(|l| marks.iter().any(|m| l.starts_with(m)))
            .count()
    };
    let n = verdicts(&text, ["  ok ", "  FAIL ", "  pair "]);
    assert!(n > 0);
    assert_eq!(verdicts(&md, ["| ok |", "| FAIL |", "| pair |"]), n);
    assert_eq!(text.lines().last(), md.lines().last());
    let out = trapscope(&["check", RAS, "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn figures_given_with_measured_stand_beside_the_estimate() {
    let text = stdout(&[
        "compare",
        RAS,
        "--measured",
        "u74:before=190.5ns",
        "--measured",
        "u74:after=170.25ns",
    ]);
    // Beside the scenario's own figure, with its difference from before.
    assert!(text.contains("; yours: 170.25 ns (-20.25 ns, "), "{text}");
    assert!(text.contains("vs your measured -20.25 ns"), "{text}");
    let j: Value = serde_json::from_str(&stdout(&[
        "compare",
        RAS,
        "--format",
        "json",
        "--measured",
        "u74:before=190.5ns",
        "--measured",
        "c910:after=600cycles",
    ]))
    .unwrap();
    let row = |core: &str, v: &str| {
        j["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["core"] == core && r["variant"] == v)
            .unwrap()
            .clone()
    };
    assert_eq!(row("u74", "before")["given_ns"], 190.5);
    assert_eq!(row("c910", "after")["given_cycles"], 600.0);
    assert!(row("u74", "after")["given_ns"].is_null());
    // fidelity sets it against the estimate: ratio = estimate / measured.
    let f: Value = serde_json::from_str(&stdout(&[
        "fidelity",
        RAS,
        "--format",
        "json",
        "--measured",
        "c910:after=600cycles",
    ]))
    .unwrap();
    let g = f["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["source"] == "--measured")
        .expect("the given figure");
    assert_eq!(g["measured"], 600.0);
    assert_eq!(g["unit"], "cycles");
    let est = row("c910", "after")["cycles_per_iteration"]
        .as_f64()
        .unwrap();
    assert!((g["ratio"].as_f64().unwrap() - est / 600.0).abs() < 1e-9);
}

#[test]
fn a_malformed_measured_figure_is_one_line_and_exit_2() {
    for (arg, says) in [
        ("u74:before", "no '='"),
        ("u74:before=12", "has no unit"),
        ("u74:before=12us", "unit 'us'"),
        ("u74:before=abcns", "'abc' is not a number"),
        ("u74:bfore=1ns", "no variant 'bfore'"),
        ("x280:before=1ns", "core 'x280'"),
    ] {
        let out = trapscope(&["compare", RAS, "--measured", arg]);
        common::fails_one_line(&out, 2, &[says]);
    }
    let out = trapscope(&["fidelity", RAS, "--measured", "u74:nope=1ns"]);
    common::fails_one_line(&out, 2, &["no scenario read runs a variant 'nope'"]);
}

/// A reviewer's own scenario with its own `[[reference]]` table: compare
/// and fidelity show its figures, nothing else needed.
#[test]
fn a_reference_table_in_the_reviewers_scenario_is_shown() {
    let text = std::fs::read_to_string(root().join(RAS)).unwrap();
    let elf = root().join("assets/guest/minikernel.elf");
    let text = text.replace(
        "elf = \"../assets/guest/minikernel.elf\"",
        &format!("elf = {:?}", elf.display().to_string()),
    );
    // The seed's figures out, the reviewer's in.
    let a = text.find("[[reference]]").unwrap();
    let b = text.find("[knobs.iterations]").unwrap();
    let mine = "[[reference]]\ncore = \"u74\"\nvariant = \"before\"\nns = 201.5\nwhat = \"my board, before\"\nsource = \"my bench\"\n\n[[reference]]\ncore = \"u74\"\nvariant = \"after\"\nns = 190.25\nwhat = \"my board, after\"\nsource = \"my bench\"\n\n";
    let text = format!("{}{mine}{}", &text[..a], &text[b..]);
    let dir = common::scratch("reviewer-reference");
    let path = dir.join("mine.toml");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let out = stdout(&["compare", p, "--core", "u74"]);
    assert!(out.contains("201.50 ns"), "{out}");
    assert!(out.contains("190.25 ns (-11.25 ns, "), "{out}");
    assert!(
        out.contains("u74 measured, before: my board, before (my bench)"),
        "{out}"
    );
    let f = stdout(&["fidelity", p]);
    assert!(f.contains("measured 201.5 ns"), "{f}");
    assert!(f.contains("my board, after (my bench)"), "{f}");
    let _ = std::fs::remove_dir_all(dir);
}
