//! How reports write an estimate with its band: `227.1 (209.1..257.1)`,
//! and the line under a table that says what the bands are.

use crate::session::band::Band;

/// `value (low..high)`; `signed`: with a sign, as a difference is written.
/// The value alone without a band.
pub fn cell(value: f64, band: Option<&Band>, signed: bool) -> String {
    match (band, signed) {
        (None, false) => format!("{value:.1}"),
        (None, true) => format!("{value:+.1}"),
        (Some(b), false) => format!("{value:.1} ({:.1}..{:.1})", b.low, b.high),
        (Some(b), true) => format!("{value:+.1} ({:+.1}..{:+.1})", b.low, b.high),
    }
}

/// What the bands in a table are, and where one holds the path fixed; none
/// when no figure has a band.
pub fn note<'a>(bands: impl Iterator<Item = &'a Band>) -> Option<String> {
    let mut any = false;
    let mut fixed = false;
    let mut partial = false;
    for b in bands {
        any = true;
        fixed |= b.path_fixed;
        partial |= b.method == crate::session::band::Method::OneAtATime;
    }
    if !any {
        return None;
    }
    let mut s = String::from(
        "(low..high): the estimate over the ends of every unverified or assumed profile value it depends on (docs/reference/bands.md)",
    );
    if partial {
        s.push_str("; above ten such values, each alone, then all low and all high");
    }
    if fixed {
        s.push_str(
            "; where the run read the clock or took the timer, the band holds its path fixed",
        );
    }
    Some(s)
}
