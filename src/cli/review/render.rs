//! What `review` prints: each group's compare report and path diffs
//! (`render`), and the groups joined into one text, Markdown document or
//! JSON object (`join`).

use crate::report::{Format, pathdiff};
use crate::scenario::Scenario;

use super::groups;

/// The groups' outputs as one: alone, as it is; several, each under its
/// heading (text, Markdown), or one JSON object `{"groups": [...]}` whose
/// entries give `vlen`, `cores` and the group's own object.
pub(super) fn join(
    parts: &[(&groups::Group, String)],
    many: bool,
    format: Format,
) -> anyhow::Result<String> {
    if !many {
        return Ok(parts.first().map(|p| p.1.clone()).unwrap_or_default());
    }
    let mut o = String::new();
    match format {
        Format::Json => {
            let mut gs = Vec::new();
            for (g, out) in parts {
                gs.push(serde_json::json!({
                    "vlen": g.vlen,
                    "cores": g.cores,
                    "review": serde_json::from_str::<serde_json::Value>(out)?,
                }));
            }
            o = serde_json::to_string_pretty(&serde_json::json!({ "groups": gs }))? + "\n";
        }
        Format::Md => {
            for (g, out) in parts {
                o.push_str(&format!("## {}\n\n{out}\n", groups::heading(g)));
            }
        }
        Format::Text => {
            for (g, out) in parts {
                o.push_str(&format!("=== {} ===\n{out}\n", groups::heading(g)));
            }
        }
    }
    Ok(o)
}

/// The compare report, then each pair's path diff: text, one Markdown
/// document, or one JSON object holding `compare`'s and `diff`'s.
pub(super) fn render(
    s: &Scenario,
    c: &crate::cli::runs::Compared,
    diffs: &[pathdiff::PathDiff],
    format: Format,
    scenario_out: Option<&std::path::Path>,
) -> anyhow::Result<String> {
    let mut o = c.render(s, format);
    match format {
        Format::Json => {
            let compare: serde_json::Value = serde_json::from_str(&o)?;
            let mut ds = Vec::new();
            for d in diffs {
                ds.push(serde_json::from_str::<serde_json::Value>(&pathdiff::json(
                    d,
                ))?);
            }
            let v = serde_json::json!({
                "scenario": scenario_out.map(|p| p.display().to_string()),
                "compare": compare,
                "diffs": ds,
            });
            o = serde_json::to_string_pretty(&v)? + "\n";
        }
        Format::Md => {
            for d in diffs {
                o.push('\n');
                o.push_str(&pathdiff::markdown(d, false));
            }
        }
        Format::Text => {
            for d in diffs {
                o.push('\n');
                o.push_str(&pathdiff::text(d, false));
            }
        }
    }
    Ok(o)
}
