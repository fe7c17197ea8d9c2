//! A profile's parameters as a band sees them: each one's value and ends
//! by name, setting one by name, and whether a value lies inside its own
//! ends (checked at load, after the values' own ranges).

use super::ends::{EndsError, Val};
use super::profile::Profile;

/// One parameter as the band sees it (`Profile::ends`).
#[derive(Clone, Debug, PartialEq)]
pub struct Ranged<'a> {
    /// The profile's section: `core`, `issue`, `latency`, ...
    pub section: &'static str,
    pub name: &'static str,
    pub value: Val,
    /// The values a band tries; empty: the band holds the value.
    pub ends: Vec<Val>,
    /// The ends as the profile writes them (`3..6`, `true|false`).
    pub text: String,
    pub why: Option<&'a str>,
}

impl Ranged<'_> {
    /// Whether the value lies inside its ends (a number between its low
    /// and high end, anything else among its alternatives).
    pub fn inside(&self) -> bool {
        let num = |v: &Val| match v {
            Val::U(x) => Some(f64::from(*x)),
            Val::F(x) => Some(*x),
            _ => None,
        };
        if self.ends.is_empty() {
            return true;
        }
        match num(&self.value) {
            Some(v) => {
                let ns: Vec<f64> = self.ends.iter().filter_map(num).collect();
                let lo = ns.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = ns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                lo <= v && v <= hi
            }
            None => self.ends.contains(&self.value),
        }
    }

    /// The error for a value outside its ends.
    pub fn outside_error(&self) -> EndsError {
        EndsError::Outside {
            name: self.name,
            value: self.value.to_string(),
            ends: self.text.clone(),
        }
    }

    /// The name reports use: the bare field name, but `issue.NAME` for a
    /// pipe assignment (whose names repeat the latency section's).
    pub fn key(&self) -> String {
        if self.section == "issue" {
            format!("issue.{}", self.name)
        } else {
            self.name.to_string()
        }
    }
}

impl Profile {
    /// Every parameter with its ends, section by section.
    pub fn ranged(&self) -> Vec<Ranged<'_>> {
        let mut v = self.core.ends();
        v.extend(self.issue.ends());
        v.extend(self.latency.ends());
        v.extend(self.serialise.ends());
        v.extend(self.vector.ends());
        v.extend(self.atomics.ends());
        v
    }

    /// Sets the parameter a band names (`Ranged::key`) to `v`.
    pub fn set(&mut self, key: &str, v: &Val) -> bool {
        match key.strip_prefix("issue.") {
            Some(name) => self.issue.set(name, v),
            None => {
                self.core.set(key, v)
                    || self.latency.set(key, v)
                    || self.serialise.set(key, v)
                    || self.vector.set(key, v)
                    || self.atomics.set(key, v)
            }
        }
    }
}
