//! `[seed_table]`: `compare`'s table in seed 002's form (usec/op and
//! ops/sec with change %) per core, in text, Markdown and JSON, with the
//! not-comparable references beside the estimates, and the section's
//! errors at `file:line:col`.
//!
//! tests/data/seed_table.toml: rows "basic (getppid)" (old → new) and
//! "backwards" (new → old); the test's own figures, filed under u74: old
//! 200 ns and new 160 ns with one `what` (a reference row under each row
//! on every core: 0.200000 and 0.160000 usec/op, -20.00%; 5000000 and
//! 6250000 ops/sec, +25.00%), old 300 ns with no after (no row), old
//! 150 ns comparable (never in the table).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{scratch, trapscope_within, write};
use serde_json::Value;
use trapscope::scenario::Scenario;

const LIMIT: Duration = Duration::from_secs(180);
const DATA: &str = "tests/data/seed_table.toml";
const REF: &str = "elsewhere; not comparable in absolute";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn stdout_of(args: &[&str]) -> String {
    let out = trapscope_within(args, LIMIT);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// compare's unrounded ns per iteration of (core, variant).
fn ns_of(j: &Value, core: &str, variant: &str) -> f64 {
    j["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["core"] == core && r["variant"] == variant)
        .and_then(|r| r["ns_per_iteration"].as_f64())
        .unwrap_or_else(|| panic!("no row {core} {variant}"))
}

/// The rows of one text table: the lines after `head` up to a blank line.
fn table<'a>(text: &'a str, head: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| *l != head);
    assert!(lines.next().is_some(), "no {head:?} in:\n{text}");
    let rows: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
    assert!(rows[0].trim_start().starts_with("Syscall"), "{rows:?}");
    rows[1..].to_vec()
}

/// A row's last three columns: before, after, change %.
fn last3(line: &str) -> (String, String, String) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let n = w.len();
    (w[n - 3].into(), w[n - 2].into(), w[n - 1].into())
}

/// change % from two printed figures, the plain way.
fn change(b: &str, a: &str) -> String {
    let (b, a): (f64, f64) = (b.parse().unwrap(), a.parse().unwrap());
    format!("{:+.2}", 100.0 * (a - b) / b)
}

#[test]
fn compare_prints_both_units_per_core_with_references_beside_the_estimates() {
    let text = stdout_of(&["compare", DATA]);
    let j: Value =
        serde_json::from_str(&stdout_of(&["compare", DATA, "--format", "json"])).unwrap();
    for core in ["u74", "c910"] {
        let (old, new) = (ns_of(&j, core, "old"), ns_of(&j, core, "new"));
        let usec = table(
            &text,
            &format!("{core}: getppid loop usec/op (-ve is improvement)"),
        );
        let ops = table(
            &text,
            &format!("{core}: getppid loop ops/sec (+ve is improvement)"),
        );
        // Each row, then its reference row, on both cores.
        assert_eq!((usec.len(), ops.len()), (4, 4), "{usec:?} {ops:?}");
        let est = |rows: &[&str], name: &str| {
            let l = rows
                .iter()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap_or_else(|| panic!("no {name} in {rows:?}"));
            last3(l)
        };
        for (name, b, a) in [("basic (getppid)", old, new), ("backwards", new, old)] {
            // usec/op = ns / 1000, to 6 places; change from the printed ones.
            let (pb, pa, pc) = est(&usec, name);
            assert_eq!(pb, format!("{:.6}", b / 1000.0), "{core} {name}");
            assert_eq!(pa, format!("{:.6}", a / 1000.0), "{core} {name}");
            assert_eq!(pc, change(&pb, &pa), "{core} {name}");
            // ops/sec = 10^9 / ns, whole.
            let (ob, oa, oc) = est(&ops, name);
            assert_eq!(ob, format!("{:.0}", 1e9 / b), "{core} {name}");
            assert_eq!(oa, format!("{:.0}", 1e9 / a), "{core} {name}");
            assert_eq!(oc, change(&ob, &oa), "{core} {name}");
        }
        // The old entry mispredicts three returns per call (seed 003): the
        // new one is faster, so usec/op falls and ops/sec rises.
        assert!(est(&usec, "basic").2.starts_with('-'));
        assert!(est(&ops, "basic").2.starts_with('+'));
        {
            // Each reference row right under its estimated row.
            assert!(usec[0].trim_start().starts_with("basic (getppid)"));
            assert!(usec[1].trim_start().starts_with(REF), "{}", usec[1]);
            assert!(usec[3].trim_start().starts_with(REF), "{}", usec[3]);
            let s = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
            assert_eq!(last3(usec[1]), s("0.200000", "0.160000", "-20.00"));
            assert_eq!(last3(usec[3]), s("0.160000", "0.200000", "+25.00"));
            assert_eq!(last3(ops[1]), s("5000000", "6250000", "+25.00"));
            assert_eq!(last3(ops[3]), s("6250000", "5000000", "-20.00"));
        }
    }
    // The section: its note, the references' source once; never the
    // half-pair or the comparable figure.
    let section = &text[text.find("In the seed's form").expect("the section")..];
    let section = &section[..section.find("what makes the difference").unwrap()];
    assert!(section.contains("change % = (after - before) / before * 100 of the printed figures"));
    assert_eq!(section.matches("test figures A").count(), 1, "{section}");
    assert!(!section.contains("a before without an after"), "{section}");
    assert!(!section.contains("comparable, never"), "{section}");
    assert!(
        !section.contains("0.300000") && !section.contains("0.150000"),
        "{section}"
    );
}

