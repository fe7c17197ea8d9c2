//! Inside a room the files may import one another, but no circle of
//! imports spans more than three files: a circle's files can only be read,
//! changed and tested together, so a big one is a room with no inside
//! structure. The usual knot is a parent (`mod.rs`, or `x.rs` with `x/`)
//! that defines what its children need and imports the children; the fix
//! is a small leaf file for the shared types, imported directly.
//!
//! The graph is file-level (`circles/scan.rs`, reading what
//! `circles/text.rs` leaves of each file); its strongly connected
//! components are found per room (Tarjan).
//! `list_every_component` (ignored; run it with `--ignored --nocapture`)
//! prints every component and the edges inside those over the limit.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::rooms::{root, rust_files};

mod scan;
mod text;

use scan::{Graph, Module, graph};

/// The most files one circle may span.
const MOST: usize = 3;

fn room(m: &Module) -> &str {
    m.first().map_or("", String::as_str)
}

/// The strongly connected components of more than one file, each sorted,
/// counting only edges inside a room.
fn components(g: &Graph) -> Vec<Vec<Module>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a Module, (usize, usize)>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, (n, n));
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.edges[v].keys().filter(|w| room(w) == room(v)) {
                let low = match self.index.get(w) {
                    None => {
                        self.visit(w);
                        self.index[w].1
                    }
                    Some(&(i, _)) if self.on.contains(w) => i,
                    Some(_) => continue,
                };
                let e = self.index.get_mut(v).unwrap();
                e.1 = e.1.min(low);
            }
            if self.index[v].0 == self.index[v].1 {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.files.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.out
}

/// One circle through the component's most imported file, each edge with
/// the path that made it: `a.rs → b.rs (super::X) → a.rs (crate::r::Y)`.
fn chain(g: &Graph, comp: &[Module]) -> String {
    let inside: BTreeSet<&Module> = comp.iter().collect();
    let into = |m: &Module| comp.iter().filter(|f| g.edges[*f].contains_key(m)).count();
    let hub = comp
        .iter()
        .max_by_key(|m| (into(m), std::cmp::Reverse(*m)))
        .unwrap();
    // Breadth first from the hub's successors back to the hub.
    let mut before: BTreeMap<&Module, &Module> = BTreeMap::new();
    let mut queue = VecDeque::from([hub]);
    while let Some(v) = queue.pop_front() {
        for w in g.edges[v].keys().filter(|w| inside.contains(w)) {
            if !before.contains_key(w) {
                before.insert(w, v);
                queue.push_back(w);
            }
        }
        if before.contains_key(hub) {
            break;
        }
    }
    let mut path = vec![hub];
    while let Some(&v) = before.get(path.last().unwrap()) {
        path.push(v);
        if v == hub {
            break;
        }
    }
    path.reverse();
    let mut out = g.files[hub].clone();
    for w in path.windows(2) {
        out += &format!(" → {} ({})", g.files[w[1]], g.edges[w[0]][w[1]]);
    }
    out
}

fn describe(g: &Graph, comp: &[Module]) -> String {
    let names: Vec<&str> = comp.iter().map(|m| g.files[m].as_str()).collect();
    format!(
        "  {} files: {}\n    one circle: {}",
        comp.len(),
        names.join(", "),
        chain(g, comp)
    )
}

/// The graph of the real `src/`.
fn src_graph() -> Graph {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            (rel, std::fs::read_to_string(f).unwrap())
        })
        .collect();
    graph(&sources)
}

