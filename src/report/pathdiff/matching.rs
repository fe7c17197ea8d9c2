//! What two paths' lines are matched by (function and source line within
//! one program, function and instruction text across two builds), and the
//! alignment of two sides' lines under that key, gaps then aligned by text.

use std::collections::HashMap;

use serde::Serialize;

use super::{BUDGET, Line, Op, Search, align_two_level_within};

/// What lines are matched by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchBy {
    /// Function and source line (instruction text where there is no line
    /// info): both paths run one program, so a line is the same line.
    SourceLine,
    /// Function and instruction text: two builds (two kernels), whose line
    /// numbers differ wherever the patch added or removed lines above.
    Text,
}

impl MatchBy {
    pub fn words(self) -> &'static str {
        match self {
            MatchBy::SourceLine => "function and source line",
            MatchBy::Text => {
                "function and instruction (two programs, such as two builds or two snapshots: their line numbers may differ)"
            }
        }
    }
}

/// The alignment of two sides' lines: function + source line (or function
/// + text), then the gaps by text alone.
pub fn align_lines(a: &[Line], b: &[Line], by: MatchBy) -> Vec<Op> {
    align_lines_within(a, b, by, &mut Search::new(BUDGET))
}

/// `align_lines` within `search`'s budget (what it gave up on is left in
/// `search.gave_up`).
pub fn align_lines_within(a: &[Line], b: &[Line], by: MatchBy, search: &mut Search) -> Vec<Op> {
    let mut ids: HashMap<(String, String), u32> = HashMap::new();
    let mut intern = |k: (String, String)| {
        let n = ids.len() as u32;
        *ids.entry(k).or_insert(n)
    };
    let key = |l: &Line| {
        let what = match (&l.source, by) {
            (Some(src), MatchBy::SourceLine) => src.clone(),
            _ => format!("\0{}", l.text),
        };
        (l.function.clone(), what)
    };
    let ka: Vec<u32> = a.iter().map(|l| intern(key(l))).collect();
    let kb: Vec<u32> = b.iter().map(|l| intern(key(l))).collect();
    let ta: Vec<&str> = a.iter().map(|l| l.text.as_str()).collect();
    let tb: Vec<&str> = b.iter().map(|l| l.text.as_str()).collect();
    align_two_level_within(&ka, &kb, &ta, &tb, search)
}
