//! `--measured CORE:VARIANT=VALUE` on `compare` and `fidelity`: a figure
//! the reviewer measured on their own hardware (`189.9ns` per iteration,
//! or `600cycles`), shown beside the estimate as the scenario's
//! `[[reference]]` figures are, and never a model input. A given figure
//! becomes a `Reference` whose `source` is [`SOURCE`], so every report
//! that shows references shows it, named as the reviewer's.

use std::path::PathBuf;

use crate::scenario::{Reference, Scenario};

/// The `source` of a figure given on the command line.
pub const SOURCE: &str = "--measured";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Ns,
    Cycles,
}

/// One `--measured` value.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub core: String,
    pub variant: String,
    pub value: f64,
    pub unit: Unit,
    /// As typed, for messages.
    pub text: String,
}

/// How a `--measured` value is written, for its errors.
const EG: &str =
    "write CORE:VARIANT=VALUE with a unit, e.g. u74:before=189.9ns or u74:before=600cycles";

/// Why a `--measured` value is refused: how it is written (`parse`, one
/// line of clap's), or what it names (`apply`; `text` is the value as typed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeasuredError {
    #[error("no '=': {EG}")]
    NoEquals,
    /// `key` (before the `=`) has no `:`.
    #[error("'{key}' is not CORE:VARIANT: {EG}")]
    NotCoreVariant { key: String },
    #[error("'{key}' names no core or no variant: {EG}")]
    Unnamed { key: String },
    #[error("'{value}' has no unit: give ns or cycles, e.g. {value}ns")]
    NoUnit { value: String },
    #[error("unit '{unit}' is not one trapscope reads: use ns or cycles")]
    Unit { unit: String },
    #[error("'{number}' is not a number")]
    NotANumber { number: String },
    #[error("{number} is not a positive figure")]
    NotPositive { number: String },
    /// The scenario (`file`) has no such variant; `known` are its variants.
    #[error(
        "--measured {text}: {} has no variant '{variant}' (its variants: {})",
        file.display(),
        known.join(", ")
    )]
    UnknownVariant {
        text: String,
        file: PathBuf,
        variant: String,
        known: Vec<String>,
    },
    /// `core` is none of `cores`, those the report runs on.
    #[error(
        "--measured {text}: core '{core}' is not one this runs on (cores: {})",
        cores.join(", ")
    )]
    UnknownCore {
        text: String,
        core: String,
        cores: Vec<String>,
    },
    #[error("--measured {text}: {core}:{variant} is given twice")]
    Twice {
        text: String,
        core: String,
        variant: String,
    },
}

/// Parses `CORE:VARIANT=189.9ns` (or `=600cycles`; a space before the unit
/// is fine). Each error says what is wrong, for one line of clap's.
pub fn parse(s: &str) -> Result<Measured, MeasuredError> {
    let (key, value) = s.split_once('=').ok_or(MeasuredError::NoEquals)?;
    let (core, variant) = key
        .split_once(':')
        .ok_or_else(|| MeasuredError::NotCoreVariant {
            key: key.to_string(),
        })?;
    let (core, variant) = (core.trim(), variant.trim());
    if core.is_empty() || variant.is_empty() {
        return Err(MeasuredError::Unnamed {
            key: key.to_string(),
        });
    }
    let v = value.trim();
    let known = [
        ("cycles", Unit::Cycles),
        ("cycle", Unit::Cycles),
        ("ns", Unit::Ns),
    ];
    let (num, unit) = match known.iter().find(|(u, _)| v.ends_with(u)) {
        Some((u, unit)) => (v[..v.len() - u.len()].trim(), *unit),
        None => {
            let num = v.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            let u = &v[num.len()..];
            if u.is_empty() {
                return Err(MeasuredError::NoUnit {
                    value: v.to_string(),
                });
            }
            return Err(MeasuredError::Unit {
                unit: u.to_string(),
            });
        }
    };
    let number = || num.to_string();
    let value: f64 = num
        .parse()
        .map_err(|_| MeasuredError::NotANumber { number: number() })?;
    if !(value.is_finite() && value > 0.0) {
        return Err(MeasuredError::NotPositive { number: number() });
    }
    Ok(Measured {
        core: core.to_string(),
        variant: variant.to_string(),
        value,
        unit,
        text: s.to_string(),
    })
}

