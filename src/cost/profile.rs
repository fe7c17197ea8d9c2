//! Core profiles: the cost model's parameters, as data.
//!
//! Every value carries where it comes from: a `source` (REFERENCE.md names
//! them) or an `assumption` with its reason, and may be marked `unverified`.
//! Reports show unverified values as such.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ends::{EndValue, Ends, Val};
pub use super::ranged::Ranged;
use crate::located::{Locator, ScenarioError};

/// Where a parameter's value comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Basis {
    Source(String),
    Assumption(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param<T> {
    pub value: T,
    pub basis: Basis,
    pub unverified: bool,
    /// The values a band tries in its place (`Ends::Fixed`: none).
    pub ends: Ends<T>,
    /// The source or structure behind each end.
    pub range_why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamDto<T> {
    value: serde_spanned::Spanned<T>,
    source: Option<String>,
    assumption: Option<String>,
    #[serde(default)]
    unverified: bool,
    range: Option<Vec<T>>,
    alternatives: Option<Vec<T>>,
    range_why: Option<String>,
}

macro_rules! profile_struct {
    ($(#[$m:meta])* $name:ident, $dto:ident, $section:literal { $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name { $($(#[$fm])* pub $field: Param<$ty>,)* }

        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct $dto { $($field: serde_spanned::Spanned<ParamDto<$ty>>,)* }

        impl $dto {
            /// Converts, noting where each value sits (for range errors).
            fn convert(self, loc: &Locator<'_>, at: &mut Spans) -> Result<$name, ScenarioError> {
                Ok($name { $($field: param(loc, concat!($section, ".", stringify!($field)), self.$field, at)?,)* })
            }
        }

        impl $name {
            /// (name, value as text, basis, unverified) for each parameter.
            pub fn rows(&self) -> Vec<(&'static str, String, &Basis, bool)> {
                vec![$((stringify!($field), format!("{}", self.$field.value), &self.$field.basis, self.$field.unverified),)*]
            }

            /// Each parameter's name, its value and its ends (empty: fixed),
            /// as the band sees them.
            pub fn ends(&self) -> Vec<Ranged<'_>> {
                vec![$(Ranged {
                    section: $section,
                    name: stringify!($field),
                    value: self.$field.value.to_val(),
                    ends: self.$field.ends.vals(),
                    text: self.$field.ends.text(),
                    why: self.$field.range_why.as_deref(),
                },)*]
            }

            /// Sets parameter `name` to `v`; false: no such parameter, or
            /// `v` is not of its type.
            pub fn set(&mut self, name: &str, v: &Val) -> bool {
                match name {
                    $(stringify!($field) => match EndValue::from_val(v) {
                        Some(x) => { self.$field.value = x; true }
                        None => false,
                    },)*
                    _ => false,
                }
            }
        }
    };
}

profile_struct!(
    /// The pipeline and its predictors.
    Core, CoreDto, "core" {
        /// Clock in GHz, to turn cycles into ns.
        clock_ghz: f64,
        /// `time` CSR frequency.
        timebase_hz: f64,
        /// Instructions issued per cycle (in-order: the pairing limit;
        /// out-of-order: the dispatch width).
        issue_width: u32,
        /// Instructions retired per cycle (out-of-order cores).
        commit_width: u32,
        out_of_order: bool,
        /// Reorder-buffer entries (out-of-order cores; 0 in-order).
        window: u32,
        /// Pipeline stages, named in the source text.
        pipeline_depth: u32,
        /// Stages from fetch to issue (dispatch): the refill after a redirect
        /// (it documents the derivations; the model uses the penalties and
        /// refetch costs derived from it).
        frontend_stages: u32,
        /// Return-address-stack entries.
        ras_depth: u32,
        /// 2-bit counters in the bimodal branch table.
        bht_entries: u32,
        /// Target-buffer entries for indirect jumps.
        btb_entries: u32,
        /// Taking a trap or returning from one empties the RAS.
        trap_flushes_ras: bool,
        /// RAS entries carry the privilege mode they were pushed in; a return
        /// in another mode does not use them.
        ras_privilege_tags: bool,
        /// Cycles lost on a mispredicted conditional branch.
        mispredict_branch: u32,
        /// Cycles lost on a return the RAS predicted wrong.
        mispredict_return: u32,
        /// Cycles lost on an indirect jump whose target was predicted wrong.
        mispredict_indirect: u32,
        /// Out-of-order: the correct path after a mispredict dispatches no
        /// earlier than this many cycles after the mispredicted instruction
        /// retires (0: recovery does not wait for retire).
        recover_after_retire: u32,
        /// Fetch bubble after a correctly predicted taken branch or jump.
        taken_bubble: u32,
        /// In-order: a correctly predicted taken branch or jump ends its
        /// issue group, so the instruction at its target issues in a later
        /// cycle even with no bubble (a bubble always ends the group).
        taken_ends_group: bool,
        /// Cycles from the trapping instruction to the handler's first issue,
        /// beyond that instruction's own slot.
        trap_entry: u32,
        /// Cycles from `sret`/`mret` to the first instruction at the target,
        /// beyond the xRET's own slot.
        trap_return: u32,
    }
);

profile_struct!(
    /// Which pipe each class issues to (in-order cores) or executes on
    /// (out-of-order cores: one instruction per pipe per cycle): a string of
    /// pipe letters, "A" the first pipe, "AB" either of two.
    Issue, IssueDto, "issue" {
        /// How many pipes there are.
        pipes: u32,
        alu: String,
        load: String,
        store: String,
        control: String,
        muldiv: String,
        fp: String,
        vector: String,
        csr: String,
        system: String,
    }
);

profile_struct!(
    /// Result latencies: cycles from a producer's issue to the first cycle an
    /// ordinary consumer of its result can issue.
    Latency, LatencyDto, "latency" {
        alu: u32,
        /// An ALU op whose operands are ready when it issues executes early
        /// and its result is ready this many cycles later (0: no early ALU).
        alu_early: u32,
        load: u32,
        mul: u32,
        div: u32,
        /// Cycles the divider is busy, during which no other div issues.
        div_busy: u32,
        /// Double-precision add, multiply and fused multiply-add.
        fp: u32,
        /// Track the f registers in the scoreboard (the latencies below and
        /// `fp`); off: an FP op costs its issue slot only.
        fp_dependences: bool,
        /// Single-precision add, multiply and fused multiply-add.
        fp_single: u32,
        /// Sign injection, min/max, compares, classify, moves between the
        /// register files and conversions.
        fp_other: u32,
        /// An FP load's result.
        fp_load: u32,
        /// Double-precision divide and square root.
        fp_div: u32,
        /// Single-precision divide and square root.
        fp_div_single: u32,
        csr_read: u32,
        /// Latency of the link register of `jal`/`jalr`.
        jump_link: u32,
        amo: u32,
        lr: u32,
        sc: u32,
        /// Cycles a bypassed consumer reads its operand later than issue.
        late_advance: u32,
        /// Producer classes whose results take the bypass (comma list of
        /// alu, load, mul, csr, jump, amo).
        bypass_from: String,
        /// Consumers that read through the bypass (comma list of alu,
        /// branch, store_data, mul).
        bypass_to: String,
    }
);

profile_struct!(
    /// What serialises the pipeline and what it costs.
    Serialise, SerialiseDto, "serialise" {
        /// Which CSR writes flush the instructions after them: "all",
        /// "rocket" (all but the scratch/epc/cause/tval CSRs), "status"
        /// (sstatus, mstatus, satp) or "none".
        csr_write_flush: String,
        /// Cycles from a flushing CSR write to the next instruction's issue.
        csr_flush: u32,
        /// Out-of-order: a CSR read waits for every older instruction to
        /// retire and the instructions after it are refetched.
        csr_read_serialises: bool,
        /// Out-of-order: cycles from the window emptying to the dispatch of
        /// the serialising instruction that waited for it.
        drain_dispatch: u32,
        /// Out-of-order: the same for CSR writes.
        csr_write_serialises: bool,
        /// Cycles a `fence` adds (in-order), beyond its slot.
        fence: u32,
        /// Cycles `fence.i` adds: the refetch.
        fence_i: u32,
        /// Cycles `sfence.vma` adds.
        sfence_vma: u32,
        /// Out-of-order: AMOs and LR/SC execute at retire, after a drain.
        amo_serialises: bool,
        /// Out-of-order: a plain `fence` waits for the window to empty.
        fence_drains: bool,
        /// Out-of-order: `sret`, `mret` and `wfi` wait for the window to
        /// empty.
        system_drains: bool,
    }
);

profile_struct!(
    /// The vector unit (used by the vector scenarios).
    Vector, VectorDto, "vector" {
        /// Whether the core has a vector unit the minikernel can use.
        present: bool,
        /// Bits per vector register (0 without V).
        vlen: u32,
        /// Bits the datapath handles per cycle.
        dlen: u32,
        /// Cycles `vsetvl*` takes.
        vsetvl: u32,
        /// Whole-register load/store of n registers: base + per_reg · n.
        whole_reg_base: u32,
        whole_reg_per_reg: u32,
        /// true: the scalar pipeline waits for every vector instruction.
        /// false: vector work overlaps scalar code until an instruction in
        /// `waits_at` waits for it.
        scalar_waits: bool,
        /// Where the scalar pipeline waits for the vector unit to finish
        /// (comma list of status_write, vsetvl, vmv.x.s, csr).
        waits_at: String,
    }
);

profile_struct!(
    /// Atomics (seed 004).
    Atomics, AtomicsDto, "atomics" {
        /// AMOs raise illegal-instruction to M-mode firmware, which emulates them.
        amo_traps: bool,
        /// Cycles an SC spends at the reservation monitor, beyond `sc`
        /// (L1 monitor: 6-12; L2 / point of coherence: about 40).
        monitor_cycles: u32,
    }
);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileDto {
    name: String,
    title: String,
    #[serde(default)]
    board: String,
    /// "v1.0" (the default) or "xtheadvector" (RVV 0.7.1, not run).
    #[serde(default = "v10")]
    vector_isa: serde_spanned::Spanned<String>,
    core: CoreDto,
    issue: IssueDto,
    latency: LatencyDto,
    serialise: SerialiseDto,
    vector: VectorDto,
    atomics: AtomicsDto,
}

fn v10() -> serde_spanned::Spanned<String> {
    serde_spanned::Spanned::new(0..0, "v1.0".into())
}

#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub name: String,
    pub title: String,
    pub board: String,
    /// Which vector ISA the unit implements: "v1.0" or "xtheadvector".
    pub vector_isa: String,
    pub path: PathBuf,
    pub core: Core,
    pub issue: Issue,
    pub latency: Latency,
    pub serialise: Serialise,
    pub vector: Vector,
    pub atomics: Atomics,
}

/// Byte offset of each parameter's value in the file, by field name.
pub(crate) type Spans = Vec<(&'static str, usize)>;

fn param<T: EndValue>(
    loc: &Locator<'_>,
    name: &'static str,
    p: serde_spanned::Spanned<ParamDto<T>>,
    at: &mut Spans,
) -> Result<Param<T>, ScenarioError> {
    let span = p.span();
    let p = p.into_inner();
    at.push((name, p.value.span().start));
    let basis = match (p.source, p.assumption) {
        (Some(s), None) if !s.trim().is_empty() => Basis::Source(s),
        (None, Some(a)) if !a.trim().is_empty() => Basis::Assumption(a),
        (Some(_), Some(_)) => {
            return Err(loc.at(
                span.start,
                format!("'{name}' has both a source and an assumption: pick one"),
            ));
        }
        _ => {
            return Err(loc.at(
                span.start,
                format!("'{name}' needs a `source` or an `assumption` (with its reason)"),
            ));
        }
    };
    let value = p.value.into_inner();
    let short: &'static str = name.rsplit('.').next().unwrap_or(name);
    let ends = super::ends::build(short, p.range, p.alternatives, p.range_why.as_deref())
        .map_err(|e| loc.at(span.start, e.to_string()))?;
    // An assumption or an unverified value must say how far it could be
    // off: a band varies it over its ends.
    if ends == Ends::Fixed && (p.unverified || matches!(basis, Basis::Assumption(_))) {
        return Err(loc.at(
            span.start,
            super::ends::EndsError::Missing(short).to_string(),
        ));
    }
    Ok(Param {
        value,
        basis,
        unverified: p.unverified,
        ends,
        range_why: p.range_why,
    })
}

impl Profile {
    pub fn load(path: &Path) -> Result<Profile, ScenarioError> {
        Profile::parse(path, &Locator::read(path, "core profile")?)
    }

    pub fn parse(path: &Path, src: &str) -> Result<Profile, ScenarioError> {
        let loc = Locator { file: path, src };
        let dto: ProfileDto = loc.parse()?;
        let mut at = Spans::new();
        let core = dto.core.convert(&loc, &mut at)?;
        if !matches!(dto.vector_isa.get_ref().as_str(), "v1.0" | "xtheadvector") {
            return Err(loc.span(
                &dto.vector_isa,
                format!(
                    "vector_isa '{}': write \"v1.0\" or \"xtheadvector\"",
                    dto.vector_isa.get_ref()
                ),
            ));
        }
        let p = Profile {
            name: dto.name,
            title: dto.title,
            board: dto.board,
            vector_isa: dto.vector_isa.into_inner(),
            path: path.to_path_buf(),
            core,
            issue: dto.issue.convert(&loc, &mut at)?,
            latency: dto.latency.convert(&loc, &mut at)?,
            serialise: dto.serialise.convert(&loc, &mut at)?,
            vector: dto.vector.convert(&loc, &mut at)?,
            atomics: dto.atomics.convert(&loc, &mut at)?,
        };
        let p = super::validate::check(&p).map(|_| p).map_err(|e| {
            let field = e.field();
            let off = at
                .iter()
                .find(|(n, _)| *n == field || n.rsplit('.').next() == Some(field))
                .map_or(0, |(_, o)| *o);
            loc.at(off, e.to_string())
        })?;
        // Each value inside its own ends, once the values themselves
        // passed: a value out of its range says so first.
        if let Some(r) = p.ranged().into_iter().find(|r| !r.inside()) {
            let name = format!("{}.{}", r.section, r.name);
            let off = at.iter().find(|(n, _)| *n == name).map_or(0, |(_, o)| *o);
            return Err(loc.at(off, r.outside_error().to_string()));
        }
        Ok(p)
    }

    /// All parameters, for the report's "unverified" notes and `list`.
    pub fn rows(&self) -> Vec<(&'static str, String, &Basis, bool)> {
        let mut v = self.core.rows();
        v.extend(self.issue.rows());
        v.extend(self.latency.rows());
        v.extend(self.serialise.rows());
        v.extend(self.vector.rows());
        v.extend(self.atomics.rows());
        v
    }

    pub fn unverified(&self) -> Vec<&'static str> {
        self.rows()
            .into_iter()
            .filter(|r| r.3)
            .map(|r| r.0)
            .collect()
    }
}
