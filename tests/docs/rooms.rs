//! The house keeps its drawing: ARCHITECTURE.md's room table is the truth
//! about which top-level module ("room") of `src/` may use which, and these
//! tests hold the code to it.
//!
//! - Every room in `src/` has a row in the table, and every row is a room.
//! - Every path a file names into another room (`crate::ROOM`, `use
//!   crate::{ROOM, ...}`, or `super::` climbing out of its own room) is to a
//!   room its row lists under "may use".
//! - The "may use" arrows form no circle, so imports flow one way.
//! - No source or test file is 450 lines or longer.
//!
//! A module imports a room only by naming it, so a text scan suffices; it
//! skips comments, so prose may name any room.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The room table: room → the rooms it may use.
fn table() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let head = "| room | owns | may use |";
    let at = text.find(head).expect("ARCHITECTURE.md has the room table");
    let mut out = BTreeMap::new();
    for line in text[at..].lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 3, "a room row has three cells: {line}");
        let room = ticked(cells[0])
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("a room row names its room in backticks: {line}"));
        let room = room
            .trim_end_matches('/')
            .trim_end_matches(".rs")
            .to_string();
        let uses: BTreeSet<String> = if cells[2] == "nothing" {
            BTreeSet::new()
        } else {
            ticked(cells[2])
                .into_iter()
                .map(|u| u.trim_end_matches('/').trim_end_matches(".rs").to_string())
                .collect()
        };
        assert!(
            !uses.is_empty() || cells[2] == "nothing",
            "{room}: \"may use\" lists rooms in backticks or says nothing"
        );
        assert!(
            out.insert(room.clone(), uses).is_none(),
            "{room} has two rows"
        );
    }
    out
}

/// The backticked words of a table cell.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The rooms of `src/`: each directory and each file but the crate's root.
fn rooms() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(root().join("src")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            out.insert(name);
        } else if let Some(stem) = name.strip_suffix(".rs")
            && stem != "lib"
            && stem != "main"
        {
            out.insert(stem.to_string());
        }
    }
    out
}

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if e.file_type().unwrap().is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The line without its comment (a `//` outside a string literal).
fn code_of(line: &str) -> &str {
    let mut in_str = false;
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// The module path of a file under `src/`, from the crate's root: `machine`
/// for `src/machine/mod.rs` or `src/machine.rs`, `machine::hart` for
/// `src/machine/hart.rs`.
pub(crate) fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The rooms a file's code names, with the line of each.
fn named_rooms(rel: &Path, text: &str, rooms: &BTreeSet<String>) -> Vec<(String, usize)> {
    let module = module_path(rel);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = code_of(line);
        // crate::ROOM and crate::{ROOM, ...}
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = &rest[..at];
            rest = &rest[at + "crate::".len()..];
            // `trapscope::crate::` never occurs; a word ending in `crate` would
            // be another identifier.
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(list) = rest.strip_prefix('{') {
                let inner = list.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let word: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if rooms.contains(&word) {
                        out.push((word, n + 1));
                    }
                }
            } else {
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if rooms.contains(&word) {
                    out.push((word, n + 1));
                }
            }
        }
        // super:: chains that climb to the crate's root.
        let mut rest = code;
        while let Some(at) = rest.find("super::") {
            let chain = &rest[at..];
            let mut ups = 0;
            let mut tail = chain;
            while let Some(t) = tail.strip_prefix("super::") {
                ups += 1;
                tail = t;
            }
            rest = &rest[at + "super::".len() * ups..];
            // Inside a function body `super` is the file's module; a test
            // module (`mod tests { use super::*; }`) adds one level, which
            // only makes the check stricter than it needs to be.
            if ups >= module.len() {
                let word: String = tail
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if rooms.contains(&word) {
                    out.push((word, n + 1));
                }
            }
        }
    }
    out
}

#[test]
fn every_room_has_a_row_and_every_row_is_a_room() {
    let t = table();
    let r = rooms();
    let rows: BTreeSet<String> = t.keys().cloned().collect();
    let missing: Vec<_> = r.difference(&rows).collect();
    let extra: Vec<_> = rows.difference(&r).collect();
    assert!(
        missing.is_empty(),
        "rooms of src/ with no row in ARCHITECTURE.md: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "rows of ARCHITECTURE.md that are no room of src/: {extra:?}"
    );
    for (room, uses) in &t {
        for u in uses {
            assert!(r.contains(u), "{room} may use `{u}`, which is no room");
        }
    }
}

