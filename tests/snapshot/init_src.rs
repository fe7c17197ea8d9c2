//! A snapshot carries its init's sources (docs/guides/own-elf.md, "Your own init"): the
//! files the init's line table names are found beside the ELF, copied to
//! `DIR/init-src/` and mapped in the manifest's `init.sources`; a line
//! table or a link naming a file outside the ELF's directory copies
//! nothing; and a variant loading the snapshot shows the stored copy,
//! wherever the snapshot is. No QEMU or kernel: the snapshots are made by
//! hand (snapshot_util); tests/snapshot/qemu.rs takes a real one.

use crate::snapshot_util;

use std::path::{Path, PathBuf};

use trapscope::machine::Program;
use trapscope::qemu::init_src;
use trapscope::scenario::Scenario;
use trapscope::session::source::Sources;
use trapscope::snapshot::format::{self, InitSource, Snapshot};

use snapshot_util::{manifest, poweroff_ram, scenario, scratch, write_snapshot};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn example_dir() -> PathBuf {
    Path::new(ROOT).join("examples/own-init")
}

/// The example init copied into `dir`, its DWARF name `getppid-c.c`
/// (11 bytes, in .debug_line_str) replaced by `name` of the same length.
fn example_in(dir: &Path, name: &str) -> PathBuf {
    let mut b = std::fs::read(example_dir().join("getppid-c.elf")).unwrap();
    let from = b"getppid-c.c\0";
    assert_eq!(name.len() + 1, from.len(), "a name of the same length");
    let at = b
        .windows(from.len())
        .position(|w| w == from)
        .expect("the DWARF name");
    b[at..at + name.len()].copy_from_slice(name.as_bytes());
    let p = dir.join("init.elf");
    std::fs::write(&p, &b).unwrap();
    assert_eq!(
        names(&p),
        vec![name.to_string()],
        "the line table names it now"
    );
    p
}

fn names(elf: &Path) -> Vec<String> {
    Program::load(elf).unwrap().files
}

