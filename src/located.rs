//! Errors in a TOML file with their place: `file:line:col` from a byte
//! offset or a `serde_spanned` span (`Locator`), TOML's own parse errors
//! located the same way, and the file read as UTF-8 text. Scenarios and
//! core profiles both report through it, so it sits below both.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_spanned::Spanned;

/// A scenario error with its place in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: PathBuf,
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.msg)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.col,
                self.msg
            )
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Turns byte offsets into `file:line:col` errors.
pub struct Locator<'a> {
    pub file: &'a Path,
    pub src: &'a str,
}

impl Locator<'_> {
    pub fn at(&self, offset: usize, msg: impl Into<String>) -> ScenarioError {
        let before = &self.src[..offset.min(self.src.len())];
        let line = before.matches('\n').count() + 1;
        let col = before
            .rfind('\n')
            .map_or(before.len(), |nl| before.len() - nl - 1)
            + 1;
        ScenarioError {
            file: self.file.to_path_buf(),
            line,
            col,
            msg: msg.into(),
        }
    }
    pub fn span<T>(&self, s: &Spanned<T>, msg: impl Into<String>) -> ScenarioError {
        self.at(s.span().start, msg)
    }
    /// Parses the TOML source, with TOML's own errors located too.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, ScenarioError> {
        toml::from_str(self.src).map_err(|e| {
            // One line: TOML's messages may span several.
            let msg = e.message().trim().replace('\n', "; ");
            match e.span() {
                // TOML spans a key missing from the top-level table from
                // the file's first byte (a table's span starts at its
                // header): point at that table's first key, not at 1:1.
                Some(s)
                    if s.start == 0
                        && !self.src.starts_with('[')
                        && msg.starts_with("missing field") =>
                {
                    let (at, what) = self.top_level();
                    self.at(at, format!("{msg} in the top-level table ({what})"))
                }
                Some(s) => self.at(s.start, msg),
                None => self.whole(msg),
            }
        })
    }

    /// Where the top-level table is: the byte offset of its first key, or
    /// of the first `[table]` header when it has none, and those words.
    fn top_level(&self) -> (usize, &'static str) {
        let mut at = 0;
        for line in self.src.split_inclusive('\n') {
            let t = line.trim_start();
            let indent = line.len() - t.len();
            if t.starts_with('[') {
                return (at + indent, "the keys go before the first [table]");
            }
            if !t.is_empty() && !t.starts_with('#') {
                return (at + indent, "the keys before the first [table]");
            }
            at += line.len();
        }
        (0, "the keys before the first [table]")
    }

    /// Reads a TOML file (regular, at most `input::TEXT_MAX` bytes, UTF-8),
    /// or says which one could not be read, and where it stops being UTF-8.
    pub fn read(path: &Path, what: &str) -> Result<String, ScenarioError> {
        let err = |line, col, msg| ScenarioError {
            file: path.to_path_buf(),
            line,
            col,
            msg,
        };
        let bytes = crate::input::read_regular(path, what, crate::input::TEXT_MAX)
            .map_err(|m| err(0, 0, m.to_string()))?;
        String::from_utf8(bytes).map_err(|e| {
            let (line, col) = crate::input::utf8_error_at(e.as_bytes(), &e.utf8_error());
            err(
                line,
                col,
                format!("invalid UTF-8 in the {what}: TOML files are UTF-8 text"),
            )
        })
    }

    pub fn whole(&self, msg: impl Into<String>) -> ScenarioError {
        ScenarioError {
            file: self.file.to_path_buf(),
            line: 0,
            col: 0,
            msg: msg.into(),
        }
    }
}
