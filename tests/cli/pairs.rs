//! `[[pair]]` (before/after pairs) and `trapscope fidelity`: parsing and
//! its errors, the differences `compare`, `check` and the TUI print, and
//! fidelity's ratios, statuses and JSON.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{fails_one_line, scratch, trapscope_within, write};
use serde_json::Value;
use trapscope::scenario::{Pair, Scenario};

const LIMIT: Duration = Duration::from_secs(120);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scenario on the minikernel with three variants and a measured loop
/// (lines 1-21), then `tail` from line 22. Line numbers in the error tests count from here.
fn minikernel_scenario(tail: &str) -> String {
    let elf = root().join("assets/guest/minikernel.elf");
    format!(
        "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\ncores = [\"u74\"]\n\
         [knobs.iterations]\nsymbol = \"knob_iterations\"\ndefault = 20\n\
         [knobs.ras]\nsymbol = \"knob_ras_friendly_entry\"\ndefault = 0\n\
         [[variants]]\nname = \"a\"\n[[variants]]\nname = \"b\"\nknobs = {{ ras = 1 }}\n\
         [[variants]]\nname = \"c\"\n\
         [measure]\nstart = \"bench_timed_loop\"\nend = \"bench_timed_done\"\niteration = \"bench_timed_loop\"\n{tail}",
        elf.display()
    )
}

fn parse(src: &str) -> Result<Scenario, String> {
    Scenario::parse(&PathBuf::from("t.toml"), src).map_err(|e| e.to_string())
}

fn pair(before: &str, after: &str, label: &str, implicit: bool) -> Pair {
    Pair {
        before: before.into(),
        after: after.into(),
        label: label.into(),
        implicit,
    }
}

#[test]
fn declared_pairs_are_read_in_order_with_their_labels() {
    let s = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"b\"\nafter = \"c\"\nlabel = \"  why  \"\n[[pair]]\nbefore = \"a\"\nafter = \"b\"\n",
    ))
    .unwrap();
    assert_eq!(
        s.pairs,
        vec![pair("b", "c", "why", false), pair("a", "b", "", false)]
    );
    assert_eq!(s.pair_of("b").map(|p| p.before.as_str()), Some("a"));
    assert!(s.pair_of("a").is_none(), "a is no pair's after");
}

#[test]
fn without_pairs_every_variant_is_paired_with_the_first() {
    let s = parse(&minikernel_scenario("")).unwrap();
    assert_eq!(
        s.pairs,
        vec![pair("a", "b", "", true), pair("a", "c", "", true)]
    );
}

#[test]
fn variants_that_are_cores_form_no_pairs() {
    let s = Scenario::load(&root().join("scenarios/amo-speed-probe.toml")).unwrap();
    assert!(s.pairs.is_empty(), "{:?}", s.pairs);
}

/// Lines 1-21 are `minikernel_scenario`'s; the `[[pair]]` header is line 22.
#[test]
fn an_unknown_variant_in_a_pair_points_at_its_name() {
    // Line 24: `after = "nope"`, the string starts at column 9.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"a\"\nafter = \"nope\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:24:9: "), "{e}");
    assert!(
        e.contains("pair after = 'nope' is not a variant (variants: a, b, c)"),
        "{e}"
    );
    // Line 23: `before = "x"`, column 10.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"x\"\nafter = \"a\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:23:10: "), "{e}");
    assert!(e.contains("pair before = 'x' is not a variant"), "{e}");
}

#[test]
fn a_pair_of_one_variant_with_itself_is_refused() {
    // Line 24: `after = "b"`, column 9.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"b\"\nafter = \"b\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:24:9: "), "{e}");
    assert!(e.contains("before and after are both 'b'"), "{e}");
}

#[test]
fn a_pair_declared_twice_points_at_the_second() {
    // The second `[[pair]]` header is line 25.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"a\"\nafter = \"b\"\n[[pair]]\nbefore = \"a\"\nafter = \"b\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:25:1: "), "{e}");
    assert!(e.contains("declared twice"), "{e}");
}

#[test]
fn a_pair_error_is_one_line_and_exit_2() {
    let dir = scratch("pair-error");
    let p = write(
        &dir,
        "bad.toml",
        minikernel_scenario("[[pair]]\nbefore = \"a\"\nafter = \"nope\"\n").as_bytes(),
    );
    for cmd in ["compare", "check", "fidelity"] {
        let out = trapscope_within(&[cmd, &p], LIMIT);
        fails_one_line(&out, 2, &["bad.toml:24:9:", "is not a variant"]);
    }
}

