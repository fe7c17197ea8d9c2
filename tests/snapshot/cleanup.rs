//! What a stopped `trapscope snapshot` leaves behind: nothing when a signal
//! it can catch stops it (SIGQUIT, like SIGINT, SIGTERM and SIGHUP: QEMU
//! killed, the scratch directory and an unfinished `-o DIR` removed, exit
//! 128 + N); after a SIGKILL, which no process can catch, no `-o DIR` (it
//! appears only when the snapshot is complete) and a scratch directory that
//! the next `trapscope snapshot` removes, because its owner is dead.
//!
//! Each run gets a TMPDIR of its own, so "nothing left" means an empty
//! directory. QEMU cases skip with a printed reason when
//! qemu-system-riscv64 is absent (fail under TRAPSCOPE_REQUIRE_QEMU=1); the
//! reaping rule needs no QEMU (the run it happens in then fails at once,
//! with TRAPSCOPE_QEMU pointing at nothing).

use crate::snapshot_util;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use snapshot_util::{finish, scratch};

/// Spins at `_start` forever; its `tohost` is data, never executed.
const SPINNER: &str = "assets/guest/bad/loop_forever.elf";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `trapscope snapshot` of the spinner (30 s timeout) into `out`, with
/// `tmpdir` as its TMPDIR, run from `cwd` (where a core dump would land).
fn spawn_spinner(cwd: &Path, tmpdir: &Path, out: &Path, group: bool) -> Child {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new(env!("CARGO_BIN_EXE_trapscope"));
    c.current_dir(cwd)
        .arg("snapshot")
        .arg("--elf")
        .arg(root().join(SPINNER))
        .args(["--ecall-symbol", "tohost", "--loop-symbol", "_start"])
        .args(["--timeout", "30", "-o"])
        .arg(out)
        .env("TMPDIR", tmpdir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if group {
        c.process_group(0);
    }
    c.spawn().unwrap()
}

/// Waits until QEMU runs for trapscope `pid` (its command line holds the
/// scratch directory named after that pid), failing after 15 s.
fn wait_for_qemu(pid: u32) {
    let marker = format!("trapscope-snapshot-{pid}-");
    let start = Instant::now();
    while snapshot_util::process_with(&marker).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "QEMU never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Fails unless no process started for trapscope `pid` runs within 3 s.
fn no_qemu_left(pid: u32) {
    let marker = format!("trapscope-snapshot-{pid}-");
    let start = Instant::now();
    while let Some(cmd) = snapshot_util::process_with(&marker) {
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "QEMU outlived trapscope: {cmd}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn kill(sig: &str, target: &str) {
    let st = Command::new("kill")
        .args([&format!("-{sig}"), "--", target])
        .status()
        .unwrap();
    assert!(st.success(), "kill -{sig} {target}");
}

/// SIGQUIT (Ctrl-\ at a terminal) while the guest spins, to trapscope
/// alone or (`group`) to its process group as a terminal sends it: exit
/// 131 with one line, QEMU gone, and neither the scratch directory nor
/// `-o DIR` left (nor a core dump).
fn sigquit(tag: &str, group: bool) {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch(tag);
    let tmpdir = dir.join("tmp");
    std::fs::create_dir(&tmpdir).unwrap();
    let out = dir.join("out");
    let mut child = spawn_spinner(&dir, &tmpdir, &out, group);
    let pid = child.id();
    wait_for_qemu(pid);
    std::thread::sleep(Duration::from_millis(300));
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = err.read_to_end(&mut all);
        all
    });
    let target = if group {
        format!("-{pid}")
    } else {
        pid.to_string()
    };
    kill("QUIT", &target);
    let sent = Instant::now();
    let st = finish(child, Duration::from_secs(10), "after SIGQUIT").status;
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "SIGQUIT is honoured promptly"
    );
    let err = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert_eq!(st.code(), Some(131), "exit 128 + SIGQUIT; stderr: {err}");
    let others: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("trapscope: snapshot: "))
        .collect();
    assert_eq!(
        others,
        ["trapscope: terminated (SIGQUIT); QEMU was stopped"],
        "{err}"
    );
    no_qemu_left(pid);
    assert_eq!(names(&tmpdir), Vec::<String>::new(), "TMPDIR is left empty");
    assert!(!out.exists(), "no -o directory is left");
    assert_eq!(names(&dir), ["tmp"], "no core dump, nothing else");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigquit_while_waiting_exits_131_and_leaves_nothing() {
    sigquit("quit", false);
}

