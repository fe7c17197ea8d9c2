//! The source files the panes show, per program, each read when first shown.

use std::rc::Rc;

use crate::machine::Program;
use crate::session;

/// A program's source files, each read when a pane first shows it (a
/// vmlinux's DWARF names hundreds of files; the panes show one).
pub struct SourceFiles {
    program: Rc<Program>,
    read: std::cell::RefCell<session::source::Sources>,
}

impl SourceFiles {
    pub fn new(program: Rc<Program>) -> SourceFiles {
        SourceFiles {
            program,
            read: Default::default(),
        }
    }

    /// The lines of DWARF file `file` (empty when it cannot be shown).
    pub fn file(&self, file: u16) -> Vec<String> {
        self.read
            .borrow_mut()
            .lines(&self.program, file)
            .map(<[String]>::to_vec)
            .unwrap_or_default()
    }
}

impl SourceFiles {
    /// Runs `f` on the lines of DWARF file `file` (none when it cannot be
    /// shown), without copying them.
    pub fn with_lines<R>(&self, file: u16, f: impl FnOnce(&[String]) -> R) -> R {
        let mut read = self.read.borrow_mut();
        f(read.lines(&self.program, file).unwrap_or_default())
    }

    /// How many lines file `file` has (0 when it cannot be shown).
    pub fn line_count(&self, file: u16) -> usize {
        self.with_lines(file, <[String]>::len)
    }

    /// Whether file `file` can be shown.
    pub fn has_lines(&self, file: u16) -> bool {
        self.line_count(file) > 0
    }

    /// Why file `file` exists but is not shown (`input::source_policy`).
    pub fn refusal(&self, file: u16) -> Option<String> {
        let mut read = self.read.borrow_mut();
        read.lines(&self.program, file);
        read.refusal(file).map(str::to_string)
    }
}
