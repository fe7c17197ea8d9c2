//! `trapscope fidelity` (split from pairs.rs, whose scenario builders and
//! JSON readers it uses): ratios of estimate over measured from the same
//! runs as compare, its text and its JSON shape, references that are not
//! comparable staying out of compare, a missing scenario, and reference
//! figures that must be positive.

use super::*;

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
    // but no divides: mispredict_return is listed, the U74 divider has no
    // unverified value to list anyway.
    assert!(listed.contains(&"mispredict_return"), "{listed:?}");
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
fn a_reference_figure_must_be_positive() {
    // Line 24: `variant = "a"`, the string at column 11.
    let e = parse(&minikernel_scenario(
        "[[reference]]\ncore = \"u74\"\nvariant = \"a\"\nns = 0.0\nwhat = \"w\"\nsource = \"s\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:24:11: "), "{e}");
    assert!(e.contains("ns = 0 is not a positive figure"), "{e}");
}
