//! A guest program: its loadable segments, symbols and DWARF line table.
//!
//! Parsed once from the ELF bytes with `object` (segments, symbols) and `gimli`
//! (the `.debug_line` program), so that any pc maps to a symbol and to a `.S`
//! file and line.

use std::path::{Path, PathBuf};

use object::{Object, ObjectSymbol, SymbolKind};

pub mod dwarf;
pub mod elfhdr;

pub use dwarf::{Member, SourceName, source_names};

/// Why a guest ELF cannot be read, with its path.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    #[error("{}: {msg}", path.display())]
    Io { path: PathBuf, msg: String },
    #[error("{}: {msg}", path.display())]
    BadElf { path: PathBuf, msg: String },
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
    /// (`snapshot::init_src`), read before any other place.
    pub copies: Vec<Option<PathBuf>>,
    /// `struct pt_regs` from a vmlinux's DWARF (empty without one).
    pub pt_regs: Vec<dwarf::Member>,
}

impl Program {
    pub fn load(path: &Path) -> Result<Program, ElfError> {
        let bytes = crate::input::read_regular(path, "guest ELF", crate::input::ELF_MAX).map_err(
            |msg| ElfError::Io {
                path: path.to_path_buf(),
                msg,
            },
        )?;
        Program::parse(path, &bytes)
    }

    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Program, ElfError> {
        let bad = |msg: String| ElfError::BadElf {
            path: path.to_path_buf(),
            msg,
        };
        // The header first, in ELF's terms: `object` reports a big-endian
        // file as a bad program header size, and does not look at the entry.
        let header = elfhdr::parse(bytes).map_err(bad)?;
        let file = object::File::parse(bytes).map_err(|e| bad(format!("malformed ELF: {e}")))?;
        if file.architecture() != object::Architecture::Riscv64 {
            return Err(bad(format!(
                "not a RISC-V RV64 ELF (architecture {:?})",
                file.architecture()
            )));
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
        let bad = |msg: String| ElfError::BadElf {
            path: path.to_path_buf(),
            msg,
        };
        elfhdr::check_ident(bytes).map_err(bad)?;
        let file = object::File::parse(bytes).map_err(|e| bad(format!("malformed ELF: {e}")))?;
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

impl Program {
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The symbol containing `pc`: the nearest at or below it, preferring sized
    /// functions that cover it; an unsized one only within 64 KiB, so that code
    /// far from every symbol (a JIT's, written at run time) is named by none.
    pub fn symbol_at(&self, pc: u64) -> Option<(&Symbol, u64)> {
        let idx = self.symbols.partition_point(|s| s.addr <= pc);
        let mut best: Option<&Symbol> = None;
        for s in self.symbols[..idx].iter().rev() {
            if s.size > 0 && pc < s.addr + s.size {
                return Some((s, pc - s.addr));
            }
            if pc - s.addr > 0x10000 {
                break;
            }
            if best.is_none() && s.size == 0 {
                best = Some(s);
            }
        }
        best.map(|s| (s, pc - s.addr))
    }

    /// `name+0xoff` for a pc, or the bare hex address.
    pub fn describe(&self, pc: u64) -> String {
        match self.symbol_at(pc) {
            Some((s, 0)) => s.name.clone(),
            Some((s, off)) => format!("{}+{off:#x}", s.name),
            None => format!("{pc:#x}"),
        }
    }

    /// `function+0xOFF` of `a`, the offset given when it is 0 too, so that
    /// every place an event line names reads alike (a trap's handler is
    /// most often at its function's first instruction); the bare address
    /// where no symbol names it.
    pub fn offset_place(&self, a: u64) -> String {
        match self.symbol_at(a) {
            Some((s, off)) => format!("{}+{off:#x}", s.name),
            None => format!("{a:#x}"),
        }
    }

    /// `pc` for a message: the address, then its symbol when one names it
    /// ("0x80000404 in loop+0x4"); the address alone where none does, so
    /// a line never reads "0x80000404 in 0x80000404".
    pub fn place(&self, pc: u64) -> String {
        match self.symbol_at(pc) {
            Some(_) => format!("{pc:#x} in {}", self.describe(pc)),
            None => format!("{pc:#x}"),
        }
    }

    pub fn loc(&self, pc: u64) -> Option<SrcLoc> {
        let idx = self.lines.partition_point(|r| r.addr <= pc);
        let row = self.lines.get(idx.checked_sub(1)?)?;
        if row.end_sequence {
            return None;
        }
        Some(SrcLoc {
            file: row.file,
            line: row.line,
        })
    }

    /// The lowest pc of source line `line` in the file whose path is
    /// `file` or ends with `/file`; an error when no file or no instruction
    /// matches, or when several files do (give more of the path).
    pub fn pc_of_line(&self, file: &str, line: u32) -> Result<u64, String> {
        let matches = |f: &str| f == file || f.ends_with(&format!("/{file}"));
        let named: Vec<&String> = self.files.iter().filter(|f| matches(f)).collect();
        let mut names: Vec<&String> = named.clone();
        names.sort();
        names.dedup();
        match names.len() {
            0 => return Err(format!("no source file '{file}' in the line table")),
            1 => {}
            _ => {
                let list: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                return Err(format!(
                    "'{file}' names {} files ({}): give more of the path",
                    list.len(),
                    list.join(", ")
                ));
            }
        }
        self.lines
            .iter()
            .filter(|r| {
                !r.end_sequence
                    && r.line == line
                    && self.files.get(r.file as usize).is_some_and(|f| matches(f))
            })
            .map(|r| r.addr)
            .min()
            .ok_or_else(|| format!("no instruction at {file}:{line}"))
    }

    /// A location as the panes print them: `0xADDR`, `SYMBOL`,
    /// `SYMBOL+0xOFF` (or a decimal offset) or `file.S:LINE`.
    pub fn resolve(&self, at: &str) -> Result<u64, String> {
        if let Some(h) = at.strip_prefix("0x") {
            return u64::from_str_radix(h, 16).map_err(|_| format!("'{at}' is not a hex address"));
        }
        if let Some((file, line)) = at.rsplit_once(':') {
            let line: u32 = line
                .parse()
                .map_err(|_| format!("'{at}': write FILE:LINE with a line number"))?;
            return self.pc_of_line(file, line);
        }
        if let Some((sym, off)) = at.split_once('+') {
            let off = match off.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => off.parse(),
            }
            .map_err(|_| format!("'{at}': the offset after + is not a number"))?;
            let s = self
                .symbol(sym)
                .ok_or_else(|| format!("no symbol '{sym}'"))?;
            self.instruction_start(sym, s.addr, off)?;
            return Ok(s.addr.wrapping_add(off));
        }
        self.symbol(at)
            .map(|s| s.addr)
            .ok_or_else(|| format!("no symbol or address '{at}'"))
    }

    /// Checks that `sym+off` starts an instruction: instructions are 2-byte
    /// aligned (C extension), and walking the function from its start by
    /// each instruction's length (unprivileged spec §1.5: low bits `11`
    /// mean 32 bits, else 16) must land on it. Without the bytes (a
    /// snapshot's text lives in its RAM image) only the alignment is
    /// checked.
    fn instruction_start(&self, sym: &str, start: u64, off: u64) -> Result<(), String> {
        if off % 2 == 1 {
            return Err(format!(
                "'{sym}+{off:#x}' is not an instruction start: instructions are 2-byte aligned"
            ));
        }
        let Some(bytes) = self.text_bytes(start, off as usize + 2) else {
            return Ok(());
        };
        let mut at = 0u64;
        while at < off {
            let i = at as usize;
            let len = if bytes.get(i).is_some_and(|b| b & 3 == 3) {
                4
            } else {
                2
            };
            if at + len > off {
                return Err(format!(
                    "'{sym}+{off:#x}' is inside the {}-byte instruction at {sym}+{at:#x}; the next starts at {sym}+{:#x}",
                    len,
                    at + len
                ));
            }
            at += len;
        }
        Ok(())
    }

    /// `file.S:line` for a pc, if the ELF carries a line table.
    pub fn loc_string(&self, pc: u64) -> Option<String> {
        let loc = self.loc(pc)?;
        let file = self.files.get(loc.file as usize)?;
        Some(format!("{file}:{}", loc.line))
    }

    pub fn is_mapped_exec(&self, pc: u64) -> bool {
        self.segments
            .iter()
            .any(|s| s.exec && pc >= s.vaddr && pc < s.vaddr + s.memsz)
    }

    /// Reads guest bytes from the loaded image (for decoding, not for live memory).
    pub fn text_bytes(&self, pc: u64, len: usize) -> Option<&[u8]> {
        let seg = self
            .segments
            .iter()
            .find(|s| pc >= s.vaddr && pc < s.vaddr + s.data.len() as u64)?;
        let off = (pc - seg.vaddr) as usize;
        let end = (off + len).min(seg.data.len());
        Some(&seg.data[off..end])
    }
}
