//! The ELF64 file header and program headers, read by hand (System V gABI,
//! "ELF Header" and "Program Header"), so that a file trapscope cannot run is
//! refused in ELF's own terms (EI_CLASS, EI_DATA, e_machine, p_memsz) rather
//! than with whatever a general parser trips over first.

/// `e_machine` of RISC-V.
pub const EM_RISCV: u16 = 243;
/// Size of an ELF64 file header.
const EHDR_SIZE: usize = 64;
/// Size of an ELF64 program header.
const PHDR_SIZE: usize = 56;
const PT_LOAD: u32 = 1;
/// RISC-V physical addresses have at most 56 bits (privileged spec, "Sv57":
/// PPNs are 44 bits, so physical addresses are 56 bits wide).
pub const PHYS_ADDR_BITS: u32 = 56;

/// One PT_LOAD program header, checked against the file and the address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    /// Its index in the program header table.
    pub index: usize,
    pub vaddr: u64,
    pub memsz: u64,
    pub offset: u64,
    pub filesz: u64,
    pub flags: u32,
}

/// What the header says, once it describes an RV64 little-endian file.
#[derive(Debug)]
pub struct Header {
    pub entry: u64,
    pub loads: Vec<Load>,
}

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

fn u64_at(b: &[u8], o: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[o..o + 8]);
    u64::from_le_bytes(a)
}

/// A name for common `e_machine` values, for the error message.
fn machine_name(m: u16) -> &'static str {
    match m {
        0 => "EM_NONE",
        3 => "EM_386, x86",
        8 => "EM_MIPS",
        20 => "EM_PPC",
        21 => "EM_PPC64",
        22 => "EM_S390",
        40 => "EM_ARM",
        62 => "EM_X86_64, x86-64",
        183 => "EM_AARCH64",
        258 => "EM_LOONGARCH",
        _ => "not RISC-V",
    }
}

/// A byte count as people write it (`1 TiB`, `4 KiB`), exact or in bytes.
pub fn size_text(n: u64) -> String {
    const UNITS: [(u64, &str); 5] = [
        (1 << 50, "PiB"),
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (u, name) in UNITS {
        if n >= u && n.is_multiple_of(u) {
            return format!("{} {name}", n / u);
        }
    }
    format!("{n} bytes")
}

/// Why the ELF header or a program header is not an RV64 little-endian
/// executable's (`parse`, `check_ident`): one line in ELF's terms, without
/// the file name (`ElfError` adds it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("not an ELF file (no \\x7fELF magic)")]
    NoMagic,
    #[error("a 32-bit ELF (EI_CLASS=1, ELFCLASS32): trapscope runs RV64 guests (ELFCLASS64)")]
    Class32,
    #[error("invalid ELF class EI_CLASS={class} (RV64 is 2, ELFCLASS64)")]
    BadClass { class: u8 },
    #[error(
        "a big-endian ELF (EI_DATA=2, ELFDATA2MSB): RISC-V guests are little-endian (ELFDATA2LSB)"
    )]
    BigEndian,
    #[error("invalid ELF data encoding EI_DATA={data} (1 is little-endian)")]
    BadData { data: u8 },
    /// Shorter than an ELF64 file header.
    #[error("truncated: the file has {len} bytes, an ELF64 header needs {EHDR_SIZE}")]
    TruncatedHeader { len: usize },
    #[error(
        "not a RISC-V RV64 ELF: e_machine is {machine} ({}), RISC-V is {EM_RISCV} (EM_RISCV)",
        machine_name(*machine)
    )]
    NotRiscv { machine: u16 },
    /// Not ET_EXEC or ET_DYN.
    #[error(
        "e_type is {e_type} ({}); trapscope runs executables (ET_EXEC, or ET_DYN)",
        type_name(*e_type)
    )]
    NotExecutable { e_type: u16 },
    #[error("no program headers (e_phnum is 0): nothing to load")]
    NoProgramHeaders,
    #[error("e_phnum is PN_XNUM (65535 or more program headers): not supported")]
    PnXnum,
    #[error("e_phentsize is {phentsize}, but ELF64 program headers are {PHDR_SIZE} bytes")]
    PhentSize { phentsize: u16 },
    #[error(
        "truncated: the program header table (e_phoff {phoff:#x}, {phnum} entries of {PHDR_SIZE} bytes) ends past the end of the file ({len} bytes)"
    )]
    TruncatedTable { phoff: u64, phnum: u16, len: usize },
    #[error("no loadable segments (no PT_LOAD with a size)")]
    NoLoads,
    #[error("the entry point e_entry {entry:#x} is odd: RISC-V instructions are 2-byte aligned")]
    OddEntry { entry: u64 },
    #[error("the entry point e_entry {entry:#x} is outside every loaded segment")]
    EntryOutside { entry: u64 },
    /// A PT_LOAD whose file bytes are fewer than they should be.
    #[error("{}: p_filesz {:#x} is larger than p_memsz", load_text(load), load.filesz)]
    FileszOverMemsz { load: Load },
    #[error(
        "{}: truncated: its file bytes (p_offset {:#x}, p_filesz {:#x}) end past the end of the file ({file_len} bytes)",
        load_text(load),
        load.offset,
        load.filesz
    )]
    TruncatedLoad { load: Load, file_len: u64 },
    #[error("{} wraps around the end of the 64-bit address space", load_text(load))]
    Wraps { load: Load },
    #[error(
        "{} ends at {end:#x}, beyond the {PHYS_ADDR_BITS}-bit physical address space of RISC-V",
        load_text(load)
    )]
    BeyondPhysical { load: Load, end: u64 },
}

