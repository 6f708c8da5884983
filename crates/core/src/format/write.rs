//! Writing grids: the line format ([`to_line`], [`digit_char`]), grid blocks ([`to_block`]),
//! the default of the two ([`to_text`]) and the pretty form with block separators ([`pretty`],
//! also `Display`); apart from reading, which it shares only the digit alphabet with.

use std::fmt;

use crate::{Grid, Order};

/// A grid that a format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {0} grid has digits above 35 and cannot be written in the line format; use grid blocks")]
pub struct TooLargeForLine(pub Order);
/// The digit characters of a grid of side `size` in the line format, as people read them:
/// `1-4`, `1-9`, `1-9, A-G`.
pub(super) fn digit_chars(size: usize) -> String {
    match size {
        0..=9 => format!("1-{size}"),
        10 => "1-9, A".to_string(),
        _ => format!("1-9, A-{}", digit_char(size.min(35) as u16)),
    }
}
/// The character of digit `d` in the line format (`.` for empty).
pub fn digit_char(d: u16) -> char {
    match d {
        0 => '.',
        1..=9 => (b'0' + d as u8) as char,
        10..=35 => (b'A' + (d - 10) as u8) as char,
        _ => '?',
    }
}

/// The grid in the line format (`.` for empty, `A-Z` for 10..=35).
pub fn to_line(grid: &Grid) -> Result<String, TooLargeForLine> {
    if grid.size() > 35 {
        return Err(TooLargeForLine(grid.order()));
    }
    Ok(grid.cells().iter().map(|&d| digit_char(d)).collect())
}

/// The grid as a block of `N` lines of right-aligned integers (`0` for empty), with a final
/// newline.
pub fn to_block(grid: &Grid) -> String {
    let n = grid.size();
    let w = n.to_string().len();
    let mut s = String::with_capacity(grid.cells().len() * (w + 1));
    for row in grid.cells().chunks(n) {
        let line: Vec<String> = row.iter().map(|d| format!("{d:>w$}")).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

/// The grid in the format the workspace writes by default: a line (with a newline) when it
/// fits, a grid block followed by a blank line otherwise.
pub fn to_text(grid: &Grid) -> String {
    match to_line(grid) {
        Ok(mut l) => {
            l.push('\n');
            l
        }
        Err(_) => {
            let mut b = to_block(grid);
            b.push('\n');
            b
        }
    }
}

/// A human-readable grid with block separators, in the style of the JuMP seed's printer:
/// right-aligned numbers (letters not used), `|` between blocks, `-+-` lines between bands,
/// `.` for empty cells.
pub fn pretty(grid: &Grid) -> String {
    let order = grid.order();
    let (n, size) = (order.n(), order.size());
    let w = size.to_string().len();
    let seg = n * w + (n - 1);
    let rule = vec!["-".repeat(seg); n].join("-+-");
    let mut out = String::new();
    for r in 0..size {
        if r > 0 && r % n == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        let parts: Vec<String> = (0..n)
            .map(|b| {
                (0..n)
                    .map(|i| match grid.at(r, b * n + i) {
                        0 => format!("{:>w$}", "."),
                        d => format!("{d:>w$}"),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        out.push_str(&parts.join(" | "));
        out.push('\n');
    }
    out
}

impl fmt::Display for Grid {
    /// The pretty form; use [`to_line`] or [`to_block`] for machine-readable text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&pretty(self))
    }
}