#[test]
fn a_pair_of_variants_that_are_cores_is_refused() {
    let src = std::fs::read_to_string(root().join("scenarios/amo-speed-probe.toml")).unwrap()
        + "\n[[pair]]\nbefore = \"u74\"\nafter = \"x280\"\n";
    let e = Scenario::parse(&root().join("scenarios/x.toml"), &src)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("runs on its own core (u74)"), "{e}");
}

fn json_of(args: &[&str]) -> Value {
    let out = trapscope_within(args, LIMIT);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Equal up to JSON's decimal round trip (a few ulps).
/// Equal to compare's JSON precision (9 decimal places).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn compare_reports_each_declared_pair_as_after_minus_before_of_its_rows() {
    let j = json_of(&[
        "compare",
        "scenarios/vstate-initial.toml",
        "--format",
        "json",
    ]);
    let rows = j["rows"].as_array().unwrap();
    let row = |c: &Value, v: &Value| {
        rows.iter()
            .find(|r| r["core"] == *c && r["variant"] == *v)
            .unwrap()
    };
    let pairs = j["pairs"].as_array().unwrap();
    // The four pairs vstate-initial.toml declares, in its order: the V=0
    // question (base_v0 → v3_v0) is asked too.
    let names: Vec<(String, String)> = pairs
        .iter()
        .map(|p| {
            (
                p["before"].as_str().unwrap().into(),
                p["after"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [
        ("base_v1", "v3_v1"),
        ("v3_v1", "fix_v1"),
        ("base_v0", "v3_v0"),
        ("v3_v0", "fix_v0"),
    ];
    assert_eq!(
        names,
        want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
    );
    for p in pairs {
        assert_eq!(p["core"], "x280");
        assert_eq!(p["implicit"], false);
        let (b, a) = (row(&p["core"], &p["before"]), row(&p["core"], &p["after"]));
        for (k, rk) in [
            ("instructions", "instructions_per_iteration"),
            ("cycles", "cycles_per_iteration"),
            ("ns", "ns_per_iteration"),
        ] {
            assert!(close(f(&p[k]), f(&a[rk]) - f(&b[rk])), "{k} of {p}");
        }
    }
    // Both V=1 variants were measured (seed 001: 242.9 and 264.5 ns): the
    // pair carries the measured difference; the held-out V=0 pair does not.
    assert!((f(&pairs[0]["measured_ns"]) - (264.5 - 242.9)).abs() < 1e-9);
    assert!(pairs[2]["measured_ns"].is_null());
}

/// The text table's pair rows against the rows it prints above them: the
/// printed difference is the printed after − before, to the rounding of
/// one decimal.
#[test]
fn compare_text_pair_rows_match_the_rows_above_them() {
    let out = trapscope_within(&["compare", "scenarios/vstate-initial.toml"], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // "x280    base_v1        274.5     156.9     222  ..."
    let row = |v: &str| -> (f64, f64, f64) {
        let l = text
            .lines()
            .find(|l| l.split_whitespace().take(2).eq(["x280", v]))
            .unwrap_or_else(|| panic!("no row {v}:\n{text}"));
        let w: Vec<f64> = l
            .split_whitespace()
            .skip(2)
            .take(3)
            .map(|x| x.parse().unwrap())
            .collect();
        (w[0], w[1], w[2])
    };
    let at = text.find("pairs, after − before per iteration").unwrap();
    let mut seen = 0;
    for l in text[at..].lines().skip(2).take_while(|l| !l.is_empty()) {
        // "x280    base_v1 → v3_v1   +10.0   +10.0   +5.7  +21.60 ns  label"
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[0], "x280", "{l}");
        assert_eq!(w[2], "→", "{l}");
        let (b, a) = (row(w[1]), row(w[3]));
        let num = |i: usize| w[i].parse::<f64>().unwrap();
        let (di, dc, dn) = (num(4), num(5), num(6));
        // Each printed figure is rounded to 0.05 either way (instructions
        // to 0.5), and so is the difference.
        assert!((di - (a.2 - b.2)).abs() <= 1.0 + 1e-9, "{l}");
        assert!((dc - (a.0 - b.0)).abs() <= 0.1 + 1e-9, "{l}");
        assert!((dn - (a.1 - b.1)).abs() <= 0.1 + 1e-9, "{l}");
        seen += 1;
    }
    assert_eq!(seen, 4, "{text}");
    // The difference column is the pair's: fix_v1 against v3_v1, and
    // base_v0 (no pair's after) has none.
    let line = |v: &str| {
        text.lines()
            .find(|l| l.split_whitespace().take(2).eq(["x280", v]))
            .unwrap()
            .to_string()
    };
    let (v3, fix) = (row("v3_v1"), row("fix_v1"));
    let d: f64 = line("fix_v1")
        .split_whitespace()
        .nth(5)
        .unwrap()
        .parse()
        .unwrap();
    assert!((d - (fix.0 - v3.0)).abs() <= 0.1 + 1e-9);
    assert_eq!(line("base_v0").split_whitespace().nth(5), Some("held"));
}

#[test]
fn check_reports_each_pair_difference() {
    let out = trapscope_within(&["check", "scenarios/vstate-initial.toml"], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for p in [
        "base_v1 → v3_v1",
        "v3_v1 → fix_v1",
        "base_v0 → v3_v0",
        "v3_v0 → fix_v0",
    ] {
        let l = text
            .lines()
            .find(|l| l.contains(&format!("pair  [x280] {p}: ")))
            .unwrap_or_else(|| panic!("no pair {p}:\n{text}"));
        assert!(
            l.contains(" instructions, ")
                && l.contains(" cycles, ")
                && l.ends_with(" ns per iteration"),
            "{l}"
        );
    }
    // Pairs are reported, not counted: as many passes as the file has
    // [[expect]] tables, all passing.
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/vstate-initial.toml"),
    )
    .unwrap();
    let n = src.lines().filter(|l| l.trim() == "[[expect]]").count();
    assert!(text.contains(&format!("{n} passed, 0 failed")), "{text}");
}

/// A scenario with references whose figures are the test's own (not a
/// mail's): a = 100 ns, b = 80 ns, c comparable = false, and a held-out one.
fn fidelity_scenario() -> String {
    let dir = scratch("fidelity");
    write(
        &dir,
        "f.toml",
        minikernel_scenario(
            "[[pair]]\nbefore = \"a\"\nafter = \"b\"\n\
             [[reference]]\ncore = \"u74\"\nvariant = \"a\"\nns = 100.0\ncycles = 150.0\nwhat = \"w-a\"\nsource = \"s-a\"\n\
             [[reference]]\ncore = \"u74\"\nvariant = \"b\"\nns = 80.0\nwhat = \"w-b\"\nsource = \"s-b\"\n\
             [[reference]]\ncore = \"u74\"\nvariant = \"c\"\nns = 50.0\ncomparable = false\nwhat = \"w-c\"\nsource = \"s-c\"\n\
             [[reference]]\ncore = \"u74\"\nvariant = \"c\"\nwhat = \"w-held\"\nsource = \"s-h\"\n",
        )
        .as_bytes(),
    )
}

#[test]
fn fidelity_ratios_are_estimate_over_measured_of_the_same_runs_as_compare() {
    let p = fidelity_scenario();
    let j = json_of(&["fidelity", &p, "--format", "json"]);
    let c = json_of(&["compare", &p, "--format", "json"]);
    let row = |v: &str| {
        c["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["variant"] == v)
            .unwrap()
            .clone()
    };
    let figs = j["figures"].as_array().unwrap();
    let fig = |v: &str, unit: &str, what: &str| {
        figs.iter()
            .find(|g| g["variant"] == v && g["unit"] == unit && g["what"] == what)
            .unwrap_or_else(|| panic!("no {v} {unit} {what}: {figs:?}"))
    };
    // The measured figures are the file's; the estimates are compare's.
    let a = fig("a", "ns", "w-a");
    assert_eq!(f(&a["measured"]), 100.0);
    assert_eq!(a["estimate"], row("a")["ns_per_iteration"]);
    assert!(close(f(&a["ratio"]), f(&a["estimate"]) / 100.0));
    assert_eq!(a["status"], "compared");
    let ac = fig("a", "cycles", "w-a");
    assert_eq!(ac["estimate"], row("a")["cycles_per_iteration"]);
    assert!(close(f(&ac["ratio"]), f(&ac["estimate"]) / 150.0));
    let b = fig("b", "ns", "w-b");
    assert!(close(
        f(&b["ratio"]),
        f(&row("b")["ns_per_iteration"]) / 80.0
    ));
    // comparable = false: the figure and the estimate, no ratio.
    let nc = fig("c", "ns", "w-c");
    assert_eq!(nc["status"], "not comparable");
    assert!(nc["ratio"].is_null());
    assert_eq!(f(&nc["measured"]), 50.0);
    // Held out: the estimate alone.
    let h = fig("c", "ns", "w-held");
    assert_eq!(h["status"], "held out");
    assert!(h["measured"].is_null() && h["ratio"].is_null());
    assert_eq!(h["estimate"], row("c")["ns_per_iteration"]);
    // The pair a → b: measured 80 - 100 = -20 ns against compare's pair.
    let d = &j["differences"].as_array().unwrap()[0];
    assert_eq!(
        (d["before"].as_str(), d["after"].as_str()),
        (Some("a"), Some("b"))
    );
    assert_eq!(f(&d["measured"]), -20.0);
    assert_eq!(d["comparable"], true);
    let cp = &c["pairs"].as_array().unwrap()[0];
    assert_eq!(d["estimate"], cp["ns"]);
    assert!(close(f(&d["ratio"]), f(&cp["ns"]) / -20.0));
    assert_eq!(
        j["differences"].as_array().unwrap().len(),
        1,
        "c is in no pair; a → b has ns only on both"
    );
    // The unverified values are the profile's that the run depends on
    // (cost::depends): compare's own list for the row.
    let u74 = trapscope::cost::Profile::find("u74").unwrap();
    let listed: Vec<&str> = a["unverified"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(a["unverified"], row("a")["unverified"]);
    assert!(
        listed.iter().all(|n| u74.unverified().contains(n)),
        "{listed:?}"
    );
    // The minikernel's loop has RAS mispredicts before the patch (variant a)
    // but no divides: ras_depth is listed, the U74 divider has no unverified
    // value to list anyway.
    assert!(listed.contains(&"ras_depth"), "{listed:?}");
    // The summary counts the ratios within ±25%.
    let within = |xs: Vec<f64>| xs.iter().filter(|r| (**r - 1.0).abs() <= 0.25).count();
    let ratios: Vec<f64> = figs.iter().filter_map(|g| g["ratio"].as_f64()).collect();
    assert_eq!(ratios.len(), 3, "a (ns, cycles) and b");
    let s = &j["summary"];
    assert_eq!(s["absolute_compared"], 3);
    assert_eq!(s["absolute_within"], within(ratios) as u64);
    assert_eq!(s["differences_compared"], 1);
    assert_eq!(s["differences_within"], within(vec![f(&d["ratio"])]) as u64);
}

/// The text's ratios are the printed estimate / the printed measured figure
/// (to their rounding), and the not-comparable figure has none.
#[test]
fn fidelity_text_prints_consistent_ratios_and_no_ratio_when_not_comparable() {
    let p = fidelity_scenario();
    let out = trapscope_within(&["fidelity", &p], LIMIT);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut compared = 0;
    for l in text
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(" estimate "))
    {
        // "  u74    a   estimate 66.0 ns   measured 100 ns   ratio 0.66"
        let w: Vec<&str> = l.split_whitespace().collect();
        let at = |k: &str| w.iter().position(|x| *x == k).unwrap();
        let est: f64 = w[at("estimate") + 1].parse().unwrap();
        let ratio = w[at("ratio") + 1];
        if w[at("measured") + 1] == "held" {
            assert_eq!(ratio, "none", "{l}");
            continue;
        }
        let meas: f64 = w[at("measured") + 1].parse().unwrap();
        if meas == 50.0 {
            assert!(
                l.ends_with("ratio none (another architecture or setup)"),
                "{l}"
            );
            continue;
        }
        let r: f64 = ratio.parse().unwrap();
        // estimate to 0.05, ratio to 0.005.
        assert!((r - est / meas).abs() <= 0.005 + 0.05 / meas + 1e-9, "{l}");
        compared += 1;
    }
    assert_eq!(compared, 3, "{text}");
    let d = text
        .lines()
        .find(|l| l.contains("a → b: estimated difference "))
        .unwrap_or_else(|| panic!("{text}"));
    // "... estimated difference -4.0 ns, measured -20 ns, ratio 0.20"
    let w: Vec<&str> = d.split_whitespace().collect();
    let est: f64 = w[w.iter().position(|x| *x == "difference").unwrap() + 1]
        .parse()
        .unwrap();
    assert!(d.contains("measured -20 ns, "), "{d}");
    let r: f64 = w.last().unwrap().parse().unwrap();
    assert!((r - est / -20.0).abs() <= 0.005 + 0.05 / 20.0 + 1e-9, "{d}");
    assert!(text.contains("of 3 absolute figures and "), "{text}");
}

#[test]
fn fidelity_json_has_the_documented_shape() {
    let j = json_of(&["fidelity", "--format", "json"]);
    for k in [
        "scenarios",
        "without_figures",
        "figures",
        "differences",
        "summary",
    ] {
        assert!(j.get(k).is_some(), "no {k}");
    }
    // Every shipped scenario is read by default.
    let n = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "toml")
        })
        .count();
    assert_eq!(j["scenarios"].as_array().unwrap().len(), n);
    assert!(
        j["scenarios"]
            .as_array()
            .unwrap()
            .contains(&Value::from("scenarios/ras-trap-entry.toml"))
    );
    for g in j["figures"].as_array().unwrap() {
        for k in [
            "scenario",
            "core",
            "variant",
            "unit",
            "measured",
            "estimate",
            "ratio",
            "status",
            "what",
            "source",
            "unverified",
        ] {
            assert!(g.get(k).is_some(), "figure lacks {k}: {g}");
        }
        // A ratio exactly when the figure is compared.
        assert_eq!(g["ratio"].is_number(), g["status"] == "compared", "{g}");
    }
    for d in j["differences"].as_array().unwrap() {
        for k in [
            "scenario",
            "core",
            "before",
            "after",
            "label",
            "unit",
            "measured",
            "estimate",
            "ratio",
            "comparable",
            "unverified",
        ] {
            assert!(d.get(k).is_some(), "difference lacks {k}: {d}");
        }
        if d["comparable"] == false {
            assert!(d["ratio"].is_null(), "{d}");
        }
    }
    for k in ["band", "absolute_compared", "absolute_within"] {
        assert!(j["summary"].get(k).is_some(), "summary lacks {k}");
    }
}

#[test]
fn a_non_comparable_reference_stays_out_of_compare() {
    // tests/data/seed_table.toml names, for u74's variant "old", a
    // not-comparable figure (200 ns) before a comparable one (150 ns): the
    // estimate stands beside the comparable one only.
    let c = json_of(&["compare", "tests/data/seed_table.toml", "--format", "json"]);
    let r = c["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["core"] == "u74" && r["variant"] == "old")
        .unwrap();
    assert_eq!(r["reference_ns"], 150.0);
}

#[test]
fn fidelity_of_a_missing_scenario_is_one_line_and_exit_2() {
    let out = trapscope_within(&["fidelity", "no/such.toml"], LIMIT);
    fails_one_line(&out, 2, &["no/such.toml"]);
}

#[test]
fn expectations_can_read_a_pair_difference() {
    // a runs the original entry, b the patched one: 64 → 63 instructions in
    // the entry (ras-trap-entry.toml's hand count), nothing else changes.
    let dir = scratch("pair-expect");
    let p = write(
        &dir,
        "e.toml",
        minikernel_scenario(
            "[[expect]]\nname = \"one fewer\"\ncheck = \"pair.a.b.instructions == -1\"\n\
             [[expect]]\nname = \"wrong on purpose\"\ncheck = \"pair.a.b.instructions > 0\"\n",
        )
        .as_bytes(),
    );
    let out = trapscope_within(&["check", &p], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("ok    [u74] one fewer (-1 == -1)"), "{text}");
    assert!(
        text.contains(
            "FAIL  [u74] wrong on purpose: pair.a.b.instructions > 0 is false (-1, not > 0)"
        ),
        "{text}"
    );
    assert!(text.contains("1 passed, 1 failed"), "{text}");
}

#[test]
fn a_reference_figure_must_be_positive() {
    // Line 24: `variant = "a"`, the string at column 11.
    let e = parse(&minikernel_scenario(
        "[[reference]]\ncore = \"u74\"\nvariant = \"a\"\nns = 0.0\nwhat = \"w\"\nsource = \"s\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:24:11: "), "{e}");
    assert!(e.contains("ns = 0 is not a positive figure"), "{e}");
}
