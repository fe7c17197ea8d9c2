//! `trapscope snapshot`: the command line of `qemu::take`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::qemu::own_init;
use crate::qemu::take::{self, Config, Guest};

/// The inits that run a vector instruction before their loop.
pub const VECTOR_INITS: [&str; 2] = ["vector-v1", "vsetvli"];

/// The init programs trapscope ships (assets/init/NAME.elf).
pub const INITS: [&str; 15] = [
    "getppid",
    "vector-v1",
    "vsetvli",
    // Seed 002: generic entry's syscall work, set up before the loop (guest-asm/README.md).
    "seccomp",
    "seccomp-arg1",
    "seccomp-arg64",
    "seccomp-allow",
    "seccomp-errno",
    "sud",
    "rseq",
    // The other ways into the kernel (include/init-path.inc).
    "pagefault",
    "pagefault-file",
    "signal",
    "pipe",
    TICK_INIT,
];

/// The init whose loop is a user spin the timer interrupts (`take::tick`):
/// its snapshot counts ticks taken at the spin, and keeps interrupts on.
pub const TICK_INIT: &str = "tick";

/// The first vector instruction of the vector inits, where `--first-use`
/// stops: its run takes the first-use trap (an illegal-instruction trap
/// while sstatus.VS is Off, V spec §3.2), and its retry after the kernel
/// turned V on counts as the same execution.
pub const FIRST_USE_MARKER: &str = "init_first_v";

/// The marker of one of trapscope's inits: `init_ecall`, but pagefault's is
/// the store that faults, `init_touch`, and tick's its spin, `init_loop`.
pub fn default_marker(init: &str) -> &'static str {
    match init {
        "pagefault" | "pagefault-file" => "init_touch",
        TICK_INIT => "init_loop",
        _ => "init_ecall",
    }
}

#[derive(clap::Args, Debug)]
pub struct SnapshotArgs {
    /// The kernel's Image (arch/riscv/boot/Image).
    #[arg(long, required_unless_present = "elf", conflicts_with = "elf")]
    pub kernel: Option<PathBuf>,
    /// The vmlinux of the same build: its build id ties the snapshot to it.
    #[arg(long, required_unless_present = "elf")]
    pub vmlinux: Option<PathBuf>,
    /// Instead of a Linux kernel: a bare-metal RV64 ELF booted with -bios
    /// none (trapscope's minikernel), its entry at 0x80000000 (where QEMU
    /// starts the hart), whose loop has the symbols --ecall-symbol and
    /// --loop-symbol.
    #[arg(long)]
    pub elf: Option<PathBuf>,
    /// The directory to write (created).
    #[arg(short = 'o', long = "out")]
    pub out: PathBuf,
    /// The /init: one of trapscope's, getppid (lmbench's lat_syscall loop),
    /// vector-v1 (seed 001's loop, V state live), vsetvli (seed 000's
    /// loop), the getppid loop under syscall work: seccomp (an argument
    /// filter of 8 compares), seccomp-arg1, seccomp-arg64, seccomp-allow
    /// (answered by the action cache), seccomp-errno, sud (dispatch on,
    /// selector ALLOW), rseq (an area registered); or another way into the
    /// kernel: pagefault (a fresh anonymous page stored to per iteration),
    /// pagefault-file (a load from a page of a file in the page cache,
    /// mapped shared, per iteration),
    /// signal (SIGUSR1 to itself, caught), pipe (a byte to a child and
    /// back: two context switches), tick (a user spin the timer interrupts:
    /// --at counts the timer interrupts taken there, the stop is the
    /// kernel's trap entry for the N-th, and interrupts stay on). Or a path (./NAME or NAME.elf) to your
    /// own static RV64 executable (ET_EXEC, linked -static -no-pie): it
    /// marks its measured loop with two global labels, --loop-symbol at the
    /// loop's top and --ecall-symbol on an instruction run exactly once per
    /// iteration (an ecall, or any other, such as a store that page-faults:
    /// its fault and retry count once), whose --at-th run is the snapshot
    /// point.
    #[arg(long, default_value = "getppid")]
    pub init: String,
    /// Stop before the N-th execution of the loop's marker (--ecall-symbol).
    #[arg(long, default_value_t = 100)]
    pub at: u64,
    /// Give the hart V at this VLEN (bits), or the VLEN of --core's profile.
    #[arg(long)]
    pub vlen: Option<u32>,
    /// Take V and its VLEN from this core profile (when it has V).
    #[arg(long)]
    pub core: Option<String>,
    /// Guest RAM in MiB.
    #[arg(long, default_value_t = take::DEFAULT_MEM_MIB)]
    pub mem: u32,
    /// More kernel command-line words.
    #[arg(long, default_value = "")]
    pub append: String,
    /// Seconds the guest may take to reach its marker (--ecall-symbol) the
    /// first time, and each later iteration.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
    /// The marker: an instruction of the loop run exactly once per
    /// iteration, not necessarily an ecall [default: init_ecall; pagefault's
    /// init_touch]
    #[arg(long)]
    pub ecall_symbol: Option<String>,
    /// For the vector inits (vector-v1, vsetvli): stop before their first
    /// vector instruction (init_first_v), whose run from the snapshot takes
    /// the kernel's first-use trap; the same as --ecall-symbol init_first_v
    /// --at 1.
    #[arg(long, conflicts_with_all = ["ecall_symbol", "at"])]
    pub first_use: bool,
    /// The top of the measured loop.
    #[arg(long, default_value = "init_loop")]
    pub loop_symbol: String,
}