/// Checks the file header and the PT_LOAD entries. Errors are one line,
/// without the file name (the caller adds it).
pub fn parse(b: &[u8]) -> Result<Header, HeaderError> {
    check_ident(b)?;
    check_type(u16_at(b, 16))?;
    let entry = u64_at(b, 24);
    parse_tables(b, entry)
}

/// The identification bytes and `e_machine`: an RV64 little-endian file, whatever
/// it loads (a vmlinux read for its symbols only passes this, not `parse`).
pub fn check_ident(b: &[u8]) -> Result<(), HeaderError> {
    if b.len() < 4 || &b[..4] != b"\x7fELF" {
        return Err(HeaderError::NoMagic);
    }
    let truncated = HeaderError::TruncatedHeader { len: b.len() };
    match b.get(4) {
        Some(2) => {}
        Some(1) => return Err(HeaderError::Class32),
        Some(&class) => return Err(HeaderError::BadClass { class }),
        None => return Err(truncated),
    }
    match b.get(5) {
        Some(1) => {}
        Some(2) => return Err(HeaderError::BigEndian),
        Some(&data) => return Err(HeaderError::BadData { data }),
        None => return Err(truncated),
    }
    if b.len() < EHDR_SIZE {
        return Err(truncated);
    }
    let machine = u16_at(b, 18);
    if machine != EM_RISCV {
        return Err(HeaderError::NotRiscv { machine });
    }
    Ok(())
}

/// What an `e_type` other than ET_EXEC and ET_DYN is, for the message.
fn type_name(t: u16) -> &'static str {
    match t {
        0 => "ET_NONE, no file type",
        1 => "ET_REL, a relocatable object: link it into an executable first",
        4 => "ET_CORE, a core dump",
        _ => "not a file type trapscope knows",
    }
}

/// `e_type`: an executable (ET_EXEC) or a position-independent one
/// (ET_DYN, loaded where its PT_LOADs say). A relocatable object or a core
/// dump may carry PT_LOADs too, but neither is a program to start.
fn check_type(t: u16) -> Result<(), HeaderError> {
    match t {
        2 | 3 => Ok(()),
        e_type => Err(HeaderError::NotExecutable { e_type }),
    }
}

fn parse_tables(b: &[u8], entry: u64) -> Result<Header, HeaderError> {
    let phoff = u64_at(b, 32);
    let phentsize = u16_at(b, 54);
    let phnum = u16_at(b, 56);
    if phnum == 0 {
        return Err(HeaderError::NoProgramHeaders);
    }
    if phnum == 0xffff {
        return Err(HeaderError::PnXnum);
    }
    if usize::from(phentsize) != PHDR_SIZE {
        return Err(HeaderError::PhentSize { phentsize });
    }
    let table_end = (u64::from(phnum) * PHDR_SIZE as u64)
        .checked_add(phoff)
        .filter(|&e| e <= b.len() as u64);
    if table_end.is_none() {
        return Err(HeaderError::TruncatedTable {
            phoff,
            phnum,
            len: b.len(),
        });
    }
    let mut loads = Vec::new();
    for index in 0..usize::from(phnum) {
        let o = phoff as usize + index * PHDR_SIZE;
        if u32_at(b, o) != PT_LOAD {
            continue;
        }
        let l = Load {
            index,
            flags: u32_at(b, o + 4),
            offset: u64_at(b, o + 8),
            vaddr: u64_at(b, o + 16),
            filesz: u64_at(b, o + 32),
            memsz: u64_at(b, o + 40),
        };
        check_load(&l, b.len() as u64)?;
        if l.memsz > 0 {
            loads.push(l);
        }
    }
    if loads.is_empty() {
        return Err(HeaderError::NoLoads);
    }
    if !entry.is_multiple_of(2) {
        return Err(HeaderError::OddEntry { entry });
    }
    if !loads
        .iter()
        .any(|l| entry >= l.vaddr && entry - l.vaddr < l.memsz)
    {
        return Err(HeaderError::EntryOutside { entry });
    }
    Ok(Header { entry, loads })
}

/// A PT_LOAD as its errors name it.
fn load_text(l: &Load) -> String {
    format!(
        "program header {} (PT_LOAD at {:#x}, p_memsz {:#x} = {})",
        l.index,
        l.vaddr,
        l.memsz,
        size_text(l.memsz)
    )
}

/// One PT_LOAD: its bytes are in the file, and its memory fits the address space.
fn check_load(l: &Load, file_len: u64) -> Result<(), HeaderError> {
    let load = *l;
    if l.filesz > l.memsz {
        return Err(HeaderError::FileszOverMemsz { load });
    }
    if l.offset
        .checked_add(l.filesz)
        .is_none_or(|end| end > file_len)
    {
        return Err(HeaderError::TruncatedLoad { load, file_len });
    }
    let Some(end) = l.vaddr.checked_add(l.memsz) else {
        return Err(HeaderError::Wraps { load });
    };
    if end > 1 << PHYS_ADDR_BITS {
        return Err(HeaderError::BeyondPhysical { load, end });
    }
    Ok(())
}
