//! Running the booted guest to its stop: continue to the breakpoint at the
//! loop's marker, step over it, and count an execution only when the step
//! completed it (an ecall's trap, or any other marker retired; step.rs);
//! every wait bounded by `--timeout`, ended early by Ctrl-C, by QEMU's exit
//! or by Linux's panic line on the console, and each error carrying the
//! console's last lines.

use std::time::{Duration, Instant};

use super::super::gdb::GdbError;
use super::booted::Booted;
use super::error::{StopError, TakeError};
use super::step;

impl Booted {
    /// Runs until the guest stops before the `n`-th execution of the
    /// marker. A stop at the breakpoint counts only once the step over the
    /// previous one completed it (`step_over`): a step that takes an
    /// interrupt, or an exception the marker raised, comes back to the same
    /// execution.
    pub fn run_to(&mut self, n: u64, progress: &mut dyn FnMut(&str)) -> Result<(), TakeError> {
        let mut told = Instant::now();
        while self.hits < n {
            let first = self.hits == 0;
            // Whether the stop ahead is the next execution of the marker.
            let next = first || self.step_over()?;
            self.wait_at(self.ecall, first, n, progress)?;
            if next {
                self.hits += 1;
            }
            // Each stop is a round trip through the gdbstub: a long --at
            // says how far it has got, about once a second.
            if !first && self.hits < n && told.elapsed() >= Duration::from_secs(1) {
                told = Instant::now();
                progress(&format!("{} of {n}", self.hits));
            }
            if first {
                progress(&format!(
                    "the guest reached {} (1 of {n})",
                    self.cfg.ecall_symbol
                ));
            }
        }
        Ok(())
    }

    /// Lets the guest run until it stops at the breakpoint at `at`, which
    /// must be where it stops. `--timeout` bounds the wait; Ctrl-C, QEMU's
    /// exit and Linux's panic line end it early, each with one line that
    /// says how far the count (`hits` of `n`) had got.
    pub(super) fn wait_at(
        &mut self,
        at: u64,
        first: bool,
        n: u64,
        progress: &mut dyn FnMut(&str),
    ) -> Result<(), TakeError> {
        // --timeout bounds every wait: the boot's, and each iteration's.
        let timeout = self.cfg.boot_timeout;
        let deadline = Instant::now() + timeout;
        let mut last_note = Instant::now();
        let mut seen = String::new();
        let qemu = &mut self.qemu;
        let mut died = None;
        let mut panicked = false;
        let mut poll = || {
            if crate::machine::sigint::requested() {
                return false;
            }
            if let Some(why) = qemu.exited() {
                died = Some(why);
                return false;
            }
            if last_note.elapsed() >= Duration::from_secs(1) {
                last_note = Instant::now();
                let tail = qemu.console_tail(PANIC_LINES);
                // A kernel that panics (an init that exits: a setup
                // that failed, say) never makes the syscall: end the
                // wait now rather than at the timeout.
                if kernel_panicked(&tail) {
                    panicked = true;
                    return false;
                }
                let last = tail.lines().last().unwrap_or("").trim();
                if first && last != seen && !last.is_empty() {
                    progress(&format!("booting: {last}"));
                    seen = last.to_string();
                }
            }
            true
        };
        let r = self.gdb.cont_until_stop(deadline, &mut poll);
        // The gdbstub closes as QEMU exits (a guest that powers off):
        // give the process a moment to be reaped, so the error says so.
        if died.is_none() && matches!(r, Err(GdbError::Closed { .. } | GdbError::Io { .. })) {
            died = self.qemu.exited_within(Duration::from_secs(2));
        }
        let marker = self.cfg.ecall_symbol.clone();
        if let Some(why) = died {
            return Err(StopError::QemuStopped {
                why,
                marker,
                at: self.ecall,
                hits: self.hits,
                n,
                console: self.console_note(),
            }
            .into());
        }
        if crate::machine::sigint::requested() {
            return Err(TakeError::Interrupted);
        }
        if panicked {
            // trapscope's inits say why they gave up in a line of their
            // own before exiting: that line first, the rest after.
            return Err(StopError::Panic {
                said: init_said(&self.qemu.console_tail(8)).map(str::to_string),
                death: init_death(&self.qemu.console_tail(PANIC_LINES)),
                marker,
                at: self.ecall,
                hits: self.hits,
                n,
                console: self.console_note(),
            }
            .into());
        }
        if let Err(err) = r {
            let console = self.console_note();
            return Err(if first {
                StopError::NotReached {
                    marker,
                    at: self.ecall,
                    secs: timeout.as_secs(),
                    console,
                }
            } else {
                StopError::LoopStopped {
                    marker,
                    err,
                    console,
                }
            }
            .into());
        }
        let pc = self.reg(self.regs.pc)?;
        if pc != at {
            return Err(StopError::Elsewhere {
                pc,
                at,
                console: self.console_note(),
            }
            .into());
        }
        Ok(())
    }

