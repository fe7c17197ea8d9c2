//! A guest program: its loadable segments, symbols and DWARF line table.
//!
//! Parsed once from the ELF bytes with `object` (segments, symbols) and `gimli`
//! (the `.debug_line` program), so that any pc maps to a symbol and to a `.S`
//! file and line.

use std::path::{Path, PathBuf};

use object::{Object, ObjectSymbol, SymbolKind};

pub mod dwarf;
pub mod elfhdr;
mod lookup;

pub use dwarf::{Member, SourceName, source_names};

pub use elfhdr::HeaderError;
pub use lookup::LookupError;

/// Why a guest ELF (or a vmlinux read for its symbols) cannot be read, with
/// its path: `Program::load`, `parse` and `parse_symbols`.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    /// The file could not be read (`input::read_regular`).
    #[error("{}: {err}", path.display())]
    Io {
        path: PathBuf,
        err: crate::input::ReadError,
    },
    /// Its headers are not an RV64 little-endian executable's.
    #[error("{}: {err}", path.display())]
    Header { path: PathBuf, err: HeaderError },
    /// `object` could not parse it.
    #[error("{}: malformed ELF: {err}", path.display())]
    Malformed {
        path: PathBuf,
        err: object::read::Error,
    },
    /// `object` reads another architecture.
    #[error("{}: not a RISC-V RV64 ELF (architecture {arch:?})", path.display())]
    Architecture {
        path: PathBuf,
        arch: object::Architecture,
    },
}

/// One PT_LOAD segment.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Its index in the ELF's program header table (for messages).
    pub index: usize,
    pub vaddr: u64,
    pub memsz: u64,
    pub data: Vec<u8>,
    pub exec: bool,
    pub write: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u64,
    pub size: u64,
    pub is_func: bool,
}

/// A row of the line table: instructions from `addr` on come from `file:line`.
#[derive(Clone, Copy, Debug)]
pub(super) struct LineRow {
    pub(super) addr: u64,
    pub(super) file: u16,
    pub(super) line: u32,
    pub(super) end_sequence: bool,
}

/// A source location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SrcLoc {
    pub file: u16,
    pub line: u32,
}

#[derive(Debug)]
pub struct Program {
    pub path: PathBuf,
    pub entry: u64,
    pub segments: Vec<Segment>,
    /// Sorted by address.
    symbols: Vec<Symbol>,
    lines: Vec<LineRow>,
    /// Source file names as recorded in DWARF (relative to guest-asm/).
    pub files: Vec<String>,
    /// Directories a relative source file name may be under: the DWARF
    /// compilation directory of a vmlinux, or `--kernel-src`.
    pub src_roots: Vec<PathBuf>,
    /// The code is not in `segments` ahead of time (a snapshot's RAM holds
    /// it at physical addresses that paging maps elsewhere): intercepts are
    /// found as blocks are first decoded, never by a scan at load.
    pub dynamic_code: bool,
    /// Per file (as `files`): the time of the build its lines come from (a
    /// vmlinux's mtime). A source file changed since then may no longer
    /// hold those lines, so it is not shown (`session::source`).
    pub built: Vec<Option<std::time::SystemTime>>,
    /// Per file (as `files`): a copy of its source stored with a snapshot
    /// (`qemu::init_src`), read before any other place.
    pub copies: Vec<Option<PathBuf>>,
    /// `struct pt_regs` from a vmlinux's DWARF (empty without one).
    pub pt_regs: Vec<dwarf::Member>,
}

impl Program {
    pub fn load(path: &Path) -> Result<Program, ElfError> {
        let bytes = crate::input::read_regular(path, "guest ELF", crate::input::ELF_MAX).map_err(
            |err| ElfError::Io {
                path: path.to_path_buf(),
                err,
            },
        )?;
        Program::parse(path, &bytes)
    }

    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Program, ElfError> {
        // The header first, in ELF's terms: `object` reports a big-endian
        // file as a bad program header size, and does not look at the entry.
        let header = elfhdr::parse(bytes).map_err(|err| ElfError::Header {
            path: path.to_path_buf(),
            err,
        })?;
        let file = object::File::parse(bytes).map_err(|err| ElfError::Malformed {
            path: path.to_path_buf(),
            err,
        })?;
        if file.architecture() != object::Architecture::Riscv64 {
            return Err(ElfError::Architecture {
                path: path.to_path_buf(),
                arch: file.architecture(),
            });
        }
        let segments: Vec<Segment> = header
            .loads
            .iter()
            .map(|l| Segment {
                index: l.index,
                vaddr: l.vaddr,
                memsz: l.memsz,
                // In bounds: `elfhdr::parse` checked p_offset + p_filesz.
                data: bytes[l.offset as usize..(l.offset + l.filesz) as usize].to_vec(),
                exec: l.flags & 1 != 0,
                write: l.flags & 2 != 0,
            })
            .collect();
        let (symbols, files, lines) = symbols_and_lines(&file);
        Ok(Program {
            path: path.to_path_buf(),
            entry: header.entry,
            segments,
            symbols,
            lines,
            files,
            src_roots: Vec::new(),
            dynamic_code: false,
            built: Vec::new(),
            copies: Vec::new(),
            // A bare-metal kernel in C may have one (the pt_regs pane).
            pt_regs: dwarf::struct_members(&file, "pt_regs").unwrap_or_default(),
        })
    }

