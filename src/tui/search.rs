//! `/` search in the source, disassembly and events panes: a case-insensitive
//! (ASCII) substring, found forward from the focused pane's view, moved to
//! and highlighted; `]` and `[` find the next and previous match, wrapping
//! at the ends (and saying so).
//!
//! In the source the matches form one cycle over every file the program's
//! line table names, fixed when the search starts from the view (see
//! `LineCycle`): `]` and `[` step through it, so each matching line is
//! visited once before the cycle wraps.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

use crate::machine::SrcLoc;
use crate::tui::TuiError;
use crate::tui::state::{AppState, LineCycle, Pane};
pub use crate::tui::state::{Hit, Search};

/// Instructions' bytes the disassembly search decodes at most per search
/// (a vmlinux has megabytes of text).
const CODE_LIMIT: u64 = 4 << 20;

/// The style of the matched text.
pub fn matched() -> Style {
    Style::new()
        .bg(Color::Yellow)
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD)
}

/// The glyph that marks the matched line (colour alone vanishes in a text
/// capture).
pub const GLYPH: &str = "»";

/// Where `query` starts in `text`, ignoring ASCII case (ASCII lowering
/// keeps byte offsets, so they are those of `text`).
pub fn find_in(text: &str, query: &str) -> Option<usize> {
    if query.is_empty() {
        return None;
    }
    text.to_ascii_lowercase().find(&query.to_ascii_lowercase())
}

/// `text` as spans in `base`, with the match of the current search in
/// [`matched`] when `hit` is the search's match.
pub fn spans<'a>(s: &AppState, hit: Hit, text: String, base: Style) -> Vec<Span<'a>> {
    let q = &s.search.query;
    let at = (s.search.hit(s) == Some(hit))
        .then(|| find_in(&text, q))
        .flatten();
    match at {
        Some(i) if text.is_char_boundary(i + q.len()) => vec![
            Span::styled(text[..i].to_string(), base),
            Span::styled(text[i..i + q.len()].to_string(), matched()),
            Span::styled(text[i + q.len()..].to_string(), base),
        ],
        _ => vec![Span::styled(text, base)],
    }
}

/// Whether `hit` is the match on screen (for the line's glyph).
pub fn is_hit(s: &AppState, hit: Hit) -> bool {
    s.search.hit(s) == Some(hit)
}

/// What a search goes through, in order, and where the view is in it.
struct Order<T> {
    items: Vec<T>,
    /// The item the view is on, if any (the search starts after it).
    cursor: Option<usize>,
}

impl<T> Order<T> {
    /// The first item after the cursor (before it, backwards) that `ok`
    /// takes, and whether the search wrapped past an end to find it.
    fn find(&self, forward: bool, ok: impl Fn(&T) -> bool) -> Option<(usize, bool)> {
        let n = self.items.len();
        if n == 0 {
            return None;
        }
        let start = match (self.cursor, forward) {
            (Some(c), true) => c + 1,
            (Some(c), false) => c + n - 1,
            (None, true) => 0,
            (None, false) => n - 1,
        };
        (0..n).find_map(|k| {
            let i = if forward {
                (start + k) % n
            } else {
                (start + n - k) % n
            };
            let wrapped = match self.cursor {
                Some(c) => (forward && i <= c) || (!forward && i >= c),
                None => false,
            };
            ok(&self.items[i]).then_some((i, wrapped))
        })
    }
}

impl AppState {
    /// Enter on the `/` prompt: search for `query` (empty: the last one).
    pub fn search_submit(&mut self, query: String) {
        if !query.is_empty() {
            self.search.query = query;
        }
        self.search_again(true);
    }

    /// `]` / `[`: the next (previous) match of the last search.
    pub fn search_again(&mut self, forward: bool) {
        if self.search.query.is_empty() {
            self.error("no search yet: / starts one");
            return;
        }
        let q = self.search.query.clone();
        let found = match self.focus {
            Pane::Source if self.shows_source() => self.find_line(&q, forward),
            Pane::Source => self.find_insn(&q, forward),
            Pane::Events => self.find_event(&q, forward),
            _ => {
                return self.error(
                    "/ searches the source, disassembly and events panes: S-Tab or a click focuses one",
                );
            }
        };
        match found {
            Ok((hit, wrapped, place)) => {
                self.search.hit = Some(hit);
                self.search.at = (self.live.variant, self.live.executed());
                let to = if forward { "start" } else { "end" };
                // A place that ends in its own parenthesis ("(3 of 17)")
                // takes the wrap note inside it.
                let place = match (wrapped, place.strip_suffix(')')) {
                    (true, Some(open)) => format!("{open}, wrapped to the {to})"),
                    (true, None) => format!("{place} (wrapped to the {to})"),
                    (false, _) => place,
                };
                self.say(format!("/{q}: {place}  (] next, [ previous)"));
            }
            Err(why) => {
                self.search.hit = None;
                self.error(format!("/{q}: {why}"));
            }
        }
    }

