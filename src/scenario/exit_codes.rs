//! `[exit_codes]`: what a guest's own exit codes mean, so that a line
//! reporting one can say it ("the guest exited with code 2 (a setup call
//! failed ...)"). Keys are decimal or 0x-hex numbers.

use std::collections::BTreeMap;

use serde_spanned::Spanned;

use super::{Locator, ScenarioError};

/// Reads the table; a key that is not a number is an error at the key.
pub(super) fn convert(
    loc: &Locator<'_>,
    raw: &BTreeMap<Spanned<String>, String>,
) -> Result<BTreeMap<u64, String>, ScenarioError> {
    let mut out = BTreeMap::new();
    for (k, v) in raw {
        let text = k.get_ref().trim();
        let n = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => text.parse::<u64>(),
        }
        .map_err(|_| {
            loc.span(
                k,
                format!("[exit_codes]: '{text}' is not an exit code (a decimal or 0x-hex number)"),
            )
        })?;
        out.insert(n, v.clone());
    }
    Ok(out)
}
