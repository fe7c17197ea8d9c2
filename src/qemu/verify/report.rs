//! `verify`'s report as lines: what was booted, where it stopped, each
//! comparison ("equal (...)" with what it covered, or its first difference
//! and a few more), and what was masked, with why.

use super::compare::{Comparison, Covered};

/// More differences listed after the first, at most.
const MORE: usize = 8;

pub struct Report {
    /// What QEMU booted, in a line.
    pub booted: String,
    /// Where the snapshot stops, in words.
    pub stop: String,
    pub iterations: u64,
    /// The stored snapshot against QEMU's boot.
    pub at_snapshot: Comparison,
    /// QEMU against trapscope after the iterations; None when the first
    /// comparison found a difference (the runs would start apart).
    pub after: Option<Comparison>,
    /// Why the iterations were not compared though the snapshot point was
    /// equal: a tick snapshot, or a path that read the clock.
    pub not_compared: Option<String>,
}

impl Report {
    /// Both comparisons made, and equal.
    pub fn equal(&self) -> bool {
        self.at_snapshot.equal() && self.after.as_ref().is_some_and(Comparison::equal)
    }

    /// The snapshot point equal, and the iterations not comparable.
    pub fn partial(&self) -> bool {
        self.at_snapshot.equal() && self.not_compared.is_some()
    }

    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![
            format!("booted: {}", self.booted),
            format!("stopped: {}", self.stop),
        ];
        comparison(&mut out, "state at the snapshot point", &self.at_snapshot);
        let head = format!("after {} iterations", self.iterations);
        match &self.after {
            Some(c) => {
                comparison(&mut out, &head, c);
                out.push("masked after the iterations:".into());
                for (what, why) in super::MASKED {
                    out.push(format!("  {what}: {why}"));
                }
            }
            None => match &self.not_compared {
                Some(why) => out.push(format!("{head}: not compared: {why}")),
                None => out.push(format!(
                    "{head}: not compared (QEMU and the snapshot differ already at the snapshot point)"
                )),
            },
        }
        out
    }
}

fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

fn count(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn covered(c: &Covered) -> String {
    let mut parts = vec!["pc".to_string(), format!("x1-x{}", c.gprs)];
    parts.push(format!("{} CSRs", c.csrs.len()));
    if c.fp {
        parts.push("f0-f31 + fcsr".into());
    }
    if c.vector {
        parts.push("v0-v31 + vl/vtype/vstart/vcsr".into());
    }
    if c.platform {
        parts.push("mtime/mtimecmp/msip".into());
    }
    parts.push(format!("RAM {}", size(c.ram)));
    parts.join(", ")
}

fn comparison(out: &mut Vec<String>, head: &str, c: &Comparison) {
    if let Some(how) = &c.ended {
        out.push(format!(
            "{head}: differs: {} did not reach the point {} reached: {how}",
            c.right, c.left
        ));
        return;
    }
    if c.equal() {
        out.push(format!("{head}: equal ({})", covered(&c.covered)));
        return;
    }
    let vals = |l: &str, r: &str| format!("{} {l}, {} {r}", c.left, c.right);
    let ram = c.ram.as_ref().map(|d| {
        format!(
            "RAM at {}: {} ({} in {} of {} differ{})",
            d.named,
            vals(&format!("{:#04x}", d.left), &format!("{:#04x}", d.right)),
            count(d.bytes, "byte"),
            count(d.pages, "page"),
            size(c.covered.ram),
            if d.bytes == 1 { "s" } else { "" }
        )
    });
    let mut lines: Vec<String> = c
        .regs
        .iter()
        .map(|d| format!("{}: {}", d.what, vals(&d.left, &d.right)))
        .collect();
    // RAM right after the first register, so the cut below never hides it.
    if let Some(r) = ram {
        lines.insert(lines.len().min(1), r);
    }
    let first = lines.remove(0);
    out.push(format!("{head}: differs: {first}"));
    let n = lines.len();
    for l in lines.into_iter().take(MORE) {
        out.push(format!("  {l}"));
    }
    if n > MORE {
        out.push(format!("  and {} more", n - MORE));
    }
}