    /// Whether the source pane shows a source file (not the disassembly).
    pub fn shows_source(&self) -> bool {
        if let Some(Hit::Line(_)) = self.search.hit(self) {
            return !self.disasm;
        }
        let p = self.live.program();
        // Enter in the diff view points the pane at a line of the path.
        !self.disasm
            && self
                .diff
                .source_at
                .or_else(|| p.loc(self.live.m.pc()))
                .is_some_and(|l| self.sources.has_lines(l.file))
    }

    /// The line the source view is centred on: the match or the pc's line,
    /// moved by scrolling.
    pub fn source_center(&self) -> Option<SrcLoc> {
        let base = match self.search.hit(self) {
            Some(Hit::Line(l)) => l,
            _ => match self.diff.source_at {
                Some(l) => l,
                None => self.live.program().loc(self.live.m.pc())?,
            },
        };
        let len = self.sources.line_count(base.file) as i64;
        let line = (i64::from(base.line) + self.source_scroll).clamp(1, len.max(1));
        Some(SrcLoc {
            file: base.file,
            line: line as u32,
        })
    }

    /// The cycle of the source lines matching `q` from the view at `from`
    /// (see [`LineCycle`]).
    fn line_cycle(&self, q: &str, from: Option<SrcLoc>) -> LineCycle {
        let n = self.live.program().files.len() as u16;
        let (af, al) = from.map_or((0, 0), |c| (c.file.min(n.saturating_sub(1)), c.line));
        let mut items = Vec::new();
        for f in 0..n {
            self.sources.with_lines(f, |lines| {
                for (i, t) in lines.iter().enumerate() {
                    if find_in(t, q).is_some() {
                        let loc = SrcLoc {
                            file: f,
                            line: i as u32 + 1,
                        };
                        items.push((loc, self.live.stats().line_id(loc).is_some()));
                    }
                }
            });
        }
        // After the view in its file, the other files from it round, then
        // the view's file up to the view (its own line last).
        let place = |l: SrcLoc| match l.file == af {
            true if l.line > al => (0, 0, l.line),
            true => (2, 0, l.line),
            false => (1, (l.file + n - af) % n, l.line),
        };
        items.sort_by_key(|&(l, ran)| (!ran, place(l)));
        LineCycle {
            query: q.to_string(),
            items,
            at: 0,
        }
    }

    fn find_line(&mut self, q: &str, forward: bool) -> Result<(Hit, bool, String), TuiError> {
        let p = self.live.program().clone();
        // The cycle goes on while its match is on screen (the machine has
        // not moved, the view not scrolled off it); else one starts from
        // the view.
        let going = self.search.lines.take().filter(|c| {
            c.query == q
                && self.source_scroll == 0
                && c.items.get(c.at).map(|&(l, _)| Hit::Line(l)) == self.search.hit(self)
        });
        let (mut cycle, k, wrapped) = match going {
            Some(c) => {
                let n = c.items.len();
                let (k, wrapped) = match forward {
                    true => ((c.at + 1) % n, c.at + 1 == n),
                    false => ((c.at + n - 1) % n, c.at == 0),
                };
                (c, k, wrapped)
            }
            None => {
                let c = self.line_cycle(q, self.source_center());
                if c.items.is_empty() {
                    return Err(TuiError::NoSourceMatch);
                }
                // Forward: the first line that ran after the view; backward
                // the last line that ran before it (the last of all when
                // none ran).
                let ran = c.items.iter().filter(|(_, r)| *r).count();
                let k = match forward {
                    true => 0,
                    false => ran.checked_sub(1).unwrap_or(c.items.len() - 1),
                };
                (c, k, false)
            }
        };
        cycle.at = k;
        let (loc, ran) = cycle.items[k];
        let n = cycle.items.len();
        self.search.lines = Some(cycle);
        self.source_scroll = 0;
        let file = p.files.get(loc.file as usize).cloned().unwrap_or_default();
        let note = if ran { "" } else { "; this line has not run" };
        Ok((
            Hit::Line(loc),
            wrapped,
            format!("{file}:{} ({} of {n}{note})", loc.line, k + 1),
        ))
    }

