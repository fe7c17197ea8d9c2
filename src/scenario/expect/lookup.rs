//! Metric paths looked up in a variant's JSON result.
//!
//! A step names a key of an object, or, in a list of objects that each have
//! a `name` (`functions_per_iteration`), the entry of that name. A name the
//! list lacks reads as 0 when the rest of the path is one field: the list
//! holds only what ran in the window, so a function that never ran there
//! counts 0 instructions and 0 cycles (the parser has already checked that
//! the name is a function of the guest). Anything else missing is an error
//! that says which step the run lacks.

use serde_json::Value;

/// Looks a metric path up in a JSON value (None if anything is missing).
pub fn lookup(v: &Value, path: &[String]) -> Option<f64> {
    lookup_path(v, path).ok()
}

/// Looks a metric path up in a JSON value, or says which step is missing.
pub fn lookup_path(v: &Value, path: &[String]) -> Result<f64, String> {
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
