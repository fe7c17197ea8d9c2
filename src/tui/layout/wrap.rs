//! Text wrapped at words to a width, styles kept: prose in a pane, the
//! status line's first line on a narrow screen. The layout measures with it
//! (how many rows the status line takes) and `render` draws what it gives,
//! so both see the same rows.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// `lines` wrapped at spaces to `width` columns, styles kept; a word wider
/// than the pane is broken where the edge falls.
pub fn wrap_lines<'a>(lines: Vec<Line<'a>>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut out = Vec::new();
    for line in lines {
        let base = line.style;
        // Words and the spaces before each, with their styles.
        let mut words: Vec<(String, Vec<(String, Style)>)> = Vec::new();
        let mut gap = String::new();
        let mut cur: Vec<(String, Style)> = Vec::new();
        let mut in_word = false;
        for sp in &line.spans {
            let style = base.patch(sp.style);
            for ch in sp.content.chars() {
                if ch == ' ' {
                    if in_word {
                        words.push((std::mem::take(&mut gap), std::mem::take(&mut cur)));
                        in_word = false;
                    }
                    gap.push(ch);
                    continue;
                }
                in_word = true;
                match cur.last_mut() {
                    Some((t, st)) if *st == style => t.push(ch),
                    _ => cur.push((ch.to_string(), style)),
                }
            }
        }
        if in_word {
            words.push((gap, cur));
        }
        if words.is_empty() {
            out.push(Line::default());
            continue;
        }
        let mut row: Vec<Span<'static>> = Vec::new();
        let mut used = 0;
        for (i, (gap, parts)) in words.into_iter().enumerate() {
            let n: usize = parts.iter().map(|(t, _)| t.chars().count()).sum();
            // The first word keeps its indent; a later row starts at a word.
            let lead = gap.chars().count();
            if i > 0 && used > 0 && used + lead + n > width {
                out.push(Line::from(std::mem::take(&mut row)));
                used = 0;
            }
            if (i == 0 || used > 0) && lead > 0 {
                row.push(Span::raw(" ".repeat(lead)));
                used += lead;
            }
            for (t, st) in parts {
                let mut rest: &str = &t;
                while !rest.is_empty() {
                    let room = width.saturating_sub(used);
                    if room == 0 {
                        out.push(Line::from(std::mem::take(&mut row)));
                        used = 0;
                        continue;
                    }
                    let cut = rest.char_indices().nth(room).map_or(rest.len(), |(k, _)| k);
                    let (a, b) = rest.split_at(cut);
                    row.push(Span::styled(a.to_string(), st));
                    used += a.chars().count();
                    rest = b;
                }
            }
        }
        out.push(Line::from(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    fn text(l: &Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn wrapping_keeps_every_word_and_each_row_within_the_width() {
        let l = Line::from(vec![
            Span::raw("  the timed loop, with "),
            Span::styled("ptrace", Style::new().fg(Color::DarkGray)),
            Span::raw(", tracepoints, audit and a-very-long-word-indeed"),
        ]);
        let rows: Vec<String> = wrap_lines(vec![l], 12).iter().map(text).collect();
        for r in &rows {
            assert!(r.chars().count() <= 12, "{r:?} in {rows:?}");
        }
        assert_eq!(rows[0], "  the timed");
        let joined = rows.join(" ");
        for w in ["loop,", "ptrace,", "tracepoints,", "audit"] {
            assert!(joined.split_whitespace().any(|x| x == w), "{w} in {rows:?}");
        }
        assert_eq!(
            rows.concat()
                .replace(' ', "")
                .matches("a-very-long-word-indeed")
                .count(),
            1
        );
    }
}
