//! The debugger's commands on the app: `:x` (examine memory), `:watch` and
//! `:unwatch`, with their arguments' parsing. The views' state is
//! `state/debug.rs`.

use crate::isa::ABI;
use crate::machine::Watch;
use crate::tui::TuiError;
use crate::tui::state::debug::{WATCH_DEFAULT, WatchEntry, X_DEFAULT, X_MAX};
use crate::tui::state::{AppState, Lower};

fn number(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

impl AppState {
    /// An address as `:x` and `:watch` take it: a location (`0xADDR`,
    /// `SYM`, `SYM+0xOFF`, `FILE:LINE`) or a register's ABI name (`sp`).
    fn debug_address(&self, a: &str) -> Result<u64, TuiError> {
        if let Some(i) = ABI.iter().position(|r| *r == a) {
            return Ok(self.live.regs[i]);
        }
        // A symbol never starts with a digit: digits alone are an address.
        if !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()) {
            return a.parse().map_err(|_| TuiError::AddressTooLarge {
                digits: a.to_string(),
            });
        }
        Ok(self.live.program().locate(a)?)
    }

    /// Splits `ADDR [N]`; `what` names the count in messages.
    fn addr_and_count(
        &self,
        arg: &str,
        what: &'static str,
    ) -> Result<(u64, Option<u64>), TuiError> {
        let mut parts = arg.split_whitespace();
        let a = parts.next().ok_or(TuiError::NoAddress)?;
        let n = match parts.next() {
            Some(n) => Some(
                number(n)
                    .filter(|&n| n > 0)
                    .ok_or_else(|| TuiError::NotACount {
                        arg: n.to_string(),
                        what,
                    })?,
            ),
            None => None,
        };
        if let Some(extra) = parts.next() {
            return Err(TuiError::TooManyArguments {
                extra: extra.to_string(),
                what,
            });
        }
        Ok((self.debug_address(a)?, n))
    }

    /// `:x ADDR|SYM [N]`: the memory pane at that address, N bytes.
    pub fn examine(&mut self, arg: &str) {
        match self.addr_and_count(arg, "byte count") {
            Ok((addr, n)) => {
                let n = n.unwrap_or(X_DEFAULT).min(X_MAX);
                self.debug.memory = Some((addr, n));
                self.lower = Lower::Memory;
                let d = self.live.program().describe(addr);
                self.say(format!(
                    "memory at {d} ({addr:#x}), {n} byte{} (v cycles the panes)",
                    if n == 1 { "" } else { "s" }
                ));
            }
            Err(e) => self.error(format!("x: {e}")),
        }
    }

    /// `:watch ADDR|SYM [LEN]`: stop after any load or store touching the
    /// physical memory the address maps to now.
    pub fn watch(&mut self, arg: &str) {
        let (addr, len) = match self.addr_and_count(arg, "length") {
            Ok(v) => v,
            Err(e) => return self.error(format!("watch: {e}")),
        };
        let name = arg
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string();
        // A bare symbol with a size: all of it.
        let sized = self
            .live
            .program()
            .symbol(&name)
            .map(|s| s.size)
            .filter(|&n| n > 0 && n <= X_MAX);
        let len = len.or(sized).unwrap_or(WATCH_DEFAULT);
        if addr.checked_add(len - 1).is_none() {
            return self.error(format!(
                "watch: {len:#x} bytes from {name} ({addr:#x}) wrap past the end of the address space"
            ));
        }
        let Some(phys) = self.live.m.phys_of(addr) else {
            return self.error(format!(
                "watch: {name} ({addr:#x}) is not mapped by the page tables now"
            ));
        };
        if !self.live.m.is_mapped_phys(phys, len) {
            let at = if phys == addr {
                String::new()
            } else {
                format!(", physical {phys:#x}")
            };
            return self.error(format!(
                "watch: nothing is mapped at {name} ({addr:#x}{at}, {len} bytes): no load or store could hit it"
            ));
        }
        let watch = Watch { phys, len };
        self.debug.watches.push(WatchEntry {
            what: name.clone(),
            vaddr: addr,
            watch,
        });
        let n = self.debug.watches.len();
        let phys = if phys == addr {
            String::new()
        } else {
            format!(", physical {phys:#x}")
        };
        self.say(format!(
            "watch {n} on {name} ({addr:#x}{phys}, {len} bytes): runs and steps stop after any load or store there"
        ));
    }

    /// `:unwatch N|ADDR|SYM|all`.
    pub fn unwatch(&mut self, arg: &str) {
        if arg == "all" {
            self.debug.watches.clear();
            return self.say("all watches removed");
        }
        let by_number = number(arg)
            .filter(|n| !arg.starts_with("0x") && *n >= 1)
            .and_then(|n| usize::try_from(n - 1).ok())
            .filter(|&i| i < self.debug.watches.len());
        let i = by_number.or_else(|| {
            let addr = self.debug_address(arg).ok();
            self.debug
                .watches
                .iter()
                .position(|w| w.what == arg || Some(w.vaddr) == addr)
        });
        match i {
            Some(i) => {
                let w = self.debug.watches.remove(i);
                self.say(format!("watch {} on {} removed", i + 1, w.what));
            }
            None => self.error(format!(
                "unwatch: no watch '{arg}' (give its number, its address or all)"
            )),
        }
    }
}
