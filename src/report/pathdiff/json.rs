//! The path diff as JSON, for other tools.

use serde::Serialize;

use super::{Line, Op, PathDiff};

#[derive(Serialize)]
struct JsonEvent {
    kind: &'static str,
    milli: u64,
}

#[derive(Serialize)]
struct JsonLine<'a> {
    /// Hex, as the exports give addresses (a kernel address is past what a
    /// double holds exactly).
    pc: String,
    at: &'a str,
    function: &'a str,
    source: Option<&'a str>,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    milli: Option<u64>,
    events: Vec<JsonEvent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mispredict: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonRow<'a> {
    op: &'static str,
    a: Option<JsonLine<'a>>,
    b: Option<JsonLine<'a>>,
}

#[derive(Serialize)]
struct JsonSide<'a> {
    variant: &'a str,
    label: &'a str,
    iteration: u64,
    instructions: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    milli: Option<u64>,
}

#[derive(Serialize)]
struct JsonChoice<'a> {
    number: u64,
    #[serde(flatten)]
    choice: &'a super::Choice,
    why: String,
}

#[derive(Serialize)]
struct JsonAlignment<'a> {
    complete: bool,
    gave_up: &'a [super::GaveUp],
    notes: Vec<String>,
}

#[derive(Serialize)]
struct Json<'a> {
    scenario: &'a str,
    /// `null`: instructions only, no cycles.
    core: Option<&'a str>,
    a: JsonSide<'a>,
    b: JsonSide<'a>,
    rows: Vec<JsonRow<'a>>,
    functions: &'a [super::FnTotal],
    matched_by: super::MatchBy,
    /// Which iteration and why (`how`: typical, asked, live or last).
    iteration: JsonChoice<'a>,
    /// Whether the alignment is a shortest script everywhere; where not,
    /// the stretches it gave up on (0-based line ranges, end exclusive).
    alignment: JsonAlignment<'a>,
    /// B − A.
    diff_instructions: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff_milli: Option<i64>,
    /// The totals' bands in cycles: `a`, `b` and `b_minus_a`, each with
    /// `low`, `high` and `moved_most_by` (absent without a core).
    #[serde(skip_serializing_if = "Option::is_none")]
    bands: Option<&'a super::diff::TotalBands>,
}

/// JSON: both sides, the rows with their lines, the subtotals and the
/// difference (cycles in milli-cycles, absent without a core).
pub fn json(d: &PathDiff) -> String {
    let with = d.core.is_some();
    fn line(l: &Line, with: bool) -> JsonLine<'_> {
        JsonLine {
            pc: format!("{:#x}", l.pc),
            at: &l.at,
            function: &l.function,
            source: l.source.as_deref(),
            text: &l.text,
            milli: with.then_some(l.milli),
            events: l
                .events
                .iter()
                .map(|(c, v)| JsonEvent {
                    kind: c.key(),
                    milli: *v,
                })
                .collect(),
            mispredict: l.mispredict.as_deref(),
        }
    }
    fn side(s: &super::Side, with: bool) -> JsonSide<'_> {
        JsonSide {
            variant: &s.variant,
            label: &s.label,
            iteration: s.iteration,
            instructions: s.lines.len(),
            milli: with.then_some(s.milli),
        }
    }
    let j = Json {
        scenario: &d.scenario,
        core: d.core.as_deref(),
        a: side(&d.a, with),
        b: side(&d.b, with),
        rows: d
            .ops
            .iter()
            .zip(d.rows())
            .map(|(o, (a, b))| JsonRow {
                op: match o {
                    Op::Same(..) => "same",
                    Op::Del(_) => "only_a",
                    Op::Ins(_) => "only_b",
                },
                a: a.map(|l| line(l, with)),
                b: b.map(|l| line(l, with)),
            })
            .collect(),
        functions: &d.functions,
        matched_by: d.matched_by,
        iteration: JsonChoice {
            number: d.a.iteration,
            choice: &d.choice,
            why: d.choice_words(),
        },
        alignment: JsonAlignment {
            complete: d.gave_up.is_empty(),
            gave_up: &d.gave_up,
            notes: d.gave_up_words(),
        },
        diff_instructions: d.b.lines.len() as i64 - d.a.lines.len() as i64,
        diff_milli: with.then(|| d.diff_milli()),
        bands: d.bands.as_ref(),
    };
    serde_json::to_string_pretty(&j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
