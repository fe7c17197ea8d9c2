//! The expectation grammar, kept small:
//!
//! ```text
//! check  := expr CMP expr            CMP: <  <=  >  >=  ==  !=
//! expr   := term (("+" | "-") term)*
//! term   := factor ("*" factor)*
//! factor := NUMBER | PATH | "(" expr ")"
//! PATH   := STEP ("." STEP)*         STEP: [A-Za-z0-9_-]+ or "any text"
//! ```
//!
//! A `-` right after an operand is a subtraction, elsewhere the sign of a
//! number. A step may hold `-` (`events_per_iteration.trap-return`), so a
//! subtraction between two metrics needs spaces around it. Every error
//! carries the byte offset of the token it is about.
//!
//! An expectation holds at most `MAX_TOKENS` tokens and nests parentheses
//! at most `MAX_DEPTH` deep: the parser, the evaluation and dropping the
//! tree all recurse on its depth, so a hostile file must not reach the
//! stack's end.

use super::{Arith, Check, Cmp, Expr, Operand};

mod lex;
use lex::{Lexed, Tok, lex};

/// The most tokens (numbers, metrics, operators, parentheses) in one
/// expectation.
pub const MAX_TOKENS: usize = 512;
/// The deepest nesting of parentheses.
pub const MAX_DEPTH: usize = 32;

/// Whether `(variant, function)` names a function of the variant's guest.
pub type KnownFunction<'a> = &'a dyn Fn(&str, &str) -> bool;

/// The names an expectation may use.
pub struct Names<'a> {
    pub variants: &'a [&'a str],
    /// Whether `(variant, function)` names a function of the variant's
    /// guest (a symbol, or a page such as `0x80001000`); `None`: unchecked.
    pub function: Option<KnownFunction<'a>>,
    /// The metrics a result has (`expect::metrics`); `None`: unchecked.
    pub metrics: Option<&'a super::metrics::Metrics>,
}

impl<'a> Names<'a> {
    pub fn variants(variants: &'a [&'a str]) -> Names<'a> {
        Names {
            variants,
            function: None,
            metrics: None,
        }
    }
}

/// A parse error at byte `at` of the expectation. `msg` is composed where
/// the grammar finds the fault (a token, a name, a metric path: some forty
/// places), so it stays text; `at` is what a caller acts on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{msg}")]
pub struct ParseError {
    pub at: usize,
    pub msg: String,
}

fn err<T>(at: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        at,
        msg: msg.into(),
    })
}

/// A character a bare path step may hold.
pub(super) fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

struct Parser<'s, 'n> {
    s: &'s str,
    toks: Vec<Lexed>,
    pos: usize,
    /// Parentheses open at `pos`.
    depth: usize,
    names: &'n Names<'n>,
}

