//! A line table may name any path; trapscope shows only source files under
//! its allowed roots (input::source_policy). Guests and stand-in vmlinux
//! files are assembled here with binutils, whose `.file`/`.loc` directives
//! write whatever names the test wants into the line table (skipped without
//! binutils, failing under TRAPSCOPE_REQUIRE_GUEST_AS=1).

use crate::common;
use crate::snapshot_util;

use std::path::{Path, PathBuf};
use std::process::Command;

use snapshot_util::{binutils_or_skip, manifest, poweroff_ram, scratch, write_snapshot};
use trapscope::session::source::Sources;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// In the environment of the trapscope under test: /proc/self/environ holds it.
const ENV_SECRET: &str = "envsecret-5c1f0e";
/// In the files that must not be shown.
const FILE_SECRET: &str = "filesecret-9a7b2d";

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Assembles `src` (in `dir`, run from there) and links it at `text` (or
/// with trapscope's guest script), writing `dir/out`.
fn build(dir: &Path, src: &str, out: &str, text: Option<&str>, debug: bool) -> PathBuf {
    let mut a = Command::new("riscv64-linux-gnu-as");
    a.current_dir(dir)
        .args(["-march=rv64gc", "-mabi=lp64d", "-I"])
        .arg(Path::new(ROOT).join("guest-asm/include"));
    if debug {
        a.arg("-g");
    }
    run(a.args(["-o", "x.o", src]));
    let mut l = Command::new("riscv64-linux-gnu-ld");
    l.current_dir(dir)
        .args(["--build-id=none", "-nostdlib", "-static"]);
    match text {
        Some(t) => l.args([&format!("-Ttext={t}"), "-e", "handle_exception"]),
        None => l
            .arg("-T")
            .arg(Path::new(ROOT).join("guest-asm/trapscope.ld")),
    };
    run(l.args(["-o", out, "x.o"]));
    dir.join(out)
}

/// A guest whose line table names, one line each: /etc/passwd,
/// /proc/self/environ, a `.S` link to /etc/passwd, a `.S` in a hidden
/// directory, a text file and a `.c` outside every root, all beside the
/// ELF but the last; and `ok.S`, a source beside it, which is shown.
fn leaky_guest(dir: &Path, outside: &Path) {
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd.S")).unwrap();
    std::fs::create_dir_all(dir.join(".hidden")).unwrap();
    let secret = format!("{FILE_SECRET}\n");
    std::fs::write(dir.join(".hidden/x.S"), &secret).unwrap();
    std::fs::write(dir.join("notes.txt"), &secret).unwrap();
    std::fs::write(outside, &secret).unwrap();
    std::fs::write(dir.join("ok.S"), "ld t1, 0(t0) # OK-SHOWN\n").unwrap();
    let names = [
        "/etc/passwd".to_string(),
        "/proc/self/environ".into(),
        "passwd.S".into(),
        ".hidden/x.S".into(),
        "notes.txt".into(),
        outside.display().to_string(),
        "ok.S".into(),
    ];
    let mut s =
        String::from("\t.section .text, \"ax\"\n\t.globl _start\n_start:\n\tla t0, tohost\n");
    for (i, n) in names.iter().enumerate() {
        // A load and its use: every line costs cycles, so each is a hot line.
        s += &format!(
            "\t.file {} \"{n}\"\n\t.loc {} 1\n\tld t1, 0(t0)\n\tadd t2, t1, t1\n",
            i + 1,
            i + 1
        );
    }
    s += "\tli t1, 1\n\tsd t1, 0(t0)\n1:\tj 1b\n\t.include \"htif.inc\"\n\tHTIF_MAILBOX\n";
    std::fs::write(dir.join("leak.S.in"), s).unwrap();
    build(dir, "leak.S.in", "leak.elf", None, false);
    std::fs::write(
        dir.join("s.toml"),
        "title = \"t\"\npatch = \"p\"\nelf = \"leak.elf\"\ncores = [\"u74\"]\n[[variants]]\nname = \"v\"\n",
    )
    .unwrap();
}

#[test]
fn a_line_table_naming_private_files_shows_none_of_them() {
    if !binutils_or_skip() {
        return;
    }
    let dir = scratch("policy-elf");
    let guest = dir.join("guest");
    std::fs::create_dir_all(&guest).unwrap();
    let outside = dir.join("outside.c");
    leaky_guest(&guest, &outside);
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let passwd_line = passwd.lines().next().unwrap().trim().to_string();
    for format in ["text", "md", "json"] {
        let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(&guest)
            .env("TRAPSCOPE_SECRET_TEST", ENV_SECRET)
            .args(["run", "s.toml", "--core", "u74", "--format", format])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{format}: {stderr}");
        for name in [
            "/etc/passwd",
            "environ",
            "passwd.S",
            "x.S",
            "notes.txt",
            "outside.c",
        ] {
            assert!(
                stdout.contains(name),
                "{format}: {name} is a hot line: {stdout}"
            );
        }
        assert!(
            stdout.contains("OK-SHOWN"),
            "{format}: ok.S is shown: {stdout}"
        );
        for secret in [ENV_SECRET, FILE_SECRET, passwd_line.as_str()] {
            assert!(
                !stdout.contains(secret),
                "{format}: {secret:?} leaked: {stdout}"
            );
        }
        // One line, once, names what was not shown and why.
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{format}: {stderr}");
        let l = lines[0];
        assert!(
            l.starts_with("trapscope: source not shown for 6 files"),
            "{l}"
        );
        // Grouped by why: "WHY: NAME, NAME; WHY: NAME; ...".
        let group = |why: &str| -> String {
            let groups = l.split_once(" files: ").map_or("", |(_, g)| g);
            groups
                .split("; ")
                .find_map(|g| g.strip_prefix(why).map(str::to_string))
                .unwrap_or_else(|| panic!("no {why:?} in {l}"))
        };
        assert!(group("under /proc: ").contains("/proc/self/environ"), "{l}");
        assert!(group("a hidden path: ").contains(".hidden/x.S"), "{l}");
        assert!(
            group("outside the source roots: ").contains("outside.c"),
            "{l}"
        );
        let ext = group("not a source file .c .h .S .s .inc .lds .rs: ");
        for n in ["/etc/passwd", "notes.txt"] {
            assert!(ext.contains(n), "{n} in {l}");
        }
        // passwd.S ends in .S: the reason is where its link leads.
        let link = group("a link to a file without a source extension .c .h .S .s .inc .lds .rs: ");
        assert!(link.contains("passwd.S"), "{l}");
        assert!(!ext.contains("passwd.S"), "{l}");
        assert!(!l.contains("ok.S"), "{l}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stand-in vmlinux linked at 0x8020_0000 whose one function's line is
/// `name` in the line table: assembled with `-g` from `dir` (the DWARF
/// compilation directory, as a kernel build records its tree) when `name`
/// is the source itself, else with an explicit `.file`.
fn vmlinux(dir: &Path, src: &str, name: Option<&str>) -> PathBuf {
    let body = "\t.text\n\t.globl handle_exception\n\t.type handle_exception, @function\nhandle_exception:\n";
    let text = match name {
        Some(n) => format!("{body}\t.file 1 \"{n}\"\n\t.loc 1 1\n\tnop\n\tret\n"),
        None => format!("{body}\tnop\n\tret\n"),
    };
    let p = dir.join(src);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    if name.is_some() || !p.exists() {
        std::fs::write(&p, text).unwrap();
    }
    build(dir, src, "vmlinux", Some("0x80200000"), name.is_none())
}

/// A hand-made snapshot in `dir` whose manifest records `vmlinux`.
fn snapshot(dir: &Path, vmlinux: &Path) {
    let ram = poweroff_ram();
    let mut m = manifest(&ram);
    m.kernel.vmlinux = Some(vmlinux.display().to_string());
    write_snapshot(dir, &m, &ram);
}

/// The text of handle_exception's source line in a snapshot variant.
fn kernel_line(snap: &Path, kernel_src: Option<&Path>) -> Option<String> {
    let l = trapscope::snapshot::variant::load(snap, None, kernel_src)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let p = &l.program;
    let pc = p.symbol("handle_exception").unwrap().addr;
    Sources::default().line(p, p.loc(pc).unwrap())
}

#[test]
fn a_kernel_src_of_the_root_directory_is_not_a_source_root() {
    if !binutils_or_skip() {
        return;
    }
    let dir = scratch("policy-root");
    // A `.c` file of the reviewer's, outside the vmlinux's tree, that the
    // line table names relative to `/`.
    std::fs::create_dir_all(dir.join("private")).unwrap();
    let secret = dir.join("private/key.c");
    std::fs::write(&secret, format!("{FILE_SECRET}\n")).unwrap();
    let rel = secret.strip_prefix("/").unwrap().display().to_string();
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    let v = vmlinux(&tree, "entry.S", Some(&rel));
    let snap = dir.join("snap");
    std::fs::create_dir_all(&snap).unwrap();
    snapshot(&snap, &v);
    assert_eq!(kernel_line(&snap, Some(Path::new("/"))), None);
    let summary = trapscope::input::source_policy::summary().unwrap();
    assert!(
        summary.contains(&format!("outside the source roots: {rel}")),
        "{summary}"
    );
    assert!(
        summary.contains("not a source root: / (the root directory)"),
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/guides/patch-review.md, "The reviewer's recipe": two trees, each vmlinux built in its own
/// (DWARF's compilation directory), snapshots recording them; the "after"
/// variant's lines come from the tree its DWARF names, the "before"
/// variant's from a copy named by `kernel_src` once its tree moved on.
#[test]
fn the_readmes_two_tree_recipe_still_shows_each_trees_source() {
    if !binutils_or_skip() {
        return;
    }
    let dir = scratch("policy-recipe");
    let entry = "arch/riscv/kernel/entry.S";
    let mut v = Vec::new();
    for t in ["before", "after"] {
        let tree = dir.join(t);
        std::fs::create_dir_all(tree.join("arch/riscv/kernel")).unwrap();
        let src = format!(
            "# the {t} tree\n\t.text\n\t.globl handle_exception\n\t.type handle_exception, @function\nhandle_exception:\n\tnop # {t}-LINE\n\tret\n"
        );
        std::fs::write(tree.join(entry), &src).unwrap();
        v.push(vmlinux(&tree, entry, None));
        let snap = dir.join("snaps").join(t);
        std::fs::create_dir_all(&snap).unwrap();
        snapshot(&snap, &v[v.len() - 1]);
    }
    let after = kernel_line(&dir.join("snaps/after"), None);
    assert_eq!(after.as_deref(), Some("nop # after-LINE"));
    // The "before" tree moved on: a copy of its sources, named by kernel_src.
    let copy = dir.join("linux-before");
    std::fs::create_dir_all(copy.join("arch/riscv/kernel")).unwrap();
    std::fs::rename(dir.join("before").join(entry), copy.join(entry)).unwrap();
    let before = kernel_line(&dir.join("snaps/before"), Some(&copy));
    assert_eq!(before.as_deref(), Some("nop # before-LINE"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The TUI's source pane on a guest whose first line the line table puts
/// in /etc/passwd: the listing instead, and its title says why.
#[test]
fn the_source_pane_shows_no_refused_file_and_says_why() {
    if !binutils_or_skip() {
        return;
    }
    let dir = scratch("policy-tui");
    let src = "\t.section .text, \"ax\"\n\t.globl _start\n_start:\n\t.file 1 \"/etc/passwd\"\n\t.loc 1 1\n\tla t0, tohost\n\tli t1, 1\n\tsd t1, 0(t0)\n1:\tj 1b\n\t.include \"htif.inc\"\n\tHTIF_MAILBOX\n";
    std::fs::write(dir.join("g.S.in"), src).unwrap();
    build(&dir, "g.S.in", "g.elf", None, false);
    let scen = dir.join("s.toml");
    std::fs::write(
        &scen,
        "title = \"t\"\npatch = \"p\"\nelf = \"g.elf\"\ncores = [\"u74\"]\n[[variants]]\nname = \"v\"\n",
    )
    .unwrap();
    let mut s = common::tui::app_at(scen.to_str().unwrap(), None);
    let text = common::tui::screen(&mut s, 200, 50);
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let first = passwd.lines().next().unwrap().trim();
    assert!(!text.contains(first), "{text}");
    assert!(text.contains("/etc/passwd: not shown"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
