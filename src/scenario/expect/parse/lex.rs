//! The expectation's tokens: numbers (a `-` is a sign only where no
//! operand precedes it), dotted metric paths (bare or quoted steps),
//! `+ - *`, parentheses and the comparisons, each with its byte offsets so
//! that an error can point at it; at most `MAX_TOKENS` of them.

use super::super::{Arith, Cmp};
use super::{MAX_TOKENS, ParseError, err, name_char};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Num(f64),
    /// The steps, with the byte offset of each.
    Path(Vec<(String, usize)>),
    Arith(Arith),
    Open,
    Close,
    Cmp(Cmp),
}

/// A token and where it starts and ends.
pub(super) struct Lexed {
    pub(super) tok: Tok,
    pub(super) at: usize,
    pub(super) end: usize,
}

pub(super) fn lex(s: &str) -> Result<Vec<Lexed>, ParseError> {
    let b = s.as_bytes();
    let mut out: Vec<Lexed> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if out.len() == MAX_TOKENS {
            return err(
                i,
                format!("an expectation holds at most {MAX_TOKENS} tokens; this is one more"),
            );
        }
        let after_operand = matches!(
            out.last().map(|l| &l.tok),
            Some(Tok::Num(_) | Tok::Path(_) | Tok::Close)
        );
        let two = s.get(i..i + 2).unwrap_or("");
        let tok = match c {
            '(' => {
                i += 1;
                Tok::Open
            }
            ')' => {
                i += 1;
                Tok::Close
            }
            '+' => {
                i += 1;
                Tok::Arith(Arith::Add)
            }
            '*' => {
                i += 1;
                Tok::Arith(Arith::Mul)
            }
            '/' => {
                return err(
                    i,
                    "'/' is not supported: write a product with a number, e.g. 8 * METRIC",
                );
            }
            '-' if after_operand => {
                i += 1;
                Tok::Arith(Arith::Sub)
            }
            '<' | '>' | '=' | '!' => {
                let (cmp, len) = match two {
                    "<=" => (Cmp::Le, 2),
                    ">=" => (Cmp::Ge, 2),
                    "==" => (Cmp::Eq, 2),
                    "!=" => (Cmp::Ne, 2),
                    _ if c == '<' => (Cmp::Lt, 1),
                    _ if c == '>' => (Cmp::Gt, 1),
                    _ if c == '=' => return err(i, "'=' is not a comparison: write =="),
                    _ => return err(i, "'!' is not a comparison: write !="),
                };
                i += len;
                Tok::Cmp(cmp)
            }
            '-' | '.' | '0'..='9' => {
                i += 1;
                while i < b.len() {
                    let d = b[i] as char;
                    let sign_of_exponent =
                        (d == '-' || d == '+') && matches!(b[i - 1], b'e' | b'E');
                    if d.is_ascii_digit() || matches!(d, '.' | '_' | 'e' | 'E') || sign_of_exponent
                    {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let text = &s[start..i];
                match text.replace('_', "").parse::<f64>() {
                    Ok(n) if n.is_finite() => Tok::Num(n),
                    _ if text == "-" => {
                        return err(
                            start,
                            "'-' here needs a number after it (write -1 * METRIC to negate a metric)",
                        );
                    }
                    _ => return err(start, format!("'{text}' is not a number")),
                }
            }
            c if name_char(c) || c == '"' => {
                let mut steps = Vec::new();
                loop {
                    let at = i;
                    if b.get(i) == Some(&b'"') {
                        let Some(len) = s[i + 1..].find('"') else {
                            return err(at, "a quoted path step has no closing \"");
                        };
                        steps.push((s[i + 1..i + 1 + len].to_string(), at));
                        i += len + 2;
                    } else {
                        while i < b.len() && name_char(b[i] as char) {
                            i += 1;
                        }
                        steps.push((s[at..i].to_string(), at));
                    }
                    if b.get(i) == Some(&b'.') {
                        i += 1;
                    } else {
                        break;
                    }
                }
                Tok::Path(steps)
            }
            _ => {
                let ch = s[i..].chars().next().unwrap_or(c);
                return err(i, format!("unexpected '{ch}' in the expectation"));
            }
        };
        out.push(Lexed {
            tok,
            at: start,
            end: i,
        });
    }
    Ok(out)
}
