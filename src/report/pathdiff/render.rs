//! The path diff as text, every line under 80 columns (for a mail), and
//! what the Markdown shares with it.

use std::fmt::Write;

use super::{Line, Op, PathDiff, cycles, events_detail, events_text, signed};

/// Text lines are shorter than this (a mail's 80 columns).
pub const TEXT_WIDTH: usize = 80;

pub(super) const NO_CORE: &str = "No core given (--core): instructions only, no cycles.";

/// `+0xOFF` of a line within its function.
pub(super) fn offset(l: &Line) -> String {
    match l.at.strip_prefix(&l.function) {
        Some("") => "+0x0".into(),
        Some(rest) => rest.to_string(),
        None => l.at.clone(),
    }
}

fn heading(d: &PathDiff) -> Vec<String> {
    let per = |s: &super::Side| {
        let n = s.lines.len();
        match &d.core {
            Some(c) => format!("{n} instructions, {} cycles on {c}", cycles(s.milli)),
            None => format!("{n} instructions"),
        }
    };
    let mut out = vec![
        format!("Path diff of {}, iteration {}", d.scenario, d.a.iteration),
        format!("A = {}: {}", d.a.variant, per(&d.a)),
        format!("B = {}: {}", d.b.variant, per(&d.b)),
    ];
    for s in [&d.a, &d.b] {
        if !s.label.is_empty() {
            out.push(format!("  {}: {}", s.variant, s.label));
        }
    }
    hard_wrap(&format!("Shown: {}", d.choice_words()), &mut out);
    out.push(format!("Lines matched by {}.", d.matched_by.words()));
    for g in d.gave_up_words() {
        hard_wrap(&g, &mut out);
    }
    if d.core.is_none() {
        out.push(NO_CORE.into());
    }
    out
}

/// The function group a row belongs to, kept across a deletion or an
/// insertion in the same function.
fn group(prev: &Option<(String, String)>, a: Option<&Line>, b: Option<&Line>) -> (String, String) {
    match (a, b, prev) {
        (Some(a), Some(b), _) => (a.function.clone(), b.function.clone()),
        (Some(a), None, Some((pa, pb))) if *pa == a.function => (pa.clone(), pb.clone()),
        (None, Some(b), Some((pa, pb))) if *pb == b.function => (pa.clone(), pb.clone()),
        (Some(a), None, _) => (a.function.clone(), a.function.clone()),
        (None, Some(b), _) => (b.function.clone(), b.function.clone()),
        (None, None, _) => (String::new(), String::new()),
    }
}

pub(super) fn mark(o: &Op) -> char {
    match o {
        Op::Same(..) => '=',
        Op::Del(_) => '-',
        Op::Ins(_) => '+',
    }
}

/// Breaks `s` into pieces shorter than TEXT_WIDTH, continuing with an
/// indent.
fn hard_wrap(s: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() < TEXT_WIDTH {
        out.push(s.to_string());
        return;
    }
    let mut first = true;
    let mut rest: &[char] = &chars;
    while !rest.is_empty() {
        let (indent, room) = if first {
            ("", TEXT_WIDTH - 1)
        } else {
            ("      ", TEXT_WIDTH - 7)
        };
        let mut n = rest.len().min(room);
        // At a space, where there is one in the second half.
        if n < rest.len()
            && let Some(sp) = rest[..n].iter().rposition(|c| *c == ' ')
            && sp > room / 2
        {
            n = sp + 1;
        }
        let piece: String = rest[..n].iter().collect();
        out.push(format!("{indent}{}", piece.trim_end()));
        rest = &rest[n..];
        first = false;
    }
}

