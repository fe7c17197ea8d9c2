//! The machine's errors: why a guest could not be loaded or resumed, why a
//! checkpoint could not be taken or put back, and unicorn's refusals in
//! words. A leaf: every file of the machine may name these, and they name
//! nothing of the machine.

use std::path::PathBuf;

use unicorn_engine::unicorn_const::uc_error;

use crate::program::elfhdr;

/// unicorn's error in words, so that its internal names (`NOMEM`,
/// `WRITE_UNMAPPED`) never reach a user.
pub fn uc_text(e: uc_error) -> &'static str {
    match e {
        uc_error::OK => "no error",
        uc_error::NOMEM => "the host is out of memory for the guest",
        uc_error::READ_UNMAPPED => "a read of unmapped memory",
        uc_error::WRITE_UNMAPPED => "a write to unmapped memory",
        uc_error::FETCH_UNMAPPED => "a fetch from unmapped memory",
        uc_error::READ_PROT => "a read of memory without read permission",
        uc_error::WRITE_PROT => "a write to memory without write permission",
        uc_error::FETCH_PROT => "a fetch from memory without execute permission",
        uc_error::READ_UNALIGNED | uc_error::WRITE_UNALIGNED | uc_error::FETCH_UNALIGNED => {
            "a misaligned access the emulator refused"
        }
        uc_error::INSN_INVALID => "an instruction the emulator rejected",
        uc_error::EXCEPTION => "an exception the emulator did not deliver",
        uc_error::MAP => "a memory mapping that overlaps another or is invalid",
        uc_error::ARG => "an argument the emulator refused",
        uc_error::HOOK | uc_error::HOOK_EXIST => "a hook the emulator refused",
        uc_error::RESOURCE => "the emulator ran out of a resource",
        uc_error::ARCH | uc_error::MODE | uc_error::HANDLE | uc_error::VERSION => {
            "the emulator could not be set up"
        }
    }
}

/// What unicorn refused, shown in words (`uc_text`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Uc(pub uc_error);

impl std::fmt::Display for Uc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(uc_text(self.0))
    }
}

impl std::error::Error for Uc {}

impl From<uc_error> for Uc {
    fn from(e: uc_error) -> Uc {
        Uc(e)
    }
}

/// A program header, as the messages about one name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub index: usize,
    pub vaddr: u64,
    pub memsz: u64,
}

/// Why a guest could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// unicorn refused to set up or change the machine.
    #[error("emulator: {0}")]
    Emulator(#[from] Uc),
    /// A device's registers could not be mapped.
    #[error("cannot map the {device} at {base:#x}: {err}")]
    MapDevice {
        device: &'static str,
        base: u64,
        err: Uc,
    },
    /// A loadable segment lies over a device.
    #[error(
        "{}: segment {index} ({start:#x}..{end:#x}) overlaps the {device} at {dev_start:#x}..{dev_end:#x}",
        path.display()
    )]
    OverDevice {
        path: PathBuf,
        index: usize,
        start: u64,
        end: u64,
        device: &'static str,
        dev_start: u64,
        dev_end: u64,
    },
    /// The segments need more memory than `--mem-limit` allows.
    #[error(
        "{}: program header {} (PT_LOAD at {:#x}, p_memsz {:#x} = {}) takes the guest's memory to {}, over the limit of {} (raise it with --mem-limit)",
        path.display(), header.index, header.vaddr, header.memsz,
        elfhdr::size_text(header.memsz), elfhdr::size_text(*total), elfhdr::size_text(*limit)
    )]
    OverLimit {
        path: PathBuf,
        header: Header,
        total: u64,
        limit: u64,
    },
    /// The segments scatter over more mappings than the machine makes.
    #[error(
        "{}: program header {} (PT_LOAD at {:#x}, p_memsz {:#x}) makes more than {most} separate memory regions, the most trapscope maps",
        path.display(), header.index, header.vaddr, header.memsz
    )]
    TooManyRegions {
        path: PathBuf,
        header: Header,
        most: usize,
    },
    /// unicorn would not map a region of guest memory.
    #[error(
        "{}: cannot map guest memory {start:#x}..{end:#x}{}: {err}",
        path.display(),
        header.map_or(String::new(), |h| format!(
            " (program header {}, PT_LOAD at {:#x}, p_memsz {:#x})",
            h.index, h.vaddr, h.memsz
        ))
    )]
    CannotMap {
        path: PathBuf,
        start: u64,
        end: u64,
        header: Option<Header>,
        err: Uc,
    },
    /// A saved state the machine cannot take (`checkpoint/resume.rs`).
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// The guest ELF could not be read.
    #[error(transparent)]
    Elf(#[from] crate::program::ElfError),
    /// A saved state with vector registers, on a machine built without a
    /// V unit; which cores have one is the caller's to say.
    #[error("the snapshot has vector state (VLEN {vlen}) but the core has no V unit")]
    NoVectorUnit { vlen: u32 },
}

impl From<uc_error> for LoadError {
    fn from(e: uc_error) -> LoadError {
        LoadError::Emulator(Uc(e))
    }
}

/// Why a saved state (a snapshot's registers) does not hold in the machine.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("cannot restore fcsr = {0:#x}")]
    Fcsr(u64),
    #[error("cannot restore mstatus = {0:#x}")]
    Mstatus(u64),
    #[error("cannot restore {} = {value:#x}", crate::isa::csr_name(*csr).unwrap_or("a CSR"))]
    Csr { csr: u16, value: u64 },
    /// satp is WARL: a mode unicorn lacks reads back as Bare.
    #[error(
        "satp = {0:#x} does not hold in the emulator (only Sv39 and Bare are supported; boot the kernel with no4lvl)"
    )]
    Satp(u64),
    #[error(
        "the snapshot was taken at VLEN {taken} but the core's VLEN is {core}: take it again with `trapscope snapshot --vlen {core}` (or --core)"
    )]
    Vlen { taken: u32, core: u32 },
    #[error("v{reg} has {got} bytes, VLEN {vlen} needs {need}")]
    VectorSize {
        reg: usize,
        got: usize,
        vlen: u32,
        need: usize,
    },
}

/// Why a checkpoint could not be taken or put back.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("tracking RAM writes: {0}")]
    Track(Uc),
    #[error("checkpoint: {0}")]
    Save(Uc),
    #[error("a checkpoint goes back only into the machine it was taken of")]
    OtherMachine,
    #[error("restoring RAM at {at:#x}: {err}")]
    Ram { at: u64, err: Uc },
    #[error("restoring the CPU: {0}")]
    Cpu(Uc),
}
