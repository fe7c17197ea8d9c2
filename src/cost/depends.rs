//! Which profile parameters a run's estimate depends on: a parameter whose
//! mechanism never came into play in the measured window (a divide latency
//! with no divide, a vector parameter on a scalar path) cannot change the
//! figure, so reports list only the unverified parameters that could.

use super::model::Cat;

/// The categories whose events bring parameter `name` into play; empty:
/// every run depends on it (widths, depth, clock, predictor sizes).
fn mechanisms(name: &str) -> &'static [Cat] {
    use Cat::*;
    const CSR: &[Cat] = &[CsrReads, CsrWrites, StatusWrites, CounterReads];
    const WRITES: &[Cat] = &[CsrWrites, StatusWrites];
    const MISPREDICTS: &[Cat] = &[BranchMispredicts, RasMispredicts, IndirectMispredicts];
    match name {
        "mispredict_branch" => &[BranchMispredicts],
        "mispredict_return" => &[RasMispredicts],
        "mispredict_indirect" => &[IndirectMispredicts],
        "recover_after_retire" => MISPREDICTS,
        "trap_entry" => &[TrapEntries],
        "trap_return" => &[TrapReturns],
        "csr_read" | "csr_read_serialises" => CSR,
        "csr_write_flush" | "csr_flush" | "csr_write_serialises" => WRITES,
        "drain_dispatch" => &[
            CsrReads,
            CsrWrites,
            StatusWrites,
            CounterReads,
            TrapReturns,
            Fences,
        ],
        "div" | "div_busy" => &[Divides],
        "amo" | "lr" | "sc" | "monitor_cycles" | "amo_serialises" => &[Atomics],
        "fence" | "fence_i" | "sfence_vma" | "fence_drains" => &[Fences],
        "system_drains" => &[TrapReturns, Idle],
        "vlen" | "dlen" | "vsetvl" | "whole_reg_base" | "whole_reg_per_reg" | "scalar_waits"
        | "waits_at" => &[VectorUnit],
        _ => &[],
    }
}

/// Whether an estimate whose window counted `count(cat)` events depends on
/// the parameter `name`.
pub fn depends_on(name: &str, count: impl Fn(Cat) -> u64) -> bool {
    // The depth and the front end's length enter the model only through the
    // penalties and refetch costs derived from them, each its own value.
    if matches!(name, "pipeline_depth" | "frontend_stages") {
        return false;
    }
    let m = mechanisms(name);
    m.is_empty() || m.iter().any(|c| count(*c) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_counts_only_where_its_mechanism_ran() {
        let none = |_: Cat| 0;
        let divides = |c: Cat| u64::from(c == Cat::Divides);
        assert!(!depends_on("div", none));
        assert!(depends_on("div", divides));
        assert!(!depends_on("mispredict_branch", divides));
        // Sizes and widths shape every run; the depth only the values
        // derived from it.
        assert!(depends_on("ras_depth", none));
        assert!(!depends_on("pipeline_depth", divides));
        assert!(depends_on("clock_ghz", none));
    }
}