/// A row's cells: offset, source line and instruction, each side's when
/// they differ.
fn cells(a: Option<&Line>, b: Option<&Line>) -> Option<[String; 3]> {
    let l = a.or(b)?;
    let mut off = offset(l);
    if let (Some(a), Some(b)) = (a, b)
        && offset(a) != offset(b)
    {
        off = format!("{}/{}", offset(a), offset(b));
    }
    let mut src = l.source.clone().unwrap_or_default();
    if let (Some(a), Some(b)) = (a, b)
        && a.source != b.source
    {
        src = format!("{}/{}", src, b.source.clone().unwrap_or_default());
    }
    let mut insn = l.text.clone();
    if let (Some(a), Some(b)) = (a, b)
        && a.text != b.text
    {
        insn = format!("{} / {}", a.text, b.text);
    }
    Some([off, src, insn])
}

/// The most an offset cell and a source cell take (`+0x1a4/+0x1b0`,
/// `minikernel-entry.inc:100`); a longer cell is cut.
const OFF_MAX: usize = 13;
const SRC_MAX: usize = 24;

/// The columns' widths: each its longest cell's, within the line's 79
/// characters (the instruction takes what the others leave).
fn widths<'a>(all: impl Iterator<Item = &'a [String; 3]>, nums: usize) -> [usize; 3] {
    let mut w = [4, 6, 4];
    for c in all {
        for k in 0..3 {
            w[k] = w[k].max(c[k].chars().count());
        }
    }
    w[0] = w[0].min(OFF_MAX);
    w[1] = w[1].min(SRC_MAX);
    // The mark and the three spaces between the cells.
    let room = (TEXT_WIDTH - 1).saturating_sub(4 + w[0] + w[1] + nums);
    w[2] = w[2].min(room);
    w
}

/// `s` in `w` columns: padded, or cut with an ellipsis, at its start when
/// `keep_end` (a source line's `file:line` ends with what matters).
fn fit(s: &str, w: usize, keep_end: bool) -> (String, bool) {
    let n = s.chars().count();
    if n <= w {
        return (format!("{s:<w$}"), false);
    }
    let keep = w.saturating_sub(1);
    let cut: String = if keep_end {
        let tail: String = s.chars().skip(n - keep).collect();
        format!("…{tail}")
    } else {
        let head: String = s.chars().take(keep).collect();
        format!("{head}…")
    };
    (cut, true)
}

/// The diff for a mail: every line under 80 columns, the columns aligned.
/// A cell too long for its column is cut with `…`, and the row is followed
/// by its cells in full.
pub fn text(d: &PathDiff, full: bool) -> String {
    let with = d.core.is_some();
    let folds = if full { Vec::new() } else { d.folds() };
    let mut fold = folds.iter().peekable();
    let mut out: Vec<String> = heading(d);
    out.push(if with {
        "Rows: '=' on both paths, '-' only in A, '+' only in B; cycles of A, then B.".into()
    } else {
        "Rows: '=' on both paths, '-' only in A, '+' only in B.".into()
    });
    let all_cells: Vec<Option<[String; 3]>> = d.rows().map(|(a, b)| cells(a, b)).collect();
    let nums_w = if with { 14 } else { 0 };
    let w = widths(all_cells.iter().flatten(), nums_w);
    let mut prev: Option<(String, String)> = None;
    let mut skip_to = 0;
    for (k, (o, (a, b))) in d.ops.iter().zip(d.rows()).enumerate() {
        if k < skip_to {
            continue;
        }
        if let Some(&&(from, to)) = fold.peek()
            && k == from
        {
            fold.next();
            skip_to = to;
            let cyc = d.fold_cycles((from, to));
            out.push(format!(
                "  ... {} identical rows{cyc} (--full shows them)",
                to - from
            ));
            continue;
        }
        let g = group(&prev, a, b);
        if prev.as_ref() != Some(&g) {
            out.push(String::new());
            if g.0 == g.1 {
                hard_wrap(&g.0, &mut out);
            } else {
                hard_wrap(&format!("{} -> {}", g.0, g.1), &mut out);
            }
            prev = Some(g);
        }
        let Some([off, src, insn]) = &all_cells[k] else {
            continue;
        };
        let cyc = |x: Option<&Line>| x.map_or(".".into(), |l| cycles(l.milli));
        let mut ev: Vec<String> = Vec::new();
        for (side, x) in [("A", a), ("B", b)] {
            if let Some(x) = x.filter(|x| !x.events.is_empty()) {
                let e = events_text(x, with);
                ev.push(if a.is_some() && b.is_some() {
                    format!("{side}: {e}")
                } else {
                    e
                });
            }
        }
        let ev = ev.join("; ");
        let (off_c, cut0) = fit(off, w[0], false);
        let (src_c, cut1) = fit(src, w[1], true);
        let (insn_c, cut2) = fit(insn, w[2], false);
        let nums = if with {
            format!(" {:>6} {:>6}", cyc(a), cyc(b))
        } else {
            String::new()
        };
        let line = format!("{} {off_c} {src_c} {insn_c}{nums}", mark(o));
        let whole = if ev.is_empty() {
            line.clone()
        } else {
            format!("{line}  {ev}")
        };
        let cut = cut0 || cut1 || cut2;
        if whole.chars().count() < TEXT_WIDTH {
            out.push(whole.trim_end().to_string());
        } else {
            out.push(line.trim_end().to_string());
        }
        if cut {
            hard_wrap(&format!("    in full: {off} {src} {insn}"), &mut out);
        }
        if !ev.is_empty() && whole.chars().count() >= TEXT_WIDTH {
            hard_wrap(&format!("    events: {ev}"), &mut out);
        }
    }
    out.push(String::new());
    functions_text(d, &mut out);
    out.push(String::new());
    events_summary_text(d, &mut out);
    out.push(String::new());
    total_text(d, &mut out);
    let mut s = String::new();
    for l in out {
        let _ = writeln!(s, "{l}");
    }
    s
}

