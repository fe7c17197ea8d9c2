//! The QEMU child: its command line, its console (a file, never
//! trapscope's terminal), its stderr (kept for error messages), and its end:
//! dropping a `Qemu` kills the process, so none outlives trapscope.

use std::ffi::{OsStr, OsString};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// How to start QEMU for a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub bin: PathBuf,
    pub kernel: PathBuf,
    pub initrd: Option<PathBuf>,
    /// The kernel command line; empty gives no `-append`.
    pub append: String,
    /// The `-cpu` value (`cpu_arg`).
    pub cpu: String,
    pub mem_mib: u32,
    /// The gdbstub's Unix socket (QEMU listens on it).
    pub gdb_socket: PathBuf,
    /// The file the guest's UART writes to.
    pub console: PathBuf,
    /// None: QEMU's default firmware (OpenSBI); `Some("none")`: `-bios none`.
    pub bios: Option<PathBuf>,
    /// Appended as is.
    pub extra: Vec<String>,
}

/// QEMU's option parser splits on commas; `,,` is a literal comma.
pub(crate) fn escape_commas(s: &OsStr) -> OsString {
    let text = s.to_string_lossy();
    if text.contains(',') {
        OsString::from(text.replace(',', ",,"))
    } else {
        s.to_os_string()
    }
}

fn joined(prefix: &str, path: &Path, suffix: &str) -> String {
    format!(
        "{prefix}{}{suffix}",
        escape_commas(path.as_os_str()).to_string_lossy()
    )
}

impl Launch {
    /// QEMU's arguments (without the binary). The machine starts halted
    /// (`-S`) with the gdbstub on `gdb_socket`; `-no-reboot` makes a guest
    /// reset (a kernel panic's reboot) end QEMU, which `exited` reports.
    pub fn args(&self) -> Vec<String> {
        let mut a: Vec<String> = [
            "-M",
            "virt",
            "-m",
            &self.mem_mib.to_string(),
            "-smp",
            "1",
            "-cpu",
            &self.cpu,
            "-nographic",
            "-monitor",
            "none",
            "-display",
            "none",
            "-no-reboot",
        ]
        .map(String::from)
        .to_vec();
        a.push("-chardev".into());
        a.push(joined("file,id=console0,path=", &self.console, ""));
        a.extend(["-serial".into(), "chardev:console0".into()]);
        a.push("-S".into());
        a.push("-chardev".into());
        a.push(joined(
            "socket,path=",
            &self.gdb_socket,
            ",server=on,wait=off,id=gdb0",
        ));
        a.extend(["-gdb".into(), "chardev:gdb0".into()]);
        if let Some(b) = &self.bios {
            a.extend(["-bios".into(), b.to_string_lossy().into_owned()]);
        }
        a.extend(["-kernel".into(), self.kernel.to_string_lossy().into_owned()]);
        if let Some(i) = &self.initrd {
            a.extend(["-initrd".into(), i.to_string_lossy().into_owned()]);
        }
        if !self.append.is_empty() {
            a.extend(["-append".into(), self.append.clone()]);
        }
        a.extend(self.extra.iter().cloned());
        a
    }

