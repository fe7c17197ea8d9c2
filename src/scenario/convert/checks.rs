//! An `[[expect]]` check parsed against the file: its variants, each
//! variant's guest (a function must be a symbol of it, or a page) and the
//! metrics the file defines, an error at the `file:line:col` of the token
//! it is about. Beside the conversion that calls it, not in `expect.rs`,
//! which knows checks but not the scenario's variants.

use serde_spanned::Spanned;

use crate::scenario::expect::metrics::Metrics;
use crate::scenario::expect::{Check, Names, source_offset};
use crate::scenario::{Locator, ScenarioError, Variant};

/// A page name as `functions_per_iteration` gives code under no symbol:
/// `0x80001000`, 4 KiB aligned.
fn is_page(name: &str) -> bool {
    name.strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .is_some_and(|a| a & 0xfff == 0)
}

/// Parses an `[[expect]]` check of the file: names checked against the
/// variants and each variant's guest, an error at the `file:line:col` of
/// the token it is about.
pub(super) fn parse_located(
    loc: &Locator<'_>,
    check: &Spanned<String>,
    variants: &[Variant],
    metrics: &Metrics,
) -> Result<Check, ScenarioError> {
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let function = |variant: &str, f: &str| {
        is_page(f)
            || variants
                .iter()
                .find(|v| v.name == variant)
                .is_some_and(|v| v.program.symbol(f).is_some())
    };
    let n = Names {
        variants: &names,
        function: Some(&function),
        metrics: Some(metrics),
    };
    Check::parse_in(check.get_ref(), &n).map_err(|e| {
        let at = source_offset(loc.src, check.span(), check.get_ref(), e.at);
        loc.at(at, e.msg)
    })
}
