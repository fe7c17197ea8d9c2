//! The file-level import graph of `src/`: file A → file B when A's code
//! names an item B defines. A path is followed through `use` and re-exports
//! (`pub use`, and a parent's private `use`, which its children see) to the
//! file that defines the item; a glob (`use super::*`) or a path to a module
//! itself is an edge to that module's file. Method calls through a value
//! name nothing, so they are no edges. Comments, string and character
//! literals, the paths of `pub(in PATH)` and `#[cfg(test)]` modules (and
//! the files of those declared `mod NAME;`) are not read.
//!
//! Items are those defined at column 0 (`struct enum fn trait type const
//! static union mod`, after any `pub(...)`), as rustfmt lays a file out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::text::{code, ident, unrestricted, without_tests};
use crate::rooms::module_path;

/// A module's path from the crate's root: `["cost", "model"]`.
pub type Module = Vec<String>;

/// The graph: every file, and for each its edges with the path that made
/// each (the first seen).
pub struct Graph {
    pub files: BTreeMap<Module, String>,
    pub edges: BTreeMap<Module, BTreeMap<Module, String>>,
}

/// `s` without a leading `pub` or `pub(...)`.
fn unpub(s: &str) -> &str {
    if let Some(r) = s.strip_prefix("pub(") {
        r.split_once(')').map_or(r, |(_, r)| r).trim_start()
    } else {
        s.strip_prefix("pub ").unwrap_or(s).trim_start()
    }
}

/// The name a column-0 line defines, if it starts an item.
fn item(line: &str) -> Option<String> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let mut words = unpub(line).split_whitespace().peekable();
    loop {
        match words.next()? {
            "unsafe" | "async" | "extern" | "\"\"" => {}
            "const" if matches!(words.peek(), Some(&("fn" | "unsafe" | "async" | "extern"))) => {}
            "struct" | "enum" | "fn" | "trait" | "type" | "const" | "static" | "union" | "mod" => {
                let mut name = words.next()?;
                if name == "mut" {
                    name = words.next()?;
                }
                let name: String = name.chars().take_while(|&c| ident(c)).collect();
                return (!name.is_empty()).then_some(name);
            }
            _ => return None,
        }
    }
}

/// One name a `use` brings in: its alias, its path as written, and whether
/// it is a glob (then the path is the module's).
#[derive(Debug)]
pub struct Import {
    pub alias: String,
    pub segs: Vec<String>,
    pub glob: bool,
}

/// The imports of a use tree (`a::{b as c, d::{self, *}}`).
pub fn expand(tree: &str) -> Vec<Import> {
    let c: Vec<char> = tree.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let start = i;
        if ident(c[i]) {
            while i < c.len() && ident(c[i]) {
                i += 1;
            }
        } else {
            i += if c[i] == ':' { 2 } else { 1 };
        }
        let t: String = c[start..i.min(c.len())].iter().collect();
        if !t.trim().is_empty() {
            toks.push(t);
        }
    }
    let mut out = Vec::new();
    tree_at(&toks, &mut 0, Vec::new(), &mut out);
    out
}

