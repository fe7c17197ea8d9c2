//! Which iterations the path diff compares (split from pathdiff.rs, whose
//! scenario and run helpers it uses): the total difference is the
//! difference of the iterations' cycles, the default is the last complete
//! iteration (or the one with the most common cycles, saying so), and block
//! mode and stepping record the same path.

use super::*;

#[test]
fn the_total_difference_is_the_difference_of_the_iterations_cycles() {
    let s = scenario("ras-trap-entry.toml");
    for core in ["u74", "c910"] {
        for which in [Which::Last, Which::Nth(1), Which::Nth(37)] {
            let o = opts(Some(core), false);
            let a = path::record(&s, s.variant("before").unwrap(), &o, which).unwrap();
            let b = path::record(
                &s,
                s.variant("after").unwrap(),
                &o,
                Which::Nth(a.path.iteration),
            )
            .unwrap();
            // The iterations' cycles as the runs' own iteration marks count
            // them (Stats::iteration_marks), not from the recorded steps.
            let (ma, mb) = (a.marks_milli.unwrap(), b.marks_milli.unwrap());
            let d = PathDiff::new("ras", &a, &b);
            assert_eq!(
                d.a.milli, ma,
                "{core} {which:?}: A's lines add up to its iteration"
            );
            assert_eq!(
                d.b.milli, mb,
                "{core} {which:?}: B's lines add up to its iteration"
            );
            assert_eq!(d.diff_milli(), mb as i64 - ma as i64, "{core} {which:?}");
            // The per-function subtotals add up to the same totals.
            let fa: u64 = d.functions.iter().map(|f| f.a_milli).sum();
            let fb: u64 = d.functions.iter().map(|f| f.b_milli).sum();
            assert_eq!((fa, fb), (ma, mb));
            // Every instruction of both paths is in the alignment once.
            let na = d.ops.iter().filter(|o| !matches!(o, Op::Ins(_))).count();
            let nb = d.ops.iter().filter(|o| !matches!(o, Op::Del(_))).count();
            assert_eq!((na, nb), (d.a.lines.len(), d.b.lines.len()));
            if let Which::Nth(n) = which {
                assert_eq!((d.a.iteration, d.b.iteration), (n, n));
            }
        }
    }
}

#[test]
fn the_default_is_the_last_complete_iteration() {
    // ras-trap-entry runs knob_iterations = 100 timed getppid() calls.
    let s = scenario("ras-trap-entry.toml");
    let a = path::record(
        &s,
        s.variant("before").unwrap(),
        &opts(None, false),
        Which::Last,
    )
    .unwrap();
    assert_eq!(a.path.iteration, 100);
    assert_eq!(a.iterations, 100);
}

#[test]
fn block_mode_and_stepping_record_the_same_path() {
    let s = scenario("ras-trap-entry.toml");
    let v = s.variant("before").unwrap();
    let block = path::record(&s, v, &opts(Some("u74"), false), Which::Nth(4)).unwrap();
    let step = path::record(&s, v, &opts(Some("u74"), true), Which::Nth(4)).unwrap();
    assert_eq!(block.path, step.path);
}

fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

/// Each variant's timed iterations' cycles as `run --format perfetto`
/// reports them (the "cycles per iteration" counter at the start of each
/// "iteration N" slice): the run's own figures, not the diff's.
fn perfetto_cycles(scenario: &str, core: &str) -> Vec<(String, Vec<f64>)> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", scenario, "--core", core, "--format", "perfetto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ev = j["traceEvents"].as_array().unwrap();
    let mut sides = Vec::new();
    for p in ev.iter().filter(|e| e["name"] == "process_name") {
        let pid = &p["pid"];
        let name = p["args"]["name"].as_str().unwrap();
        let variant = name.split(' ').next().unwrap().to_string();
        let mut cycles = Vec::new();
        for (k, s) in ev
            .iter()
            .filter(|e| &e["pid"] == pid && e["cat"] == "iteration")
            .filter(|e| e["args"]["counted"] == "timed")
            .enumerate()
        {
            assert_eq!(s["name"], format!("iteration {}", k + 1));
            let c = ev
                .iter()
                .find(|e| {
                    &e["pid"] == pid && e["name"] == "cycles per iteration" && e["ts"] == s["ts"]
                })
                .unwrap();
            cycles.push(c["args"]["cycles"].as_f64().unwrap());
        }
        sides.push((variant, cycles));
    }
    sides
}

#[test]
fn the_default_iteration_has_the_most_common_cycles_and_says_so() {
    // Seed 003's last iteration takes the loop-exit branch's mispredict:
    // its cycles are not those of a typical iteration.
    let sides = perfetto_cycles("scenarios/ras-trap-entry.toml", "u74");
    let get = |v: &str| &sides.iter().find(|s| s.0 == v).unwrap().1;
    let (a, b) = (get("before"), get("after"));
    assert_eq!((a.len(), b.len()), (100, 100));
    let common = |f: &[f64]| {
        let mut best = (0, f64::NAN);
        for x in f {
            let n = f.iter().filter(|y| *y == x).count();
            if n > best.0 || (n == best.0 && *x < best.1) {
                best = (n, *x);
            }
        }
        best.1
    };
    let (ca, cb) = (common(a), common(b));
    assert_ne!(a[99], ca, "the last iteration is not typical");
    // Nearest the middle (50.5) with both figures, the earlier of a tie.
    let want = (1..=100usize)
        .filter(|&i| a[i - 1] == ca && b[i - 1] == cb)
        .min_by_key(|&i| (2 * i).abs_diff(101))
        .unwrap() as u64;
    // Output larger than a pipe's buffer: read it as it comes.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "diff",
            "scenarios/ras-trap-entry.toml",
            "--core",
            "u74",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["iteration"]["number"], want);
    assert_eq!(j["iteration"]["how"], "typical");
    assert_eq!(j["iteration"]["of"], 100);
    assert_eq!(
        (j["a"]["iteration"].clone(), j["b"]["iteration"].clone()),
        (want.into(), want.into())
    );
    assert_eq!(j["a"]["milli"].as_f64().unwrap(), ca * 1000.0);
    assert_eq!(j["b"]["milli"].as_f64().unwrap(), cb * 1000.0);
    let why = j["iteration"]["why"].as_str().unwrap();
    assert!(
        why.contains("most common") && why.contains(&format!("iteration {want} of 100")),
        "{why}"
    );
    // The text and Markdown name it too; --iteration still picks another.
    let out = run(&["diff", "scenarios/ras-trap-entry.toml", "--core", "u74"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!(
            "Path diff of scenarios/ras-trap-entry.toml, iteration {want}\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Shown: iteration {want} of 100: the one nearest the middle"
        )),
        "{text}"
    );
    assert!(text.contains(&format!("(A {ca}, B")), "{text}");
    let out = run(&[
        "diff",
        "scenarios/ras-trap-entry.toml",
        "--core",
        "u74",
        "--format",
        "md",
    ]);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains(&format!("iteration {want} on u74")) && md.contains("most common"),
        "{md}"
    );
    let out = run(&[
        "diff",
        "scenarios/ras-trap-entry.toml",
        "--core",
        "u74",
        "--iteration",
        "100",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Shown: iteration 100, as asked"), "{text}");
    assert!(text.contains(&format!("{} cycles on u74", a[99])), "{text}");
}