pub fn snapshot(a: SnapshotArgs) -> anyhow::Result<ExitCode> {
    if a.init == TICK_INIT && a.elf.is_some() {
        anyhow::bail!(
            "--init tick goes with a Linux kernel (--kernel, --vmlinux): it counts the kernel's timer interrupts at its /init's spin, and a bare-metal ELF (--elf) has no /init"
        );
    }
    if a.first_use && !VECTOR_INITS.contains(&a.init.as_str()) {
        anyhow::bail!(
            "--first-use: only the vector inits ({}) have a first vector instruction to stop at; --init is {}",
            VECTOR_INITS.join(", "),
            a.init
        );
    }
    let marker = match (&a.ecall_symbol, a.first_use) {
        (Some(m), _) => m.clone(),
        (None, true) => FIRST_USE_MARKER.to_string(),
        (None, false) => default_marker(&a.init).to_string(),
    };
    let at = if a.first_use { 1 } else { a.at };
    let guest = match (&a.elf, &a.kernel, &a.vmlinux) {
        (Some(e), _, _) => Guest::Elf(e.clone()),
        (None, Some(k), Some(v)) if own_init::names_a_file(&a.init) => {
            let path = PathBuf::from(&a.init);
            own_init::check(&path, &marker, &a.loop_symbol)
                .map_err(|e| anyhow::anyhow!("--init {}: {e}", path.display()))?;
            Guest::Linux {
                image: k.clone(),
                vmlinux: v.clone(),
                init: path,
                counted: false,
            }
        }
        (None, Some(k), Some(v)) => {
            if !INITS.contains(&a.init.as_str()) {
                anyhow::bail!(
                    "--init {}: trapscope's inits are {}; your own is a path (./NAME or NAME.elf)",
                    a.init,
                    INITS.join(", ")
                );
            }
            Guest::Linux {
                image: k.clone(),
                vmlinux: v.clone(),
                init: crate::project_dir()
                    .join("assets/init")
                    .join(format!("{}.elf", a.init)),
                counted: a.init != TICK_INIT,
            }
        }
        _ => anyhow::bail!("give --kernel Image and --vmlinux vmlinux, or --elf GUEST.elf"),
    };
    let vlen = match (&a.vlen, &a.core) {
        (Some(v), _) => Some(*v),
        (None, Some(c)) => {
            let p = crate::cost::Profile::find(c).map_err(anyhow::Error::msg)?;
            (p.vector.present.value).then_some(p.vector.vlen.value)
        }
        (None, None) => None,
    };
    // Only the vector inits need V (`vector-v1`, `vsetvli`).
    if VECTOR_INITS.contains(&a.init.as_str()) && vlen.is_none() {
        anyhow::bail!(
            "--init {} runs vector instructions: give --vlen N or a --core with V",
            a.init
        );
    }
    let cfg = Config {
        guest,
        at,
        ecall_symbol: marker,
        loop_symbol: a.loop_symbol,
        vlen,
        mem_mib: a.mem,
        append: a.append,
        boot_timeout: Duration::from_secs(a.timeout),
        ticks: a.init == TICK_INIT,
        reproducible: true,
    };
    let signals = stop_on_termination();
    let mut progress = |line: &str| tell!("trapscope: snapshot: {line}");
    let r = take::take(&cfg, &a.out, &mut progress);
    exit_if_terminated(&signals);
    r.map_err(anyhow::Error::msg)?;
    Ok(ExitCode::SUCCESS)
}

/// Ends the process as a shell reports signal N (128 + N) when one of
/// `stop_on_termination`'s signals came; QEMU is gone by then (`take`
/// drops it on every path).
pub(super) fn exit_if_terminated(signals: &[Caught]) {
    for (flag, name, number) in signals {
        if flag.load(std::sync::atomic::Ordering::Relaxed) {
            tell!("trapscope: terminated ({name}); QEMU was stopped");
            std::process::exit(128 + number);
        }
    }
}

pub(super) type Caught = (
    std::sync::Arc<std::sync::atomic::AtomicBool>,
    &'static str,
    i32,
);

/// SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop the snapshot as Ctrl-C does
/// (the machine's stop flag), so that QEMU is killed and the scratch
/// directory and an unfinished `-o DIR` are removed rather than left (and
/// SIGQUIT dumps no core); the exit is then 128 + the signal's number, as
/// a shell reports it.
pub(super) fn stop_on_termination() -> Vec<Caught> {
    use signal_hook::consts::{SIGHUP, SIGQUIT, SIGTERM};
    let mut out = Vec::new();
    for (sig, name) in [
        (SIGTERM, "SIGTERM"),
        (SIGHUP, "SIGHUP"),
        (SIGQUIT, "SIGQUIT"),
    ] {
        let mine = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let ok = signal_hook::flag::register(sig, mine.clone()).is_ok()
            && signal_hook::flag::register(sig, crate::machine::sigint::flag()).is_ok();
        if ok {
            out.push((mine, name, sig));
        }
    }
    out
}
