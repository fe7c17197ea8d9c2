//! Deadlines (split from gdb_transcript.rs, whose replay stream it uses):
//! a continue past its deadline interrupts the target and times out, a poll
//! can cancel it, and a stub that says nothing, at all or after its ack,
//! times out by the deadline.

use super::*;

#[test]
fn continue_past_the_deadline_interrupts_and_times_out() {
    let r = acked(Replay::default())
        .sends("c")
        .stub(b"+")
        .client(&[0x03])
        .pkt("T02thread:01;")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let t = Instant::now();
    let mut polls = 0;
    let e = g
        .cont_until_stop(t + Duration::from_millis(350), &mut || {
            polls += 1;
            true
        })
        .unwrap_err();
    let took = t.elapsed();
    assert!(matches!(e, GdbError::TimedOut { .. }), "{e:?}");
    assert!(
        took >= Duration::from_millis(350) && took < Duration::from_secs(3),
        "{took:?}"
    );
    // ~100 ms ticks over 350 ms.
    assert!((2..=6).contains(&polls), "{polls} polls");
    assert!(g.get_ref().finished(), "no interrupt was sent");
}

#[test]
fn continue_cancelled_by_poll() {
    let r = acked(Replay::default())
        .sends("c")
        .stub(b"+")
        .client(&[0x03])
        .pkt("T02thread:01;")
        .client(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let mut polls = 0;
    let e = g
        .cont_until_stop(Instant::now() + Duration::from_secs(30), &mut || {
            polls += 1;
            polls < 3
        })
        .unwrap_err();
    assert!(matches!(e, GdbError::Cancelled), "{e:?}");
    assert_eq!(polls, 3);
    assert!(g.get_ref().finished());
}

/// A stream that never has anything to read.
struct Silent(io::ErrorKind);
impl Read for Silent {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(self.0.into())
    }
}
impl Write for Silent {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_silent_stub_times_out_by_the_deadline() {
    for kind in [io::ErrorKind::WouldBlock, io::ErrorKind::TimedOut] {
        let mut g = Gdb::new(Silent(kind));
        g.set_timeout(Duration::from_millis(250));
        let t = Instant::now();
        let e = g.handshake().unwrap_err();
        let took = t.elapsed();
        assert!(matches!(e, GdbError::TimedOut { .. }), "{e:?}");
        assert!(
            took >= Duration::from_millis(250) && took < Duration::from_secs(2),
            "{took:?}"
        );
        assert!(one_line(&e).contains("qSupported"));
    }
}

#[test]
fn a_stub_silent_after_the_ack_times_out() {
    let r = acked(Replay::default()).sends("m1000,4").stub(b"+");
    let mut g = gdb(r);
    g.handshake().unwrap();
    let e = g.read_mem(0x1000, 4).unwrap_err();
    assert!(one_line(&e).contains("m1000,4"), "{e}");
    assert!(matches!(e, GdbError::TimedOut { .. }));
}
