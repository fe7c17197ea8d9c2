//! `run --events` (split from exports.rs, whose helpers it uses): the
//! timeline holds the run's events with rising cycle stamps, JSON gives
//! every field of each event, CSV has a header and one row per event, and
//! CSV without --events is one line and exit 2.

use super::*;

/// The exported events are the run's events, in order, with the
/// instruction count the log has; cycles only with a core, never going
/// back.
#[test]
fn the_timeline_holds_the_runs_events_with_rising_cycle_stamps() {
    let s = Scenario::load(&root().join(RAS)).unwrap();
    let core = trapscope::cost::Profile::find("u74").unwrap();
    let opts = RunOpts {
        core: Some(std::rc::Rc::new(core)),
        log_events: 1_000_000,
        ..RunOpts::default()
    };
    for v in &s.variants {
        let run = session::run_variant(&s, v, &opts).unwrap();
        let t = timeline::record(&s, v, &opts).unwrap();
        let want: Vec<_> = run
            .log
            .iter()
            .filter(|e| e.event.kind() != EventKind::Retired)
            .map(|e| (e.at, e.event.clone()))
            .collect();
        let got: Vec<_> = t
            .events
            .iter()
            .map(|e| (e.at.insns, e.event.clone()))
            .collect();
        assert_eq!(got, want, "{}", v.name);
        let mut last = 0;
        for e in &t.events {
            let c = e.at.milli.expect("a cycle with a core");
            assert!(c >= last, "{}: cycles go back at event {}", v.name, e.index);
            last = c;
        }
        // ecall from U-mode (cause 8) is taken from U-mode.
        for e in &t.events {
            if let trapscope::trace::Event::TrapEnter { cause: 8, .. } = e.event {
                assert_eq!(e.priv_, trapscope::trace::Priv::U);
            }
        }
    }
}

#[test]
fn events_as_json_give_every_field_of_each_event() {
    let j = json(&["run", RAS, "--core", "u74", "--events", "--format", "json"]);
    let vs = j["variants"].as_array().unwrap();
    assert_eq!(vs.len(), 2);
    for v in vs {
        assert_eq!(v["core"], "u74");
        let ev = v["events"].as_array().unwrap();
        assert!(!ev.is_empty());
        for (i, e) in ev.iter().enumerate() {
            assert_eq!(e["index"], i as u64);
            assert!(e["instructions"].is_u64() && e["cycle"].is_number(), "{e}");
            assert!(["U", "S", "M"].contains(&e["privilege"].as_str().unwrap()));
            assert!(e["kind"].is_string() && e["fields"].is_object(), "{e}");
            assert!(e["kind"] != "retired");
        }
        let ecall = ev.iter().find(|e| e["kind"] == "trap").expect("a trap");
        // xcause 8: environment call from U-mode (priv spec table 3.6).
        assert_eq!(ecall["fields"]["cause"], "0x8");
        assert_eq!(ecall["privilege"], "U");
        assert_eq!(ecall["fields"]["from"], "U");
        assert!(ecall["fields"]["epc"].as_str().unwrap().starts_with("0x"));
    }
    // Without a core there is no modelled cycle.
    let j = json(&["run", RAS, "--events", "--format", "json"]);
    let e = &j["variants"][0]["events"][0];
    assert!(e["cycle"].is_null(), "{e}");
}

/// A minimal RFC 4180 reader: cells, quoted or not.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    rows
}

#[test]
fn events_as_csv_have_a_header_and_one_row_per_event() {
    let text = stdout(&["run", RAS, "--core", "u74", "--events", "--format", "csv"]);
    let rows = csv_rows(&text);
    assert_eq!(
        rows[0],
        [
            "variant",
            "index",
            "instructions",
            "cycle",
            "privilege",
            "kind",
            "fields",
            "text"
        ]
    );
    let j = json(&["run", RAS, "--core", "u74", "--events", "--format", "json"]);
    let total: usize = j["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["events"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len() - 1, total);
    for r in &rows[1..] {
        assert_eq!(r.len(), 8, "{r:?}");
        assert!(r[3].parse::<f64>().is_ok(), "{r:?}");
    }
    // The same events as the JSON, cell by cell.
    let first = &j["variants"][0]["events"][0];
    assert_eq!(rows[1][2], first["instructions"].to_string());
    assert_eq!(rows[1][5], first["kind"].as_str().unwrap());
    assert_eq!(rows[1][7], first["text"].as_str().unwrap());
}

#[test]
fn csv_without_events_is_one_line_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(["run", RAS, "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("trapscope: ") && err.contains("--events"),
        "{err}"
    );
}
