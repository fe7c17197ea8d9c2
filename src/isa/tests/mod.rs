//! Tests driven by `testdata/insns.txt`: encodings made by the real GNU
//! assembler and the text GNU objdump prints for them.
//!
//! The fixture is committed; the tests never run binutils. To regenerate it
//! after editing `testdata/insns.S` (needs binutils-riscv64-linux-gnu):
//!
//! ```sh
//! sh src/isa/testdata/regen.sh
//! # = riscv64-linux-gnu-as -march=rv64gcv -o insns.o src/isa/testdata/insns.S
//! #   riscv64-linux-gnu-ld -Ttext=0x80000000 -o insns.elf insns.o
//! #   riscv64-linux-gnu-objdump -d insns.elf | awk ... > src/isa/testdata/insns.txt
//! ```

mod fields;
mod objdump;
mod reserved;
mod targets;

use std::collections::HashMap;

const FIXTURE: &str = include_str!("../testdata/insns.txt");

/// One instruction line of the fixture.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub addr: u64,
    pub raw: u32,
    /// 2 or 4, from the number of hex digits objdump printed.
    pub len: u8,
    pub text: String,
}

pub(super) struct Fixture {
    pub lines: Vec<Line>,
    /// Symbol name -> index into `lines` of the first instruction after it.
    pub labels: HashMap<String, usize>,
}

impl Fixture {
    pub fn load() -> Fixture {
        let mut lines = Vec::new();
        let mut labels = HashMap::new();
        for row in FIXTURE.lines() {
            if row.starts_with('#') || row.trim().is_empty() {
                continue;
            }
            if let Some(name) = row.strip_prefix('@') {
                labels.insert(name.to_string(), lines.len());
                continue;
            }
            let mut parts = row.splitn(3, ' ');
            let addr = u64::from_str_radix(parts.next().unwrap(), 16).unwrap();
            let enc = parts.next().unwrap();
            let text = parts
                .next()
                .unwrap_or_else(|| panic!("no text: {row}"))
                .to_string();
            let len = match enc.len() {
                4 => 2,
                8 => 4,
                _ => panic!("odd encoding width in {row}"),
            };
            let raw = u32::from_str_radix(enc, 16).unwrap();
            lines.push(Line {
                addr,
                raw,
                len,
                text,
            });
        }
        Fixture { lines, labels }
    }

    pub fn index(&self, label: &str) -> usize {
        *self
            .labels
            .get(label)
            .unwrap_or_else(|| panic!("no label {label} in fixture"))
    }

    /// The instruction right after `label`.
    pub fn at(&self, label: &str) -> &Line {
        &self.lines[self.index(label)]
    }

    pub fn addr(&self, label: &str) -> u64 {
        self.at(label).addr
    }
}

#[test]
fn fixture_is_substantial() {
    let f = Fixture::load();
    assert!(f.lines.len() > 400, "only {} lines", f.lines.len());
    assert!(f.lines.iter().any(|l| l.len == 2));
    assert!(f.lines.iter().any(|l| l.len == 4));
}
