//! Expectations: `EXPR OP EXPR`, where an expression is a metric, a
//! number, or a small sum of products of them.
//!
//! A metric is a dotted path into a variant's JSON result (the same names
//! `trapscope run --format json` prints), so every number a report shows can
//! be checked. A path step into a list of named objects picks the entry by
//! its `name` (`fast.functions_per_iteration.sys_getppid.instructions`).
//! `pair.BEFORE.AFTER.METRIC` reads a pair's difference (after − before per
//! iteration: `instructions`, `cycles`, `ns`), as `compare` prints it in its
//! `pairs`. Operands combine with `+`, `-` and `*` (usual precedence,
//! parentheses allowed), e.g.
//! `pair.a8.a64.instructions == 8 * pair.a1.a8.instructions`.
//! The grammar is in `expect/parse.rs` (its tokens in `expect/parse/lex.rs`),
//! the look-ups in `expect/lookup.rs`.

use std::fmt;

mod lookup;
pub mod metrics;
mod parse;

pub use lookup::{KindError, PathError, lookup, lookup_path};
pub use parse::{Names, ParseError};

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Metric {
        variant: String,
        path: Vec<String>,
    },
    /// after − before of two variants, per iteration.
    Pair {
        before: String,
        after: String,
        path: Vec<String>,
    },
    Number(f64),
}

/// An arithmetic operator of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
}

/// One side of a check: an operand, or two sides combined.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Leaf(Operand),
    Op(Arith, Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub lhs: Expr,
    pub op: Cmp,
    pub rhs: Expr,
}

/// A check evaluated: both sides, whether it holds, and the two sides as
/// `check` prints them (`-1 vs -1`, `48 vs 8 * 6 = 48`).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub lhs: f64,
    pub rhs: f64,
    pub holds: bool,
    pub shown: String,
}

impl Cmp {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

impl Arith {
    fn symbol(self) -> &'static str {
        match self {
            Arith::Add => "+",
            Arith::Sub => "-",
            Arith::Mul => "*",
        }
    }
    fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Arith::Add => a + b,
            Arith::Sub => a - b,
            Arith::Mul => a * b,
        }
    }
    /// Binding strength: `*` over `+` and `-`.
    fn rank(self) -> u8 {
        match self {
            Arith::Add | Arith::Sub => 1,
            Arith::Mul => 2,
        }
    }
}

/// A path step as written: bare when it is a plain name, else quoted.
fn step(s: &str) -> String {
    if !s.is_empty() && s.chars().all(parse::name_char) {
        s.to_string()
    } else {
        format!("\"{s}\"")
    }
}

fn path_text(path: &[String]) -> String {
    path.iter().map(|p| step(p)).collect::<Vec<_>>().join(".")
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Metric { variant, path } => write!(f, "{variant}.{}", path_text(path)),
            Operand::Pair {
                before,
                after,
                path,
            } => write!(f, "pair.{before}.{after}.{}", path_text(path)),
            Operand::Number(n) => write!(f, "{n}"),
        }
    }
}

impl Expr {
    /// The leaves, left to right.
    pub fn operands(&self) -> Vec<&Operand> {
        match self {
            Expr::Leaf(o) => vec![o],
            Expr::Op(_, a, b) => {
                let mut v = a.operands();
                v.extend(b.operands());
                v
            }
        }
    }

    /// Its value, each metric read by `leaf` (whose error, passed on, says
    /// which metric the run lacks).
    pub fn eval<E>(&self, leaf: &dyn Fn(&Operand) -> Result<f64, E>) -> Result<f64, E> {
        match self {
            Expr::Leaf(o) => leaf(o),
            Expr::Op(op, a, b) => Ok(op.apply(a.eval(leaf)?, b.eval(leaf)?)),
        }
    }

