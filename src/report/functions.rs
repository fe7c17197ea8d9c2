//! The per-function figures of `run` (text block, Markdown table) and the
//! functions a patch moved work in for `compare`.

use std::fmt::Write;

use crate::session::{FunctionFigure, VariantRun};

/// Functions below this many instructions per iteration are summed as "others".
const SHOWN: f64 = 0.5;
/// The most rows `compare` lists.
const MOST_CHANGED: usize = 20;

fn fmt_num(v: f64) -> String {
    super::fmt_num(v)
}

fn fmt_cycles(c: Option<f64>) -> String {
    c.map(|c| format!("{c:.1}")).unwrap_or_default()
}

/// The functions shown, then an "others" row summing the rest (when any ran).
fn shown(fs: &[FunctionFigure]) -> Vec<FunctionFigure> {
    let mut out: Vec<FunctionFigure> = Vec::new();
    let mut rest = FunctionFigure {
        name: "others".into(),
        instructions: 0.0,
        cycles: None,
    };
    let mut any = false;
    for f in fs {
        if f.instructions >= SHOWN {
            out.push(f.clone());
        } else {
            any = true;
            rest.instructions += f.instructions;
            rest.cycles = f.cycles.map(|c| c + rest.cycles.unwrap_or(0.0));
        }
    }
    if any {
        out.push(rest);
    }
    out
}

/// The text block after the phase line: one aligned line per function.
pub fn text_block(o: &mut String, r: &VariantRun) {
    let rows = shown(&r.functions_per_iteration);
    if rows.is_empty() {
        return;
    }
    let w = rows.iter().map(|f| f.name.len()).max().unwrap_or(0).max(8);
    let cycles = r.estimate.as_ref().map(|e| format!("cycles on {}", e.core));
    let cw = cycles.as_ref().map_or(0, |c| c.chars().count());
    let _ = writeln!(o, "  per function (per iteration)");
    let _ = write!(o, "    {:<w$}  {:>12}", "function", "instructions");
    if let Some(c) = &cycles {
        let _ = write!(o, "  {c:>cw$}");
    }
    let _ = writeln!(o);
    for f in rows {
        let _ = write!(o, "    {:<w$}  {:>12}", f.name, fmt_num(f.instructions));
        if cycles.is_some() {
            let _ = write!(o, "  {:>cw$}", fmt_cycles(f.cycles));
        }
        let _ = writeln!(o);
    }
}

/// Every function any run ran, in the first run's path order; one only a
/// later run ran goes right after the function that ran before it there
/// (so `handle_exception_ras` sits beside `handle_exception`).
fn union_names(runs: &[&[FunctionFigure]]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for fs in runs {
        let mut at = 0;
        for f in fs.iter() {
            match names.iter().position(|n| *n == f.name) {
                Some(i) => at = i + 1,
                None => {
                    // After the earlier runs' functions this one did not run.
                    while at < names.len() && !fs.iter().any(|g| g.name == names[at]) {
                        at += 1;
                    }
                    names.insert(at, f.name.clone());
                    at += 1;
                }
            }
        }
    }
    names
}

fn find<'a>(fs: &'a [FunctionFigure], name: &str) -> Option<&'a FunctionFigure> {
    fs.iter().find(|f| f.name == name)
}

/// The Markdown table: one row per function any variant runs at least
/// `SHOWN` times per iteration, the rest summed per variant as "others".
pub fn markdown_table(o: &mut String, runs: &[VariantRun]) {
    let with_cycles = runs.iter().any(|r| r.estimate.is_some());
    let lists: Vec<&[FunctionFigure]> = runs
        .iter()
        .map(|r| r.functions_per_iteration.as_slice())
        .collect();
    let names: Vec<String> = union_names(&lists)
        .into_iter()
        .filter(|n| {
            lists
                .iter()
                .any(|fs| find(fs, n).is_some_and(|f| f.instructions >= SHOWN))
        })
        .collect();
    if names.is_empty() {
        return;
    }
    let _ = write!(o, "\n| function (per iteration) |");
    for r in runs {
        let _ = write!(o, " {} instructions |", r.variant);
        if with_cycles {
            let _ = write!(o, " {} cycles |", r.variant);
        }
    }
    let _ = write!(o, "\n|---|");
    for _ in runs {
        let _ = write!(o, "{}", if with_cycles { "---:|---:|" } else { "---:|" });
    }
    let _ = writeln!(o);
    // A function a run did not run: 0, and 0.0 cycles if it had a core.
    let cell = |o: &mut String, f: Option<&FunctionFigure>, r: &VariantRun| {
        let _ = write!(o, " {} |", fmt_num(f.map_or(0.0, |f| f.instructions)));
        if with_cycles {
            let c = f.map_or(r.estimate.as_ref().map(|_| 0.0), |f| f.cycles);
            let _ = write!(o, " {} |", fmt_cycles(c));
        }
    };
    for n in &names {
        let _ = write!(o, "| {n} |");
        for (fs, r) in lists.iter().zip(runs) {
            cell(o, find(fs, n), r);
        }
        let _ = writeln!(o);
    }
    let others: Vec<Option<FunctionFigure>> = lists
        .iter()
        .map(|fs| {
            let rest: Vec<&FunctionFigure> =
                fs.iter().filter(|f| !names.contains(&f.name)).collect();
            (!rest.is_empty()).then(|| FunctionFigure {
                name: "others".into(),
                instructions: rest.iter().map(|f| f.instructions).sum(),
                cycles: rest.iter().map(|f| f.cycles).sum::<Option<f64>>(),
            })
        })
        .collect();
    if others.iter().any(Option::is_some) {
        let _ = write!(o, "| others |");
        for (f, r) in others.iter().zip(runs) {
            cell(o, f.as_ref(), r);
        }
        let _ = writeln!(o);
    }
}