    fn find_event(&mut self, q: &str, forward: bool) -> Result<(Hit, bool, String), TuiError> {
        let p = self.live.program().clone();
        let log = &self.live.stats().log;
        // The events pane's own filter (render/events.rs).
        let shown: Vec<(u64, bool)> = log
            .since(0)
            .filter(|(_, e)| self.filter.matches(&e.event))
            .map(|(i, e)| {
                let text = crate::report::event_text(&p, &e.event);
                (i, find_in(&text, q).is_some())
            })
            .collect();
        let n = shown.len();
        let cursor = match self.search.hit(self) {
            Some(Hit::Event(h)) => shown.iter().position(|(i, _)| *i == h),
            // Following the newest: nothing lies ahead, start at the oldest.
            _ if self.events_scroll == 0 => None,
            _ => n.checked_sub(self.events_scroll + 1),
        };
        let order = Order {
            items: shown,
            cursor,
        };
        let (k, wrapped) = order
            .find(forward, |(_, m)| *m)
            .ok_or(TuiError::NoEventMatch)?;
        // The match becomes the pane's bottom line.
        self.events_scroll = n - k - 1;
        let i = order.items[k].0;
        let n = log.since(i).next().map(|(_, e)| e.n).unwrap_or(i);
        Ok((Hit::Event(i), wrapped, format!("event #{n}")))
    }

    fn find_insn(&mut self, q: &str, forward: bool) -> Result<(Hit, bool, String), TuiError> {
        let p = self.live.program().clone();
        let center = crate::tui::layout::disasm::center(self);
        let mut ranges = code_ranges(&p);
        if !ranges.iter().any(|&(a, b)| (a..b).contains(&center)) {
            // Code no function symbol covers: the window the pane decodes.
            ranges.push((center, center + 0x400));
            ranges.sort_unstable();
        }
        // Ranges from the view's on, then those before it (wrapped).
        let first = ranges.iter().position(|&(_, b)| center < b).unwrap_or(0);
        let n = ranges.len();
        let mut budget = CODE_LIMIT;
        let visit = |r: (u64, u64), len: u64, want: &dyn Fn(u64) -> bool| -> Option<u64> {
            let bytes = self.live.m.read_mem(r.0, len as usize)?;
            let insns = crate::machine::decode_range(r.0, &bytes);
            let rows = crate::tui::layout::disasm::rows(self, &p, &insns);
            let mut hits = rows
                .iter()
                .filter(|row| want(row.pc) && find_in(&row.searchable(), q).is_some())
                .map(|row| row.pc);
            if forward { hits.next() } else { hits.last() }
        };
        for k in 0..=n {
            let (idx, wrapped) = if forward {
                ((first + k) % n, k >= n - first)
            } else {
                ((first + n - k) % n, k > first)
            };
            let r = ranges[idx];
            let last_pass = k == n;
            // The view's own range is searched on both sides of the view:
            // first ahead of it, at the end (after wrapping) behind it.
            let here = (r.0..r.1).contains(&center);
            let want = |pc: u64| {
                if !here {
                    return true;
                }
                match (forward, last_pass) {
                    (true, false) => pc > center,
                    (true, true) => pc <= center,
                    (false, false) => pc < center,
                    (false, true) => pc >= center,
                }
            };
            if last_pass && !here {
                break;
            }
            if budget == 0 {
                return Err(TuiError::CodeLimit {
                    mib: CODE_LIMIT >> 20,
                });
            }
            let len = (r.1 - r.0).min(budget);
            budget -= len;
            if let Some(pc) = visit(r, len, &want) {
                return Ok((Hit::Insn(pc), wrapped || last_pass, p.describe(pc)));
            }
        }
        Err(TuiError::NoCodeMatch)
    }
}

/// The program's code by function symbols, in address order, without
/// overlaps: a sized symbol's extent, an unsized one's up to the next symbol
/// (at most 64 KiB).
fn code_ranges(p: &crate::machine::Program) -> Vec<(u64, u64)> {
    let syms: Vec<_> = p
        .symbols()
        .iter()
        .filter(|s| s.is_func || p.is_mapped_exec(s.addr))
        .collect();
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (i, s) in syms.iter().enumerate() {
        let next = syms[i + 1..]
            .iter()
            .map(|n| n.addr)
            .find(|&a| a > s.addr)
            .unwrap_or(s.addr + 0x10000);
        let end = if s.size > 0 {
            s.addr + s.size
        } else {
            next.min(s.addr + 0x10000)
        };
        let start = out.last().map_or(s.addr, |&(_, e)| s.addr.max(e));
        if end > start {
            out.push((start, end));
        }
    }
    out
}

impl Search {
    /// The match the panes show, if the machine has not moved since.
    pub fn hit(&self, s: &AppState) -> Option<Hit> {
        self.hit
            .filter(|_| self.at == (s.live.variant, s.live.executed()))
    }
}
