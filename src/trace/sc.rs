//! How a store-conditional ended (unprivileged spec §8.2): succeeded, or
//! why not. It lives in `trace/` because `Event::Sc` and the SC fault carry
//! it; `atomics/` decides it.

use serde::Serialize;

/// Why an SC failed, or that it succeeded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScOutcome {
    Success,
    /// No LR has run yet, so no reservation was ever taken (an SC after an
    /// LR whose reservation went away says why it went instead).
    NoReservation,
    /// The reservation is for another address or size.
    OtherAddress {
        reserved: u64,
    },
    /// A trap or an xRET dropped it (only when the run says they do).
    ClearedByTrap {
        pc: u64,
    },
    /// An earlier SC used it up: e.g. the dummy `sc` in ret_from_exception.
    ClearedBySc {
        pc: u64,
    },
    /// The simulated second hart stored to the reserved address.
    RemoteStore {
        addr: u64,
    },
}

impl ScOutcome {
    pub fn ok(&self) -> bool {
        matches!(self, ScOutcome::Success)
    }
}

impl std::fmt::Display for ScOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScOutcome::Success => write!(f, "succeeded"),
            ScOutcome::NoReservation => {
                write!(f, "no reservation was ever taken (no LR has run)")
            }
            ScOutcome::OtherAddress { reserved } => {
                write!(f, "the reservation was for {reserved:#x}")
            }
            ScOutcome::ClearedByTrap { pc } => {
                write!(f, "a trap or xRET at {pc:#x} dropped the reservation")
            }
            ScOutcome::ClearedBySc { pc } => write!(f, "the sc at {pc:#x} used up the reservation"),
            ScOutcome::RemoteStore { addr } => write!(f, "the second hart stored to {addr:#x}"),
        }
    }
}

impl ScOutcome {
    /// Why an SC succeeded or failed, in words, each place named by
    /// `place` (a symbol and offset, where the caller has symbols).
    pub fn in_words(&self, place: &dyn Fn(u64) -> String) -> String {
        use ScOutcome::*;
        match self {
            Success => "succeeds".into(),
            NoReservation => "fails: no reservation was ever taken (no LR has run)".into(),
            OtherAddress { reserved } => format!("fails: the reservation is for {reserved:#x}"),
            ClearedByTrap { pc } => format!(
                "fails: a trap or xRET at {} dropped the reservation",
                place(*pc)
            ),
            ClearedBySc { pc } => {
                format!("fails: the sc at {} used up the reservation", place(*pc))
            }
            RemoteStore { addr } => format!("fails: the second hart stored to {addr:#x}"),
        }
    }
}