/// A function whose figures differ between two runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    pub name: String,
    pub instructions: (f64, f64),
    pub cycles: (Option<f64>, Option<f64>),
}

/// The functions whose instructions or cycles per iteration differ between
/// `a` and `b`, in path order (`a`'s, then `b`'s new ones); past
/// `MOST_CHANGED`, those that moved most cycles (then instructions). The
/// second value is how many more differ.
pub fn moved(a: &VariantRun, b: &VariantRun) -> (Vec<Moved>, usize) {
    let (fa, fb) = (&a.functions_per_iteration, &b.functions_per_iteration);
    let rows: Vec<Moved> = union_names(&[fa, fb])
        .into_iter()
        .filter_map(|n| {
            let (x, y) = (find(fa, &n), find(fb, &n));
            let m = Moved {
                instructions: (
                    x.map_or(0.0, |f| f.instructions),
                    y.map_or(0.0, |f| f.instructions),
                ),
                cycles: (
                    x.map_or(Some(0.0), |f| f.cycles)
                        .filter(|_| a.estimate.is_some()),
                    y.map_or(Some(0.0), |f| f.cycles)
                        .filter(|_| b.estimate.is_some()),
                ),
                name: n,
            };
            let differs = |p: f64, q: f64| (p - q).abs() > 0.004;
            let dc = match m.cycles {
                (Some(p), Some(q)) => differs(p, q),
                _ => false,
            };
            (differs(m.instructions.0, m.instructions.1) || dc).then_some(m)
        })
        .collect();
    if rows.len() <= MOST_CHANGED {
        return (rows, 0);
    }
    let weight = |m: &Moved| {
        let dc = match m.cycles {
            (Some(p), Some(q)) => (q - p).abs(),
            _ => 0.0,
        };
        (dc, (m.instructions.1 - m.instructions.0).abs())
    };
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by(|&i, &j| {
        weight(&rows[j])
            .partial_cmp(&weight(&rows[i]))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut keep: Vec<usize> = idx[..MOST_CHANGED].to_vec();
    keep.sort_unstable();
    let more = rows.len() - MOST_CHANGED;
    (keep.into_iter().map(|i| rows[i].clone()).collect(), more)
}

/// `compare`'s section: where the patch moved work, on `core`.
pub fn compare_section(o: &mut String, core: &str, a: &VariantRun, b: &VariantRun, md: bool) {
    let (rows, more) = moved(a, b);
    let head = format!(
        "per function, {} → {} (per iteration, cycles on {core})",
        a.variant, b.variant
    );
    let _ = writeln!(o);
    if rows.is_empty() {
        let _ = writeln!(o, "{head}: no function differs");
        return;
    }
    let pair = |p: f64, q: f64| format!("{} → {}", fmt_num(p), fmt_num(q));
    let cyc = |m: &Moved| match m.cycles {
        (Some(p), Some(q)) => format!("{p:.1} → {q:.1}"),
        _ => String::new(),
    };
    if md {
        let _ = writeln!(o, "**{head}**\n");
        let _ = writeln!(o, "| function | instructions | cycles |");
        let _ = writeln!(o, "|---|---:|---:|");
        for m in &rows {
            let _ = writeln!(
                o,
                "| {} | {} | {} |",
                m.name,
                pair(m.instructions.0, m.instructions.1),
                cyc(m)
            );
        }
    } else {
        let _ = writeln!(o, "{head}");
        let w = rows.iter().map(|m| m.name.len()).max().unwrap_or(0).max(8);
        let iw = rows
            .iter()
            .map(|m| pair(m.instructions.0, m.instructions.1).chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        let _ = writeln!(o, "  {:<w$}  {:<iw$}  cycles", "function", "instructions");
        for m in &rows {
            let _ = writeln!(
                o,
                "  {:<w$}  {:<iw$}  {}",
                m.name,
                pair(m.instructions.0, m.instructions.1),
                cyc(m)
            );
        }
    }
    if more > 0 {
        let _ = writeln!(
            o,
            "{}… and {more} more functions that moved less",
            if md { "\n" } else { "  " }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(name: &str, instructions: f64, cycles: f64) -> FunctionFigure {
        FunctionFigure {
            name: name.into(),
            instructions,
            cycles: Some(cycles),
        }
    }

    #[test]
    fn rare_functions_are_summed_as_others() {
        let fs = [
            fig("a", 5.0, 4.0),
            fig("rare", 0.25, 2.0),
            fig("b", 0.5, 1.0),
            fig("rarer", 0.125, 0.5),
        ];
        let rows = shown(&fs);
        let names: Vec<&str> = rows.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "others"]);
        assert_eq!(rows[2].instructions, 0.375);
        assert_eq!(rows[2].cycles, Some(2.5));
        assert_eq!(shown(&fs[..1]).len(), 1, "no others row when none is rare");
    }

    #[test]
    fn a_function_only_the_second_run_ran_sits_after_its_predecessor() {
        let a = [fig("u", 1.0, 1.0), fig("old", 1.0, 1.0), fig("k", 1.0, 1.0)];
        let b = [fig("u", 1.0, 1.0), fig("new", 1.0, 1.0), fig("k", 1.0, 1.0)];
        assert_eq!(union_names(&[&a, &b]), ["u", "old", "new", "k"]);
    }
}
