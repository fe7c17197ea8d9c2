//! Running the guest: `s`, and `c` until a stop, a deadline or the caller's
//! cancel, with `O` console packets kept (GDB manual §E.3 Stop Reply Packets).

use super::error::console_text;
use super::{Gdb, GdbError, StopReply, TICK};
use std::io::{Read, Write};
use std::time::Instant;

impl<S: Read + Write> Gdb<S> {
    /// `s`: one instruction.
    pub fn step(&mut self) -> Result<StopReply, GdbError> {
        self.link.send(b"s", "s")?;
        let deadline = Instant::now() + self.link.timeout;
        self.wait_stop("s", deadline, &mut || true)
            .map_err(|e| match e {
                Waited::Err(e) => e,
                Waited::Deadline => self.link.timed_out("s"),
                Waited::Cancelled => GdbError::Cancelled,
            })
    }

    /// `c`, then waits for the stop until `deadline`, calling `poll` about
    /// every 100 ms. When `poll` returns false or the deadline passes, sends
    /// the 0x03 interrupt, waits for that stop, and returns Cancelled or
    /// TimedOut.
    pub fn cont_until_stop(
        &mut self,
        deadline: Instant,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<StopReply, GdbError> {
        let started = Instant::now();
        self.link.send(b"c", "c")?;
        let outcome = match self.wait_stop("c", deadline, poll) {
            Ok(stop) => return Ok(stop),
            Err(Waited::Err(e)) => return Err(e),
            Err(Waited::Cancelled) => GdbError::Cancelled,
            Err(Waited::Deadline) => GdbError::TimedOut {
                what: "c (the guest never stopped)".into(),
                secs: started.elapsed().as_secs_f64(),
            },
        };
        self.link.write_raw(&[0x03], "interrupt")?;
        let d = Instant::now() + self.link.timeout;
        match self.wait_stop("interrupt", d, &mut || true) {
            Ok(_) => Err(outcome),
            Err(Waited::Err(e)) => Err(e),
            Err(_) => Err(self.link.timed_out("interrupt (0x03)")),
        }
    }

    /// Reads packets until a stop reply, keeping `O` console output.
    fn wait_stop(
        &mut self,
        what: &str,
        deadline: Instant,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<StopReply, Waited> {
        loop {
            let tick = (Instant::now() + TICK).min(deadline);
            match self.link.recv_until(tick, what).map_err(Waited::Err)? {
                Some(p) => {
                    if let Some(text) = console_text(&p) {
                        self.console.push_str(&text);
                        continue;
                    }
                    let text = String::from_utf8_lossy(&p).into_owned();
                    return StopReply::parse(&text).map_err(|err| {
                        Waited::Err(GdbError::NotAStop {
                            what: what.into(),
                            err,
                        })
                    });
                }
                None => {
                    if !poll() {
                        return Err(Waited::Cancelled);
                    }
                    if Instant::now() >= deadline {
                        return Err(Waited::Deadline);
                    }
                }
            }
        }
    }
}

/// Why `wait_stop` gave up.
enum Waited {
    Err(GdbError),
    Deadline,
    Cancelled,
}
