//! The before/after path diff (`trapscope diff`, `report::pathdiff`): the
//! total difference is the iterations' own cycle difference, text fits a
//! mail, the RAS mispredicts of seed 003 land where the guest program puts
//! them, and bad input gets one line and exit 2.

use crate::common;

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use trapscope::cost::{Cat, Profile};
use trapscope::report::pathdiff::{self, Line, Op, PathDiff};
use trapscope::scenario::Scenario;
use trapscope::session::RunOpts;
use trapscope::session::path::{self, Which};

const LIMIT: Duration = Duration::from_secs(60);

fn scenario(name: &str) -> Scenario {
    Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name),
    )
    .unwrap()
}

fn opts(core: Option<&str>, step: bool) -> RunOpts {
    RunOpts {
        core: core.map(|c| Rc::new(Profile::find(c).unwrap())),
        single_step: step,
        ..RunOpts::default()
    }
}

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

fn ras(l: &Line) -> bool {
    l.events.iter().any(|(c, _)| *c == Cat::RasMispredicts)
}

#[test]
fn the_three_ras_mispredicts_of_seed_003_and_where_they_go() {
    // From guest-asm/minikernel (entry.S, minikernel-entry.inc, syscall.S,
    // user.S) and the scenario's narration: before the patch, per call,
    //   1. handle_exception's `jr t0` (t0 = x5, a link register) pops: a
    //      mispredict; after the patch that jump is gone, `jalr t1` (a
    //      call) is in its place;
    //   2. do_trap_ecall_u's `ret` goes to ret_from_exception, which no call
    //      pushed: a mispredict; after it, the same `ret` pops what `jalr t1`
    //      pushed: none;
    //   3. the user wrapper syscall()'s `ret` after sret finds the RAS
    //      unbalanced: a mispredict; after it, none.
    let s = scenario("ras-trap-entry.toml");
    let d = pathdiff::build(
        &s,
        "before",
        "after",
        &opts(Some("u74"), false),
        Which::Last,
    )
    .unwrap();
    // One program (the same minikernel ELF), so lines match by source line.
    assert_eq!(d.matched_by, pathdiff::MatchBy::SourceLine);
    let a_ras: Vec<&Line> = d.a.lines.iter().filter(|l| ras(l)).collect();
    assert_eq!(a_ras.len(), 3, "{a_ras:#?}");
    assert!(d.b.lines.iter().all(|l| !ras(l)));
    let rows: Vec<(Option<&Line>, Option<&Line>)> = d.rows().collect();
    let find = |f: &str, text: &str| {
        rows.iter()
            .find(|(a, _)| a.is_some_and(|a| ras(a) && a.function == f && a.text == text))
            .copied()
            .unwrap_or_else(|| panic!("no mispredicting `{text}` in {f}"))
    };
    // 1: only in A, and the gap it sits in holds B's `jalr t1`.
    let (_, b) = find("handle_exception", "jr t0");
    assert!(b.is_none(), "`jr t0` is not on the after path");
    let at = rows
        .iter()
        .position(|(a, _)| a.is_some_and(|a| a.text == "jr t0"))
        .unwrap();
    let gap_end = (at..rows.len())
        .find(|&i| rows[i].0.is_some() && rows[i].1.is_some())
        .unwrap();
    let gap_start = (0..at)
        .rev()
        .find(|&i| rows[i].0.is_some() && rows[i].1.is_some())
        .unwrap();
    assert!(
        rows[gap_start..gap_end]
            .iter()
            .any(|(_, b)| b
                .is_some_and(|b| b.function == "handle_exception_ras" && b.text == "jalr t1")),
        "`jalr t1` takes the place of `jr t0`"
    );
    // 2 and 3: matched with the same `ret` on the after path, no mispredict.
    for f in ["do_trap_ecall_u", "syscall"] {
        let (_, b) = find(f, "ret");
        let b = b.unwrap_or_else(|| panic!("{f}'s ret is on the after path"));
        assert_eq!((b.function.as_str(), b.text.as_str()), (f, "ret"));
        assert!(b.events.is_empty(), "{f}'s ret after the patch: {b:?}");
    }
    // Where each went, and what the RAS said: main's `jal syscall` pushed
    // its return address, the only entry; `jr t0` popped it (so it
    // predicted that address) and went to the handler t0 held; the two
    // `ret`s after it found the RAS empty.
    let p = &s.variants[0].program;
    let main_ret = p.describe(
        d.a.lines
            .iter()
            .find(|l| l.function == "main" && l.text == "jal syscall")
            .map(|l| l.pc + 4)
            .unwrap(),
    );
    let jr = find("handle_exception", "jr t0").0.unwrap();
    assert_eq!(
        jr.mispredict.as_deref(),
        Some(format!("predicted {main_ret}, went to do_trap_ecall_u").as_str())
    );
    for (f, to) in [
        ("do_trap_ecall_u", "ret_from_exception".to_string()),
        ("syscall", main_ret.clone()),
    ] {
        let a = find(f, "ret").0.unwrap();
        assert_eq!(
            a.mispredict.as_deref(),
            Some(format!("no prediction, went to {to}").as_str()),
            "{f}"
        );
    }
    // The Markdown says so in its events table.
    let md = pathdiff::markdown(&d, false);
    assert!(
        md.contains(&format!("predicted {main_ret}, went to do_trap_ecall_u")),
        "{md}"
    );
    for (at, instead) in [
        ("| `do_trap_ecall_u+0x", "| none |"),
        ("| `syscall+0x", "| none |"),
        ("`jr t0` | ras", "in its place"),
    ] {
        assert!(
            md.lines().any(|l| l.starts_with("| `")
                && l.contains(at)
                && l.contains(instead)
                && l.contains("ras")),
            "no events row with {at} and {instead}:\n{md}"
        );
    }
}

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
        let d = pathdiff::build(&s, &a, &b, &opts(core, false), Which::Last).unwrap();
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