    /// The whole command, each word quoted for a POSIX shell where needed.
    pub fn command_line(&self) -> String {
        std::iter::once(self.bin.to_string_lossy().into_owned())
            .chain(self.args())
            .map(|w| shell_word(&w))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn shell_word(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./=:,@%+-".contains(c);
    if !w.is_empty() && w.chars().all(plain) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// How QEMU is run, so that it cannot outlive trapscope even when
/// trapscope is killed outright (SIGKILL runs no destructor): a POSIX shell
/// starts it in the background and waits for it, while a second job reads
/// the pipe that trapscope holds open on the shell's stdin. Only EOF ends
/// that read: trapscope closed the pipe (Drop) or died, and either way
/// the whole process group is killed (`kill -9 0`). The shell leads a
/// group of its own (`Command::process_group`), so that group is QEMU and
/// whatever a `TRAPSCOPE_QEMU` wrapper started, even one that runs QEMU as
/// a child rather than by `exec`. The shell exits with QEMU's status.
/// The shell ignores the terminal's signals (trapscope handles them and
/// closes the pipe), so a Ctrl-C cannot end it before its watchdog runs.
const WATCHDOG: &str = "trap '' INT TERM HUP; exec 3<&0; \"$@\" </dev/null & q=$!; \
    (read x <&3; kill -9 0) >/dev/null 2>&1 & w=$!; exec 3<&-; \
    wait \"$q\" 2>/dev/null; s=$?; kill \"$w\" 2>/dev/null; exit \"$s\"";

/// SIGKILL to every process in group `pgid` (one trapscope started with
/// `process_group(0)`, so `pgid` is that child's pid), through the shell's
/// `kill`, which takes a negative pid as a group. Errors are ignored: the
/// group may be gone already.
pub(crate) fn kill_group(pgid: u32) {
    let _ = Command::new("/bin/sh")
        .args(["-c", "kill -KILL -$1 2>/dev/null", "sh", &pgid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A running QEMU. Dropping it kills the process and reaps it.
pub struct Qemu {
    child: Child,
    /// The watchdog's pipe (see `WATCHDOG`): closing it kills QEMU.
    lifeline: Option<std::process::ChildStdin>,
    stderr: Arc<Mutex<Vec<u8>>>,
    reader: Option<JoinHandle<()>>,
    console: PathBuf,
    command: String,
    status: Option<ExitStatus>,
}

/// The most stderr kept (QEMU writes a line or two; a chatty build is cut).
const STDERR_CAP: usize = 64 * 1024;
/// The most console read back by `console_tail`.
const TAIL_BYTES: u64 = 64 * 1024;

impl Qemu {
    /// Starts QEMU as `launch` says: stdin null, stdout discarded (the
    /// console goes to its file), stderr kept. A stale socket file at
    /// `gdb_socket` is removed first (QEMU cannot bind over it).
    pub fn spawn(launch: &Launch) -> Result<Qemu, super::QemuError> {
        use std::os::unix::fs::FileTypeExt;
        if std::fs::symlink_metadata(&launch.gdb_socket).is_ok_and(|m| m.file_type().is_socket()) {
            let _ = std::fs::remove_file(&launch.gdb_socket);
        }
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("/bin/sh")
            .process_group(0)
            .arg("-c")
            .arg(WATCHDOG)
            .arg("trapscope-qemu")
            .arg(&launch.bin)
            .args(launch.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| super::QemuError::Spawn {
                bin: launch.bin.clone(),
                err,
            })?;
        let lifeline = child.stdin.take();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let reader = child.stderr.take().map(|mut pipe| {
            let keep = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n @ 1..) = pipe.read(&mut buf) {
                    if let Ok(mut k) = keep.lock() {
                        let room = STDERR_CAP.saturating_sub(k.len());
                        k.extend_from_slice(&buf[..n.min(room)]);
                    }
                }
            })
        });
        Ok(Qemu {
            child,
            lifeline,
            stderr,
            reader,
            console: launch.console.clone(),
            command: launch.command_line(),
            status: None,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The command line QEMU was started with, for the snapshot's record.
    pub fn command_line(&self) -> String {
        self.command.clone()
    }

    /// The last `lines` lines of the console, control characters escaped
    /// (`crate::escape::escape`; CR LF read as a line end). Empty before
    /// QEMU has written anything.
    pub fn console_tail(&self, lines: usize) -> String {
        tail(&self.console, lines)
    }

    /// `Some(message)` once QEMU has exited: the first line of its stderr,
    /// or its exit status when it said nothing. `None` while it runs.
    pub fn exited(&mut self) -> Option<String> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        let status = self.status?;
        // The shell is gone (a terminal's Ctrl-C reaches it too): let the
        // watchdog end QEMU, so that nothing holds QEMU's stderr open.
        self.lifeline = None;
        join_reader(&mut self.reader);
        let text = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        if text.iter().any(|b| !b.is_ascii_whitespace()) {
            Some(super::first_line(&text))
        } else {
            Some(describe(status))
        }
    }

    /// `exited`, waiting up to `limit` for QEMU to end (it closes its
    /// gdbstub a moment before the process is gone).
    pub fn exited_within(&mut self, limit: std::time::Duration) -> Option<String> {
        let start = std::time::Instant::now();
        loop {
            if let Some(why) = self.exited() {
                return Some(why);
            }
            if start.elapsed() >= limit {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Everything QEMU wrote to stderr so far, control characters escaped.
    pub fn stderr_text(&self) -> String {
        let text = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        crate::escape::escape(&String::from_utf8_lossy(&text)).into_owned()
    }

    /// Kills QEMU (if it still runs) and reaps it: closing the watchdog's
    /// pipe kills the shell's process group (QEMU, and any process a
    /// wrapper started); the group is killed from here too if the shell has
    /// not ended within a second, and once more after, for whatever a
    /// wrapper left behind when QEMU ended on its own.
    pub fn kill(&mut self) {
        self.lifeline = None;
        if self.status.is_none() {
            let start = std::time::Instant::now();
            while start.elapsed() < std::time::Duration::from_secs(1) {
                if let Ok(Some(st)) = self.child.try_wait() {
                    self.status = Some(st);
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            if self.status.is_none() {
                kill_group(self.child.id());
                let _ = self.child.kill();
                self.status = self.child.wait().ok();
            }
        }
        kill_group(self.child.id());
    }
}

/// The last `lines` lines of the file at `path` (see `console_tail`).
fn tail(path: &Path, lines: usize) -> String {
    let Ok(mut f) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let from = len.saturating_sub(TAIL_BYTES);
    let mut buf = Vec::new();
    if f.seek(SeekFrom::Start(from)).is_err() || f.read_to_end(&mut buf).is_err() {
        return String::new();
    }
    let text = String::from_utf8_lossy(&buf).replace("\r\n", "\n");
    let all: Vec<&str> = text.lines().collect();
    // A cut at TAIL_BYTES may leave half a line first: drop it.
    let all = if from > 0 && all.len() > 1 {
        &all[1..]
    } else {
        &all[..]
    };
    let tail = all[all.len().saturating_sub(lines)..].join("\n");
    crate::escape::escape(&tail).into_owned()
}

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        // The watchdog shell reports a signal as 128 + its number.
        (Some(c), _) if c > 128 => format!("QEMU was killed by signal {}", c - 128),
        (Some(c), _) => format!("QEMU exited with status {c}"),
        (None, Some(s)) => format!("QEMU was killed by signal {s}"),
        _ => "QEMU exited".into(),
    }
}

/// Waits for the stderr reader, which ends when the last holder of QEMU's
/// stderr (QEMU) is gone; a second at most, so nothing can hang trapscope.
fn join_reader(reader: &mut Option<JoinHandle<()>>) {
    let Some(r) = reader.take() else { return };
    let start = std::time::Instant::now();
    while !r.is_finished() && start.elapsed() < std::time::Duration::from_secs(1) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    if r.is_finished() {
        let _ = r.join();
    }
}

impl Drop for Qemu {
    fn drop(&mut self) {
        self.kill();
        join_reader(&mut self.reader);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_tail_escapes_and_keeps_the_end() {
        let f = std::env::temp_dir().join(format!("trapscope-tail-{}.txt", std::process::id()));
        assert_eq!(tail(&f, 5), "", "no file yet");
        let mut text = "x".repeat(100) + "\n";
        text = text.repeat(1000); // 101 000 bytes: more than TAIL_BYTES
        text.push_str("\u{1b}[31mred\r\nlast\tline\r\n");
        std::fs::write(&f, &text).unwrap();
        assert_eq!(tail(&f, 2), "\\u{1b}[31mred\nlast\tline");
        assert_eq!(tail(&f, 1), "last\tline");
        assert_eq!(tail(&f, 0), "");
        // Only whole lines, even where the read began mid-line.
        let all = tail(&f, usize::MAX);
        assert!(all.lines().rev().skip(2).all(|l| l == "x".repeat(100)));
        assert!(all.len() as u64 <= TAIL_BYTES);
        let _ = std::fs::remove_file(&f);
    }
}
