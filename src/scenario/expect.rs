//! Expectations: `VARIANT.METRIC OP (VARIANT.METRIC | NUMBER)`.
//!
//! A metric is a dotted path into a variant's JSON result (the same names
//! `trapscope run --format json` prints), so every number a report shows can
//! be checked. `pair.BEFORE.AFTER.METRIC` reads a pair's difference (after −
//! before per iteration: `instructions`, `cycles`, `ns`), as `compare` prints
//! it in its `pairs`.

use std::fmt;

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
    pub lhs: Operand,
    pub op: Cmp,
    pub rhs: Operand,
}

impl Cmp {
    fn symbol(self) -> &'static str {
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

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Metric { variant, path } => write!(f, "{variant}.{}", path.join(".")),
            Operand::Pair {
                before,
                after,
                path,
            } => write!(f, "pair.{before}.{after}.{}", path.join(".")),
            Operand::Number(n) => write!(f, "{n}"),
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.lhs, self.op.symbol(), self.rhs)
    }
}

impl Check {
    pub fn parse(s: &str, variants: &[&str]) -> Result<Check, String> {
        let ops = [
            ("<=", Cmp::Le),
            (">=", Cmp::Ge),
            ("==", Cmp::Eq),
            ("!=", Cmp::Ne),
            ("<", Cmp::Lt),
            (">", Cmp::Gt),
        ];
        let (pos, len, op) = ops
            .iter()
            .filter_map(|(t, c)| s.find(t).map(|p| (p, t.len(), *c)))
            .min_by_key(|(p, l, _)| (*p, usize::MAX - l))
            .ok_or_else(|| format!("expectation '{s}' has no comparison (<, <=, >, >=, ==, !=)"))?;
        let lhs = operand(s[..pos].trim(), variants)?;
        let rhs = operand(s[pos + len..].trim(), variants)?;
        Ok(Check { lhs, op, rhs })
    }

    /// The variants this check reads.
    pub fn variants(&self) -> Vec<&str> {
        [&self.lhs, &self.rhs]
            .into_iter()
            .flat_map(|o| match o {
                Operand::Metric { variant, .. } => vec![variant.as_str()],
                Operand::Pair { before, after, .. } => vec![before.as_str(), after.as_str()],
                Operand::Number(_) => vec![],
            })
            .collect()
    }
}

fn operand(s: &str, variants: &[&str]) -> Result<Operand, String> {
    if s.is_empty() {
        return Err("expectation is missing an operand".into());
    }
    if let Ok(n) = s.replace('_', "").parse::<f64>() {
        return Ok(Operand::Number(n));
    }
    let mut parts = s.split('.');
    let variant = parts.next().unwrap_or_default().to_string();
    // `pair.BEFORE.AFTER.METRIC`, unless a variant is called "pair".
    if variant == "pair" && !variants.contains(&"pair") {
        return pair_operand(s, parts.collect(), variants);
    }
    if !variants.contains(&variant.as_str()) {
        return Err(format!(
            "'{s}': unknown variant '{variant}' (variants: {})",
            variants.join(", ")
        ));
    }
    let path: Vec<String> = parts.map(str::to_string).collect();
    if path.is_empty() || path.iter().any(String::is_empty) {
        return Err(format!(
            "'{s}': write VARIANT.METRIC, e.g. before.exit_code"
        ));
    }
    Ok(Operand::Metric { variant, path })
}

/// `pair.BEFORE.AFTER.METRIC`: two different variants and a metric.
fn pair_operand(s: &str, parts: Vec<&str>, variants: &[&str]) -> Result<Operand, String> {
    let [before, after, path @ ..] = &parts[..] else {
        return Err(format!(
            "'{s}': write pair.BEFORE.AFTER.METRIC, e.g. pair.before.after.cycles"
        ));
    };
    for v in [before, after] {
        if !variants.contains(v) {
            return Err(format!(
                "'{s}': unknown variant '{v}' (variants: {})",
                variants.join(", ")
            ));
        }
    }
    if before == after {
        return Err(format!("'{s}': a pair needs two different variants"));
    }
    const METRICS: [&str; 3] = ["instructions", "cycles", "ns"];
    if path.len() != 1 || !METRICS.contains(&path[0]) {
        return Err(format!(
            "'{s}': a pair's metric is one of {}",
            METRICS.join(", ")
        ));
    }
    Ok(Operand::Pair {
        before: before.to_string(),
        after: after.to_string(),
        path: vec![path[0].to_string()],
    })
}

/// Looks a metric path up in a JSON value.
pub fn lookup(v: &serde_json::Value, path: &[String]) -> Option<f64> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_comparisons_between_variants_and_numbers() {
        let c = Check::parse("after.x.y < before.x.y", &["before", "after"]).unwrap();
        assert_eq!(c.op, Cmp::Lt);
        assert_eq!(c.to_string(), "after.x.y < before.x.y");
        let c = Check::parse("before.exit_code == 0", &["before"]).unwrap();
        assert_eq!(c.rhs, Operand::Number(0.0));
        let c = Check::parse("before.a <= 3", &["before"]).unwrap();
        assert_eq!(c.op, Cmp::Le);
    }

    #[test]
    fn parses_pair_operands() {
        let c = Check::parse("pair.a.b.cycles <= 0", &["a", "b"]).unwrap();
        assert_eq!(
            c.lhs,
            Operand::Pair {
                before: "a".into(),
                after: "b".into(),
                path: vec!["cycles".into()]
            }
        );
        assert_eq!(c.to_string(), "pair.a.b.cycles <= 0");
        assert_eq!(c.variants(), vec!["a", "b"]);
        let err = |s: &str| Check::parse(s, &["a", "b"]).unwrap_err();
        assert!(err("pair.a.c.ns < 0").contains("unknown variant 'c'"));
        assert!(err("pair.a.a.ns < 0").contains("two different variants"));
        assert!(err("pair.a.b.exit_code < 0").contains("one of instructions, cycles, ns"));
        assert!(err("pair.a.b < 0").contains("one of instructions, cycles, ns"));
        assert!(err("pair.a < 0").contains("pair.BEFORE.AFTER.METRIC"));
        // A variant called "pair" keeps its name.
        let c = Check::parse("pair.exit_code == 0", &["pair"]).unwrap();
        assert!(matches!(c.lhs, Operand::Metric { .. }));
    }

    #[test]
    fn rejects_unknown_variants_and_missing_ops() {
        assert!(
            Check::parse("nope.x < 1", &["before"])
                .unwrap_err()
                .contains("unknown variant")
        );
        assert!(
            Check::parse("before.x", &["before"])
                .unwrap_err()
                .contains("no comparison")
        );
        assert!(
            Check::parse("before < 1", &["before"])
                .unwrap_err()
                .contains("VARIANT.METRIC")
        );
    }
}
