//! Guest source files, for showing a pc's `.S` line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::machine::{Program, SrcLoc};

/// Source files of a program, read on first use.
#[derive(Default)]
pub struct Sources {
    files: HashMap<u16, Option<Vec<String>>>,
}

impl Sources {
    /// Where a DWARF file name may live: as written, under guest-asm/ (our
    /// guests are assembled there with relative names), or beside the ELF.
    fn candidates(program: &Program, name: &str) -> Vec<PathBuf> {
        let mut v = vec![PathBuf::from(name)];
        v.push(crate::project_dir().join("guest-asm").join(name));
        if let Some(dir) = program.path.parent() {
            v.push(dir.join(name));
        }
        v.extend(program.src_roots.iter().map(|r| r.join(name)));
        v
    }

    pub fn lines(&mut self, program: &Program, file: u16) -> Option<&[String]> {
        self.files
            .entry(file)
            .or_insert_with(|| {
                let name = program.files.get(file as usize)?;
                Sources::candidates(program, name)
                    .iter()
                    .find_map(|p| read(p))
            })
            .as_deref()
    }

    /// The text of a source line, trimmed.
    pub fn line(&mut self, program: &Program, loc: SrcLoc) -> Option<String> {
        let lines = self.lines(program, loc.file)?;
        lines
            .get((loc.line as usize).checked_sub(1)?)
            .map(|l| l.trim().to_string())
    }
}

fn read(p: &Path) -> Option<Vec<String>> {
    let bytes = crate::input::read_regular(p, "source file", crate::input::TEXT_MAX).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    Some(text.lines().map(expand_tabs).collect())
}

/// Tabs to spaces at 8-column stops, as an editor shows assembly.
fn expand_tabs(l: &str) -> String {
    let mut out = String::with_capacity(l.len() + 8);
    for ch in l.chars() {
        if ch == '\t' {
            let n = 8 - out.chars().count() % 8;
            out.extend(std::iter::repeat_n(' ', n));
        } else {
            out.push(ch);
        }
    }
    out
}
