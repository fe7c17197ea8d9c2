//! The snapshot path end to end, on trapscope's own minikernel (its Sv39
//! build, so the MMU path is exercised) booted in qemu-system-riscv64:
//! `trapscope snapshot`'s machinery stops it at the N-th user ecall and
//! writes the snapshot; then
//! - QEMU, the independent oracle, runs K more iterations, and the state it
//!   reaches at the (N+K)-th ecall must be what trapscope reaches from the
//!   snapshot: every GPR, the CSRs trapscope holds, and all of RAM;
//! - trapscope's native run of the same ELF, from reset, must agree with the
//!   run from the snapshot over the same iterations: instructions per
//!   iteration, events and the cycle estimate.
//!
//! Masked, and why: mip (QEMU's timer is host time; trapscope's is the
//! model's, and no interrupt is enabled either way: the snapshot sets mie
//! to 0), the counters (cycle, time, instret: QEMU's are host-derived), and
//! misa (QEMU reports its own extension set). Skips with a printed reason
//! when QEMU is absent; CI sets TRAPSCOPE_REQUIRE_QEMU=1 so absence fails.

use std::path::PathBuf;

use trapscope::machine::{Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{RunOpts, build_machine, run_variant};
use trapscope::snapshot::format::Snapshot;
use trapscope::snapshot::take::{Booted, Config, Guest};

mod snapshot_util;

/// Stop before the N-th execution of the user's ecall: warm-up is 10
/// calls, so N = 20 is the 10th timed one, well before the loop's end.
const N: u64 = 20;
/// Iterations QEMU and trapscope then run on.
const K: u64 = 10;
/// The phases a snapshot scenario gets by default (kernel symbols the
/// minikernel shares with Linux), given to the native run too.
const PHASES: &str = "[phases]\nentry = [\"handle_exception\"]\nsyscall = [\"do_trap_ecall_u\"]\nexit = [\"syscall_exit_to_user_mode\", \"ret_from_exception\"]\n";
/// The CSRs compared (trapscope holds them; the rest are recorded only).
const COMPARED: [&str; 15] = [
    "sstatus", "stvec", "sscratch", "sepc", "scause", "stval", "satp", "mstatus", "medeleg",
    "mideleg", "mtvec", "mscratch", "mepc", "mcause", "mtval",
];

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("trapscope-snaptest-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn elf() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel-sv39.elf")
}

fn config() -> Config {
    snapshot_util::minikernel_sv39(N)
}

fn scenario(dir: &std::path::Path, name: &str, body: &str) -> Scenario {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"))
}

