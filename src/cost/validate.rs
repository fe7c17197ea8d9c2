//! The ranges a core profile's values must lie in, checked at load so that
//! the model never divides by zero, indexes an empty table, allocates a
//! table it cannot hold, or runs a V unit the spec does not allow. Each
//! error names the field; the loader turns it into `file:line:col`.

use super::profile::Profile;

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
/// Most cycles one class, penalty or latency may cost: far above any core,
/// and low enough that the integer ledger cannot overflow in any budget.
pub const CYCLES_MAX: u32 = 10_000;

/// The VLEN rule, shared with `elf --vlen`.
pub fn vlen_rule(vlen: u32) -> Result<(), String> {
    if !vlen.is_power_of_two() || !(VLEN_MIN..=VLEN_MAX).contains(&vlen) {
        return Err(format!(
            "VLEN {vlen} is not a power of two from {VLEN_MIN} to {VLEN_MAX} (V implies Zvl128b)"
        ));
    }
    Ok(())
}

fn positive(field: &'static str, v: f64) -> Result<(), (&'static str, String)> {
    if !v.is_finite() || v <= 0.0 {
        return Err((field, format!("{field} = {v}: must be finite and > 0")));
    }
    Ok(())
}

fn within(field: &'static str, v: u32, lo: u32, hi: u32) -> Result<(), (&'static str, String)> {
    if !(lo..=hi).contains(&v) {
        return Err((field, format!("{field} = {v}: must be from {lo} to {hi}")));
    }
    Ok(())
}

/// Every value in range, or the first field that is not, and why.
pub fn check(p: &Profile) -> Result<(), (&'static str, String)> {
    let c = &p.core;
    positive("clock_ghz", c.clock_ghz.value)?;
    positive("timebase_hz", c.timebase_hz.value)?;
    within("issue_width", c.issue_width.value, 1, ISSUE_MAX)?;
    within("ras_depth", c.ras_depth.value, 1, RAS_MAX)?;
    within("bht_entries", c.bht_entries.value, 1, TABLE_MAX)?;
    within("btb_entries", c.btb_entries.value, 1, TABLE_MAX)?;
    for (name, v) in [
        ("mispredict_penalty", c.mispredict_penalty.value),
        ("load_use_latency", c.load_use_latency.value),
        ("trap_entry", c.trap_entry.value),
        ("trap_return", c.trap_return.value),
    ] {
        within(name, v, 0, CYCLES_MAX)?;
    }
    let k = &p.cost;
    for (name, n) in [
        ("alu", k.alu.value),
        ("mul", k.mul.value),
        ("div", k.div.value),
        ("load", k.load.value),
        ("store", k.store.value),
        ("branch", k.branch.value),
        ("jump", k.jump.value),
        ("csr_read", k.csr_read.value),
        ("csr_write", k.csr_write.value),
        ("csr_status_write", k.csr_status_write.value),
        ("counter_read", k.counter_read.value),
        ("fence", k.fence.value),
        ("fence_i", k.fence_i.value),
        ("amo", k.amo.value),
        ("lr", k.lr.value),
        ("sc", k.sc.value),
        ("system", k.system.value),
        ("fp", k.fp.value),
    ] {
        within(name, n, 0, CYCLES_MAX)?;
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
        return Err((
            "vlen",
            "vlen = 0, but the core has a vector unit (present = true): give its VLEN".into(),
        ));
    }
    if vlen == 0 {
        if dlen != 0 {
            return Err((
                "dlen",
                format!("dlen = {dlen}, but vlen = 0 (no vector unit): write 0"),
            ));
        }
        return Ok(());
    }
    vlen_rule(vlen).map_err(|m| ("vlen", format!("vlen = {vlen}: {m}")))?;
    if !dlen.is_power_of_two() || dlen > vlen {
        return Err((
            "dlen",
            format!("dlen = {dlen}: DLEN must be a power of two no larger than VLEN ({vlen})"),
        ));
    }
    Ok(())
}
