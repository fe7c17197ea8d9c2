//! Finding things in a program: a symbol by name or by pc, a pc as a
//! message or an event line names it, a source line's pc and a pc's line,
//! a location a scenario or the TUI gives (`SYMBOL`, `SYMBOL+0xOFF`,
//! `file.S:LINE`, `0xADDR`), and the bytes of loaded code.

use super::{Program, SrcLoc, Symbol};

/// Why a location (`Program::locate`) or a source line (`pc_of_line`)
/// names no instruction of the program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("no source file '{file}' in the line table")]
    NoFile { file: String },
    /// `file` is the end of several files' paths (`names`, sorted).
    #[error("'{file}' names {} files ({}): give more of the path", names.len(), names.join(", "))]
    Ambiguous { file: String, names: Vec<String> },
    #[error("no instruction at {file}:{line}")]
    NoInstruction { file: String, line: u32 },
    #[error("'{at}' is not a hex address")]
    NotHex { at: String },
    #[error("'{at}': write FILE:LINE with a line number")]
    NoLineNumber { at: String },
    #[error("'{at}': the offset after + is not a number")]
    BadOffset { at: String },
    #[error("no symbol '{sym}'")]
    NoSymbol { sym: String },
    #[error("no symbol or address '{at}'")]
    Nothing { at: String },
    #[error("'{sym}+{off:#x}' is not an instruction start: instructions are 2-byte aligned")]
    Misaligned { sym: String, off: u64 },
    /// `sym+off` is inside the `len`-byte instruction at `sym+at`.
    #[error(
        "'{sym}+{off:#x}' is inside the {len}-byte instruction at {sym}+{at:#x}; the next starts at {sym}+{:#x}",
        at + len
    )]
    InsideInstruction {
        sym: String,
        off: u64,
        at: u64,
        len: u64,
    },
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
    pub fn pc_of_line(&self, file: &str, line: u32) -> Result<u64, LookupError> {
        let matches = |f: &str| f == file || f.ends_with(&format!("/{file}"));
        let mut names: Vec<String> = self.files.iter().filter(|f| matches(f)).cloned().collect();
        names.sort();
        names.dedup();
        match names.len() {
            0 => return Err(LookupError::NoFile { file: file.into() }),
            1 => {}
            _ => {
                return Err(LookupError::Ambiguous {
                    file: file.into(),
                    names,
                });
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
            .ok_or_else(|| LookupError::NoInstruction {
                file: file.into(),
                line,
            })
    }

    /// A location as the panes print them: `0xADDR`, `SYMBOL`,
    /// `SYMBOL+0xOFF` (or a decimal offset) or `file.S:LINE`.
    pub fn locate(&self, at: &str) -> Result<u64, LookupError> {
        let at_ = || at.to_string();
        if let Some(h) = at.strip_prefix("0x") {
            return u64::from_str_radix(h, 16).map_err(|_| LookupError::NotHex { at: at_() });
        }
        if let Some((file, line)) = at.rsplit_once(':') {
            let line: u32 = line
                .parse()
                .map_err(|_| LookupError::NoLineNumber { at: at_() })?;
            return self.pc_of_line(file, line);
        }
        if let Some((sym, off)) = at.split_once('+') {
            let off = match off.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => off.parse(),
            }
            .map_err(|_| LookupError::BadOffset { at: at_() })?;
            let s = self
                .symbol(sym)
                .ok_or_else(|| LookupError::NoSymbol { sym: sym.into() })?;
            self.instruction_start(sym, s.addr, off)?;
            return Ok(s.addr.wrapping_add(off));
        }
        self.symbol(at)
            .map(|s| s.addr)
            .ok_or_else(|| LookupError::Nothing { at: at_() })
    }

    /// Checks that `sym+off` starts an instruction: instructions are 2-byte
    /// aligned (C extension), and walking the function from its start by
    /// each instruction's length (unprivileged spec §1.5: low bits `11`
    /// mean 32 bits, else 16) must land on it. Without the bytes (a
    /// snapshot's text lives in its RAM image) only the alignment is
    /// checked.
    fn instruction_start(&self, sym: &str, start: u64, off: u64) -> Result<(), LookupError> {
        if off % 2 == 1 {
            return Err(LookupError::Misaligned {
                sym: sym.into(),
                off,
            });
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
                return Err(LookupError::InsideInstruction {
                    sym: sym.into(),
                    off,
                    at,
                    len,
                });
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
