//! The scenario file format: serde DTOs, converted into core types in
//! `convert.rs` (docs/decisions.md C7), so the core does not depend on TOML.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_spanned::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub title: String,
    /// The patch this scenario explains.
    pub patch: String,
    #[serde(default)]
    pub summary: String,
    /// Guest ELF, relative to the scenario file (optional when every
    /// variant names its own `elf` or `snapshot`).
    pub elf: Option<Spanned<String>>,
    /// Instruction budget per run.
    pub budget: Option<u64>,
    #[serde(default)]
    pub knobs: BTreeMap<Spanned<String>, KnobDto>,
    pub variants: Spanned<Vec<VariantDto>>,
    #[serde(default)]
    pub phases: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    pub measure: Option<MeasureDto>,
    #[serde(default)]
    pub narration: Vec<NarrationDto>,
    #[serde(default)]
    pub expect: Vec<ExpectDto>,
    /// Core profiles to estimate cycles for (names in assets/cores/ or paths).
    pub cores: Option<Spanned<Vec<Spanned<String>>>>,
    /// Figures measured on hardware, shown beside the estimates.
    #[serde(default)]
    pub reference: Vec<ReferenceDto>,
    /// Which variants form before/after pairs (default: every variant
    /// against the first).
    #[serde(default)]
    pub pair: Vec<Spanned<PairDto>>,
    /// A lesson: steps the TUI plays with `--autoplay`.
    #[serde(default)]
    pub script: Vec<Spanned<ScriptDto>>,
    /// Where the TUI opens and `r` returns: `SYMBOL`, `SYMBOL+0xOFF` or
    /// `file.S:LINE`, reached `start_count` times from power-on.
    pub start_at: Option<Spanned<String>>,
    /// Which arrival at `start_at` (default 1, the first).
    pub start_count: Option<Spanned<u64>>,
    /// LR/SC behaviour of the machine.
    #[serde(default)]
    pub lrsc: LrscDto,
    /// Probes: symbols where the guest takes a breakpoint trap (kprobe-like).
    #[serde(default)]
    pub probes: Vec<Spanned<String>>,
    /// Place probes the LR/SC checker rejects anyway (to show the livelock).
    #[serde(default)]
    pub probes_anyway: bool,
    /// Guest values to read at the end of a run, by name.
    #[serde(default)]
    pub results: BTreeMap<String, ResultDto>,
    /// `[seed_table]`: a table in a seed's own form (usec/op and ops/sec
    /// with change %), printed by `compare`.
    pub seed_table: Option<Spanned<SeedTableDto>>,
    /// `[exit_codes]`: what the guest's own exit codes mean ("2" = "...").
    #[serde(default)]
    pub exit_codes: BTreeMap<Spanned<String>, String>,
}

/// `[seed_table]`: rows of before/after variants, printed per core as
/// usec/op and ops/sec with change %, the seed's own figures beside them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedTableDto {
    /// What the table is, e.g. "perf bench syscall (seed 002's form)".
    #[serde(default)]
    pub title: String,
    /// The first column's heading (default "row"), e.g. "Syscall".
    pub row_heading: Option<String>,
    /// The before and after columns' headings (default "before", "after"),
    /// e.g. ["Base", "Generic Entry"].
    pub columns: Option<Spanned<Vec<String>>>,
    /// `[[seed_table.row]]`: at least one.
    #[serde(default)]
    pub row: Vec<Spanned<SeedRowDto>>,
}

/// `[[seed_table.row]]`: one row, two variants.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRowDto {
    /// The row's name, e.g. "basic (getppid)".
    pub name: Spanned<String>,
    pub before: Spanned<String>,
    pub after: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LrscDto {
    #[serde(default)]
    pub xret_clears: bool,
    #[serde(default)]
    pub remote_store_every: u64,
    #[serde(default = "default_livelock")]
    pub livelock_after: u32,
}

fn default_livelock() -> u32 {
    10_000
}