#[test]
fn no_import_circle_in_a_room_spans_more_than_three_files() {
    let g = src_graph();
    let comps = components(&g);
    let mut by_room: BTreeMap<&str, Vec<&Vec<Module>>> = BTreeMap::new();
    for c in &comps {
        by_room.entry(room(&c[0])).or_default().push(c);
    }
    let mut wrong = Vec::new();
    for (r, cs) in &by_room {
        for c in cs.iter().filter(|c| c.len() > MOST) {
            wrong.push(format!(
                "room `{r}`: a circle of imports spans {} files (at most {MOST} may)\n{}",
                c.len(),
                describe(&g, c)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "import circles too big (move what the files share into a leaf file they all import):\n{}",
        wrong.join("\n")
    );
}

/// The scan itself: use trees with braces and aliases, a re-export chain,
/// a parent's private `use`, a glob, `super::` in code; and the comments,
/// strings, characters and test modules it must not read.
#[test]
fn the_graph_follows_each_form_of_path() {
    let files = [
        (
            "a/mod.rs",
            "mod b;\nmod c;\nmod d;\nmod e;\n\
             pub use b::{Leaf, nested::{Deep as Deeper}};\n\
             pub(crate) use c::Relay;\n\
             use crate::z::Outside;\n\
             pub struct Top;\n",
        ),
        (
            "a/b.rs",
            "pub struct Leaf;\npub mod nested {\n    pub struct Deep;\n}\n\
             pub(in crate::a) fn limited() {}\n",
        ),
        ("a/c.rs", "pub(in crate::a) use super::d::Relay;\n"),
        (
            "a/d.rs",
            "use super::*;\npub const fn relay() -> Top { Top }\npub struct Relay;\n",
        ),
        (
            "a/e.rs",
            "use super::{Deeper, Relay as R};\n\
             // crate::a::c::Relay in a comment\n\
             /* super::c /* nested */ super::c */\n\
             /// and super::c::relay in a doc comment\n\
             fn f() -> &'static str {\n    let q = '\"';\n    let _ = super::Top;\n    \
             let _ = r#\"super::c::X\"#;\n    \"crate::a::c::Y \\\" super::c\"\n}\n\
             fn g() {\n    super::Outside::new();\n}\n\
             #[cfg(test)]\nmod tests {\n    use super::super::c::*;\n}\n",
        ),
        ("z.rs", "pub struct Outside;\n"),
    ];
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let g = graph(&sources);
    let got: BTreeMap<&str, BTreeSet<&str>> = g
        .edges
        .iter()
        .map(|(m, to)| {
            let to = to.keys().map(|t| g.files[t].as_str()).collect();
            (g.files[m].as_str(), to)
        })
        .collect();
    let want: BTreeMap<&str, BTreeSet<&str>> = [
        ("a/mod.rs", &["a/b.rs", "a/d.rs", "z.rs"][..]),
        ("a/b.rs", &[]),
        ("a/c.rs", &["a/d.rs"]),
        ("a/d.rs", &["a/mod.rs"]),
        ("a/e.rs", &["a/b.rs", "a/d.rs", "a/mod.rs", "z.rs"]),
        ("z.rs", &[]),
    ]
    .into_iter()
    .map(|(f, to)| (f, to.iter().copied().collect()))
    .collect();
    assert_eq!(got, want);
    let comps: Vec<Vec<&str>> = components(&g)
        .iter()
        .map(|c| c.iter().map(|m| g.files[m].as_str()).collect())
        .collect();
    assert_eq!(comps, vec![vec!["a/mod.rs", "a/d.rs"]]);
    let c = &components(&g)[0];
    assert_eq!(
        chain(&g, c),
        "a/mod.rs → a/d.rs (c::Relay) → a/mod.rs (super)"
    );
}

/// Every component of more than one file, and the edges inside those over
/// the limit: `cargo test --test docs circles::list -- --ignored --nocapture`.
#[test]
#[ignore]
fn list_every_component() {
    let g = src_graph();
    for c in components(&g) {
        let names: Vec<&str> = c.iter().map(|m| g.files[m].as_str()).collect();
        println!("{} {}", c.len(), names.join(", "));
        for m in c.iter().filter(|_| c.len() > MOST) {
            for (to, path) in g.edges[m].iter().filter(|(to, _)| c.contains(to)) {
                println!("    {} -> {}   {path}", g.files[m], g.files[to]);
            }
        }
    }
}