#[test]
fn json_carries_the_printed_figures_and_markdown_the_seed_s_tables() {
    let j: Value =
        serde_json::from_str(&stdout_of(&["compare", DATA, "--format", "json"])).unwrap();
    let t = &j["seed_table"];
    assert_eq!(t["title"], "getppid loop");
    assert_eq!(t["row_heading"], "Syscall");
    assert_eq!(t["columns"], serde_json::json!(["Base", "RAS entry"]));
    assert_eq!(
        t["change"],
        "(after - before) / before * 100, of the printed figures"
    );
    let rows = t["rows"].as_array().unwrap();
    // Per core: 2 estimates, each with its reference.
    assert_eq!(rows.len(), 8, "{rows:?}");
    let kinds: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["core"].as_str().unwrap(), r["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("u74", "estimate"),
            ("u74", "reference"),
            ("u74", "estimate"),
            ("u74", "reference"),
            ("c910", "estimate"),
            ("c910", "reference"),
            ("c910", "estimate"),
            ("c910", "reference")
        ]
    );
    for r in rows {
        let e = r["kind"] == "estimate";
        assert_eq!(r["what"].is_null(), e, "{r}");
        assert_eq!(r["source"].is_null(), e, "{r}");
        let core = r["core"].as_str().unwrap();
        let (b, a) = (
            r["before_variant"].as_str().unwrap(),
            r["after_variant"].as_str().unwrap(),
        );
        let (nb, na) = if e {
            (ns_of(&j, core, b), ns_of(&j, core, a))
        } else if b == "old" {
            (200.0, 160.0)
        } else {
            (160.0, 200.0)
        };
        let u = &r["usec_per_op"];
        assert_eq!(
            format!("{:.6}", u["before"].as_f64().unwrap()),
            format!("{:.6}", nb / 1000.0)
        );
        assert_eq!(
            format!("{:.6}", u["after"].as_f64().unwrap()),
            format!("{:.6}", na / 1000.0)
        );
        let o = &r["ops_per_sec"];
        assert_eq!(o["before"].as_f64().unwrap(), (1e9 / nb).round(), "{r}");
        assert_eq!(o["after"].as_f64().unwrap(), (1e9 / na).round(), "{r}");
        for f in [u, o] {
            let (x, y) = (f["before"].as_f64().unwrap(), f["after"].as_f64().unwrap());
            let c = f["change_pct"].as_f64().unwrap();
            assert_eq!(
                format!("{c:+.2}"),
                format!("{:+.2}", 100.0 * (y - x) / x),
                "{r}"
            );
        }
    }
    assert_eq!(rows[1]["what"], REF);
    assert_eq!(rows[1]["source"], "test figures A");
    assert_eq!(rows[1]["usec_per_op"]["change_pct"], -20.0);
    assert_eq!(rows[1]["ops_per_sec"]["change_pct"], 25.0);

    let md = stdout_of(&["compare", DATA, "--format", "md"]);
    for want in [
        "**u74: getppid loop usec/op (-ve is improvement)**",
        "**c910: getppid loop ops/sec (+ve is improvement)**",
        "| Syscall | Base | RAS entry | change % |",
        "|---|---:|---:|---:|",
        "| ↳ elsewhere; not comparable in absolute | 0.200000 | 0.160000 | -20.00 |",
        "| ↳ elsewhere; not comparable in absolute | 5000000 | 6250000 | +25.00 |",
        "- reference \"elsewhere; not comparable in absolute\": test figures A",
    ] {
        assert!(
            md.lines().any(|l| l.starts_with(want)),
            "no {want:?} in:\n{md}"
        );
    }
    // The Markdown estimate rows are the JSON's figures.
    let basic = format!(
        "| basic (getppid) | {:.6} | {:.6} | {:+.2} |",
        rows[0]["usec_per_op"]["before"].as_f64().unwrap(),
        rows[0]["usec_per_op"]["after"].as_f64().unwrap(),
        rows[0]["usec_per_op"]["change_pct"].as_f64().unwrap()
    );
    assert!(md.lines().any(|l| l == basic), "no {basic:?} in:\n{md}");
}