fn functions_text(d: &PathDiff, out: &mut Vec<String>) {
    let with = d.core.is_some();
    out.push("Per function".into());
    if with {
        out.push(format!(
            "{:<30} {:>7} {:>8} {:>7} {:>8} {:>8}",
            "function", "A insns", "A cyc", "B insns", "B cyc", "B-A cyc"
        ));
    } else {
        out.push(format!(
            "{:<30} {:>8} {:>8} {:>8}",
            "function", "A insns", "B insns", "B-A"
        ));
    }
    for f in &d.functions {
        let name = if f.function.chars().count() > 30 {
            hard_wrap(&f.function, out);
            String::new()
        } else {
            f.function.clone()
        };
        let row = if with {
            format!(
                "{name:<30} {:>7} {:>8} {:>7} {:>8} {:>8}",
                f.a_insns,
                cycles(f.a_milli),
                f.b_insns,
                cycles(f.b_milli),
                signed(f.b_milli as i64 - f.a_milli as i64)
            )
        } else {
            format!(
                "{name:<30} {:>8} {:>8} {:>8}",
                f.a_insns,
                f.b_insns,
                f.b_insns as i64 - f.a_insns as i64
            )
        };
        out.push(row);
    }
}

/// A line with events on either path, what the other path has there, and
/// for a line on one path only, what the other runs in its place (the other
/// side of the same gap between matched lines).
pub struct EventRow<'a> {
    pub a: Option<&'a Line>,
    pub b: Option<&'a Line>,
    pub instead: Vec<&'a Line>,
}

/// Each line with events on either path, in path order.
pub fn event_rows(d: &PathDiff) -> Vec<EventRow<'_>> {
    let rows: Vec<(Option<&Line>, Option<&Line>)> = d.rows().collect();
    let mut out = Vec::new();
    for (i, &(a, b)) in rows.iter().enumerate() {
        let has = |x: Option<&Line>| x.is_some_and(|l| !l.events.is_empty());
        if !has(a) && !has(b) {
            continue;
        }
        let mut instead = Vec::new();
        if a.is_none() || b.is_none() {
            let gap = |j: &usize| rows[*j].0.is_none() || rows[*j].1.is_none();
            let lo = (0..i).rev().take_while(|j| gap(j)).last().unwrap_or(i);
            let hi = (i..rows.len()).take_while(|j| gap(j)).last().unwrap_or(i);
            for (x, y) in &rows[lo..=hi] {
                if let Some(l) = if a.is_some() { *y } else { *x } {
                    instead.push(l);
                }
            }
        }
        out.push(EventRow { a, b, instead });
    }
    out
}

