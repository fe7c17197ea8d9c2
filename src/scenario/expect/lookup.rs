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

/// Checks `events.KIND` / `events_per_iteration.KIND`: one step after the
/// table, naming a kind of event the run counts.
pub fn event_kind_path(text: &str, path: &[String]) -> Result<(), String> {
    let kinds: Vec<&str> = counted_kinds().collect();
    match path {
        [_, kind] if kinds.contains(&kind.as_str()) => Ok(()),
        [_, kind] => Err(format!(
            "'{text}': '{kind}' is not a kind of event (kinds: {}){}",
            kinds.join(", "),
            if kind == "retired" {
                "; retired instructions are counted by instructions and insns_per_iteration"
            } else {
                ""
            }
        )),
        _ => Err(format!(
            "'{text}': write VARIANT.{}.KIND, e.g. before.{}.trap",
            path[0], path[0]
        )),
    }
}

/// Looks a metric path up in a JSON value, or says which step is missing.
pub fn lookup_path(v: &Value, path: &[String]) -> Result<f64, String> {
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
        let here = || {
            if i == 0 {
                "the result".to_string()
            } else {
                format!("'{}'", path[..i].join("."))
            }
        };
        cur = match cur {
            Value::Object(m) => m.get(p).ok_or_else(|| {
                let keys: Vec<&str> = m.keys().map(String::as_str).collect();
                // `a.x-b.y` is one path: say how to subtract.
                let hint = if p.contains('-') {
                    "; to subtract, put spaces around the '-'"
                } else {
                    ""
                };
                format!(
                    "{} has no '{p}' (it has: {}){hint}",
                    here(),
                    keys.join(", ")
                )
            })?,
            Value::Array(items) => {
                let named = items
                    .iter()
                    .all(|x| x.get("name").is_some_and(Value::is_string));
                if !named {
                    return Err(format!(
                        "{} is a list without names: it cannot be looked up by '{p}'",
                        here()
                    ));
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
                        return Err(format!(
                            "{} has no entry '{p}' (an entry is read by one field, e.g. .instructions)",
                            here()
                        ));
                    }
                }
            }
            _ => {
                return Err(format!(
                    "{} is a value, not a table: it has no '{p}'",
                    here()
                ));
            }
        };
    }
    match cur {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| format!("'{}' is not a number", path.join("."))),
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::Null => Err(format!(
            "'{}' is null in this run (a figure it did not produce, e.g. cycles without a core model)",
            path.join(".")
        )),
        _ => Err(format!(
            "'{}' is a table or a list, not a number: name one of its fields",
            path.join(".")
        )),
    }
}
