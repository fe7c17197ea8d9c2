//! A parameter's ends: the values a band tries in place of the profile's
//! value. A number has a range `[low, high]`; a boolean or a name lists its
//! alternatives. Each end is a value a source gives or the model's structure
//! implies, written beside it (`range_why`); a band is the min and max of a
//! figure over combinations of its parameters' ends (`session::band`).

use std::fmt;

/// One end of a parameter, whatever its type.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    U(u32),
    F(f64),
    B(bool),
    S(String),
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::U(v) => write!(f, "{v}"),
            Val::F(v) => write!(f, "{v}"),
            Val::B(v) => write!(f, "{v}"),
            Val::S(v) => write!(f, "\"{v}\""),
        }
    }
}

/// A profile value's type, as the band sees it.
pub trait EndValue: Clone + PartialEq + fmt::Display {
    /// Numbers have a range (`[low, high]`); the others list alternatives.
    const ORDERED: bool;
    fn to_val(&self) -> Val;
    fn from_val(v: &Val) -> Option<Self>;
    /// `self <= other` (ordered types only; the others: equality).
    fn at_most(&self, other: &Self) -> bool;
}

impl EndValue for u32 {
    const ORDERED: bool = true;
    fn to_val(&self) -> Val {
        Val::U(*self)
    }
    fn from_val(v: &Val) -> Option<u32> {
        match v {
            Val::U(x) => Some(*x),
            _ => None,
        }
    }
    fn at_most(&self, other: &u32) -> bool {
        self <= other
    }
}

impl EndValue for f64 {
    const ORDERED: bool = true;
    fn to_val(&self) -> Val {
        Val::F(*self)
    }
    fn from_val(v: &Val) -> Option<f64> {
        match v {
            Val::F(x) => Some(*x),
            _ => None,
        }
    }
    fn at_most(&self, other: &f64) -> bool {
        self <= other
    }
}

impl EndValue for bool {
    const ORDERED: bool = false;
    fn to_val(&self) -> Val {
        Val::B(*self)
    }
    fn from_val(v: &Val) -> Option<bool> {
        match v {
            Val::B(x) => Some(*x),
            _ => None,
        }
    }
    fn at_most(&self, other: &bool) -> bool {
        self == other
    }
}

impl EndValue for String {
    const ORDERED: bool = false;
    fn to_val(&self) -> Val {
        Val::S(self.clone())
    }
    fn from_val(v: &Val) -> Option<String> {
        match v {
            Val::S(x) => Some(x.clone()),
            _ => None,
        }
    }
    fn at_most(&self, other: &String) -> bool {
        self == other
    }
}

/// The values a band tries for one parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Ends<T> {
    /// None given: the value is sourced and the band holds it.
    Fixed,
    /// A number's lowest and highest value.
    Range(T, T),
    /// A boolean's or a name's alternatives (the value among them).
    Alternatives(Vec<T>),
}