#[test]
fn sigquit_to_the_process_group_exits_131_and_leaves_nothing() {
    sigquit("quit-group", true);
}

/// `trapscope snapshot` that fails at once (TRAPSCOPE_QEMU names nothing),
/// after its start has reaped what it may in `tmpdir` and in `out`'s
/// parent.
fn snapshot_without_qemu(tmpdir: &Path, out: &Path) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(["snapshot", "--elf", "assets/guest/minikernel-sv39.elf"])
        .args(["--ecall-symbol", "user_syscall_ecall"])
        .args(["--loop-symbol", "bench_timed_loop", "-o"])
        .arg(out)
        .env("TMPDIR", tmpdir)
        .env("TRAPSCOPE_QEMU", "/nonexistent/qemu")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("TRAPSCOPE_QEMU=/nonexistent/qemu"), "{err}");
    assert_eq!(err.lines().count(), 1, "housekeeping is silent: {err}");
    out
}

/// SIGKILL while the guest spins: QEMU ends (its watchdog), no `-o DIR`
/// exists, and the scratch directory that is left goes at the next
/// snapshot's start.
#[test]
fn after_sigkill_no_out_dir_is_left_and_the_next_snapshot_reaps_the_scratch() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("kill");
    let tmpdir = dir.join("tmp");
    std::fs::create_dir(&tmpdir).unwrap();
    let out = dir.join("out");
    let child = spawn_spinner(&dir, &tmpdir, &out, false);
    let pid = child.id();
    wait_for_qemu(pid);
    std::thread::sleep(Duration::from_millis(300));
    kill("KILL", &pid.to_string());
    let _ = finish(child, Duration::from_secs(5), "after SIGKILL");
    no_qemu_left(pid);
    assert!(
        !out.exists(),
        "no -o directory appears before the snapshot is complete"
    );
    let left = names(&tmpdir);
    let prefix = format!("trapscope-snapshot-{pid}-");
    assert!(
        left.len() == 1 && left[0].starts_with(&prefix),
        "a SIGKILL leaves the scratch directory: {left:?}"
    );
    snapshot_without_qemu(&tmpdir, &out);
    assert_eq!(
        names(&tmpdir),
        Vec::<String>::new(),
        "the dead run's scratch is reaped"
    );
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pid of a process that has ended (and been reaped).
fn dead_pid() -> u32 {
    loop {
        let mut c = Command::new("true").spawn().unwrap();
        let pid = c.id();
        c.wait().unwrap();
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return pid;
        }
    }
}

/// A directory `base/name` holding a file and a directory with a file.
fn filled(base: &Path, name: &str) -> PathBuf {
    let d = base.join(name);
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("ram.bin"), b"ram").unwrap();
    std::fs::write(d.join("sub/file"), b"x").unwrap();
    d
}

