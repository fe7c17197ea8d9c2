//! Guest source files, for showing a pc's `.S` line. Every file is read
//! through `source_policy`, which decides what a line table may show.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::machine::{Program, SrcLoc};

use crate::input::source_policy::{self, Refusal};

/// Source files of a program, read on first use.
#[derive(Default)]
pub struct Sources {
    files: HashMap<u16, Option<Vec<String>>>,
    /// Files that exist but are not shown, and why.
    refused: HashMap<u16, String>,
}

impl Sources {
    /// Where a DWARF file name may live: the copy a snapshot stored of it
    /// (first: it is the file the init was built from, wherever the
    /// snapshot went), as written, under guest-asm/ (our guests are
    /// assembled there with relative names), or beside the ELF.
    fn candidates(program: &Program, file: u16, name: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = program
            .copies
            .get(file as usize)
            .cloned()
            .flatten()
            .into_iter()
            .collect();
        v.push(PathBuf::from(name));
        v.push(crate::project_dir().join("guest-asm").join(name));
        if let Some(dir) = program.path.parent() {
            v.push(dir.join(name));
        }
        v.extend(program.src_roots.iter().map(|r| r.join(name)));
        v
    }

    pub fn lines(&mut self, program: &Program, file: u16) -> Option<&[String]> {
        if !self.files.contains_key(&file) {
            let lines = match Sources::find(program, file) {
                Ok(l) => Some(l),
                Err(Some(r)) => {
                    // `find` refuses only a file the line table names.
                    let name = &program.files[file as usize];
                    self.refused.insert(file, format!("{name}: not shown, {r}"));
                    None
                }
                Err(None) => None,
            };
            self.files.insert(file, lines);
        }
        self.files.get(&file).and_then(|l| l.as_deref())
    }

    /// Why file `file` exists but is not shown (after `lines` looked).
    pub fn refusal(&self, file: u16) -> Option<&str> {
        self.refused.get(&file).map(String::as_str)
    }

    /// The lines of `file` from the first candidate the policy allows and
    /// that is not newer than the build; else why not, when a candidate
    /// exists but was refused (recorded for the run's summary too).
    fn find(program: &Program, file: u16) -> Result<Vec<String>, Option<Refusal>> {
        let name = program.files.get(file as usize).ok_or(None)?;
        let built = program.built.get(file as usize).copied().flatten();
        let mut why = None;
        for p in Sources::candidates(program, file, name) {
            match source_policy::check(&p) {
                Ok(real) if !changed_since(&real, built) => {
                    if let Some(l) = read(&real) {
                        return Ok(l);
                    }
                }
                Ok(_) | Err(Refusal::Missing) => {}
                Err(r) => {
                    why.get_or_insert(r);
                }
            }
        }
        match why {
            Some(r) => {
                source_policy::refused(name, &r);
                Err(Some(r))
            }
            None => Err(None),
        }
    }

    /// Whether `file`'s source exists but changed after the build its lines
    /// come from (a tree rebuilt for another variant): then it is not shown.
    pub fn stale(program: &Program, file: u16) -> bool {
        let Some(name) = program.files.get(file as usize) else {
            return false;
        };
        let built = program.built.get(file as usize).copied().flatten();
        let found: Vec<PathBuf> = Sources::candidates(program, file, name)
            .into_iter()
            .filter_map(|p| source_policy::check(&p).ok())
            .collect();
        !found.is_empty() && found.iter().all(|p| changed_since(p, built))
    }

    /// The text of a source line, trimmed.
    pub fn line(&mut self, program: &Program, loc: SrcLoc) -> Option<String> {
        let lines = self.lines(program, loc.file)?;
        lines
            .get((loc.line as usize).checked_sub(1)?)
            .map(|l| l.trim().to_string())
    }
}

/// The file was modified after `built` (None: no build time to compare).
fn changed_since(p: &Path, built: Option<std::time::SystemTime>) -> bool {
    let Some(b) = built else { return false };
    std::fs::metadata(p)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t > b)
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