/// Snapshots `cfg` at its N-th ecall, lets QEMU run `k` more iterations,
/// and checks that trapscope from the snapshot reaches QEMU's state: pc,
/// every GPR, the CSRs trapscope holds, all of RAM. Returns the snapshot's
/// directory.
fn against_qemu(cfg: &Config, dir: &std::path::Path, k: u64) -> PathBuf {
    let snap = dir.join("snap");
    let mut note = |l: &str| eprintln!("{l}");
    let mut b = Booted::start(cfg, &mut note).unwrap();
    b.run_to(cfg.at, &mut note).unwrap();
    b.quiesce().unwrap();
    b.save(&snap).unwrap();
    // The oracle: QEMU runs on k iterations, to the (N+k)-th ecall.
    b.run_to(cfg.at + k, &mut note).unwrap();
    let q_hart = b.hart().unwrap();
    let q_ram = b.ram().unwrap();
    drop(b);

    let loaded = Snapshot::load(&snap).unwrap();
    let ecall = loaded.manifest.init.ecall.0;
    assert_eq!(
        loaded.manifest.hart.pc.0, ecall,
        "the snapshot stops at the ecall"
    );
    assert_eq!(loaded.manifest.hart.privilege, "U");
    let satp = |h: &trapscope::snapshot::format::HartDump| {
        h.csrs.iter().find(|c| c.name == "satp").map(|c| c.value.0)
    };
    assert_eq!(
        satp(&loaded.manifest.hart).map(|v| v >> 60),
        Some(8),
        "paging is on in the loop"
    );

    // trapscope from the snapshot, to the (N+k)-th ecall: the k+1-th
    // execution of the ecall from here (the first is the N-th).
    // (A window far longer than the run, so only end_at ends it.)
    let s = scenario(
        dir,
        "plain.toml",
        &format!(
            "title = \"t\"\npatch = \"p\"\n{}[[variants]]\nname = \"snap\"\nsnapshot = \"snap\"\n[measure]\niteration = \"{}\"\niterations = 1_000_000\n",
            // A snapshot with V runs on a core with V 1.0 at its VLEN
            // (the X60's 256).
            if cfg.vlen.is_some() {
                "cores = [\"x60\"]\n"
            } else {
                ""
            },
            cfg.loop_symbol
        ),
    );
    let opts = RunOpts {
        core: s.cores.first().cloned(),
        ..RunOpts::default()
    };
    let mut m = build_machine(&s, &s.variants[0], &opts).unwrap();
    // Symbols and source lines come with the snapshot (the vmlinux's, or
    // the bare ELF's own).
    let he = m
        .program
        .symbol("handle_exception")
        .expect("handle_exception");
    assert!(
        m.program
            .loc_string(he.addr)
            .is_some_and(|l| l.contains("entry")),
        "a source line for handle_exception: {:?}",
        m.program.loc_string(he.addr)
    );
    m.end_at(ecall, k + 1).unwrap();
    let o = m.run(&Until {
        max_insns: Some(10_000_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::Exited(0), "trapscope reaches the ecall again");
    assert_eq!(m.pc(), q_hart.pc.0, "pc");
    let gprs = m.gprs();
    for (i, q) in q_hart.x.iter().enumerate() {
        assert_eq!(gprs[i], q.0, "x{i} after {k} iterations");
    }
    for name in COMPARED {
        let c = q_hart
            .csrs
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("QEMU gave no {name}"));
        let ours = m.csr(c.csr.0 as u16);
        assert_eq!(ours, Some(c.value.0), "{name}: trapscope vs QEMU");
    }
    // The FP and vector state, when QEMU's hart has them (a V kernel with
    // a vector init: the kernel's discard leaves vill and all-ones).
    if let Some(qf) = q_hart.fcsr {
        let fp = m.fp_state();
        assert_eq!(fp.fcsr, qf.0, "fcsr: trapscope vs QEMU");
        for (i, q) in q_hart.f.iter().enumerate() {
            assert_eq!(fp.f[i], q.0, "f{i}: trapscope vs QEMU");
        }
    }
    if let Some(qv) = &q_hart.vector {
        let v = m.vunit().expect("the snapshot gives the hart V");
        assert_eq!(v.vlen, qv.vlen, "VLEN");
        assert_eq!(
            (v.vl, v.vtype, v.vstart, v.read_csr(0x00f)),
            (qv.vl.0, qv.vtype.0, qv.vstart.0, Some(qv.vcsr.0)),
            "vl, vtype, vstart, vcsr: trapscope vs QEMU"
        );
        for (i, q) in qv.v.iter().enumerate() {
            let ours: String = v.reg(i).iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(&ours, q, "v{i}: trapscope vs QEMU");
        }
    }
    let ram = m.read_phys(0x8000_0000, q_ram.len()).unwrap();
    if ram != q_ram {
        let first = ram.iter().zip(&q_ram).position(|(a, b)| a != b).unwrap();
        panic!(
            "RAM differs from QEMU's first at {:#x}",
            0x8000_0000 + first as u64
        );
    }
    snap
}

/// The bare ELF's sources went with the snapshot: every file its line
/// table names is stored from guest-asm/ (where trapscope's ELFs are
/// assembled, with names relative to it), byte for byte, and a variant
/// reads the stored copy first: a marked copy is what it shows.
fn stored_sources_are_shown(dir: &std::path::Path, snap: &std::path::Path) {
    let asm = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("guest-asm");
    let sources = Snapshot::load(snap).unwrap().manifest.init.sources;
    let mut stored: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    let mut named = trapscope::machine::Program::load(&elf()).unwrap().files;
    stored.sort();
    named.sort();
    assert!(named.len() > 10, "the minikernel's files: {named:?}");
    assert_eq!(stored, named, "every file the line table names is stored");
    for s in &sources {
        assert_eq!(s.stored, s.name, "at the same path as under guest-asm/");
        assert_eq!(
            std::fs::read(snap.join("init-src").join(&s.stored)).unwrap(),
            std::fs::read(asm.join(&s.name)).unwrap(),
            "{}",
            s.name
        );
    }
    let s = scenario(
        dir,
        "sources.toml",
        "title = \"t\"\npatch = \"p\"\n[[variants]]\nname = \"snap\"\nsnapshot = \"snap\"\n[measure]\niteration = \"bench_timed_loop\"\nwarmup = 2\niterations = 5\n",
    );
    let p = &s.variants[0].program;
    let loc = p.loc(p.symbol("handle_exception").unwrap().addr).unwrap();
    let name = &p.files[loc.file as usize];
    let copy = snap.join("init-src").join(name);
    let text = std::fs::read_to_string(&copy).unwrap();
    let marked: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == loc.line as usize {
                "# the stored copy".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&copy, marked.join("\n")).unwrap();
    assert_eq!(
        trapscope::session::source::Sources::default()
            .line(p, loc)
            .as_deref(),
        Some("# the stored copy"),
        "{name}:{} from the snapshot's copy",
        loc.line
    );
}

#[test]
fn minikernel_snapshot_matches_qemu_and_the_native_run() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = temp("mk");
    let snap = against_qemu(&config(), &dir, K);
    stored_sources_are_shown(&dir, &snap);

    // The native run of the same ELF against the run from the snapshot,
    // over the same timed iterations 13..17: the snapshot resumes inside
    // timed iteration 10, so it skips 2 loop tops, the native run 12.
    let native = scenario(
        &dir,
        "native.toml",
        &format!(
            "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\ncores = [\"u74\"]\n[[variants]]\nname = \"native\"\n[measure]\niteration = \"bench_timed_loop\"\nwarmup = 12\niterations = 5\n{PHASES}",
            elf().display()
        ),
    );
    let resumed = scenario(
        &dir,
        "resumed.toml",
        "title = \"t\"\npatch = \"p\"\ncores = [\"u74\"]\n[[variants]]\nname = \"snap\"\nsnapshot = \"snap\"\n[measure]\niteration = \"bench_timed_loop\"\nwarmup = 2\niterations = 5\n",
    );
    let opts = RunOpts {
        core: Some(native.cores[0].clone()),
        ..RunOpts::default()
    };
    let a = run_variant(&native, &native.variants[0], &opts).unwrap();
    let b = run_variant(&resumed, &resumed.variants[0], &opts).unwrap();
    assert!(
        a.window_closed && b.window_closed,
        "{} {:?} {} / {} {:?} {}",
        a.outcome,
        a.error,
        a.iterations,
        b.outcome,
        b.error,
        b.iterations
    );
    assert_eq!(a.iterations, 5);
    assert_eq!(b.iterations, 5);
    assert_eq!(
        a.insns_per_iteration, b.insns_per_iteration,
        "instructions per iteration"
    );
    assert_eq!(
        a.events_per_iteration, b.events_per_iteration,
        "events per iteration"
    );
    let (ea, eb) = (a.estimate.unwrap(), b.estimate.unwrap());
    assert_eq!(
        ea.cycles_per_iteration, eb.cycles_per_iteration,
        "the cycle estimate, once the predictors have seen two iterations"
    );
    // bench times the snapshot's loop too: instrumented, raw unicorn (the
    // resume and the counted end without observers) and stepped, each to
    // its end; 20 timed iterations of 199 instructions at least.
    let r =
        trapscope::session::bench::bench(&resumed, &resumed.variants[0], opts.core.unwrap(), 20, 1)
            .unwrap();
    assert!(r.instructions >= 20 * 199, "{}", r.instructions);
    assert!(r.ratio > 0.0 && r.raw_seconds > 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same oracle check on a real Linux kernel, when one is at hand:
/// TRAPSCOPE_LINUX=DIR with DIR/Image and DIR/vmlinux (built as the README
/// says). Kernels are never in the repository, so it runs only when asked:
/// `TRAPSCOPE_LINUX=DIR cargo test --test snapshot_qemu -- --ignored`.
#[test]
#[ignore = "needs a kernel: TRAPSCOPE_LINUX=DIR cargo test --test snapshot_qemu -- --ignored"]
fn linux_snapshot_matches_qemu() {
    let k = std::env::var_os("TRAPSCOPE_LINUX")
        .map(PathBuf::from)
        .expect("set TRAPSCOPE_LINUX=DIR (DIR/Image, DIR/vmlinux) to check a real kernel");
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // TRAPSCOPE_LINUX_INITS=getppid,seccomp,sud,vector-v1,...: the inits
    // to check (default getppid; the syscall-work and vector ones need the
    // kernel's options, guest-asm/README.md).
    let inits = std::env::var("TRAPSCOPE_LINUX_INITS").unwrap_or_else(|_| "getppid".into());
    for init in inits.split(',') {
        let dir = temp(&format!("linux-{init}"));
        let cfg = Config {
            guest: Guest::Linux {
                image: k.join("Image"),
                vmlinux: k.join("vmlinux"),
                init: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("assets/init")
                    .join(format!("{init}.elf")),
                counted: true,
            },
            at: 100,
            ecall_symbol: "init_ecall".into(),
            loop_symbol: "init_loop".into(),
            // The vector inits need V (a kernel built with
            // CONFIG_RISCV_ISA_V, README "Vector kernels").
            vlen: init.starts_with('v').then_some(256),
            ..config()
        };
        against_qemu(&cfg, &dir, 1000);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
