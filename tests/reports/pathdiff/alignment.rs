//! Aligning long paths (split from pathdiff.rs): paths thousands of edits
//! apart still align, and the text and JSON outputs count the edits.

use super::*;

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
        bands: None,
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