fn tree_at(toks: &[String], i: &mut usize, mut segs: Vec<String>, out: &mut Vec<Import>) {
    while let Some(t) = toks.get(*i) {
        *i += 1;
        match t.as_str() {
            "::" => {}
            "{" => {
                while let Some(t) = toks.get(*i) {
                    match t.as_str() {
                        "}" => break,
                        "," => *i += 1,
                        _ => tree_at(toks, i, segs.clone(), out),
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                out.push(Import {
                    alias: String::new(),
                    segs,
                    glob: true,
                });
                return;
            }
            w if w.starts_with(ident) => {
                segs.push(w.to_string());
                if toks.get(*i).is_some_and(|t| t == "::") {
                    continue;
                }
                let mut alias = None;
                if toks.get(*i).is_some_and(|t| t == "as") {
                    alias = toks.get(*i + 1).cloned();
                    *i += 2;
                }
                if segs.last().is_some_and(|s| s == "self") {
                    segs.pop();
                }
                if let Some(alias) = alias.or_else(|| segs.last().cloned()) {
                    out.push(Import {
                        alias,
                        segs,
                        glob: false,
                    });
                }
                return;
            }
            _ => return,
        }
    }
}

/// What a file says: the items it defines, its `use` statements (whether
/// each is at column 0, so visible to the module's children), and the
/// paths of two or more segments its other code writes.
struct Said {
    items: BTreeSet<String>,
    uses: Vec<(bool, Import)>,
    paths: Vec<Vec<String>>,
}

fn said(code: &str) -> Said {
    let items = code.lines().filter_map(item).collect();
    let mut uses = Vec::new();
    let mut body = String::new();
    let mut rest = code;
    while !rest.is_empty() {
        let line_end = rest.find('\n').map_or(rest.len(), |k| k + 1);
        let line = &rest[..line_end];
        let trimmed = line.trim_start();
        let stmt = unpub(trimmed);
        let is_use = stmt.starts_with("use") && stmt[3..].starts_with(char::is_whitespace);
        match rest.find(';').filter(|_| is_use) {
            Some(semi) => {
                let tree = &rest[line.len() - stmt.len() + 3..semi];
                let top = trimmed.len() == line.len();
                uses.extend(expand(tree).into_iter().map(|u| (top, u)));
                rest = &rest[semi + 1..];
            }
            None => {
                body.push_str(line);
                rest = &rest[line_end..];
            }
        }
    }
    Said {
        items,
        uses,
        paths: paths(&body),
    }
}

/// Every `a::b::c` the code writes (not preceded by a word or `::`).
fn paths(body: &str) -> Vec<Vec<String>> {
    let c: Vec<char> = body.chars().collect();
    let starts = |k: usize| c.get(k).is_some_and(|&x| x.is_alphabetic() || x == '_');
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if !starts(i) || (i > 0 && (ident(c[i - 1]) || c[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        loop {
            let start = i;
            while i < c.len() && ident(c[i]) {
                i += 1;
            }
            segs.push(c[start..i].iter().collect::<String>());
            if c.get(i) == Some(&':') && c.get(i + 1) == Some(&':') && starts(i + 2) {
                i += 2;
            } else {
                break;
            }
        }
        if segs.len() > 1 {
            out.push(segs);
        }
    }
    out
}

struct Scope {
    said: BTreeMap<Module, Said>,
    names: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    globs: BTreeMap<Module, Vec<Vec<String>>>,
}

impl Scope {
    /// A path as written in `m`, from the crate's root; `None` for another
    /// crate's or a local name.
    fn absolute(&self, m: &Module, segs: &[String]) -> Option<Vec<String>> {
        let first = segs.first()?.as_str();
        let mut child = m.clone();
        child.push(first.to_string());
        match first {
            "crate" | "trapscope" => Some(segs[1..].to_vec()),
            "self" | "super" => {
                let mut cur = m.clone();
                let up = segs.iter().take_while(|s| *s == "self" || *s == "super");
                for s in up.clone() {
                    if s == "super" {
                        cur.pop()?;
                    }
                }
                cur.extend(segs[up.count()..].iter().cloned());
                Some(cur)
            }
            _ if self.said.contains_key(&child) => Some(m.iter().chain(segs).cloned().collect()),
            _ => None,
        }
    }

    /// The file that defines what an absolute path names, and whether it
    /// was found there (rather than only the deepest module on the way).
    fn resolve(&self, path: &[String], depth: usize) -> Option<(Module, bool)> {
        if depth > 20 {
            return None;
        }
        let mut cur: Module = Vec::new();
        for (i, seg) in path.iter().enumerate() {
            let mut next = cur.clone();
            next.push(seg.clone());
            if self.said.contains_key(&next) {
                cur = next;
                continue;
            }
            let said = self.said.get(&cur)?;
            if said.items.contains(seg) {
                return Some((cur, true));
            }
            if let Some(to) = self.names[&cur].get(seg) {
                let whole: Vec<String> = to.iter().chain(&path[i + 1..]).cloned().collect();
                return self.resolve(&whole, depth + 1);
            }
            for g in &self.globs[&cur] {
                let whole: Vec<String> = g.iter().chain(&path[i..]).cloned().collect();
                if let Some((file, true)) = self.resolve(&whole, depth + 1) {
                    return Some((file, true));
                }
            }
            return Some((cur, false));
        }
        self.said.contains_key(&cur).then_some((cur, true))
    }
}

/// The graph of the given files (paths under `src/`, and their text).
pub fn graph(sources: &[(String, String)]) -> Graph {
    let mut codes = BTreeMap::new();
    let mut tests: Vec<Module> = Vec::new();
    for (rel, text) in sources {
        let mut m = module_path(Path::new(rel));
        if rel == "main.rs" {
            continue;
        }
        if rel == "lib.rs" {
            m.clear();
        }
        let (code, outside) = without_tests(&unrestricted(&code(text)));
        tests.extend(
            outside
                .into_iter()
                .map(|n| m.iter().cloned().chain([n]).collect()),
        );
        codes.insert(m, (rel.clone(), code));
    }
    codes.retain(|m, _| !tests.iter().any(|t| m.starts_with(t)));
    let files: BTreeMap<Module, String> = codes
        .iter()
        .map(|(m, (rel, _))| (m.clone(), rel.clone()))
        .collect();
    let said = codes
        .into_iter()
        .map(|(m, (_, code))| (m, said(&code)))
        .collect();
    let mut scope = Scope {
        said,
        names: BTreeMap::new(),
        globs: BTreeMap::new(),
    };
    for m in files.keys() {
        let (mut names, mut globs) = (BTreeMap::new(), Vec::new());
        for (_, u) in scope.said[m].uses.iter().filter(|(top, _)| *top) {
            match scope.absolute(m, &u.segs) {
                Some(a) if u.glob => globs.push(a),
                Some(a) => {
                    names.insert(u.alias.clone(), a);
                }
                None => {}
            }
        }
        scope.names.insert(m.clone(), names);
        scope.globs.insert(m.clone(), globs);
    }
    let mut edges = BTreeMap::new();
    for m in files.keys() {
        let said = &scope.said[m];
        let written = said
            .uses
            .iter()
            .map(|(_, u)| (scope.absolute(m, &u.segs), &u.segs));
        let inline = said.paths.iter().map(|segs| {
            let a = scope.absolute(m, segs).or_else(|| {
                let to = scope.names[m].get(&segs[0])?;
                Some(to.iter().chain(&segs[1..]).cloned().collect())
            });
            (a, segs)
        });
        let mut out = BTreeMap::new();
        for (a, segs) in written.chain(inline) {
            if let Some((file, _)) = a.and_then(|a| scope.resolve(&a, 0))
                && &file != m
            {
                out.entry(file).or_insert_with(|| segs.join("::"));
            }
        }
        edges.insert(m.clone(), out);
    }
    Graph { files, edges }
}