    /// Leaves the breakpoint at the marker: QEMU would stop there again at
    /// once, so the breakpoint comes out for one step and goes back in.
    /// Returns whether the step completed the marker (`step::Took`); an
    /// interrupt, or a fault the marker raised, leaves it to run again
    /// after the handler returns.
    fn step_over(&mut self) -> Result<bool, TakeError> {
        let from = self.privilege()?;
        self.gdb.clear_breakpoint(self.ecall, 4)?;
        // A step that retired nothing is made again, a few times at most.
        let mut took = step::Took::Stayed;
        for _ in 0..STEP_TRIES {
            self.gdb.step()?;
            took = self.trap_after_step(from)?;
            if !matches!(took, step::Took::Stayed) {
                break;
            }
        }
        self.gdb.set_breakpoint(self.ecall, 4)?;
        match took {
            step::Took::Ecall | step::Took::Retired => Ok(true),
            step::Took::Interrupt => {
                self.interrupted_steps += 1;
                Ok(false)
            }
            // Its handler returns to retry it: the next stop is the same
            // execution.
            step::Took::Fault => Ok(false),
            step::Took::Stayed => Err(StopError::Stayed {
                tries: STEP_TRIES,
                marker: self.cfg.ecall_symbol.clone(),
                at: self.ecall,
                console: self.console_note(),
            }
            .into()),
            step::Took::Other(what) => Err(StopError::NoTrap {
                marker: self.cfg.ecall_symbol.clone(),
                at: self.ecall,
                what,
                console: self.console_note(),
            }
            .into()),
        }
    }

    fn console_note(&self) -> String {
        let tail = self.qemu.console_tail(8);
        if tail.trim().is_empty() {
            "; the console printed nothing".into()
        } else {
            format!("; console tail: {}", tail.trim().replace('\n', " | "))
        }
    }
}

/// The console lines [`kernel_panicked`] looks at: Linux's panic() ends with
/// the "---[ end Kernel panic - not syncing: ... ]---" line, after which
/// the kernel prints nothing more (the default panic timeout is 0: halt).
const PANIC_LINES: usize = 3;
/// How many times the step over the marker is made when it retires nothing.
const STEP_TRIES: u32 = 4;

/// How PID 1 ended, from Linux's "Attempted to kill init! exitcode=0x..."
/// panic: the code is a wait status (an exit's status in bits 8-15, else
/// the signal's number in bits 0-6), as the shell's `$?` reads it.
fn init_death(tail: &str) -> Option<String> {
    let hex = tail.split("Attempted to kill init! exitcode=0x").nth(1)?;
    let digits: String = hex.chars().take_while(char::is_ascii_hexdigit).collect();
    let code = u32::from_str_radix(&digits, 16).ok()?;
    let signal = code & 0x7f;
    if signal == 0 {
        return Some(format!(
            "the init exited with status {}, and Linux panics when PID 1 ends",
            (code >> 8) & 0xff
        ));
    }
    let name = match signal {
        4 => {
            "SIGILL: an instruction the kernel refused it, such as a vector one on a kernel without V"
        }
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        9 => "SIGKILL",
        11 => "SIGSEGV: an access to memory it has not mapped",
        _ => "a signal",
    };
    Some(format!(
        "the init was killed by signal {signal} ({name}), and Linux panics when PID 1 ends"
    ))
}

/// The last line of the console's tail in which one of trapscope's inits
/// said why it gave up ("trapscope-init: ..." other than its banner, which
/// names its loop), without the "trapscope-init: " prefix.
fn init_said(tail: &str) -> Option<&str> {
    tail.lines()
        .rev()
        .filter_map(|l| l.trim().strip_prefix("trapscope-init: "))
        .find(|l| !(l.contains(" loop (") || l.ends_with(" loop")))
}

/// Whether the console's last lines hold Linux's panic() banner
/// ("Kernel panic - not syncing: "), which it prints before halting.
fn kernel_panicked(tail: &str) -> bool {
    tail.contains("Kernel panic - not syncing")
}

#[cfg(test)]
mod tests {
    use super::init_death;

    /// The codes as Linux 6.12 printed them here for inits that exit(3)
    /// and that store to address 8 (docs/guides/own-elf.md, "Your own init").
    /// The line a vector init writes on a kernel without V (after its
    /// banner) leads the error; a banner alone is not a reason.
    #[test]
    fn an_init_s_own_reason_is_found_after_its_banner() {
        let tail = "Run /init as init process\ntrapscope-init: vector-v1 loop (vsetivli; vmv.v.i v0, 1; then getppid)\ntrapscope-init: the kernel gave this process no V (AT_HWCAP lacks 'v'): enable CONFIG_RISCV_ISA_V\nKernel panic - not syncing: Attempted to kill init! exitcode=0x00000200\n";
        assert_eq!(
            super::init_said(tail),
            Some(
                "the kernel gave this process no V (AT_HWCAP lacks 'v'): enable CONFIG_RISCV_ISA_V"
            )
        );
        let banner_only = "trapscope-init: getppid loop\nKernel panic - not syncing: x\n";
        assert_eq!(super::init_said(banner_only), None);
    }

    #[test]
    fn the_init_s_end_is_read_from_linux_s_panic() {
        let exit = "Run /init as init process\nKernel panic - not syncing: Attempted to kill init! exitcode=0x00000300\n";
        assert_eq!(
            init_death(exit).as_deref(),
            Some("the init exited with status 3, and Linux panics when PID 1 ends")
        );
        let segv = "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b";
        assert!(init_death(segv).unwrap().contains("signal 11 (SIGSEGV"));
        let ill = "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000004";
        assert!(init_death(ill).unwrap().contains("signal 4 (SIGILL"));
        assert_eq!(
            init_death("Kernel panic - not syncing: VFS: Unable to mount root fs"),
            None
        );
    }
}
