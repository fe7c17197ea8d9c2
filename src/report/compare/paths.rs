//! Whether a variant's path differs between cores. The guest's instructions
//! are the same on every core unless what it does depends on time: a real
//! kernel's scheduler and timer read `time`, and trapscope's clock follows
//! each core's model (docs/decisions.md D12), so a snapshot whose tasks
//! block and wake (the `pipe` init) or take ticks can run another path on
//! another core. `compare` says so, since its per-core figures then
//! measure different instruction streams.

use serde::Serialize;

use super::Row;

/// A variant whose instructions per iteration differ between cores.
#[derive(Clone, Debug, Serialize)]
pub struct PathDiffers {
    pub variant: String,
    /// (core, instructions per iteration), in the order compared.
    pub per_core: Vec<(String, f64)>,
}

/// Variants whose instructions per iteration differ between the cores
/// that ran them (a variant that runs on one core alone, or that is a
/// core, has one row and differs from nothing).
pub fn differing(rows: &[Row]) -> Vec<PathDiffers> {
    let mut out: Vec<PathDiffers> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|d| d.variant == r.variant) {
            Some(d) => d
                .per_core
                .push((r.core.clone(), r.instructions_per_iteration)),
            None => out.push(PathDiffers {
                variant: r.variant.clone(),
                per_core: vec![(r.core.clone(), r.instructions_per_iteration)],
            }),
        }
    }
    // Counts are means over the iterations: equal paths give equal sums.
    out.retain(|d| {
        let first = d.per_core.first().map_or(0.0, |c| c.1);
        d.per_core.iter().any(|c| (c.1 - first).abs() > 1e-9)
    });
    out
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
        o.push_str(&format!(
            "\n{}{}: its path differs between cores (instructions per iteration: {}): what the guest does depends on the time, which trapscope's clock gives at each core's modelled speed (a kernel's scheduler and timer read it); each core's figures measure its own path\n",
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
        Row {
            core: core.into(),
            variant: variant.into(),
            cycles_per_iteration: 0.0,
            ns_per_iteration: 0.0,
            instructions_per_iteration: instr,
            events: Default::default(),
            phases: Default::default(),
            breakdown: Default::default(),
            reference_ns: None,
            given_ns: None,
            given_cycles: None,
            unverified: Vec::new(),
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
        // A variant on one core alone compares nothing.
        assert!(differing(&rows[..1]).is_empty());
    }
}
