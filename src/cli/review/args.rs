//! `review`'s arguments, apart from what runs it, so that the grammar
//! (`cli/args.rs`) names them without naming the command.

use std::path::PathBuf;

use crate::report::Format;

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The kernel before the patch: its build directory (vmlinux and
    /// arch/riscv/boot/Image), or a directory holding Image and vmlinux.
    #[arg(required_unless_present = "clear_cache")]
    pub before: Option<PathBuf>,
    /// The kernel after the patch, as BEFORE.
    #[arg(required_unless_present = "clear_cache")]
    pub after: Option<PathBuf>,
    /// The /init (repeatable): one of trapscope's (as `snapshot --init`)
    /// or a path to your own; one before/after pair per init
    /// [default: getppid].
    #[arg(long = "init", value_name = "NAME|PATH")]
    pub inits: Vec<String>,
    /// Cores to estimate on (repeatable). Default: every shipped core
    /// profile.
    #[arg(long = "core")]
    pub cores: Vec<String>,
    /// text, md (one Markdown document to paste into a review) or json.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Take both snapshots afresh, neither reading nor filling the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Also write the scenario built, with its snapshots in FILE's name
    /// with `.snapshots` (or --snapshots DIR): `compare` and `diff` run on it.
    #[arg(long, value_name = "FILE")]
    pub scenario_out: Option<PathBuf>,
    /// Where --scenario-out's snapshots go.
    #[arg(long, value_name = "DIR", requires = "scenario_out")]
    pub snapshots: Option<PathBuf>,
    /// Remove every cached snapshot, and nothing else.
    #[arg(long, conflicts_with_all = ["before", "after"])]
    pub clear_cache: bool,
    /// On a kernel with V: review the cores with V 1.0 at this VLEN alone
    /// (default: one snapshot per VLEN of the cores asked for, and one
    /// without V for the cores without it).
    #[arg(long)]
    pub vlen: Option<u32>,
    /// BEFORE and AFTER are bare-metal RV64 ELFs (as `snapshot --elf`)
    /// instead of kernel builds.
    #[arg(long)]
    pub elf: bool,
    /// The loop's marker, as `snapshot --ecall-symbol` [default:
    /// init_ecall; pagefault's init_touch].
    #[arg(long)]
    pub ecall_symbol: Option<String>,
    /// Snapshot before the N-th execution of the marker, as `snapshot --at`.
    #[arg(long, default_value_t = 100)]
    pub at: u64,
    /// Iterations of the loop timed, after 10 warm-up ones.
    #[arg(long, default_value_t = 100)]
    pub iterations: u64,
    /// The top of the measured loop, as `snapshot --loop-symbol`.
    #[arg(long, default_value = "init_loop")]
    pub loop_symbol: String,
}
