//! `bench`: instrumented against raw throughput, the FP-heavy guest, and
//! the TUI's key-to-frame latency, printed in one run.

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use super::shared::load;
use crate::cost::Profile;
use crate::report::Format;
use crate::scenario::Scenario;
use crate::session;

/// `bench`'s options past the scenario, variant and core.
pub(super) struct Opts {
    pub iterations: u64,
    pub repeats: u32,
    pub format: Format,
    pub travel_depths: Vec<u64>,
    /// Only the time-travel section.
    pub travel_only: bool,
}

pub(super) fn bench(
    scenario: &Path,
    variant: Option<String>,
    core: Option<String>,
    opts: Opts,
) -> anyhow::Result<ExitCode> {
    let Opts {
        iterations,
        repeats,
        format,
        travel_depths,
        travel_only,
    } = opts;
    let s = load(scenario)?;
    if travel_only {
        return travel_section(&s, format, &travel_depths);
    }
    // The first frame before anything else runs, counted from the process's
    // start, as opening the TUI would be.
    let first = crate::tui::latency::first_frame(s.clone(), crate::process_start())
        .map_err(anyhow::Error::msg)?;
    let v = match &variant {
        Some(name) => s.variant(name).map_err(anyhow::Error::msg)?,
        None => s
            .variants
            .first()
            .ok_or_else(|| anyhow::anyhow!("{}: no variants", scenario.display()))?,
    };
    let core = core.unwrap_or_else(|| {
        s.cores
            .first()
            .map_or_else(|| "u74".to_string(), |p| p.name.clone())
    });
    let p = Rc::new(Profile::find(&core).map_err(anyhow::Error::msg)?);
    let b = session::bench::bench(&s, v, p.clone(), iterations, repeats.max(1))
        .map_err(anyhow::Error::msg)?;
    if crate::machine::sigint::requested() {
        anyhow::bail!("interrupted");
    }
    let scaling = session::bench_guests::fp_scaling(&p).map_err(anyhow::Error::msg)?;
    let hostile = session::bench_guests::hostile(HOSTILE_BUDGET).map_err(anyhow::Error::msg)?;
    if format == Format::Json {
        let storms = session::bench_guests::storm_costs().map_err(anyhow::Error::msg)?;
        let travel =
            crate::tui::latency::travel(s.clone(), &travel_depths).map_err(anyhow::Error::msg)?;
        let mut v = serde_json::to_value(&b)?;
        v["first_frame_ms"] = serde_json::json!(first);
        v["fp_scaling"] = serde_json::to_value(&scaling)?;
        v["hostile"] = serde_json::to_value(&hostile)?;
        v["storm_costs"] = serde_json::to_value(&storms)?;
        v["travel"] = serde_json::to_value(&travel)?;
        if !travel_depths.is_empty() {
            v["travel_snapshot"] = travel_snapshot_json(&travel_depths)?;
        }
        println!(
            "{}",
            crate::report::escape_json(&serde_json::to_string_pretty(&v)?)
        );
    } else {
        say!(
            "guest loop: {} ({} variant), {} iterations, {} instructions",
            b.scenario,
            b.variant,
            b.iterations,
            b.instructions
        );
        say!(
            "raw unicorn (trap delivery only)   {:>8.3} s  {:>7.1} M instr/s",
            b.raw_seconds,
            b.raw_minstr_per_s
        );
        say!(
            "hooks alone (no observer)          {:>8.3} s  {:>7.1} M instr/s",
            b.hooks_seconds,
            b.hooks_minstr_per_s
        );
        say!(
            "instrumented ({:<5} model)          {:>8.3} s  {:>7.1} M instr/s",
            b.core,
            b.instrumented_seconds,
            b.instrumented_minstr_per_s
        );
        say!(
            "single-step (TUI stepping)         {:>8.3} s  {:>7.1} M instr/s  (a tenth of the loop, one run)",
            b.single_step_seconds,
            b.single_step_minstr_per_s
        );
        say!(
            "ratio instrumented/raw: {:.2}; hooks alone/raw, its ceiling: {:.2} (best of {} interleaved runs each)",
            b.ratio,
            b.hooks_ratio,
            b.repeats
        );
        if let Some(fp) = &b.fp {
            say!(
                "FP-heavy guest (fp_bench, {} iterations, {} instructions): raw {:.1}, instrumented {:.1} M instr/s, ratio {:.2}; hooks alone/raw {:.2}",
                fp.iterations,
                fp.instructions,
                fp.raw_minstr_per_s,
                fp.instrumented_minstr_per_s,
                fp.ratio,
                fp.hooks_ratio
            );
        }
        print_generated(&scaling, &hostile);
        say!("\nTUI key-to-frame (action + full draw at 160x45):");
        for l in crate::tui::latency::measure(s.clone()).map_err(anyhow::Error::msg)? {
            print_latency("  ", 22, &l);
        }
        say!("  first frame (process start to the lesson's start drawn): {first:.1} ms");
        if !travel_depths.is_empty() {
            say!("");
            print_travel_section(&s, &travel_depths)?;
        }
        // Last, as the longest (seconds in a release build, minutes in a
        // debug one): the heading first, so a reader sees what runs.
        print_storm_heading();
        let storms = session::bench_guests::storm_costs().map_err(anyhow::Error::msg)?;
        print_storm_costs(&storms);
    }
    Ok(ExitCode::SUCCESS)
}

