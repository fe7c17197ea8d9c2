//! The snapshot path end to end, on trapscope's own minikernel (its Sv39
//! build, so the MMU path is exercised) booted in qemu-system-riscv64:
//! `trapscope snapshot`'s machinery stops it at the N-th user ecall and
//! writes the snapshot; then `trapscope verify`'s library function
//! (`qemu::verify`), with QEMU as the independent oracle:
//! - boots it again and finds the stored state bit for bit;
//! - lets QEMU run K more iterations, and the state it reaches at the
//!   (N+K)-th ecall must be what trapscope reaches from the snapshot: pc,
//!   every GPR, the CSRs trapscope holds, FP and V state, and all of RAM;
//! - and trapscope's native run of the same ELF, from reset, must agree
//!   with the run from the snapshot over the same iterations: instructions
//!   per iteration, events and the cycle estimate.
//!
//! Masked, and why (`verify::MASKED`): mip (QEMU's timer is QEMU's clock;
//! trapscope's is the model's, and no interrupt is enabled either way: the
//! snapshot sets mie to 0), the counters (cycle, time, instret), and misa
//! (QEMU reports its own extension set). Skips with a printed reason when
//! QEMU is absent; CI sets TRAPSCOPE_REQUIRE_QEMU=1 so absence fails.

use std::path::PathBuf;
use std::time::Duration;

use trapscope::qemu::take::{self, Config, Guest};
use trapscope::qemu::verify::{self, Target};
use trapscope::scenario::Scenario;
use trapscope::session::{RunOpts, run_variant};
use trapscope::snapshot::format::Snapshot;

use crate::snapshot_util;

/// Stop before the N-th execution of the user's ecall: warm-up is 10
/// calls, so N = 20 is the 10th timed one, well before the loop's end.
const N: u64 = 20;
/// Iterations QEMU and trapscope then run on.
const K: u64 = 10;
/// The phases a snapshot scenario gets by default (kernel symbols the
/// minikernel shares with Linux), given to the native run too.
const PHASES: &str = "[phases]\nentry = [\"handle_exception\"]\nsyscall = [\"do_trap_ecall_u\"]\nexit = [\"syscall_exit_to_user_mode\", \"ret_from_exception\"]\n";
/// CSRs that must be among those compared after the iterations (trapscope
/// holds them).
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

/// Snapshots `cfg` at its N-th ecall, then checks it with `verify`: the
/// state a second boot reaches is the stored one, and after `k` more
/// iterations trapscope from the snapshot reaches QEMU's state: pc, every
/// GPR, the CSRs trapscope holds, FP and V state, all of RAM. Returns the
/// snapshot's directory.
fn against_qemu(cfg: &Config, dir: &std::path::Path, k: u64) -> PathBuf {
    let snap = dir.join("snap");
    let mut note = |l: &str| eprintln!("{l}");
    take::take(cfg, &snap, &mut note).unwrap();

    let loaded = Snapshot::load(&snap).unwrap();
    let ecall = loaded.manifest.init.ecall.0;
    assert_eq!(
        loaded.manifest.hart.pc.0, ecall,
        "the snapshot stops at the ecall"
    );
    assert_eq!(loaded.manifest.hart.privilege, "U");
    assert!(
        loaded.manifest.qemu.reproducible,
        "booted on a counted clock"
    );
    let satp = |h: &trapscope::snapshot::format::HartDump| {
        h.csrs.iter().find(|c| c.csr.0 == 0x180).map(|c| c.value.0)
    };
    assert_eq!(
        satp(&loaded.manifest.hart).map(|v| v >> 60),
        Some(8),
        "paging is on in the loop"
    );
    // Symbols and source lines come with the snapshot (the vmlinux's, or
    // the bare ELF's own).
    let program = trapscope::snapshot::variant::load(&snap, None, None)
        .unwrap()
        .program;
    let he = program
        .symbol("handle_exception")
        .expect("handle_exception");
    assert!(
        program
            .loc_string(he.addr)
            .is_some_and(|l| l.contains("entry")),
        "a source line for handle_exception: {:?}",
        program.loc_string(he.addr)
    );

    // The oracle, through `trapscope verify`'s library function.
    let target = Target {
        dir: snap.clone(),
        kernel: None,
        vmlinux: None,
        core: None,
        iterations: k,
        timeout: Duration::from_secs(120),
    };
    let report = verify::verify(&target, &mut note).unwrap_or_else(|e| panic!("{e}"));
    let text = report.lines().join("\n");
    eprintln!("{text}");
    assert!(report.at_snapshot.equal(), "a second boot: {text}");
    let after = report
        .after
        .as_ref()
        .expect("compared after the iterations");
    assert!(
        after.ended.is_none(),
        "trapscope reaches the ecall again: {text}"
    );
    assert!(after.equal(), "trapscope vs QEMU: {text}");
    assert!(report.equal());
    // What was compared: x1-x31, the CSRs trapscope holds (the masked
    // ones not), RAM whole; FP state where the hart has F, V where V.
    let c = &after.covered;
    assert_eq!(c.gprs, 31);
    for name in COMPARED {
        let num = (0..0x1000u16)
            .find(|&n| trapscope::isa::csr_name(n) == Some(name))
            .unwrap();
        assert!(c.csrs.contains(&num), "{name} is compared");
    }
    for masked in [0x344u16, 0x301, 0xb00, 0xb02, 0xc01] {
        assert!(!c.csrs.contains(&masked), "{masked:#x} is masked");
    }
    assert_eq!(c.ram, u64::from(cfg.mem_mib) << 20);
    assert!(c.fp, "f0-f31 and fcsr");
    assert_eq!(c.vector, cfg.vlen.is_some(), "the vector state");
    assert!(
        text.contains(&format!("after {k} iterations: equal (pc, x1-x31, ")),
        "{text}"
    );
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
/// TRAPSCOPE_LINUX=DIR with DIR/Image and DIR/vmlinux (built as docs/guides/real-kernels.md
/// says). Kernels are never in the repository, so it runs only when asked:
/// `TRAPSCOPE_LINUX=DIR cargo test --test snapshot -- --ignored
/// linux_snapshot_matches_qemu`.
#[test]
#[ignore = "needs a kernel: TRAPSCOPE_LINUX=DIR cargo test --test snapshot -- --ignored linux_snapshot_matches_qemu"]
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
            // CONFIG_RISCV_ISA_V, docs/guides/vector-kernels.md).
            vlen: init.starts_with('v').then_some(256),
            ..config()
        };
        against_qemu(&cfg, &dir, 1000);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
