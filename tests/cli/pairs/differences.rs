//! The pair differences `compare` and `check` print (split from pairs.rs,
//! whose scenario builders and JSON readers it uses): each declared pair as
//! after minus before of its rows in JSON and text, `check`'s differences,
//! and expectations that read a pair's difference.

use super::*;

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
        // Each figure's band, "(low..high)", follows it.
        let w: Vec<f64> = l
            .split_whitespace()
            .skip(2)
            .filter(|x| !x.starts_with('('))
            .take(3)
            .map(|x| x.parse().unwrap())
            .collect();
        (w[0], w[1], w[2])
    };
    let at = text.find("pairs, after − before per iteration").unwrap();
    let mut seen = 0;
    for l in text[at..].lines().skip(2).take_while(|l| !l.is_empty()) {
        // "x280    base_v1 → v3_v1   +10.0   +10.0   +5.7  +21.60 ns  label"
        let w: Vec<&str> = l
            .split_whitespace()
            .filter(|x| !x.starts_with('('))
            .collect();
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
        .filter(|x| !x.starts_with('('))
        .nth(5)
        .unwrap()
        .parse()
        .unwrap();
    assert!((d - (fix.0 - v3.0)).abs() <= 0.1 + 1e-9);
    assert_eq!(
        line("base_v0")
            .split_whitespace()
            .filter(|x| !x.starts_with('('))
            .nth(5),
        Some("held")
    );
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