/// The rule: a directory named as trapscope names its scratch (or its
/// unfinished `-o DIR`), that is the user's own, not a link, whose pid is
/// dead and whose lock nobody holds, is removed; everything else stays.
#[test]
fn only_a_dead_runs_own_scratch_directories_are_reaped() {
    let dir = scratch("reap");
    let tmpdir = dir.join("tmp");
    std::fs::create_dir(&tmpdir).unwrap();
    let parent = dir.join("snaps");
    std::fs::create_dir(&parent).unwrap();
    let dead = dead_pid();
    let live = std::process::id();
    let hex = "0123456789abcdef";
    let reaped = [
        filled(&tmpdir, &format!("trapscope-snapshot-{dead}-{hex}")),
        filled(&tmpdir, &format!("trapscope-dtb-{dead}-{hex}")),
        // An unfinished -o DIR of a killed run, beside where it was to go.
        filled(&parent, &format!(".trapscope-partial-{dead}-{hex}")),
    ];
    let mut kept = vec![
        // Its owner runs.
        filled(&tmpdir, &format!("trapscope-snapshot-{live}-{hex}")),
        filled(&parent, &format!(".trapscope-partial-{live}-{hex}")),
        // Not trapscope's name: no random part, a short one, upper case,
        // another prefix, a prefix of trapscope's with more after it.
        filled(&tmpdir, &format!("trapscope-snapshot-{dead}")),
        filled(&tmpdir, &format!("trapscope-snapshot-{dead}-0123")),
        filled(
            &tmpdir,
            &format!("trapscope-snapshot-{dead}-0123456789ABCDEF"),
        ),
        filled(&tmpdir, &format!("trapscope-other-{dead}-{hex}")),
        filled(&tmpdir, &format!("trapscope-snapshots-{dead}-{hex}")),
        filled(&tmpdir, &format!("trapscope-snapshot-{dead}-{hex}-x")),
        filled(&tmpdir, &format!("trapscope-snapshot-x{dead}-{hex}")),
        // The partial name belongs beside -o DIR only, not in TMPDIR.
        filled(&tmpdir, &format!(".trapscope-partial-{dead}-{hex}")),
    ];
    // A dead pid, but the lock is held: a run in another pid namespace
    // sharing this TMPDIR.
    let locked = filled(
        &tmpdir,
        &format!("trapscope-snapshot-{dead}-1111111111111111"),
    );
    let lock = std::fs::File::open(&locked).unwrap();
    lock.lock().unwrap();
    kept.push(locked);
    // A link with trapscope's name: neither it nor what it points at goes.
    let victim = filled(&dir, "victim");
    let link = tmpdir.join(format!("trapscope-snapshot-{dead}-2222222222222222"));
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    kept.push(link);
    // A file with trapscope's name.
    let file = tmpdir.join(format!("trapscope-snapshot-{dead}-3333333333333333"));
    std::fs::write(&file, b"not a directory").unwrap();
    kept.push(file);
    // Another user's directory (only root can make one).
    if rustix_euid_is_root() {
        let theirs = filled(
            &tmpdir,
            &format!("trapscope-snapshot-{dead}-4444444444444444"),
        );
        for p in [&theirs, &theirs.join("sub"), &theirs.join("ram.bin")] {
            std::os::unix::fs::chown(p, Some(65534), Some(65534)).unwrap();
        }
        kept.push(theirs);
    }
    let out = parent.join("snap");
    snapshot_without_qemu(&tmpdir, &out);
    for r in &reaped {
        assert!(
            std::fs::symlink_metadata(r).is_err(),
            "not reaped: {}",
            r.display()
        );
    }
    for k in &kept {
        assert!(
            std::fs::symlink_metadata(k).is_ok(),
            "reaped, but should not be: {}",
            k.display()
        );
    }
    assert_eq!(
        names(&victim),
        ["ram.bin", "sub"],
        "a link's target is untouched"
    );
    assert!(!out.exists(), "a failed snapshot leaves no -o directory");
    drop(lock);
    let _ = std::fs::remove_dir_all(&dir);
}

fn rustix_euid_is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// A new `-o DIR` appears whole, with the mode a directory made there gets
/// (the partial directory it was written in is renamed, never left), and
/// TMPDIR is left as it was.
#[test]
fn a_new_out_dir_appears_complete_with_a_new_directorys_mode() {
    use std::os::unix::fs::PermissionsExt;
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("whole");
    let tmpdir = dir.join("tmp");
    std::fs::create_dir(&tmpdir).unwrap();
    let parent = dir.join("snaps");
    std::fs::create_dir(&parent).unwrap();
    // Made by this process, whose umask trapscope inherits.
    let reference = parent.join("reference");
    std::fs::create_dir(&reference).unwrap();
    let out = parent.join("snap");
    let o = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(["snapshot", "--elf", "assets/guest/minikernel-sv39.elf"])
        .args(["--ecall-symbol", "user_syscall_ecall"])
        .args(["--loop-symbol", "bench_timed_loop", "--at", "2", "-o"])
        .arg(&out)
        .env("TMPDIR", &tmpdir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    trapscope::snapshot::format::Snapshot::load(&out).unwrap();
    assert_eq!(names(&parent), ["reference", "snap"], "no partial left");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&out), mode(&reference));
    assert_eq!(names(&tmpdir), Vec::<String>::new(), "TMPDIR is left empty");
    let _ = std::fs::remove_dir_all(&dir);
}