/// Whether a reference is one the reviewer gave with `--measured`.
pub fn is_given(r: &Reference) -> bool {
    r.source == SOURCE
}

/// The figure for (core, variant) that an estimate may stand beside, from
/// the scenario (`given` false) or from `--measured` (true).
pub fn lookup<'a>(
    s: &'a Scenario,
    core: &str,
    variant: &str,
    given: bool,
) -> Option<&'a Reference> {
    s.references
        .iter()
        .find(|r| r.comparable && r.core == core && r.variant == variant && is_given(r) == given)
}

/// Whether `m` names a variant of `s` on one of `cores`.
pub fn fits(s: &Scenario, m: &Measured, cores: &[String]) -> bool {
    s.variants.iter().any(|v| v.name == m.variant) && cores.contains(&m.core)
}

/// Adds the given figures to `s` as references (after its own, so its own
/// stay the ones a pair's measured difference takes first). A variant the
/// scenario lacks, a core it does not run on, or a figure given twice is an
/// error naming it.
pub fn apply(s: &mut Scenario, given: &[Measured], cores: &[String]) -> Result<(), MeasuredError> {
    for (i, m) in given.iter().enumerate() {
        if !s.variants.iter().any(|v| v.name == m.variant) {
            return Err(MeasuredError::UnknownVariant {
                text: m.text.clone(),
                file: s.path.clone(),
                variant: m.variant.clone(),
                known: s.variants.iter().map(|v| v.name.clone()).collect(),
            });
        }
        if !cores.contains(&m.core) {
            return Err(MeasuredError::UnknownCore {
                text: m.text.clone(),
                core: m.core.clone(),
                cores: cores.to_vec(),
            });
        }
        if given[..i]
            .iter()
            .any(|o| o.core == m.core && o.variant == m.variant && o.unit == m.unit)
        {
            return Err(MeasuredError::Twice {
                text: m.text.clone(),
                core: m.core.clone(),
                variant: m.variant.clone(),
            });
        }
    }
    for m in given {
        let unit = match m.unit {
            Unit::Ns => "ns",
            Unit::Cycles => " cycles",
        };
        let r = Reference {
            core: m.core.clone(),
            variant: m.variant.clone(),
            ns: (m.unit == Unit::Ns).then_some(m.value),
            cycles: (m.unit == Unit::Cycles).then_some(m.value),
            per_event: None,
            comparable: true,
            what: format!("your measurement ({} per iteration)", trim(m.value) + unit),
            source: SOURCE.to_string(),
        };
        // One reference per (core, variant): the second unit joins the first.
        match s
            .references
            .iter_mut()
            .find(|x| is_given(x) && x.core == r.core && x.variant == r.variant)
        {
            Some(x) => {
                x.ns = x.ns.or(r.ns);
                x.cycles = x.cycles.or(r.cycles);
                x.what = format!(
                    "your measurement ({} per iteration)",
                    [
                        x.ns.map(|v| trim(v) + "ns"),
                        x.cycles.map(|v| trim(v) + " cycles")
                    ]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(", ")
                );
            }
            None => s.references.push(r),
        }
    }
    Ok(())
}

/// 189.9, 600: as typed, without trailing zeros.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_parse_with_their_unit_and_bad_ones_say_what_is_wrong() {
        let m = parse("u74:before=189.9ns").unwrap();
        assert_eq!((m.core.as_str(), m.variant.as_str()), ("u74", "before"));
        assert_eq!((m.value, m.unit), (189.9, Unit::Ns));
        assert_eq!(parse("c910:after=600 cycles").unwrap().unit, Unit::Cycles);
        assert_eq!(parse("u74:after=1.5e2ns").unwrap().value, 150.0);
        for (bad, says) in [
            ("u74:before", "no '='"),
            ("u74before=1ns", "is not CORE:VARIANT"),
            (":before=1ns", "names no core"),
            ("u74:before=189.9", "has no unit"),
            ("u74:before=189.9us", "unit 'us'"),
            ("u74:before=1.2.3ns", "'1.2.3' is not a number"),
            ("u74:before=0ns", "not a positive figure"),
            ("u74:before=-5ns", "-5 is not a positive figure"),
            ("u74:before=ns", "'' is not a number"),
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
            assert!(!e.contains('\n'), "{bad}: one line");
        }
    }
}