impl<T: EndValue> Ends<T> {
    /// The ends as values, without repeats; empty when `Fixed`.
    pub fn vals(&self) -> Vec<Val> {
        let mut out: Vec<Val> = Vec::new();
        let all: Vec<&T> = match self {
            Ends::Fixed => Vec::new(),
            Ends::Range(lo, hi) => vec![lo, hi],
            Ends::Alternatives(v) => v.iter().collect(),
        };
        for v in all {
            let v = v.to_val();
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    /// As the profile writes it: `3..6`, `true|false`.
    pub fn text(&self) -> String {
        match self {
            Ends::Fixed => String::new(),
            Ends::Range(lo, hi) => format!("{lo}..{hi}"),
            Ends::Alternatives(v) => v
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("|"),
        }
    }
}

/// What is wrong with a parameter's ends (the loader locates it).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EndsError {
    #[error("'{0}': a number takes `range = [low, high]`, not `alternatives`")]
    NumberAlternatives(&'static str),
    #[error("'{0}': a boolean or a name takes `alternatives = [...]`, not `range`")]
    NotANumber(&'static str),
    #[error("'{0}': `range` needs two values, [low, high]")]
    RangeLength(&'static str),
    #[error("'{0}': the range's low end is above its high end")]
    Backwards(&'static str),
    #[error("'{name}' = {value} lies outside its own ends {ends}")]
    Outside {
        name: &'static str,
        value: String,
        ends: String,
    },
    #[error("'{0}': give both `range` and `alternatives`? pick one")]
    Both(&'static str),
    #[error("'{0}': ends need `range_why`, the source or structure behind each end")]
    NoWhy(&'static str),
    #[error("'{0}': `range_why` without a `range` or `alternatives`")]
    WhyAlone(&'static str),
    #[error(
        "'{0}' is an assumption or unverified: give its ends (`range = [low, high]` or `alternatives = [...]`, with `range_why`)"
    )]
    Missing(&'static str),
}

/// Builds a parameter's ends from what the file gave, checking them.
pub fn build<T: EndValue>(
    name: &'static str,
    range: Option<Vec<T>>,
    alternatives: Option<Vec<T>>,
    why: Option<&str>,
) -> Result<Ends<T>, EndsError> {
    let why = why.map(str::trim).filter(|w| !w.is_empty());
    let ends = match (range, alternatives) {
        (Some(_), Some(_)) => return Err(EndsError::Both(name)),
        (None, None) => {
            return match why {
                Some(_) => Err(EndsError::WhyAlone(name)),
                None => Ok(Ends::Fixed),
            };
        }
        (Some(r), None) => {
            if !T::ORDERED {
                return Err(EndsError::NotANumber(name));
            }
            let [lo, hi]: [T; 2] = r.try_into().map_err(|_| EndsError::RangeLength(name))?;
            if !lo.at_most(&hi) {
                return Err(EndsError::Backwards(name));
            }
            Ends::Range(lo, hi)
        }
        (None, Some(a)) => {
            if T::ORDERED {
                return Err(EndsError::NumberAlternatives(name));
            }
            Ends::Alternatives(a)
        }
    };
    if why.is_none() {
        return Err(EndsError::NoWhy(name));
    }
    // Whether the value lies inside is checked once every value has passed
    // its own range (`Ranged::inside`).
    Ok(ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_holds_its_value_and_says_why() {
        let ok = build("x", Some(vec![3, 6]), None, Some("3: a; 6: b"));
        assert_eq!(ok, Ok(Ends::Range(3, 6)));
        assert_eq!(ok.unwrap().vals(), vec![Val::U(3), Val::U(6)]);
        assert_eq!(
            build("x", Some(vec![6, 3]), None, Some("w")),
            Err(EndsError::Backwards("x"))
        );
        assert_eq!(
            build("x", Some(vec![3, 6]), None, None),
            Err(EndsError::NoWhy("x"))
        );
        assert_eq!(
            build("x", Some(vec![3, 4, 6]), None, Some("w")),
            Err(EndsError::RangeLength("x"))
        );
        assert_eq!(
            build("x", None, Some(vec![3, 6]), Some("w")),
            Err(EndsError::NumberAlternatives("x"))
        );
    }

    #[test]
    fn alternatives_name_the_value_and_drop_repeats() {
        let e = build("b", None, Some(vec![true, false, true]), Some("w")).unwrap();
        assert_eq!(e.vals(), vec![Val::B(true), Val::B(false)]);
        assert_eq!(e.text(), "true|false|true");
        assert_eq!(
            build("b", Some(vec![false, true]), None, Some("w")),
            Err(EndsError::NotANumber("b"))
        );
        assert_eq!(build::<u32>("p", None, None, None), Ok(Ends::Fixed));
        assert_eq!(
            build::<u32>("p", None, None, Some("w")),
            Err(EndsError::WhyAlone("p"))
        );
    }
}
