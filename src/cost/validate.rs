//! The ranges a core profile's values must lie in, checked at load so that
//! the model never divides by zero, indexes an empty table, allocates a
//! table it cannot hold, or runs a V unit the spec does not allow. Each
//! error names the field; the loader turns it into `file:line:col`.

use super::profile::Profile;
use super::words;

/// V implies Zvl128b (V spec 1.0, "Zvl*: Minimum Vector Length
/// Standard Extensions", and "V: Vector Extension for Application
/// Processors"); VLEN is a power of two at most 2^16 (V spec, "Implementation-defined Constant Parameters").
pub const VLEN_MIN: u32 = 128;
pub const VLEN_MAX: u32 = 65536;
/// Entries the predictor tables may have: the model allocates them whole.
pub const RAS_MAX: u32 = 1024;
pub const TABLE_MAX: u32 = 1 << 20;
/// Widest issue the pairing model takes.
pub const ISSUE_MAX: u32 = 64;
/// Most reorder-buffer entries the window model takes.
pub const WINDOW_MAX: u32 = 4096;
/// Most instructions one in-order issue group may hold (`inorder.rs`):
/// in-order widths stay at or below it.
pub const GROUP_MAX: usize = 8;
/// Most cycles one class, penalty or latency may cost: far above any core,
/// and low enough that the integer ledger cannot overflow in any budget.
pub const CYCLES_MAX: u32 = 10_000;

/// A VLEN the V spec does not allow (`vlen_rule`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("VLEN {vlen} is not a power of two from {VLEN_MIN} to {VLEN_MAX} (V implies Zvl128b)")]
pub struct VlenError {
    pub vlen: u32,
}

/// A core profile value out of its range (`check`): each names its field
/// (`field`), which the loader turns into `file:line:col`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RangeError {
    #[error("{field} = {value}: must be finite and > 0")]
    NotPositive { field: &'static str, value: f64 },
    #[error("{field} = {value}: must be from {lo} to {hi}")]
    OutOfRange {
        field: &'static str,
        value: u32,
        lo: u32,
        hi: u32,
    },
    /// Not pipe letters from A to `last`, each once.
    #[error(
        "{field} = \"{value}\": write pipe letters from A to {last}, each once (the core has {pipes} pipes)"
    )]
    Pipes {
        field: &'static str,
        value: String,
        last: char,
        pipes: u32,
    },
    #[error("{field}: unknown name \"{name}\" (names: {})", known.join(", "))]
    UnknownName {
        field: &'static str,
        name: String,
        known: &'static [&'static str],
    },
    #[error("frontend_stages = {frontend}: more than the pipeline's {depth} stages")]
    FrontendDeeper { frontend: u32, depth: u32 },
    #[error(
        "issue_width = {width}: an in-order core issues at most one instruction per pipe, and it has {pipes} pipes"
    )]
    IssueOverPipes { width: u32, pipes: u32 },
    #[error(
        "alu_early = {early}: an early ALU result cannot come later than the late one (latency.alu = {alu})"
    )]
    AluEarly { early: u32, alu: u32 },
    #[error("csr_write_flush = \"{rule}\": write one of {}", words::FLUSH_RULES.join(", "))]
    FlushRule { rule: String },
    #[error("vlen = 0, but the core has a vector unit (present = true): give its VLEN")]
    NoVlen,
    #[error("dlen = {dlen}, but vlen = 0 (no vector unit): write 0")]
    DlenWithoutVector { dlen: u32 },
    #[error("vlen = {}: {}", .0.vlen, .0)]
    Vlen(VlenError),
    #[error("dlen = {dlen}: DLEN must be a power of two no larger than VLEN ({vlen})")]
    Dlen { dlen: u32, vlen: u32 },
}