/// The time-travel figures on a snapshot as JSON, or why they were not
/// measured (no QEMU).
fn travel_snapshot_json(depths: &[u64]) -> anyhow::Result<serde_json::Value> {
    Ok(
        match crate::tui::latency::travel_snapshot(depths).map_err(anyhow::Error::msg)? {
            Ok(t) => serde_json::to_value(&t)?,
            Err(why) => serde_json::json!({ "not_measured": why.to_string() }),
        },
    )
}

/// `--travel-only`: the time-travel section alone.
fn travel_section(s: &Scenario, format: Format, depths: &[u64]) -> anyhow::Result<ExitCode> {
    if depths.is_empty() {
        anyhow::bail!("--travel-only: --depths is empty, so there is nothing to measure");
    }
    if format == Format::Json {
        let mut v = serde_json::json!({});
        v["travel"] = serde_json::to_value(
            crate::tui::latency::travel(s.clone(), depths).map_err(anyhow::Error::msg)?,
        )?;
        v["travel_snapshot"] = travel_snapshot_json(depths)?;
        println!(
            "{}",
            crate::report::escape_json(&serde_json::to_string_pretty(&v)?)
        );
    } else {
        print_travel_section(s, depths)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_travel_section(s: &Scenario, depths: &[u64]) -> anyhow::Result<()> {
    say!(
        "Time travel deep into a run (the `iterations` knob raised; checkpoints as the TUI takes them, for all variants together):"
    );
    let travel = crate::tui::latency::travel(s.clone(), depths).map_err(anyhow::Error::msg)?;
    print_travel(&travel);
    say!(
        "\nThe same on a snapshot (the Sv39 minikernel booted in QEMU, stopped at its 5th ecall; 128 MiB of RAM):"
    );
    match crate::tui::latency::travel_snapshot(depths).map_err(anyhow::Error::msg)? {
        Ok(t) => print_travel(&t),
        Err(why) => say!("  not measured: {why}"),
    }
    Ok(())
}

/// The budget each hostile guest runs to in `bench`: `trapscope elf`'s.
const HOSTILE_BUDGET: u64 = super::shared::DEFAULT_ELF_BUDGET;

fn print_generated(
    f: &session::bench_guests::FpScaling,
    hostile: &[session::bench_guests::HostileTime],
) {
    say!(
        "FP straight-line code, each instruction run once (instrumented): {} singles {:.3} s, {} singles {:.3} s (x{:.1}), {} doubles {:.3} s (singles/doubles {:.2}); {} intercept hooks",
        f.short,
        f.single_short_seconds,
        f.long,
        f.single_long_seconds,
        f.growth,
        f.long,
        f.double_long_seconds,
        f.single_over_double,
        f.hooks_long
    );
    say!(
        "\nHostile guests to the default budget of {HOSTILE_BUDGET} instructions (hooks, no observer): time to their end against the plain loop's, and per instruction:"
    );
    for h in hostile {
        let ended = h
            .ended
            .as_ref()
            .map_or(String::new(), |e| format!("  ended: {e}"));
        say!(
            "  {:<20} {:>7.3} s  {:>9} instructions  x{:.2} (x{:.1} per instruction){ended}",
            h.guest,
            h.seconds,
            h.instructions,
            h.ratio,
            h.per_instruction
        );
    }
}

fn print_storm_heading() {
    use crate::machine::storm;
    say!(
        "\nThe storm rule (docs/measurements/speed.md): a guest may run {}x a plain loop's time per instruction; charged per trap {}, per rewrite of run code {} plus {} per instruction it drops, per emulated LR/SC/AMO {} plain-loop instructions. Measured with the rule off (extra time in plain-loop instructions; over the charge is a bound that does not hold here), and each guest spaced out to the rule's edge with it on:",
        storm::SLOWDOWN,
        storm::TRAP_COST,
        storm::CODE_WRITE_COST,
        storm::REDECODE_COST,
        storm::EMULATED_COST
    );
}

fn print_storm_costs(costs: &[session::bench_guests::StormCost]) {
    use crate::machine::storm;
    let mut over = 0;
    for c in costs {
        let holds = c.measured_extra <= c.charged as f64;
        over += usize::from(!holds);
        let edge = match (c.edge_pad, c.edge_per_instruction) {
            (Some(p), Some(x)) => format!(
                "edge at pad {p}: x{x:.2} per instruction{}",
                if x > storm::SLOWDOWN as f64 {
                    " (OVER the slowdown)"
                } else {
                    ""
                }
            ),
            _ => format!(
                "cut off at every pad up to {}",
                session::bench_guests::MAX_PAD
            ),
        };
        let events = c.counts.traps + c.counts.writes + c.counts.emulated;
        // Spaced far apart, a storm's extra time can be less than the
        // timer's noise over the plain loop's, and read below zero.
        let extra = if c.measured_extra < 0.0 {
            format!("{:<35}", "extra within the timer's noise")
        } else {
            format!(
                "extra {:>10.0} (per event {:>6.1})",
                c.measured_extra,
                c.measured_extra / events.max(1) as f64
            )
        };
        say!(
            "  {:<22} pad {:>3}: {:>8} events, {extra} against {:>10} charged{}; {edge}",
            c.guest,
            c.pad,
            events,
            c.charged,
            if holds { "" } else { " (OVER the charge)" }
        );
    }
    if over == 0 {
        say!("  every charge bounds its measured cost on this host");
    }
}

fn print_travel(travel: &[crate::tui::latency::Travel]) {
    for t in travel {
        say!(
            "  at {:>9} instructions ({:.0} ms to get there with :run): {} checkpoints, {:.1} MiB (one taken in {:.2} ms, restored in {:.2} ms); block stream {:.1} MiB",
            t.depth,
            t.run_ms,
            t.checkpoints,
            t.checkpoint_bytes as f64 / (1 << 20) as f64,
            t.take_us as f64 / 1000.0,
            t.restore_us as f64 / 1000.0,
            t.stream_bytes as f64 / (1 << 20) as f64
        );
        for l in &t.keys {
            print_latency("    ", 24, l);
        }
    }
}

/// One action's latencies: median, maximum, the draw's median, samples.
fn print_latency(indent: &str, width: usize, l: &crate::tui::latency::Latency) {
    say!(
        "{indent}{:<width$} median {:>7.2} ms  max {:>7.2} ms  (draw {:.2} ms)  n={}",
        l.action,
        l.median_us as f64 / 1000.0,
        l.max_us as f64 / 1000.0,
        l.draw_median_us as f64 / 1000.0,
        l.samples
    );
}