#[test]
fn every_import_is_one_the_table_allows() {
    let t = table();
    let r = rooms();
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().to_path_buf();
        let module = module_path(&rel);
        // lib.rs, the crate's root, declares every room; main.rs, the
        // binary, calls `trapscope::cli::main` and nothing else.
        let room = &module[0];
        if room == "lib" || room == "main" {
            continue;
        }
        let allowed = &t[room.as_str()];
        let text = std::fs::read_to_string(&f).unwrap();
        for (used, line) in named_rooms(&rel, &text, &r) {
            if &used != room && !allowed.contains(&used) {
                wrong.push(format!("src/{}:{line}: {room} uses {used}", rel.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports ARCHITECTURE.md's room table does not allow (move the code, or the row if the design changed):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_may_use_arrows_form_no_circle() {
    let t = table();
    // Depth-first search with three colours.
    fn visit<'a>(
        n: &'a str,
        t: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let from = stack.iter().position(|s| *s == n).unwrap();
                let mut c: Vec<String> = stack[from..].iter().map(|s| s.to_string()).collect();
                c.push(n.to_string());
                return Some(c);
            }
            _ => {}
        }
        state.insert(n, 1);
        stack.push(n);
        for u in t.get(n).into_iter().flatten() {
            if let Some(c) = visit(u, t, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(n, 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in t.keys() {
        let mut stack = Vec::new();
        if let Some(c) = visit(n, &t, &mut state, &mut stack) {
            panic!("the room table has a circle: {}", c.join(" → "));
        }
    }
}

#[test]
fn no_source_or_test_file_reaches_450_lines() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("tests"), &mut files);
    let mut long = Vec::new();
    for f in files {
        let n = std::fs::read_to_string(&f).unwrap().lines().count();
        if n >= 450 {
            long.push(format!(
                "{}: {n} lines",
                f.strip_prefix(root()).unwrap().display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "files of 450 lines or more (split them by what they do):\n{}",
        long.join("\n")
    );
}

/// The scan itself: the forms of import it must see, and the comments and
/// strings it must not read as imports.
#[test]
fn the_scan_sees_each_form_of_import() {
    let rooms: BTreeSet<String> = ["machine", "isa", "trace", "cost"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let text = "use crate::machine::Program;\n\
                use crate::{isa, trace::Event};\n\
                // crate::cost in a comment\n\
                let s = \"// not a comment\"; let x = crate::cost::Profile::find(s);\n\
                fn f() { super::super::isa::decode_word(0) }\n";
    let got: Vec<(String, usize)> = named_rooms(Path::new("predict/ras.rs"), text, &rooms);
    let want: Vec<(String, usize)> = vec![
        ("machine".into(), 1),
        ("isa".into(), 2),
        ("trace".into(), 2),
        ("cost".into(), 4),
        ("isa".into(), 5),
    ];
    assert_eq!(got, want);
    // One `super::` from predict/ras.rs stays inside predict.
    assert!(named_rooms(Path::new("predict/ras.rs"), "use super::isa;", &rooms).is_empty());
    // From predict/mod.rs it is the crate's root.
    assert_eq!(
        named_rooms(Path::new("predict/mod.rs"), "use super::isa;", &rooms),
        vec![("isa".to_string(), 1)]
    );
}

/// Every file or folder ARCHITECTURE.md names in backticks exists: a path
/// under `src/`, a room of `src/` (a room's row names its own files
/// bare), `guest-asm/` or the repository's root, with a `::item` after it
/// allowed and a `NAME` placeholder standing for any file.
#[test]
fn every_path_architecture_names_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    let mut checked = 0;
    for tick in ticked(&text) {
        let path = tick.split("::").next().unwrap_or("");
        let looks_like_path = !path.contains(' ')
            && (path.ends_with('/')
                || [".rs", ".S", ".inc", ".toml", ".py", ".sh", ".md"]
                    .iter()
                    .any(|x| path.ends_with(x)));
        if !looks_like_path || path.contains("NAME") {
            continue;
        }
        checked += 1;
        let bases = ["src", "guest-asm", "."]
            .iter()
            .map(|b| root().join(b))
            .chain(rooms().into_iter().map(|r| root().join("src").join(r)));
        let found = bases.into_iter().any(|base| base.join(path).exists());
        if !found {
            missing.push(path.to_string());
        }
    }
    assert!(checked > 30, "only {checked} paths found to check");
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}
