//! `[[pair]]` tables: which variants reports read as before and after, each
//! name checked against the variants, errors at `file:line:col`.

use serde_spanned::Spanned;

use super::super::{Locator, Pair, ScenarioError, Variant, dto};

/// The declared pairs, or, with none declared, every variant against the
/// first (what reports did before pairs existed). Variants with their own
/// `core` form no implicit pairs: they are not a before/after, and a
/// declared pair of them is refused.
pub(super) fn pairs(
    loc: &Locator<'_>,
    declared: &[Spanned<dto::PairDto>],
    variants: &[Variant],
) -> Result<Vec<Pair>, ScenarioError> {
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    if declared.is_empty() {
        let free: Vec<&Variant> = variants.iter().filter(|v| v.core.is_none()).collect();
        let Some(first) = free.first() else {
            return Ok(Vec::new());
        };
        return Ok(free
            .iter()
            .skip(1)
            .map(|v| Pair {
                before: first.name.clone(),
                after: v.name.clone(),
                label: String::new(),
                implicit: true,
            })
            .collect());
    }
    let mut out: Vec<Pair> = Vec::new();
    for spanned in declared {
        let p = spanned.get_ref();
        for (what, name) in [("before", &p.before), ("after", &p.after)] {
            let Some(v) = variants.iter().find(|v| v.name == *name.get_ref()) else {
                return Err(loc.span(
                    name,
                    format!(
                        "pair {what} = '{}' is not a variant (variants: {})",
                        name.get_ref(),
                        names.join(", ")
                    ),
                ));
            };
            if let Some(c) = &v.core {
                return Err(loc.span(
                    name,
                    format!(
                        "pair {what} = '{}': that variant runs on its own core ({}); a pair compares two variants on the same cores",
                        name.get_ref(),
                        c.name
                    ),
                ));
            }
        }
        if p.before.get_ref() == p.after.get_ref() {
            return Err(loc.span(
                &p.after,
                format!(
                    "pair before and after are both '{}': a pair needs two variants",
                    p.after.get_ref()
                ),
            ));
        }
        if out
            .iter()
            .any(|q| q.before == *p.before.get_ref() && q.after == *p.after.get_ref())
        {
            return Err(loc.span(
                spanned,
                format!(
                    "pair '{}' → '{}' is declared twice",
                    p.before.get_ref(),
                    p.after.get_ref()
                ),
            ));
        }
        out.push(Pair {
            before: p.before.get_ref().clone(),
            after: p.after.get_ref().clone(),
            label: p.label.trim().to_string(),
            implicit: false,
        });
    }
    Ok(out)
}
