//! Whether a variant's path differs between cores. The guest's instructions
//! are the same on every core unless what it does depends on the core:
//! - a core without an instruction the guest uses traps where the others
//!   do not, and the firmware emulates it (AMOs on the P8700);
//! - or the guest reads the time: a real kernel's scheduler and timer read
//!   `time`, and trapscope's clock follows each core's model
//!   (docs/decisions.md D12), so a snapshot whose tasks block and wake (the
//!   `pipe` init) can run another path on another core.
//!
//! `compare` says so, and which of the two it is by the traps per
//! iteration, since its per-core figures then measure different
//! instruction streams.

use serde::Serialize;

use super::row::Row;

/// A variant whose instructions per iteration differ between cores.
#[derive(Clone, Debug, Serialize)]
pub struct PathDiffers {
    pub variant: String,
    /// (core, instructions per iteration), in the order compared.
    pub per_core: Vec<(String, f64)>,
    /// Whether the traps per iteration differ too (a core that traps on
    /// what the others run), rather than only the instructions.
    pub traps_differ: bool,
}

/// Variants whose instructions per iteration differ between the cores
/// that ran them (a variant that runs on one core alone, or that is a
/// core, has one row and differs from nothing).
pub fn differing(rows: &[Row]) -> Vec<PathDiffers> {
    // Figures are means over the iterations: equal paths give equal sums.
    fn varies(mut xs: impl Iterator<Item = f64>) -> bool {
        let first = xs.next();
        xs.any(|x| first.is_some_and(|f| (x - f).abs() > 1e-9))
    }
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
    }
    variants
        .into_iter()
        .filter_map(|v| {
            let mine: Vec<&Row> = rows.iter().filter(|r| r.variant == v).collect();
            let instr = || mine.iter().map(|r| r.instructions_per_iteration);
            if !varies(instr()) {
                return None;
            }
            let traps = mine
                .iter()
                .map(|r| r.events.get("traps").copied().unwrap_or(0.0));
            Some(PathDiffers {
                variant: v.to_string(),
                per_core: mine.iter().map(|r| r.core.clone()).zip(instr()).collect(),
                traps_differ: varies(traps),
            })
        })
        .collect()
}

/// One line per variant whose path differs, for text or Markdown.
pub fn lines(diffs: &[PathDiffers], md: bool) -> String {
    let mut o = String::new();
    for d in diffs {
        let counts: Vec<String> = d
            .per_core
            .iter()
            .map(|(c, n)| format!("{} on {c}", trim(*n)))
            .collect();
        let why = if d.traps_differ {
            "it traps on one core where it does not on another (an instruction the core lacks, which the firmware emulates, such as an AMO on a core without them)"
        } else {
            "what it does depends on the time, which trapscope's clock gives at each core's modelled speed (a kernel's scheduler and timer read it)"
        };
        o.push_str(&format!(
            "\n{}{}: its path differs between cores (instructions per iteration: {}): {why}; each core's figures measure its own path\n",
            if md { "- " } else { "" },
            d.variant,
            counts.join(", ")
        ));
    }
    o
}

fn trim(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        format!("{n:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(core: &str, variant: &str, instr: f64) -> Row {
        row_traps(core, variant, instr, 1.0)
    }

    fn row_traps(core: &str, variant: &str, instr: f64, traps: f64) -> Row {
        Row {
            core: core.into(),
            variant: variant.into(),
            cycles_per_iteration: 0.0,
            ns_per_iteration: 0.0,
            instructions_per_iteration: instr,
            events: [("traps".to_string(), traps)].into_iter().collect(),
            phases: Default::default(),
            breakdown: Default::default(),
            reference_ns: None,
            given_ns: None,
            given_cycles: None,
            unverified: Vec::new(),
            band: None,
        }
    }

    #[test]
    fn only_variants_whose_counts_differ_are_named() {
        let rows = [
            row("u74", "getppid", 242.0),
            row("c910", "getppid", 242.0),
            row("u74", "pipe", 6604.0),
            row("c910", "pipe", 6610.5),
        ];
        let d = differing(&rows);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].variant, "pipe");
        let text = lines(&d, false);
        assert!(
            text.contains("pipe: its path differs between cores (instructions per iteration: 6604 on u74, 6610.50 on c910)"),
            "{text}"
        );
        assert!(text.contains("depends on the time"), "{text}");
        // Traps that differ: another cause.
        let rows = [
            row_traps("u74", "amo", 305.0, 1.0),
            row_traps("p8700", "amo", 2832.0, 9.0),
        ];
        let text = lines(&differing(&rows), false);
        assert!(
            text.contains("it traps on one core where it does not"),
            "{text}"
        );
        // A variant on one core alone compares nothing.
        assert!(differing(&rows[..1]).is_empty());
    }
}