    /// The symbols and line table of an ELF whose segments are not loaded:
    /// a vmlinux, whose code a snapshot's RAM holds. Only the identification
    /// is checked (a kernel links above 2^56, which `parse` refuses to load).
    pub fn parse_symbols(path: &Path, bytes: &[u8]) -> Result<Program, ElfError> {
        elfhdr::check_ident(bytes).map_err(|err| ElfError::Header {
            path: path.to_path_buf(),
            err,
        })?;
        let file = object::File::parse(bytes).map_err(|err| ElfError::Malformed {
            path: path.to_path_buf(),
            err,
        })?;
        let (symbols, files, lines) = symbols_and_lines(&file);
        let src_roots = dwarf::comp_dirs(&file);
        let mtime = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let built = vec![mtime; files.len()];
        Ok(Program {
            path: path.to_path_buf(),
            entry: file.entry(),
            segments: Vec::new(),
            symbols,
            lines,
            files,
            src_roots,
            dynamic_code: false,
            built,
            copies: Vec::new(),
            pt_regs: dwarf::struct_members(&file, "pt_regs").unwrap_or_default(),
        })
    }

    /// A guest whose memory is given whole (a snapshot's RAM), with the
    /// symbols and lines of the programs it holds (the kernel, the init).
    pub fn from_memory(
        path: &Path,
        entry: u64,
        segments: Vec<Segment>,
        parts: Vec<Program>,
    ) -> Program {
        let mut symbols = Vec::new();
        let mut lines = Vec::new();
        let mut files = Vec::new();
        let mut src_roots = Vec::new();
        let mut built = Vec::new();
        let mut copies = Vec::new();
        let mut pt_regs = Vec::new();
        for p in parts {
            if pt_regs.is_empty() {
                pt_regs = p.pt_regs;
            }
            let base = files.len() as u16;
            built.extend((0..p.files.len()).map(|i| p.built.get(i).copied().flatten()));
            copies.extend((0..p.files.len()).map(|i| p.copies.get(i).cloned().flatten()));
            symbols.extend(p.symbols);
            lines.extend(p.lines.into_iter().map(|mut r| {
                r.file = r.file.saturating_add(base);
                r
            }));
            files.extend(p.files);
            src_roots.extend(p.src_roots);
        }
        sort_symbols(&mut symbols);
        lines.sort_by(|a, b| {
            a.addr
                .cmp(&b.addr)
                .then(b.end_sequence.cmp(&a.end_sequence))
        });
        Program {
            path: path.to_path_buf(),
            entry,
            segments,
            symbols,
            lines,
            files,
            src_roots,
            dynamic_code: true,
            built,
            copies,
            pt_regs,
        }
    }
}

/// An ELF's symbols (sorted, without local labels) and DWARF line rows.
fn symbols_and_lines(file: &object::File<'_>) -> (Vec<Symbol>, Vec<String>, Vec<LineRow>) {
    let mut symbols: Vec<Symbol> = file
        .symbols()
        .filter(|s| {
            matches!(
                s.kind(),
                SymbolKind::Text | SymbolKind::Data | SymbolKind::Label
            ) || s.kind() == SymbolKind::Unknown
        })
        .filter(|s| s.section() != object::SymbolSection::Absolute)
        .filter(|s| in_memory(file, s))
        .filter_map(|s| {
            let name = s.name().ok()?;
            if name.is_empty() || name.starts_with(".L") || name.starts_with("$") {
                return None;
            }
            Some(Symbol {
                name: name.to_string(),
                addr: s.address(),
                size: s.size(),
                is_func: s.kind() == SymbolKind::Text,
            })
        })
        .collect();
    sort_symbols(&mut symbols);
    let (files, lines) = dwarf::line_table(file).unwrap_or_default();
    (symbols, files, lines)
}

/// Whether a symbol names an address in memory: not one defined in a
/// section the image does not load (ELF gABI: a section without SHF_ALLOC,
/// such as `.debug_info`, whose symbols hold offsets into it; a vmlinux has
/// them, e.g. the EFI stub's `__efistub_.Ldebug_info0`).
fn in_memory(file: &object::File<'_>, s: &object::Symbol<'_, '_>) -> bool {
    use object::ObjectSection;
    const SHF_ALLOC: u64 = 0x2;
    let Some(index) = s.section_index() else {
        return true;
    };
    match file.section_by_index(index).map(|sec| sec.flags()) {
        Ok(object::SectionFlags::Elf { sh_flags }) => sh_flags & SHF_ALLOC != 0,
        _ => true,
    }
}

fn sort_symbols(symbols: &mut Vec<Symbol>) {
    symbols.sort_by(|a, b| a.addr.cmp(&b.addr).then(b.size.cmp(&a.size)));
    symbols.dedup_by(|a, b| a.name == b.name && a.addr == b.addr);
}