impl Default for LrscDto {
    fn default() -> LrscDto {
        LrscDto {
            xret_clears: false,
            remote_store_every: 0,
            livelock_after: default_livelock(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultDto {
    pub symbol: Spanned<String>,
    /// Names for values, e.g. { 1 = "fast", 2 = "slow" }.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptDto {
    /// Run until this location (`SYMBOL`, `SYMBOL+0xOFF`, `file.S:LINE`)
    /// is about to execute...
    pub until: Option<Spanned<String>>,
    /// ...or until an event of this kind (trap, trap-return, mispredict, ...).
    pub event: Option<Spanned<String>>,
    /// Which arrival (or event of the kind) since the step began ends it
    /// (default 1, the next one).
    pub count: Option<Spanned<u64>>,
    /// Switch to this variant first (same iteration and event).
    pub variant: Option<Spanned<String>>,
    /// What to say when the step arrives.
    pub say: String,
    /// A pane to draw attention to.
    pub highlight: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceDto {
    pub core: Spanned<String>,
    pub variant: Spanned<String>,
    /// Nanoseconds per iteration; absent when the figure is held out.
    pub ns: Option<f64>,
    /// Cycles per iteration, when the source gives cycles.
    pub cycles: Option<f64>,
    /// A figure per event rather than per iteration: the estimate is this
    /// phase's cycles per iteration divided by `per`.
    pub phase: Option<Spanned<String>>,
    /// How many of the events the phase serves per iteration (from the
    /// guest program).
    pub per: Option<f64>,
    /// false: measured on another architecture or setup (e.g. arm64 under
    /// qemu-kvm); shown, never set against an estimate.
    #[serde(default = "yes")]
    pub comparable: bool,
    /// What was measured, on what.
    pub what: String,
    pub source: String,
}

fn yes() -> bool {
    true
}

/// `[[pair]]`: two variants read as before and after.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairDto {
    pub before: Spanned<String>,
    pub after: Spanned<String>,
    /// What the pair asks, e.g. "V=0: does v3 help?".
    #[serde(default)]
    pub label: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnobDto {
    pub symbol: Spanned<String>,
    pub default: Spanned<u64>,
    /// The largest value the guest reads as meant (a 0/1 switch: 1);
    /// larger ones are refused at load and by `--set`.
    pub max: Option<Spanned<u64>>,
    #[serde(default)]
    pub help: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantDto {
    pub name: Spanned<String>,
    #[serde(default)]
    pub label: String,
    /// Another ELF for this variant (relative to the scenario file).
    pub elf: Option<Spanned<String>>,
    /// A snapshot directory made by `trapscope snapshot` (a real kernel),
    /// instead of an ELF.
    pub snapshot: Option<Spanned<String>>,
    /// The snapshot's vmlinux, for symbols and source lines (default: the
    /// path the snapshot recorded). Its build id must match the snapshot's.
    pub vmlinux: Option<Spanned<String>>,
    /// Where the kernel tree is, if not where the vmlinux's DWARF says.
    pub kernel_src: Option<Spanned<String>>,
    #[serde(default)]
    pub knobs: BTreeMap<Spanned<String>, Spanned<u64>>,
    /// The core this variant runs on (a variant per core).
    pub core: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeasureDto {
    /// The timed window starts when this symbol first executes...
    pub start: Option<Spanned<String>>,
    /// ...and ends when this one does.
    pub end: Option<Spanned<String>>,
    /// Each execution of this symbol inside the window is one iteration.
    pub iteration: Spanned<String>,
    /// Instead of start/end symbols, for a loop that never ends (a real
    /// kernel's init): skip this many iterations...
    pub warmup: Option<u64>,
    /// ...then time this many; the run ends after them.
    pub iterations: Option<Spanned<u64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NarrationDto {
    pub at: Spanned<String>,
    pub text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectDto {
    /// What it checks, in words.
    pub name: String,
    /// `VARIANT.METRIC OP (VARIANT.METRIC | NUMBER)`, e.g.
    /// `after.insns_per_iteration.entry < before.insns_per_iteration.entry`.
    pub check: Spanned<String>,
    /// Only on this core (default: every core the scenario names).
    pub core: Option<Spanned<String>>,
}