pub(super) fn check(s: &str, names: &Names<'_>) -> Result<Check, ParseError> {
    let toks = lex(s)?;
    let cmps: Vec<(usize, Cmp)> = toks
        .iter()
        .filter_map(|l| match l.tok {
            Tok::Cmp(c) => Some((l.at, c)),
            _ => None,
        })
        .collect();
    let Some(&(cmp_at, op)) = cmps.first() else {
        return err(
            0,
            format!("expectation '{s}' has no comparison (<, <=, >, >=, ==, !=)"),
        );
    };
    if let Some(&(at, _)) = cmps.get(1) {
        return err(at, "an expectation has one comparison; this is a second");
    }
    let mut p = Parser {
        s,
        toks,
        pos: 0,
        depth: 0,
        names,
    };
    let lhs = p.side(cmp_at)?;
    p.pos += 1; // the comparison
    let rhs = p.side(s.len())?;
    Ok(Check { lhs, op, rhs })
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Lexed> {
        self.toks.get(self.pos)
    }

    /// One side: an expression that ends at the comparison or the end.
    /// `end` is where it ends, for "missing an operand".
    fn side(&mut self, end: usize) -> Result<Expr, ParseError> {
        if matches!(self.peek().map(|l| &l.tok), None | Some(Tok::Cmp(_))) {
            return err(end.min(self.s.len()), "expectation is missing an operand");
        }
        let e = self.expr()?;
        match self.peek() {
            None
            | Some(Lexed {
                tok: Tok::Cmp(_), ..
            }) => Ok(e),
            Some(l) => err(
                l.at,
                format!(
                    "'{}' follows an operand: join operands with +, - or *",
                    &self.s[l.at..l.end]
                ),
            ),
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut e = self.term()?;
        while let Some(Tok::Arith(op @ (Arith::Add | Arith::Sub))) = self.peek().map(|l| &l.tok) {
            let op = *op;
            self.pos += 1;
            e = Expr::Op(op, Box::new(e), Box::new(self.term()?));
        }
        Ok(e)
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        let mut e = self.factor()?;
        while let Some(Tok::Arith(Arith::Mul)) = self.peek().map(|l| &l.tok) {
            self.pos += 1;
            e = Expr::Op(Arith::Mul, Box::new(e), Box::new(self.factor()?));
        }
        Ok(e)
    }

    fn factor(&mut self) -> Result<Expr, ParseError> {
        let Some(l) = self.toks.get(self.pos) else {
            return err(self.s.len(), "expectation is missing an operand");
        };
        let (at, end) = (l.at, l.end);
        match &l.tok {
            Tok::Num(n) => {
                let n = *n;
                self.pos += 1;
                Ok(Expr::Leaf(Operand::Number(n)))
            }
            Tok::Path(steps) => {
                let steps = steps.clone();
                self.pos += 1;
                Ok(Expr::Leaf(operand(&self.s[at..end], &steps, self.names)?))
            }
            Tok::Open => {
                if self.depth == MAX_DEPTH {
                    return err(
                        at,
                        format!("parentheses nest at most {MAX_DEPTH} deep; this '(' is deeper"),
                    );
                }
                self.pos += 1;
                self.depth += 1;
                let e = self.expr()?;
                self.depth -= 1;
                match self.peek() {
                    Some(Lexed {
                        tok: Tok::Close, ..
                    }) => {
                        self.pos += 1;
                        Ok(e)
                    }
                    _ => err(at, "this '(' has no matching ')'"),
                }
            }
            Tok::Cmp(_) => err(at, "expectation is missing an operand"),
            Tok::Close | Tok::Arith(_) => err(
                at,
                format!("expected a metric or a number, not '{}'", &self.s[at..end]),
            ),
        }
    }
}

/// A metric path: `VARIANT.METRIC...` or `pair.BEFORE.AFTER.METRIC`.
fn operand(
    text: &str,
    steps: &[(String, usize)],
    names: &Names<'_>,
) -> Result<Operand, ParseError> {
    let variants = names.variants;
    let (variant, at0) = (&steps[0].0, steps[0].1);
    // `pair.BEFORE.AFTER.METRIC`, unless a variant is called "pair".
    if variant == "pair" && !variants.contains(&"pair") {
        return pair_operand(text, &steps[1..], at0, variants);
    }
    if !variants.contains(&variant.as_str()) {
        return err(
            at0,
            format!(
                "'{text}': unknown variant '{variant}' (variants: {})",
                variants.join(", ")
            ),
        );
    }
    let path: Vec<String> = steps[1..].iter().map(|(p, _)| p.clone()).collect();
    if let Some((_, at)) = steps[1..].iter().find(|(p, _)| p.is_empty()) {
        return err(*at, format!("'{text}': a path step is empty"));
    }
    if path.is_empty() {
        return err(
            at0,
            format!("'{text}': write VARIANT.METRIC, e.g. before.exit_code"),
        );
    }
    if let Some(m) = names.metrics {
        super::metrics::check(text, &path, m).map_err(|(i, msg)| ParseError {
            at: steps[i + 1].1,
            msg,
        })?;
    }
    if path[0] == "events" || path[0] == "events_per_iteration" {
        super::lookup::event_kind_path(text, &path).map_err(|e| ParseError {
            at: steps.get(2).map_or(steps[1].1, |s| s.1),
            msg: e.to_string(),
        })?;
    }
    if path[0] == "functions_per_iteration" {
        const FIELDS: [&str; 2] = ["instructions", "cycles"];
        if path.len() != 3 || !FIELDS.contains(&path[2].as_str()) {
            return err(
                steps[1].1,
                format!(
                    "'{text}': write VARIANT.functions_per_iteration.FUNCTION.instructions (or .cycles)"
                ),
            );
        }
        if let Some(known) = names.function
            && !known(variant, &path[1])
        {
            return err(
                steps[2].1,
                format!(
                    "'{text}': '{}' is not a function of variant '{variant}''s guest (a symbol, or a page such as 0x80001000)",
                    path[1]
                ),
            );
        }
    }
    Ok(Operand::Metric {
        variant: variant.clone(),
        path,
    })
}

/// `pair.BEFORE.AFTER.METRIC`: two different variants and a metric.
fn pair_operand(
    text: &str,
    steps: &[(String, usize)],
    at0: usize,
    variants: &[&str],
) -> Result<Operand, ParseError> {
    let [(before, _), (after, at_after), path @ ..] = steps else {
        return err(
            at0,
            format!("'{text}': write pair.BEFORE.AFTER.METRIC, e.g. pair.before.after.cycles"),
        );
    };
    for (v, at) in [&steps[0], &steps[1]] {
        if !variants.contains(&v.as_str()) {
            return err(
                *at,
                format!(
                    "'{text}': unknown variant '{v}' (variants: {})",
                    variants.join(", ")
                ),
            );
        }
    }
    if before == after {
        return err(
            *at_after,
            format!("'{text}': a pair needs two different variants"),
        );
    }
    const METRICS: [&str; 3] = ["instructions", "cycles", "ns"];
    if path.len() != 1 || !METRICS.contains(&path[0].0.as_str()) {
        let at = path.first().map_or(*at_after, |p| p.1);
        return err(
            at,
            format!("'{text}': a pair's metric is one of {}", METRICS.join(", ")),
        );
    }
    Ok(Operand::Pair {
        before: before.clone(),
        after: after.clone(),
        path: vec![path[0].0.clone()],
    })
}