impl RangeError {
    /// The profile field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            RangeError::NotPositive { field, .. }
            | RangeError::OutOfRange { field, .. }
            | RangeError::Pipes { field, .. }
            | RangeError::UnknownName { field, .. } => field,
            RangeError::FrontendDeeper { .. } => "frontend_stages",
            RangeError::IssueOverPipes { .. } => "issue_width",
            RangeError::AluEarly { .. } => "alu_early",
            RangeError::FlushRule { .. } => "csr_write_flush",
            RangeError::NoVlen | RangeError::Vlen(_) => "vlen",
            RangeError::DlenWithoutVector { .. } | RangeError::Dlen { .. } => "dlen",
        }
    }
}

/// The VLEN rule, shared with `elf --vlen`.
pub fn vlen_rule(vlen: u32) -> Result<(), VlenError> {
    if !vlen.is_power_of_two() || !(VLEN_MIN..=VLEN_MAX).contains(&vlen) {
        return Err(VlenError { vlen });
    }
    Ok(())
}

fn positive(field: &'static str, value: f64) -> Result<(), RangeError> {
    if !value.is_finite() || value <= 0.0 {
        return Err(RangeError::NotPositive { field, value });
    }
    Ok(())
}

fn within(field: &'static str, value: u32, lo: u32, hi: u32) -> Result<(), RangeError> {
    if !(lo..=hi).contains(&value) {
        return Err(RangeError::OutOfRange {
            field,
            value,
            lo,
            hi,
        });
    }
    Ok(())
}

/// A pipe string: letters A.. within the core's pipes, at least one.
fn pipes(field: &'static str, v: &str, n: u32) -> Result<(), RangeError> {
    let last = (b'A' + n as u8 - 1) as char;
    let repeats = v.char_indices().any(|(i, ch)| v[..i].contains(ch));
    if v.is_empty() || repeats || !v.chars().all(|ch| ch.is_ascii_uppercase() && ch <= last) {
        return Err(RangeError::Pipes {
            field,
            value: v.to_string(),
            last,
            pipes: n,
        });
    }
    Ok(())
}