/// Lines of function `f` whose source lines are the values given.
fn synthetic(values: &[u32]) -> Vec<Line> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| Line {
            pc: 0x1000 + 4 * i as u64,
            at: format!("f+{:#x}", 4 * i),
            function: "f".into(),
            source: Some(format!("f.S:{v}")),
            text: format!("addi a0, a0, {v}"),
            milli: 1000,
            events: Vec::new(),
            mispredict: None,
        })
        .collect()
}

fn synthetic_diff(a: Vec<Line>, b: Vec<Line>, budget: u64) -> PathDiff {
    let mut search = pathdiff::Search::new(budget);
    let ops = pathdiff::align_lines_within(&a, &b, pathdiff::MatchBy::SourceLine, &mut search);
    let side = |v: &str, lines: Vec<Line>| pathdiff::Side {
        variant: v.into(),
        label: String::new(),
        iteration: 1,
        milli: lines.iter().map(|l| l.milli).sum(),
        lines,
    };
    PathDiff {
        scenario: "synthetic".into(),
        a: side("a", a),
        b: side("b", b),
        core: Some("u74".into()),
        ops,
        functions: Vec::new(),
        matched_by: pathdiff::MatchBy::SourceLine,
        choice: pathdiff::Choice::Asked,
        gave_up: search.gave_up,
    }
}

#[test]
fn paths_thousands_of_edits_apart_align_and_the_outputs_count_them() {
    // 6,000 common lines; before every third, 2 lines only in A and 1 only
    // in B (line numbers the common ones never use): 6,000 edits, and a
    // shortest script matches every common line, so its counts are known.
    let mut va = Vec::new();
    let mut vb = Vec::new();
    let mut fresh = 100_000;
    for c in 0..6000u32 {
        if c % 3 == 0 {
            va.extend([fresh, fresh + 1]);
            vb.push(fresh + 2);
            fresh += 3;
        }
        va.push(c);
        vb.push(c);
    }
    let d = synthetic_diff(synthetic(&va), synthetic(&vb), pathdiff::BUDGET);
    assert!(d.gave_up.is_empty());
    let count = |f: fn(&Op) -> bool| d.ops.iter().filter(|o| f(o)).count();
    assert_eq!(count(|o| matches!(o, Op::Same(..))), 6000);
    assert_eq!(count(|o| matches!(o, Op::Del(_))), 4000);
    assert_eq!(count(|o| matches!(o, Op::Ins(_))), 2000);
    // Every common line is matched with itself.
    assert!(d.rows().all(|r| {
        match r {
            (Some(a), Some(b)) => {
                a.source == b.source
                    && a.source
                        .as_deref()
                        .is_some_and(|s| s[4..].parse::<u32>().unwrap() < 6000)
            }
            _ => true,
        }
    }));
    let j: serde_json::Value = serde_json::from_str(&pathdiff::json(&d)).unwrap();
    let rows = j["rows"].as_array().unwrap();
    let n = |op: &str| rows.iter().filter(|r| r["op"] == op).count();
    assert_eq!((n("same"), n("only_a"), n("only_b")), (6000, 4000, 2000));
    assert_eq!(j["alignment"]["complete"], true);
    let text = pathdiff::text(&d, true);
    let marks = |c: &str| text.lines().filter(|l| l.starts_with(c)).count();
    assert_eq!((marks("= "), marks("- "), marks("+ ")), (6000, 4000, 2000));
    assert!(!text.contains("gave up"));
    // A budget too small for it: the outputs say the alignment gave up,
    // and on which instructions.
    let d = synthetic_diff(synthetic(&va), synthetic(&vb), 50_000);
    assert!(!d.gave_up.is_empty());
    let g = &d.gave_up[0];
    let text = pathdiff::text(&d, false);
    let note = format!(
        "The alignment gave up (its time bound) on A's instructions {}-{} ({} to",
        g.a.0 + 1,
        g.a.1,
        d.a.lines[g.a.0].at
    );
    assert!(text.replace("\n      ", " ").contains(&note), "{text}");
    assert!(pathdiff::markdown(&d, false).contains(&note));
    let j: serde_json::Value = serde_json::from_str(&pathdiff::json(&d)).unwrap();
    assert_eq!(j["alignment"]["complete"], false);
    assert_eq!(j["alignment"]["gave_up"][0]["a"][0], g.a.0);
    assert!(j["alignment"]["notes"][0].as_str().unwrap().contains(&note));
    for l in text.lines() {
        assert!(l.chars().count() < 80, "{l}");
    }
}
