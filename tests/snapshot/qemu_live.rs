//! The QEMU side of `trapscope snapshot` against the installed
//! qemu-system-riscv64: version, the pinned CPU as QEMU builds it, and the
//! child process (console capture, early exit, kill on drop).
//!
//! Skips with a printed reason when QEMU is absent; CI sets
//! TRAPSCOPE_REQUIRE_QEMU=1 so absence fails there.

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use trapscope::qemu::{self, Launch, Qemu, Version};

use crate::snapshot_util;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("trapscope-qemu-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn launch(bin: &Path, dir: &Path, kernel: PathBuf, bios: Option<&str>) -> Launch {
    let v = qemu::version(bin).unwrap();
    Launch {
        bin: bin.to_path_buf(),
        kernel,
        initrd: None,
        append: String::new(),
        cpu: qemu::cpu_arg(&v, None).unwrap(),
        mem_mib: 128,
        gdb_socket: dir.join("gdb.sock"),
        console: dir.join("console.txt"),
        bios: bios.map(PathBuf::from),
        extra: Vec::new(),
    }
}

/// Resumes the halted machine: the GDB remote protocol's `c` packet
/// (`$c#63`: 0x63 is the sum of the payload's bytes modulo 256).
fn resume(socket: &Path) -> UnixStream {
    let start = Instant::now();
    loop {
        if let Ok(mut s) = UnixStream::connect(socket) {
            s.write_all(b"$c#63").unwrap();
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "gdb socket {} never appeared",
            socket.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn version_of_the_installed_qemu() {
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let v = qemu::version(&bin).unwrap();
    assert!(v >= qemu::OLDEST, "QEMU {v}");
    let banner = std::process::Command::new(&bin)
        .arg("--version")
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&banner.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(
        first.contains(&format!("version {v}")) || v.micro == 0,
        "{first} vs {v}"
    );
}

#[test]
fn pinned_cpu_is_what_qemu_builds() {
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let v = qemu::version(&bin).unwrap();
    let cpu = qemu::cpu_arg(&v, None).unwrap();
    let isa = qemu::guest_isa(&bin, &cpu).unwrap();
    if (v.major, v.minor) == (7, 2) {
        assert_eq!(isa.isa, "rv64imafdc_zicsr_zifencei", "-cpu {cpu}");
    }
    assert_eq!(
        qemu::unsupported_extensions(&isa, false),
        Vec::<String>::new(),
        "{isa:?}"
    );

    let vcpu = qemu::cpu_arg(&v, Some(128)).unwrap();
    let visa = qemu::guest_isa(&bin, &vcpu).unwrap();
    if (v.major, v.minor) == (7, 2) {
        assert_eq!(visa.isa, "rv64imafdcv_zicsr_zifencei", "-cpu {vcpu}");
    }
    assert_eq!(
        qemu::unsupported_extensions(&visa, true),
        Vec::<String>::new(),
        "{visa:?}"
    );
    assert_eq!(
        qemu::unsupported_extensions(&visa, false),
        ["v"],
        "{visa:?}"
    );

    // The unpinned default CPU has what trapscope lacks, and the check sees it.
    let default = qemu::guest_isa(&bin, "rv64").unwrap();
    let lacking = qemu::unsupported_extensions(&default, false);
    assert!(lacking.contains(&"h".to_string()), "{default:?}");
}

#[test]
fn a_cpu_property_qemu_lacks_is_one_line() {
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let e = qemu::guest_isa(&bin, "rv64,no-such-ext=on")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("refused -cpu rv64,no-such-ext=on") && e.contains("no-such-ext"),
        "{e}"
    );
    assert!(!e.contains('\n'), "{e}");
    // QEMU 7.2 keeps running but drops V under privileged spec 1.11, with a
    // warning: the CPU is then not what was asked, which is an error.
    if qemu::version(&bin).unwrap() < qemu::BARE_CPU {
        let e = qemu::guest_isa(
            &bin,
            "rv64,v=on,vlen=128,elen=64,vext_spec=v1.0,priv_spec=v1.11.0",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("changed -cpu") && e.contains("warning"), "{e}");
    }
}

#[test]
fn opensbi_banner_reaches_the_console_file() {
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let dir = temp("sbi");
    // A raw kernel (loaded at 0x80200000 after OpenSBI) that spins: `j .`.
    let kernel = dir.join("spin.bin");
    std::fs::write(&kernel, 0x0000_006fu32.to_le_bytes()).unwrap();
    let mut q = Qemu::spawn(&launch(&bin, &dir, kernel, None)).unwrap();
    assert!(q.command_line().contains(" -S "));
    // Halted by -S: nothing runs before the debugger says so.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(q.console_tail(5), "");
    let _gdb = resume(&dir.join("gdb.sock"));
    let seen = wait_until(Duration::from_secs(30), || {
        q.console_tail(200).contains("OpenSBI")
    });
    assert!(
        seen,
        "console: {:?}; stderr: {}",
        q.console_tail(20),
        q.stderr_text()
    );
    // OpenSBI names the next stage's address: the kernel's.
    assert!(wait_until(Duration::from_secs(10), || q
        .console_tail(100)
        .contains("0x0000000080200000")));
    // OpenSBI's banner reports what the pinned CPU gives M-mode: no
    // programmable counters (pmu-num=0) and privileged spec 1.11.
    assert!(wait_until(Duration::from_secs(10), || q
        .console_tail(100)
        .contains("MHPM Count")));
    let banner = q.console_tail(100);
    let field = |name: &str| {
        let line = banner
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {banner}"));
        line.split(':').nth(1).unwrap().trim().to_string()
    };
    assert_eq!(field("Boot HART MHPM Count"), "0");
    assert_eq!(field("Boot HART Priv Version"), "v1.11");
    assert_eq!(field("Boot HART Base ISA"), "rv64imafdc");
    assert!(q.console_tail(3).lines().count() <= 3);
    assert_eq!(q.exited(), None, "still running");
    q.kill();
    assert!(q.exited().unwrap().contains("signal 9"), "{:?}", q.exited());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_qemu_halted_at_its_gdbstub_is_killed_by_drop() {
    // The minikernel runs to its end and powers QEMU off within a second
    // (tests/snapshot/minikernel_qemu.rs), so this one stays halted at -S: only
    // Drop can end it.
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let dir = temp("mini");
    let kernel = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    let q = Qemu::spawn(&launch(&bin, &dir, kernel, Some("none"))).unwrap();
    let pid = q.pid();
    let mut q = q;
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(q.exited(), None, "stderr: {}", q.stderr_text());
    let proc_dir = PathBuf::from(format!("/proc/{pid}"));
    assert!(proc_dir.exists());
    drop(q);
    // Drop killed and reaped it: no process, not even a zombie.
    assert!(!proc_dir.exists(), "QEMU {pid} outlived its Qemu");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn early_death_gives_qemus_first_line() {
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let dir = temp("dead");
    let mut l = launch(&bin, &dir, dir.join("no-such-kernel"), None);
    let mut q = Qemu::spawn(&l).unwrap();
    assert!(wait_until(Duration::from_secs(20), || q.exited().is_some()));
    let msg = q.exited().unwrap();
    assert!(msg.contains("no-such-kernel"), "{msg}");
    assert!(!msg.contains('\n'));
    l.extra = vec!["-no-such-option".into()];
    l.kernel = dir.join("also-missing");
    let mut q = Qemu::spawn(&l).unwrap();
    assert!(wait_until(Duration::from_secs(20), || q.exited().is_some()));
    assert!(
        q.exited().unwrap().contains("no-such-option"),
        "{:?}",
        q.exited()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn too_old_a_version_is_refused_before_qemu_runs() {
    let e = qemu::cpu_arg(&Version::new(6, 2, 0), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("6.2.0") && e.contains("7.2.0"), "{e}");
}

/// Runs QEMU halted with its monitor on stdio, types `commands`, and returns
/// what it printed, terminal escapes removed.
fn monitor(bin: &Path, cpu: &str, commands: &[String]) -> String {
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args([
            "-M",
            "virt",
            "-cpu",
            cpu,
            "-nographic",
            "-monitor",
            "stdio",
            "-serial",
            "none",
            "-S",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    writeln!(stdin, "quit").unwrap();
    let out = child.wait_with_output().unwrap();
    let raw = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    // Drop CSI sequences (ESC [ ... letter) the monitor's line editor writes.
    let mut text = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            text.push(c);
        }
    }
    text
}

/// Every boolean property of QEMU 7.2's hart (`qom-list`), read back
/// (`qom-get`) under the pinned CPU: exactly the allow-listed ones are on,
/// plus `debug` (Sdtrig, which trapscope implements).
#[test]
fn no_hart_property_left_on_unasked() {
    let Some(bin) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let v = qemu::version(&bin).unwrap();
    if (v.major, v.minor) != (7, 2) {
        eprintln!("skipping: the property list checked here is QEMU 7.2's, this is {v}");
        return;
    }
    let cpu = qemu::cpu_arg(&v, None).unwrap();
    let hart = "/machine/soc0/harts[0]";
    let list = monitor(&bin, &cpu, &[format!("qom-list {hart}")]);
    let props: Vec<String> = list
        .lines()
        .filter_map(|l| l.trim().strip_suffix(" (bool)"))
        .map(|l| l.rsplit(' ').next().unwrap().to_string())
        .collect();
    assert!(props.len() > 40, "qom-list found {props:?} in {list}");
    for p in ["mmu", "pmp", "h", "sstc", "Zicsr", "v"] {
        assert!(props.iter().any(|q| q == p), "{p} among {props:?}");
    }
    let gets: Vec<String> = props
        .iter()
        .map(|p| format!("qom-get {hart} {p}"))
        .collect();
    let values: Vec<String> = monitor(&bin, &cpu, &gets)
        .lines()
        .map(str::trim)
        .filter(|l| *l == "true" || *l == "false" || l.starts_with("Error"))
        .map(String::from)
        .collect();
    assert_eq!(values.len(), props.len(), "{values:?}");
    let asked_on: Vec<&str> = cpu
        .split(',')
        .filter_map(|w| w.strip_suffix("=on"))
        .collect();
    // Not extensions: `debug` is Sdtrig (kept, see cpu_arg); `g` is an alias that reads false.
    let kept = ["debug"];
    for (p, val) in props.iter().zip(&values) {
        let want_on = asked_on.contains(&p.as_str()) || kept.contains(&p.as_str());
        // Device state, ISA-string format and vector tail/mask policy: not extensions.
        let not_ext = [
            "realized",
            "hotplugged",
            "hotpluggable",
            "start-powered-off",
            "short-isa-string",
        ];
        if not_ext.contains(&p.as_str()) || p.starts_with("rvv_") {
            continue;
        }
        assert_eq!(
            val,
            if want_on { "true" } else { "false" },
            "{p} under -cpu {cpu}"
        );
    }
}
