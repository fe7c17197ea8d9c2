//! `[seed_table]`: a table in a seed's own form. Seed 002 reports `perf
//! bench syscall` as usec/op and ops/sec, Base against Generic Entry, with
//! change %; this section names the rows (each a before and an after
//! variant) that `compare` prints that way per core, from the estimates,
//! with the file's `comparable = false` references beside them.

use serde_spanned::Spanned;

use super::{Locator, ScenarioError, Variant, dto};

/// The table, checked against the variants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedTable {
    pub title: String,
    /// The first column's heading ("row" unless the file says).
    pub row_heading: String,
    /// The before and after columns' headings.
    pub columns: [String; 2],
    pub rows: Vec<SeedRow>,
}

/// One row: its name and the variants read as before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedRow {
    pub name: String,
    pub before: String,
    pub after: String,
}

/// Checks the section: at least one row, names unique, each variant a
/// variant of the file that runs on the scenario's cores, before ≠ after.
pub(super) fn convert(
    loc: &Locator<'_>,
    dto: Option<&Spanned<dto::SeedTableDto>>,
    variants: &[Variant],
) -> Result<Option<SeedTable>, ScenarioError> {
    let Some(spanned) = dto else {
        return Ok(None);
    };
    let t = spanned.get_ref();
    if t.row.is_empty() {
        return Err(loc.span(
            spanned,
            "[seed_table] has no rows: add [[seed_table.row]] with name, before and after",
        ));
    }
    let columns = match &t.columns {
        None => ["before".to_string(), "after".to_string()],
        Some(c) => match c.get_ref().as_slice() {
            [b, a] if !b.trim().is_empty() && !a.trim().is_empty() => {
                [b.trim().to_string(), a.trim().to_string()]
            }
            _ => {
                return Err(loc.span(
                    c,
                    "seed_table.columns names the before and after columns: two non-empty strings, e.g. [\"Base\", \"Generic Entry\"]",
                ));
            }
        },
    };
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let mut rows: Vec<SeedRow> = Vec::new();
    for r in &t.row {
        let r = r.get_ref();
        let name = r.name.get_ref().trim();
        if name.is_empty() {
            return Err(loc.span(&r.name, "a seed_table row needs a name"));
        }
        if rows.iter().any(|x| x.name == name) {
            return Err(loc.span(&r.name, format!("seed_table row '{name}' is named twice")));
        }
        for (what, v) in [("before", &r.before), ("after", &r.after)] {
            let Some(var) = variants.iter().find(|x| x.name == *v.get_ref()) else {
                return Err(loc.span(
                    v,
                    format!(
                        "seed_table row '{name}': {what} = '{}' is not a variant (variants: {})",
                        v.get_ref(),
                        names.join(", ")
                    ),
                ));
            };
            if let Some(c) = &var.core {
                return Err(loc.span(
                    v,
                    format!(
                        "seed_table row '{name}': {what} = '{}' runs on its own core ({}); a row compares two variants on the same cores",
                        v.get_ref(),
                        c.name
                    ),
                ));
            }
        }
        if r.before.get_ref() == r.after.get_ref() {
            return Err(loc.span(
                &r.after,
                format!(
                    "seed_table row '{name}': before and after are both '{}'",
                    r.after.get_ref()
                ),
            ));
        }
        rows.push(SeedRow {
            name: name.to_string(),
            before: r.before.get_ref().clone(),
            after: r.after.get_ref().clone(),
        });
    }
    Ok(Some(SeedTable {
        title: t.title.trim().to_string(),
        row_heading: t
            .row_heading
            .as_deref()
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .unwrap_or("row")
            .to_string(),
        columns,
        rows,
    }))
}
