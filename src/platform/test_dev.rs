//! The SiFive test device ("sifive,test0") QEMU virt uses for poweroff: a
//! 32-bit write of 0x5555 ends the run with a pass, `0x3333 | code << 16`
//! with a failure of `code`, as a write to HTIF `tohost` does. Other values
//! are ignored (0x7777, reset, included: nothing reboots).

pub const PASS: u32 = 0x5555;
pub const FAIL: u32 = 0x3333;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    Pass,
    /// The code the guest gave (0 becomes 1: a failure never reads as a pass).
    Fail(u64),
}

impl Finish {
    /// The run's exit code.
    pub fn code(self) -> u64 {
        match self {
            Finish::Pass => 0,
            Finish::Fail(c) => c,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct TestDev;

impl TestDev {
    pub fn write(&mut self, off: u64, v: u64) -> Option<Finish> {
        if off != 0 {
            return None;
        }
        let v = v as u32;
        match v & 0xffff {
            x if x == PASS => Some(Finish::Pass),
            x if x == FAIL => Some(Finish::Fail(u64::from(v >> 16).max(1))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_fail_and_other_values() {
        let mut t = TestDev;
        assert_eq!(t.write(0, 0x5555), Some(Finish::Pass));
        assert_eq!(t.write(0, 0x3333 | (7 << 16)), Some(Finish::Fail(7)));
        assert_eq!(t.write(0, 0x3333).map(Finish::code), Some(1));
        assert_eq!(t.write(0, 0x7777), None);
        assert_eq!(t.write(4, 0x5555), None);
    }
}