#[test]
fn without_the_section_compare_prints_no_table_and_no_key() {
    let src = std::fs::read_to_string(root().join(DATA)).unwrap();
    let (a, b) = (
        src.find("[seed_table]").unwrap(),
        src.find("# The test's own figures").unwrap(),
    );
    let elf = root().join("assets/guest/minikernel.elf");
    let src = format!("{}{}", &src[..a], &src[b..]).replace(
        "elf = \"../../assets/guest/minikernel.elf\"",
        &format!("elf = \"{}\"", elf.display()),
    );
    let dir = scratch("seed-table-none");
    let p = write(&dir, "n.toml", src.as_bytes());
    let text = stdout_of(&["compare", &p, "--core", "u74"]);
    assert!(!text.contains("In the seed's form"), "{text}");
    assert!(!text.contains("usec/op"), "{text}");
    let j: Value = serde_json::from_str(&stdout_of(&[
        "compare", &p, "--core", "u74", "--format", "json",
    ]))
    .unwrap();
    assert!(j.get("seed_table").is_none(), "{j}");
    assert!(j.get("rows").is_some());
}

#[test]
fn fidelity_lists_the_not_comparable_figures_without_a_ratio() {
    let j: Value =
        serde_json::from_str(&stdout_of(&["fidelity", DATA, "--format", "json"])).unwrap();
    let a: Vec<&Value> = j["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["source"] == "test figures A")
        .collect();
    assert_eq!(a.len(), 2);
    assert!(
        a.iter()
            .all(|g| g["status"] == "not comparable" && g["ratio"].is_null())
    );
    // old → new on u74, from the first not-comparable figure of each: 160 - 200.
    let d = j["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["comparable"] == false)
        .expect("a not-comparable difference");
    assert_eq!(d["measured"], -40.0);
    assert!(d["ratio"].is_null());
}

/// The data scenario up to its `[seed_table]`, then `table`; the line the
/// table starts on.
fn with_table(table: &str) -> (String, usize) {
    let src = std::fs::read_to_string(root().join(DATA)).unwrap();
    let a = src.find("[seed_table]").unwrap();
    let b = src.find("# The test's own figures").unwrap();
    let head = &src[..a];
    let elf = root().join("assets/guest/minikernel.elf");
    let head = head.replace(
        "elf = \"../../assets/guest/minikernel.elf\"",
        &format!("elf = \"{}\"", elf.display()),
    );
    let first = head.lines().count() + 1;
    (format!("{head}{table}\n{}", &src[b..]), first)
}

fn err_of(table: &str) -> (String, usize) {
    let (src, first) = with_table(table);
    let e = Scenario::parse(&PathBuf::from("t.toml"), &src)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(!e.contains('\n'), "{e}");
    (e, first)
}

#[test]
fn the_section_parses_with_its_defaults() {
    let (src, _) = with_table(
        "[seed_table]\n[[seed_table.row]]\nname = \" r \"\nbefore = \"old\"\nafter = \"new\"\n",
    );
    let s = Scenario::parse(&root().join("tests/data/t.toml"), &src).unwrap();
    let t = s.seed_table.unwrap();
    assert_eq!(t.row_heading, "row");
    assert_eq!(t.columns, ["before".to_string(), "after".to_string()]);
    assert_eq!(t.title, "");
    assert_eq!(t.rows.len(), 1);
    assert_eq!(
        (
            t.rows[0].name.as_str(),
            t.rows[0].before.as_str(),
            t.rows[0].after.as_str()
        ),
        ("r", "old", "new")
    );
}

#[test]
fn section_errors_point_at_what_is_wrong() {
    let row = |name: &str, b: &str, a: &str| {
        format!("[[seed_table.row]]\nname = \"{name}\"\nbefore = \"{b}\"\nafter = \"{a}\"\n")
    };
    // Line first: [seed_table]; first + 1: the row's header; + 2 name;
    // + 3 before; + 4 after. Strings start at column 8 (name), 10 (before),
    // 9 (after).
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (
            format!("[seed_table]\n{}", row("r", "nope", "new")),
            3,
            10,
            "seed_table row 'r': before = 'nope' is not a variant (variants: old, new)",
        ),
        (
            format!("[seed_table]\n{}", row("r", "old", "old")),
            4,
            9,
            "seed_table row 'r': before and after are both 'old'",
        ),
        (
            format!(
                "[seed_table]\n{}{}",
                row("r", "old", "new"),
                row("r", "new", "old")
            ),
            6,
            8,
            "seed_table row 'r' is named twice",
        ),
        (
            format!("[seed_table]\n{}", row(" ", "old", "new")),
            2,
            8,
            "a seed_table row needs a name",
        ),
        (
            format!(
                "[seed_table]\ncolumns = [\"Base\"]\n{}",
                row("r", "old", "new")
            ),
            1,
            11,
            "seed_table.columns names the before and after columns",
        ),
        (
            format!("[seed_table]\ncolour = 1\n{}", row("r", "old", "new")),
            1,
            1,
            "unknown field `colour`",
        ),
    ];
    for (table, line, col, says) in cases {
        let (e, first) = err_of(&table);
        let want = format!("t.toml:{}:{col}: ", first + line);
        assert!(e.starts_with(&want), "{table}: {e} (want {want})");
        assert!(e.contains(says), "{table}: {e}");
    }
    // No rows: the error names the section.
    let (e, first) = err_of("[seed_table]\ntitle = \"t\"\n");
    assert!(e.contains("[seed_table] has no rows"), "{e}");
    assert!(e.starts_with(&format!("t.toml:{first}:")), "{e}");
}
