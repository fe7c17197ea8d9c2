//! Core profiles: the cost model's parameters, as data (DESIGN.md decision 9).
//!
//! Every value carries where it comes from: a `source` (REFERENCE.md names
//! them) or an `assumption` with its reason, and may be marked `unverified`.
//! Reports show unverified values as such.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::scenario::{Locator, ScenarioError};

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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamDto<T> {
    value: serde_spanned::Spanned<T>,
    source: Option<String>,
    assumption: Option<String>,
    #[serde(default)]
    unverified: bool,
}

macro_rules! profile_struct {
    ($(#[$m:meta])* $name:ident, $dto:ident { $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name { $($(#[$fm])* pub $field: Param<$ty>,)* }

        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct $dto { $($field: serde_spanned::Spanned<ParamDto<$ty>>,)* }

        impl $dto {
            /// Converts, noting where each value sits (for range errors).
            fn convert(self, loc: &Locator<'_>, at: &mut Spans) -> Result<$name, ScenarioError> {
                Ok($name { $($field: param(loc, stringify!($field), self.$field, at)?,)* })
            }
        }

        impl $name {
            /// (name, value as text, basis, unverified) for each parameter.
            pub fn rows(&self) -> Vec<(&'static str, String, &Basis, bool)> {
                vec![$((stringify!($field), format!("{}", self.$field.value), &self.$field.basis, self.$field.unverified),)*]
            }
        }
    };
}

profile_struct!(
    /// The pipeline and its predictors.
    Core, CoreDto {
        /// Clock in GHz, to turn cycles into ns.
        clock_ghz: f64,
        /// `time` CSR frequency.
        timebase_hz: f64,
        /// Instructions issued per cycle (in-order cores: the pairing limit).
        issue_width: u32,
        out_of_order: bool,
        /// Cycles lost on a mispredicted branch, jump or return.
        mispredict_penalty: u32,
        /// Return-address-stack entries.
        ras_depth: u32,
        /// 2-bit counters in the bimodal branch table.
        bht_entries: u32,
        /// Branch-target-buffer entries (indirect jumps).
        btb_entries: u32,
        /// Cycles from a load to an instruction that uses its result.
        load_use_latency: u32,
        /// Cycles from the trapping instruction to the handler's first one.
        trap_entry: u32,
        /// Cycles for `sret`/`mret` to reach the target.
        trap_return: u32,
    }
);

profile_struct!(
    /// Cycles per instruction of each class. Classes the core can pair (ALU,
    /// multiply, load, store, branch, jump) are divided by the issue width.
    Costs, CostsDto {
        alu: u32,
        mul: u32,
        div: u32,
        load: u32,
        store: u32,
        branch: u32,
        jump: u32,
        /// A CSR read with no write (`csrr`).
        csr_read: u32,
        /// A CSR write to a CSR without side effects on the pipeline.
        csr_write: u32,
        /// A write to `sstatus`/`mstatus`/`satp`, which changes how later
        /// instructions run and serialises the pipeline.
        csr_status_write: u32,
        /// `rdcycle`/`rdtime`/`rdinstret`.
        counter_read: u32,
        fence: u32,
        fence_i: u32,
        amo: u32,
        lr: u32,
        sc: u32,
        /// `ecall`, `ebreak`, `wfi`, `sfence.vma` (the trap itself is `trap_entry`).
        system: u32,
        fp: u32,
    }
);

profile_struct!(
    /// The vector unit (used by the vector scenarios).
    Vector, VectorDto {
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
        /// false: vector work overlaps scalar code until a sstatus/mstatus
        /// write, a vsetvl* or a vmv.x.s, which wait for it.
        scalar_waits: bool,
    }
);

profile_struct!(
    /// Atomics (seed 004).
    Atomics, AtomicsDto {
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
    cost: CostsDto,
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
    pub cost: Costs,
    pub vector: Vector,
    pub atomics: Atomics,
}

/// Byte offset of each parameter's value in the file, by field name.
pub(crate) type Spans = Vec<(&'static str, usize)>;

fn param<T>(
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
    Ok(Param {
        value: p.value.into_inner(),
        basis,
        unverified: p.unverified,
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
            cost: dto.cost.convert(&loc, &mut at)?,
            vector: dto.vector.convert(&loc, &mut at)?,
            atomics: dto.atomics.convert(&loc, &mut at)?,
        };
        super::validate::check(&p).map_err(|(field, msg)| {
            let off = at.iter().find(|(n, _)| *n == field).map_or(0, |(_, o)| *o);
            loc.at(off, msg)
        })?;
        Ok(p)
    }

    /// All parameters, for the report's "unverified" notes and `list`.
    pub fn rows(&self) -> Vec<(&'static str, String, &Basis, bool)> {
        let mut v = self.core.rows();
        v.extend(self.cost.rows());
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

    /// The shipped profiles directory.
    pub fn dir() -> PathBuf {
        crate::project_dir().join("assets").join("cores")
    }

    /// A shipped profile by name (`u74`), or a path to a user's own `.toml`.
    pub fn find(name_or_path: &str) -> Result<Profile, String> {
        let p = Path::new(name_or_path);
        if name_or_path.ends_with(".toml") || p.components().count() > 1 {
            return Profile::load(p).map_err(|e| e.to_string());
        }
        let path = Profile::dir().join(format!("{name_or_path}.toml"));
        if !path.exists() {
            return Err(format!(
                "unknown core '{name_or_path}' (cores: {}; or give a path to a profile .toml)",
                Profile::names().join(", ")
            ));
        }
        Profile::load(&path).map_err(|e| e.to_string())
    }

    pub fn names() -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(Profile::dir())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| {
                        let p = e.path();
                        if p.extension()? != "toml" {
                            return None;
                        }
                        Some(p.file_stem()?.to_string_lossy().into_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }
}