/// A comma list of known names.
fn names(field: &'static str, v: &str, known: &'static [&'static str]) -> Result<(), RangeError> {
    if let Some(bad) = words::list(v).find(|x| !known.contains(x)) {
        return Err(RangeError::UnknownName {
            field,
            name: bad.to_string(),
            known,
        });
    }
    Ok(())
}

/// Every value in range, or the first field that is not, and why.
pub fn check(p: &Profile) -> Result<(), RangeError> {
    let c = &p.core;
    positive("clock_ghz", c.clock_ghz.value)?;
    positive("timebase_hz", c.timebase_hz.value)?;
    within("ras_depth", c.ras_depth.value, 1, RAS_MAX)?;
    within("bht_entries", c.bht_entries.value, 1, TABLE_MAX)?;
    within("btb_entries", c.btb_entries.value, 1, TABLE_MAX)?;
    if c.out_of_order.value {
        within("issue_width", c.issue_width.value, 1, ISSUE_MAX)?;
        within("window", c.window.value, 1, WINDOW_MAX)?;
        within("commit_width", c.commit_width.value, 1, ISSUE_MAX)?;
    } else {
        within("issue_width", c.issue_width.value, 1, GROUP_MAX as u32)?;
    }
    let l = &p.latency;
    let z = &p.serialise;
    // Every FP result's latency: at least 1 when the f registers are tracked.
    let fp = [
        ("latency.fp", l.fp.value),
        ("fp_single", l.fp_single.value),
        ("fp_other", l.fp_other.value),
        ("fp_load", l.fp_load.value),
        ("fp_div", l.fp_div.value),
        ("fp_div_single", l.fp_div_single.value),
    ];
    let fp_low = u32::from(l.fp_dependences.value);
    for (name, v) in fp {
        within(name, v, fp_low, CYCLES_MAX)?;
    }
    for (name, v) in [
        ("pipeline_depth", c.pipeline_depth.value),
        ("frontend_stages", c.frontend_stages.value),
        ("mispredict_branch", c.mispredict_branch.value),
        ("mispredict_return", c.mispredict_return.value),
        ("mispredict_indirect", c.mispredict_indirect.value),
        ("taken_bubble", c.taken_bubble.value),
        ("recover_after_retire", c.recover_after_retire.value),
        ("drain_dispatch", z.drain_dispatch.value),
        ("trap_entry", c.trap_entry.value),
        ("trap_return", c.trap_return.value),
        ("latency.alu", l.alu.value),
        ("alu_early", l.alu_early.value),
        ("load", l.load.value),
        ("mul", l.mul.value),
        ("div", l.div.value),
        ("div_busy", l.div_busy.value),
        ("csr_read", l.csr_read.value),
        ("jump_link", l.jump_link.value),
        ("amo", l.amo.value),
        ("lr", l.lr.value),
        ("sc", l.sc.value),
        ("late_advance", l.late_advance.value),
        ("csr_flush", z.csr_flush.value),
        ("fence", z.fence.value),
        ("fence_i", z.fence_i.value),
        ("sfence_vma", z.sfence_vma.value),
    ] {
        within(name, v, 0, CYCLES_MAX)?;
    }
    if c.frontend_stages.value > c.pipeline_depth.value {
        return Err(RangeError::FrontendDeeper {
            frontend: c.frontend_stages.value,
            depth: c.pipeline_depth.value,
        });
    }
    within("pipes", p.issue.pipes.value, 1, 8)?;
    if !c.out_of_order.value && c.issue_width.value > p.issue.pipes.value {
        return Err(RangeError::IssueOverPipes {
            width: c.issue_width.value,
            pipes: p.issue.pipes.value,
        });
    }
    if p.latency.alu_early.value > p.latency.alu.value {
        return Err(RangeError::AluEarly {
            early: p.latency.alu_early.value,
            alu: p.latency.alu.value,
        });
    }
    let is = &p.issue;
    for (name, v) in [
        ("issue.alu", &is.alu.value),
        ("issue.load", &is.load.value),
        ("issue.store", &is.store.value),
        ("issue.control", &is.control.value),
        ("issue.muldiv", &is.muldiv.value),
        ("issue.fp", &is.fp.value),
        ("issue.vector", &is.vector.value),
        ("issue.csr", &is.csr.value),
        ("issue.system", &is.system.value),
    ] {
        pipes(name, v, is.pipes.value)?;
    }
    names("bypass_from", &l.bypass_from.value, &words::BYPASS_FROM)?;
    names("bypass_to", &l.bypass_to.value, &words::BYPASS_TO)?;
    names("waits_at", &p.vector.waits_at.value, &words::VECTOR_WAITS)?;
    let rule = z.csr_write_flush.value.as_str();
    if !words::FLUSH_RULES.contains(&rule) {
        return Err(RangeError::FlushRule { rule: rule.into() });
    }
    let v = &p.vector;
    for (name, n) in [
        ("vsetvl", v.vsetvl.value),
        ("whole_reg_base", v.whole_reg_base.value),
        ("whole_reg_per_reg", v.whole_reg_per_reg.value),
    ] {
        within(name, n, 0, CYCLES_MAX)?;
    }
    within(
        "monitor_cycles",
        p.atomics.monitor_cycles.value,
        0,
        CYCLES_MAX,
    )?;
    let (vlen, dlen) = (v.vlen.value, v.dlen.value);
    if v.present.value && vlen == 0 {
        return Err(RangeError::NoVlen);
    }
    if vlen == 0 {
        if dlen != 0 {
            return Err(RangeError::DlenWithoutVector { dlen });
        }
        return Ok(());
    }
    vlen_rule(vlen).map_err(RangeError::Vlen)?;
    if !dlen.is_power_of_two() || dlen > vlen {
        return Err(RangeError::Dlen { dlen, vlen });
    }
    Ok(())
}
