//! Metric paths looked up in a variant's JSON result.
//!
//! A step names a key of an object, or, in a list of objects that each have
//! a `name` (`functions_per_iteration`), the entry of that name. A name the
//! list lacks reads as 0 when the rest of the path is one field: the list
//! holds only what ran in the window, so a function that never ran there
//! counts 0 instructions and 0 cycles (the parser has already checked that
//! the name is a function of the guest). Anything else missing is an error
//! that says which step the run lacks.
//!
//! The event counts (`events`, `events_per_iteration`) hold only the kinds
//! that occurred, so a kind that exists but never happened reads 0; a name
//! that is no event kind is refused when the expectation is parsed.

use serde_json::Value;

use crate::trace::EventKind;

/// Looks a metric path up in a JSON value (None if anything is missing).
pub fn lookup(v: &Value, path: &[String]) -> Option<f64> {
    lookup_path(v, path).ok()
}

/// The event kinds a run counts (every kind but `retired`, which the
/// instruction counts cover).
fn counted_kinds() -> impl Iterator<Item = &'static str> {
    EventKind::ALL
        .into_iter()
        .filter(|k| *k != EventKind::Retired)
        .map(EventKind::name)
}

/// Why `events.KIND` / `events_per_iteration.KIND` is refused when an
/// expectation is parsed (`event_kind_path`); `text` is the path as written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KindError {
    /// `kind` is none of `kinds`, the kinds a run counts.
    #[error(
        "'{text}': '{kind}' is not a kind of event (kinds: {}){}",
        kinds.join(", "),
        if kind == "retired" {
            "; retired instructions are counted by instructions and insns_per_iteration"
        } else {
            ""
        }
    )]
    NotAKind {
        text: String,
        kind: String,
        kinds: Vec<&'static str>,
    },
    /// Not one step after the table (`table`).
    #[error("'{text}': write VARIANT.{table}.KIND, e.g. before.{table}.trap")]
    Shape { text: String, table: String },
}

/// Why a metric path has no number in a run's result (`lookup_path`).
/// `at` is the path up to the step at fault, `step` that step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// An object without the key; `keys` are those it has.
    #[error(
        "{} has no '{step}' (it has: {}){}",
        here(at),
        keys.join(", "),
        if step.contains('-') { "; to subtract, put spaces around the '-'" } else { "" }
    )]
    NoKey {
        at: Vec<String>,
        step: String,
        keys: Vec<String>,
    },
    #[error(
        "{} is a list without names: it cannot be looked up by '{step}'",
        here(at)
    )]
    Unnamed { at: Vec<String>, step: String },
    #[error(
        "{} has no entry '{step}' (an entry is read by one field, e.g. .instructions)",
        here(at)
    )]
    NoEntry { at: Vec<String>, step: String },
    #[error("{} is a value, not a table: it has no '{step}'", here(at))]
    NotATable { at: Vec<String>, step: String },
    /// The number at `path` is not an f64.
    #[error("'{}' is not a number", path.join("."))]
    NotF64 { path: Vec<String> },
    #[error(
        "'{}' is null in this run (a figure it did not produce, e.g. cycles without a core model)",
        path.join(".")
    )]
    Null { path: Vec<String> },
    #[error(
        "'{}' is a table or a list, not a number: name one of its fields",
        path.join(".")
    )]
    NotANumber { path: Vec<String> },
}

/// Where a path step is, for `PathError`'s words.
fn here(at: &[String]) -> String {
    if at.is_empty() {
        "the result".to_string()
    } else {
        format!("'{}'", at.join("."))
    }
}

/// Checks `events.KIND` / `events_per_iteration.KIND`: one step after the
/// table, naming a kind of event the run counts.
pub fn event_kind_path(text: &str, path: &[String]) -> Result<(), KindError> {
    let kinds: Vec<&'static str> = counted_kinds().collect();
    match path {
        [_, kind] if kinds.contains(&kind.as_str()) => Ok(()),
        [_, kind] => Err(KindError::NotAKind {
            text: text.to_string(),
            kind: kind.clone(),
            kinds,
        }),
        _ => Err(KindError::Shape {
            text: text.to_string(),
            table: path[0].clone(),
        }),
    }
}

/// Looks a metric path up in a JSON value, or says which step is missing.
pub fn lookup_path(v: &Value, path: &[String]) -> Result<f64, PathError> {
    // An event kind that never occurred is absent from the counts: 0.
    if let [table, kind] = path
        && (table == "events" || table == "events_per_iteration")
        && v.get(table).is_some_and(Value::is_object)
        && v.get(table).and_then(|t| t.get(kind)).is_none()
        && counted_kinds().any(|k| k == kind)
    {
        return Ok(0.0);
    }
    let mut cur = v;
    for (i, p) in path.iter().enumerate() {
        let at = || path[..i].to_vec();
        let step = || p.clone();
        cur = match cur {
            Value::Object(m) => m.get(p).ok_or_else(|| PathError::NoKey {
                at: at(),
                step: step(),
                keys: m.keys().cloned().collect(),
            })?,
            Value::Array(items) => {
                let named = items
                    .iter()
                    .all(|x| x.get("name").is_some_and(Value::is_string));
                if !named {
                    return Err(PathError::Unnamed {
                        at: at(),
                        step: step(),
                    });
                }
                match items
                    .iter()
                    .find(|x| x.get("name") == Some(&Value::from(p.as_str())))
                {
                    Some(x) => x,
                    // Not in the list: it never ran in the window.
                    None if i + 2 == path.len()
                        && (items.is_empty()
                            || items.iter().any(|x| x.get(&path[i + 1]).is_some())) =>
                    {
                        return Ok(0.0);
                    }
                    None => {
                        return Err(PathError::NoEntry {
                            at: at(),
                            step: step(),
                        });
                    }
                }
            }
            _ => {
                return Err(PathError::NotATable {
                    at: at(),
                    step: step(),
                });
            }
        };
    }
    let path = path.to_vec();
    match cur {
        Value::Number(n) => n.as_f64().ok_or(PathError::NotF64 { path }),
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::Null => Err(PathError::Null { path }),
        _ => Err(PathError::NotANumber { path }),
    }
}