    /// The expression written with `show` for each leaf, parenthesised where
    /// precedence needs it.
    fn render(&self, show: &mut dyn FnMut(&Operand) -> String) -> String {
        match self {
            Expr::Leaf(o) => show(o),
            Expr::Op(op, a, b) => {
                let side = |e: &Expr, right: bool, show: &mut dyn FnMut(&Operand) -> String| {
                    let t = e.render(show);
                    let wrap = match e {
                        Expr::Op(inner, ..) => {
                            inner.rank() < op.rank()
                                || (right && inner.rank() == op.rank() && *op == Arith::Sub)
                        }
                        Expr::Leaf(_) => false,
                    };
                    if wrap { format!("({t})") } else { t }
                };
                let l = side(a, false, show);
                let r = side(b, true, show);
                format!("{l} {} {r}", op.symbol())
            }
        }
    }

    /// The value as `check` prints it: the number alone for one operand,
    /// else the expression with each metric's value and ` = ` its result.
    fn shown<E: fmt::Display>(
        &self,
        leaf: &dyn Fn(&Operand) -> Result<f64, E>,
    ) -> Result<(f64, String), E> {
        let v = self.eval(leaf)?;
        Ok(match self {
            Expr::Leaf(_) => (v, format!("{v}")),
            Expr::Op(..) => {
                let t = self
                    .render(&mut |o| leaf(o).map_or_else(|e| e.to_string(), |x| format!("{x}")));
                (v, format!("{t} = {v}"))
            }
        })
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render(&mut |o| o.to_string()))
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.lhs, self.op.symbol(), self.rhs)
    }
}

impl Check {
    /// Parses a check against the scenario's variant names (no symbol
    /// checks).
    pub fn parse(s: &str, variants: &[&str]) -> Result<Check, ParseError> {
        Check::parse_in(s, &Names::variants(variants))
    }

    /// Parses a check, names checked against `names`; the error carries
    /// the byte offset in `s` it is about.
    pub fn parse_in(s: &str, names: &Names<'_>) -> Result<Check, ParseError> {
        parse::check(s, names)
    }

    /// The variants this check reads.
    pub fn variants(&self) -> Vec<&str> {
        self.operands()
            .into_iter()
            .flat_map(|o| match o {
                Operand::Metric { variant, .. } => vec![variant.as_str()],
                Operand::Pair { before, after, .. } => vec![before.as_str(), after.as_str()],
                Operand::Number(_) => vec![],
            })
            .collect()
    }

    /// Every operand of both sides, left to right.
    pub fn operands(&self) -> Vec<&Operand> {
        let mut v = self.lhs.operands();
        v.extend(self.rhs.operands());
        v
    }

    /// Both sides evaluated with `leaf`, or the first metric the run lacks
    /// (`leaf`'s error, passed on).
    pub fn evaluate<E: fmt::Display>(
        &self,
        leaf: &dyn Fn(&Operand) -> Result<f64, E>,
    ) -> Result<Outcome, E> {
        let (a, sa) = self.lhs.shown(leaf)?;
        let (b, sb) = self.rhs.shown(leaf)?;
        let holds = self.op.holds(a, b);
        let op = self.op.symbol();
        Ok(Outcome {
            lhs: a,
            rhs: b,
            holds,
            // The comparison as it stands: "102 > 0", or "365, not == 366".
            shown: if holds {
                format!("{sa} {op} {sb}")
            } else {
                format!("{sa}, not {op} {sb}")
            },
        })
    }
}

/// Where byte `at` of a TOML string's value sits in the file: `span` is the
/// string's span in `src` (quotes included). Exact when the value is the
/// text between the quotes (no escapes); else the string's start.
pub fn source_offset(src: &str, span: std::ops::Range<usize>, value: &str, at: usize) -> usize {
    let Some(raw) = src.get(span.clone()) else {
        return span.start;
    };
    for q in ["\"\"\"", "'''", "\"", "'"] {
        if raw.len() >= 2 * q.len() && raw.starts_with(q) && raw.ends_with(q) {
            let mut body_start = q.len();
            if q.len() == 3 {
                // TOML drops a newline right after the opening quotes.
                if raw[3..].starts_with("\r\n") {
                    body_start += 2;
                } else if raw[3..].starts_with('\n') {
                    body_start += 1;
                }
            }
            let body = &raw[body_start..raw.len() - q.len()];
            if body == value && at <= value.len() {
                return span.start + body_start + at;
            }
            break;
        }
    }
    span.start
}

#[cfg(test)]
mod tests;