#[test]
fn the_example_s_source_beside_it_is_stored_and_mapped() {
    let elf = example_dir().join("getppid-c.elf");
    // The example's line table names its source by a relative name (its
    // build maps the directory to "."): the rule of the same relative path.
    assert_eq!(names(&elf), vec!["getppid-c.c".to_string()]);
    let c = init_src::collect(&elf, &std::fs::read(&elf).unwrap(), "init");
    assert_eq!(c.summary(), None, "every file found");
    assert_eq!(
        c.entries,
        vec![InitSource {
            name: "getppid-c.c".into(),
            stored: "getppid-c.c".into()
        }]
    );
    let src = std::fs::read(example_dir().join("getppid-c.c")).unwrap();
    assert_eq!(c.files, vec![(PathBuf::from("getppid-c.c"), src.clone())]);

    // Written to init-src/, replacing an earlier snapshot's copies (a
    // stale file goes; a link at the name is removed, its target kept).
    let dir = scratch("initsrc-write");
    let victim = dir.join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("keep.c"), "keep").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join(format::INIT_SRC_DIR)).unwrap();
    init_src::write(&dir, &c).unwrap();
    assert_eq!(
        std::fs::read_to_string(victim.join("keep.c")).unwrap(),
        "keep"
    );
    let stored = dir.join(format::INIT_SRC_DIR);
    assert!(
        !std::fs::symlink_metadata(&stored)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(stored.join("getppid-c.c")).unwrap(), src);
    std::fs::write(stored.join("stale.c"), "old").unwrap();
    init_src::write(&dir, &c).unwrap();
    assert!(!stored.join("stale.c").exists(), "an earlier copy is gone");
    assert_eq!(std::fs::read_dir(&stored).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_line_table_or_a_link_reaching_outside_the_elf_s_directory_copies_nothing() {
    let dir = scratch("initsrc-hostile");
    let elfdir = dir.join("init");
    std::fs::create_dir(&elfdir).unwrap();
    // A source file outside the ELF's directory, which is never to be read.
    let secret = dir.join("secret.c");
    std::fs::write(&secret, "int secret;\n").unwrap();

    // The line table names a file in the directory above, and one absolute
    // system file: neither is beside the ELF, and no base name is either.
    for name in ["../secret.c", "/etc/passwd"] {
        let elf = example_in(&elfdir, name);
        let c = init_src::collect(&elf, &std::fs::read(&elf).unwrap(), "init");
        assert!(c.files.is_empty() && c.entries.is_empty(), "{name}: {c:?}");
        let line = c.summary().expect("a line for what was not stored");
        assert!(
            line.contains(&format!("not in {}: {name}", elfdir.display())),
            "{line}"
        );
        assert!(!line.contains('\n'), "one line: {line}");
    }
    // A file of that base name beside the ELF is what rule 3 takes: here
    // one without a source extension, refused as such.
    std::fs::write(elfdir.join("passwd"), "root:x:0:0\n").unwrap();
    let elf = example_in(&elfdir, "/etc/passwd");
    let c = init_src::collect(&elf, &std::fs::read(&elf).unwrap(), "init");
    assert!(c.files.is_empty(), "{c:?}");
    assert!(c.summary().unwrap().contains("not a source file"), "{c:?}");

    // The example's own name, beside the ELF, as a link leading out: to the
    // secret, then to /etc/passwd. Neither is copied.
    let elf = example_in(&elfdir, "getppid-c.c");
    let link = elfdir.join("getppid-c.c");
    for (target, why) in [
        (
            secret.as_path(),
            format!("a link to a file outside {}", elfdir.display()),
        ),
        (
            Path::new("/etc/passwd"),
            "a link to a file without a source extension".to_string(),
        ),
    ] {
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(target, &link).unwrap();
        let c = init_src::collect(&elf, &std::fs::read(&elf).unwrap(), "init");
        assert!(c.files.is_empty(), "{}: {c:?}", target.display());
        let line = c.summary().unwrap();
        assert!(line.contains(&why), "{line}");
        assert!(line.contains("0 stored"), "{line}");
    }
    // A hidden directory on the way is refused too.
    std::fs::remove_file(&link).unwrap();
    std::fs::create_dir(elfdir.join(".git")).unwrap();
    std::fs::write(elfdir.join(".git/ppid.c"), "x").unwrap();
    let elf = example_in(&elfdir, ".git/ppid.c");
    let c = init_src::collect(&elf, &std::fs::read(&elf).unwrap(), "init");
    assert!(c.files.is_empty(), "{c:?}");
    assert!(
        c.summary().unwrap().contains("a hidden path: .git/ppid.c"),
        "{c:?}"
    );
    // The control: the same name as a regular file beside the ELF is stored.
    let elf = example_in(&elfdir, "getppid-c.c");
    std::fs::write(&link, "int mine;\n").unwrap();
    let c = init_src::collect(&elf, &std::fs::read(&elf).unwrap(), "init");
    assert_eq!(
        c.files,
        vec![(PathBuf::from("getppid-c.c"), b"int mine;\n".to_vec())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hand-made snapshot whose init is the example, in a scratch directory
/// far from its source; `sources` is the manifest's `init.sources`, and
/// `copy` the text stored as `init-src/getppid-c.c`.
fn snapshot_of_example(tag: &str, sources: Vec<InitSource>, copy: Option<&str>) -> PathBuf {
    let dir = scratch(tag);
    let snap = dir.join("snap");
    let ram = poweroff_ram();
    let mut m = manifest(&ram);
    m.init.sources = sources;
    write_snapshot(&snap, &m, &ram);
    std::fs::copy(
        example_dir().join("getppid-c.elf"),
        snap.join(format::INIT_FILE),
    )
    .unwrap();
    if let Some(text) = copy {
        std::fs::create_dir(snap.join(format::INIT_SRC_DIR)).unwrap();
        std::fs::write(snap.join("init-src/getppid-c.c"), text).unwrap();
    }
    scenario(&dir, "snap", "");
    dir
}

/// The source line of the init's `loop_top` as the variant shows it.
fn loop_top_line(dir: &Path) -> Option<String> {
    let s = Scenario::load(&dir.join("s.toml")).unwrap_or_else(|e| panic!("{e}"));
    let p = &s.variants[0].program;
    let pc = p.symbol("loop_top").expect("the init's symbols").addr;
    let loc = p.loc(pc).expect("the init's line");
    Sources::default().line(p, loc)
}

/// The example's source with loop_top's line (41, its closing brace, where
/// `loop_top`'s `ret` is) marked, so the copy cannot be mistaken for it.
fn marked() -> String {
    let src = std::fs::read_to_string(example_dir().join("getppid-c.c")).unwrap();
    let mut lines: Vec<&str> = src.lines().collect();
    assert_eq!(lines[40], "}", "line 41 closes loop_top");
    lines[40] = "} /* the stored copy */";
    lines.join("\n")
}

#[test]
fn a_variant_shows_the_stored_copy_wherever_the_snapshot_is() {
    let entry = vec![InitSource {
        name: "getppid-c.c".into(),
        stored: "getppid-c.c".into(),
    }];
    let dir = snapshot_of_example("initsrc-load", entry.clone(), Some(&marked()));
    let snap = Snapshot::load(&dir.join("snap")).unwrap();
    assert_eq!(snap.manifest.init.sources, entry);
    assert_eq!(
        loop_top_line(&dir).as_deref(),
        Some("} /* the stored copy */")
    );
    // The control: the same snapshot without the mapping shows no line
    // (the source is nowhere else trapscope looks).
    let bare = snapshot_of_example("initsrc-bare", Vec::new(), Some(&marked()));
    assert_eq!(loop_top_line(&bare), None);
    // A stored name that is a link out of init-src/ is not shown.
    let linked = snapshot_of_example("initsrc-linked", entry, None);
    let outside = linked.join("outside.c");
    std::fs::write(&outside, marked()).unwrap();
    std::fs::create_dir(linked.join("snap/init-src")).unwrap();
    std::os::unix::fs::symlink(&outside, linked.join("snap/init-src/getppid-c.c")).unwrap();
    assert_eq!(loop_top_line(&linked), None);
    for d in [dir, bare, linked] {
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn a_stored_path_leaving_init_src_is_refused_and_version_1_still_loads() {
    for bad in ["../../etc/passwd", "/etc/passwd", ".hidden/x.c"] {
        let dir = snapshot_of_example(
            "initsrc-bad",
            vec![InitSource {
                name: "getppid-c.c".into(),
                stored: bad.into(),
            }],
            None,
        );
        let e = match Scenario::load(&dir.join("s.toml")) {
            Ok(_) => panic!("{bad}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            e.contains(&format!(
                "init.sources[0].stored '{bad}' is not a path inside init-src/"
            )),
            "{e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // A manifest of version 1 (before init.sources) loads as before.
    let dir = snapshot_of_example("initsrc-v1", Vec::new(), None);
    let json = dir.join("snap").join(format::MANIFEST);
    let text = std::fs::read_to_string(&json).unwrap();
    let v = format!("\"version\": {},", format::VERSION);
    assert!(text.contains(&v) && !text.contains("sources"), "{text}");
    std::fs::write(&json, text.replace(&v, "\"version\": 1,")).unwrap();
    assert_eq!(
        Snapshot::load(&dir.join("snap")).unwrap().manifest.version,
        1
    );
    Scenario::load(&dir.join("s.toml")).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
}
