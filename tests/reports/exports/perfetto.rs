//! `run --format perfetto` (split from exports.rs, whose field and nesting
//! checks it uses): the trace has the trace-event format's required fields,
//! nests, and shows both variants; without a core it counts instructions and
//! says so.

use super::*;

#[test]
fn the_perfetto_trace_has_the_format_fields_nests_and_shows_both_variants() {
    let t = json(&["run", RAS, "--core", "u74", "--format", "perfetto"]);
    let ev = t["traceEvents"].as_array().expect("traceEvents");
    check_fields(ev);
    check_nesting(ev);
    let time = t["otherData"]["time"].to_string();
    assert!(time.contains("µs") && time.contains("u74"), "{time}");
    // One process per variant, named after it, sorted before over after.
    let run = json(&["run", RAS, "--core", "u74", "--format", "json"]);
    let variants = run["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    for (i, v) in variants.iter().enumerate() {
        let pid = i as u64 + 1;
        let name = v["variant"].as_str().unwrap();
        let mine: Vec<&Value> = ev.iter().filter(|e| e["pid"] == pid).collect();
        let pname = mine
            .iter()
            .find(|e| e["name"] == "process_name")
            .expect("a process name");
        assert!(
            pname["args"]["name"].as_str().unwrap().starts_with(name),
            "{pname}"
        );
        let sort = mine
            .iter()
            .find(|e| e["name"] == "process_sort_index")
            .unwrap();
        assert_eq!(sort["args"]["sort_index"], pid);
        // Traps are instants, as many as the run counts.
        let traps = mine
            .iter()
            .filter(|e| e["ph"] == "i" && e["cat"] == "trap")
            .count();
        assert_eq!(
            traps as u64,
            v["events"]["trap"].as_u64().unwrap(),
            "{name}"
        );
        assert!(
            mine.iter()
                .any(|e| e["ph"] == "i" && e["name"] == "ecall from U-mode")
        );
        // The counter of cycles per iteration, over the timed iterations,
        // is the estimate's figure (the trace steps; the report ran by
        // blocks); the phases' slices add up to its phases.
        let per_iter: Vec<f64> = mine
            .iter()
            .filter(|e| e["ph"] == "C" && e["name"] == "cycles per iteration")
            .map(|e| e["args"]["cycles"].as_f64().unwrap())
            .collect();
        let iters = v["iterations"].as_u64().unwrap() as usize;
        assert_eq!(per_iter.len(), iters, "{name}: a counter per iteration");
        let est = &v["estimate"];
        let mean = per_iter.iter().sum::<f64>() / iters as f64;
        let want = est["cycles_per_iteration"].as_f64().unwrap();
        assert!((mean - want).abs() < 0.01, "{name}: {mean} vs {want}");
        let timed: Vec<(i64, i64)> = mine
            .iter()
            .filter(|e| e["ph"] == "X" && e["args"]["counted"] == "timed")
            .map(|e| (ps(&e["ts"]), ps(&e["ts"]) + ps(&e["dur"])))
            .collect();
        assert_eq!(timed.len(), iters);
        let mut phases: BTreeMap<String, f64> = BTreeMap::new();
        for e in mine.iter().filter(|e| e["cat"] == "phase") {
            let a = ps(&e["ts"]);
            if timed.iter().any(|(s, t)| a >= *s && a < *t) {
                // ps at 1.5 GHz → cycles.
                *phases
                    .entry(e["name"].as_str().unwrap().into())
                    .or_default() += ps(&e["dur"]) as f64 * 1.5e-3;
            }
        }
        for (p, c) in est["phases"].as_object().unwrap() {
            let got = phases.get(p).copied().unwrap_or(0.0) / iters as f64;
            let c = c.as_f64().unwrap();
            assert!((got - c).abs() < 0.01, "{name} {p}: {got} vs {c}");
        }
        for counter in ["cycles per iteration", "RAS depth"] {
            assert!(
                mine.iter().any(|e| e["ph"] == "C" && e["name"] == counter),
                "{name}: no {counter} track"
            );
        }
    }
}

#[test]
fn without_a_core_the_trace_counts_instructions_and_says_so() {
    let t = json(&["run", RAS, "--format", "perfetto"]);
    let ev = t["traceEvents"].as_array().unwrap();
    check_fields(ev);
    check_nesting(ev);
    let time = t["otherData"]["time"].to_string();
    assert!(time.contains("instructions"), "{time}");
    // An iteration lasts its instructions.
    let run = json(&["run", RAS, "--format", "json"]);
    for (i, v) in run["variants"].as_array().unwrap().iter().enumerate() {
        let total = v["insns_per_iteration"]["total"].as_f64().unwrap();
        let durs: Vec<u64> = ev
            .iter()
            .filter(|e| e["pid"] == i as u64 + 1 && e["args"]["counted"] == "timed")
            .map(|e| e["dur"].as_u64().unwrap())
            .collect();
        let mean = durs.iter().sum::<u64>() as f64 / durs.len() as f64;
        assert!((mean - total).abs() < 1e-9, "{mean} vs {total}");
        // No modelled cycles without a core: no counters.
        assert!(!ev.iter().any(|e| e["ph"] == "C"));
    }
}