/// What runs in place of a line that one path lacks.
pub(super) fn instead_text(v: &[&Line], md: bool) -> String {
    if v.is_empty() {
        return "(not on this path; nothing in its place)".into();
    }
    let mut t: Vec<String> = v
        .iter()
        .take(4)
        .map(|l| {
            if md {
                format!("`{}` `{}`", l.at, l.text.replace('`', "'"))
            } else {
                format!("{} {}", l.at, l.text)
            }
        })
        .collect();
    if v.len() > 4 {
        t.push(format!("and {} more", v.len() - 4));
    }
    format!("(not on this path; in its place: {})", t.join(", "))
}

fn side_text(l: Option<&Line>, with: bool, instead: &[&Line]) -> String {
    match l {
        None => instead_text(instead, false),
        Some(l) if l.events.is_empty() => format!("{} {}: none", l.at, l.text),
        Some(l) => format!("{} {}: {}", l.at, l.text, events_detail(l, with)),
    }
}

fn events_summary_text(d: &PathDiff, out: &mut Vec<String>) {
    let with = d.core.is_some();
    let rows = event_rows(d);
    if rows.is_empty() {
        out.push("Events: none on either path.".into());
        return;
    }
    out.push("Events, and what the other path has at that line".into());
    for r in rows {
        hard_wrap(&format!("  A {}", side_text(r.a, with, &r.instead)), out);
        hard_wrap(&format!("    B {}", side_text(r.b, with, &r.instead)), out);
    }
}

fn total_text(d: &PathDiff, out: &mut Vec<String>) {
    let (na, nb) = (d.a.lines.len() as i64, d.b.lines.len() as i64);
    if d.core.is_some() {
        let band = |b: Option<&crate::session::band::Band>, sign: bool| match b {
            Some(b) if sign => format!(" ({:+.1}..{:+.1})", b.low, b.high),
            Some(b) => format!(" ({:.1}..{:.1})", b.low, b.high),
            None => String::new(),
        };
        let bs = d.bands.as_ref();
        out.push(format!(
            "Total  A {}: {na} insns, {} cycles{}",
            d.a.variant,
            cycles(d.a.milli),
            band(bs.map(|b| &b.a), false)
        ));
        out.push(format!(
            "       B {}: {nb} insns, {} cycles{}",
            d.b.variant,
            cycles(d.b.milli),
            band(bs.map(|b| &b.b), false)
        ));
        out.push(format!(
            "       B - A: {:+} insns, {} cycles{}",
            nb - na,
            signed(d.diff_milli()),
            band(bs.map(|b| &b.b_minus_a), true)
        ));
        if let Some(b) = bs {
            out.push(format!(
                "       (low..high): over the ends of the profile's unverified and assumed values{}{}",
                b.b_minus_a
                    .moved_most_by
                    .as_ref()
                    .map_or(String::new(), |m| format!("; B - A moved most by {m}")),
                if b.a.path_fixed || b.b.path_fixed {
                    "; the paths held fixed"
                } else {
                    ""
                }
            ));
        }
    } else {
        out.push(format!("Total  A {}: {na} insns", d.a.variant));
        out.push(format!("       B {}: {nb} insns", d.b.variant));
        out.push(format!("       B - A: {:+} insns", nb - na));
    }
    let mut v = Vec::new();
    for l in out.drain(..) {
        hard_wrap(&l, &mut v);
    }
    *out = v;
}
