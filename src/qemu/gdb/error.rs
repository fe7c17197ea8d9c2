//! What can go wrong talking to a gdbstub, and the stop replies it sends.

use std::io;
use std::path::PathBuf;

/// What went wrong talking to QEMU's gdbstub: the connection, a reply
/// that did not come or was not one, a request the stub refused, the
/// target description. `Malformed`'s and `RiscvMap`'s `why` are written
/// where the reply or the map is read (a dozen places, each a fixed
/// phrase), so they stay text; a packet that does not decode, a stop
/// reply that is none and a target description that does not scan carry
/// their own types.
#[derive(Debug, thiserror::Error)]
pub enum GdbError {
    #[error("cannot connect to QEMU's gdbstub at {}: {why}", path.display())]
    Connect { path: PathBuf, why: String },
    #[error("talking to QEMU's gdbstub during `{what}`: {err}")]
    Io { what: String, err: io::Error },
    #[error("QEMU's gdbstub closed the connection during `{what}`")]
    Closed { what: String },
    #[error("no reply from QEMU's gdbstub to `{what}` within {secs:.1} s")]
    TimedOut { what: String, secs: f64 },
    #[error("stopped waiting for the guest: cancelled")]
    Cancelled,
    #[error("QEMU's gdbstub sent a malformed reply to `{what}`: {why}")]
    Malformed { what: String, why: String },
    /// The reply's escapes or run lengths do not decode.
    #[error("QEMU's gdbstub sent a malformed reply to `{what}`: {err}")]
    Undecodable {
        what: String,
        err: super::packet::DecodeError,
    },
    /// A stop reply was expected.
    #[error("QEMU's gdbstub sent a malformed reply to `{what}`: {err}")]
    NotAStop { what: String, err: StopReplyError },
    #[error("the reply to `{what}` failed its checksum {tries} times")]
    Checksum { what: String, tries: u32 },
    #[error("QEMU's gdbstub does not support `{what}`")]
    Unsupported { what: String },
    #[error("`{what}` failed: QEMU's gdbstub replied {reply}")]
    Stub { what: String, reply: String },
    #[error("{reg} is unavailable (the stub sent 'xx')")]
    Unavailable { reg: String },
    #[error("QEMU's target description has no register {name}")]
    NoRegister { name: String },
    #[error("QEMU's target description {annex} is malformed: {why}")]
    TargetXml {
        annex: String,
        why: super::tdesc::TdescError,
    },
    #[error("QEMU's register map does not fit a RISC-V snapshot: {why}")]
    RiscvMap { why: String },
}

/// Why a reply is not a stop reply (`StopReply::parse`); each holds the
/// reply as `clip` shows it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StopReplyError {
    #[error("an empty stop reply")]
    Empty,
    #[error("\"{0}\" is not a stop reply")]
    Kind(String),
    #[error("stop reply \"{0}\" lacks a two-digit number")]
    NoSignal(String),
}

/// A stop reply (`S`, `T`, or `W`/`X` when the guest is gone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopReply {
    pub signal: u8,
    pub thread: Option<String>,
    /// The reply's text as sent, e.g. "T05thread:p01.01;".
    pub raw: String,
}

impl StopReply {
    /// `W` (exited) or `X` (killed by a signal): no process to inspect.
    pub fn exited(&self) -> bool {
        self.raw.starts_with('W') || self.raw.starts_with('X')
    }

    /// Parses a stop reply (GDB manual §E.3 "Stop Reply Packets").
    pub fn parse(raw: &str) -> Result<StopReply, StopReplyError> {
        let kind = raw.chars().next().ok_or(StopReplyError::Empty)?;
        if !matches!(kind, 'S' | 'T' | 'W' | 'X') {
            return Err(StopReplyError::Kind(clip(raw)));
        }
        let sig = raw
            .get(1..3)
            .and_then(|s| u8::from_str_radix(s, 16).ok())
            .ok_or_else(|| StopReplyError::NoSignal(clip(raw)))?;
        let thread = if kind == 'T' {
            raw[3..]
                .split(';')
                .find_map(|f| f.strip_prefix("thread:"))
                .map(str::to_string)
        } else {
            None
        };
        Ok(StopReply {
            signal: sig,
            thread,
            raw: raw.to_string(),
        })
    }
}

/// The text of an `O` console packet (`O` + hex), or `None` for others
/// ("OK" among them).
pub(super) fn console_text(p: &[u8]) -> Option<String> {
    let hex = p.strip_prefix(b"O")?;
    if hex.is_empty() {
        return None;
    }
    super::packet::from_hex(hex).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// At most 60 characters of a reply, control characters escaped, for messages.
pub(super) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).flat_map(char::escape_default).collect();
    if s.chars().count() > 60 {
        out.push_str("...");
    }
    out
}
