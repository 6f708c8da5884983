//! Text from data and experiment files (instance labels and set names, method parameters,
//! experiment names) made safe for each output format, so that it shows as the same text and
//! cannot break a table or inject markup. One function per format:
//!
//! - [`markdown`]: a cell of a GitHub-flavoured Markdown table, or a heading;
//! - [`latex`]: LaTeX text (inside a tabular or a caption);
//! - [`html`]: HTML text or an attribute value;
//! - [`chart`]: text drawn in a chart; the SVG writer (plotters) escapes `<`, `>`, `&`, `"`
//!   and `'` itself, so this only makes control characters, which XML 1.0 does not allow and
//!   charts cannot draw, visible;
//! - CSV needs none here: the `csv` writer quotes any field with a separator, quote or line
//!   break, and reading gives the same text back.
//!
//! Control characters become visible escapes first ([`visible`]: a newline shows as `\n`), so
//! a label never spans lines in any output.

/// `s` with every control character written out: `\n`, `\r`, `\t`, `\0`, or `\u{1b}` (the
/// one rule of messages and outputs, [`sudoku_core::format::visible`]).
pub use sudoku_core::format::visible;

/// `s` as literal text in a Markdown table cell: every ASCII punctuation mark that Markdown or
/// inline HTML could read as syntax is backslash-escaped (CommonMark shows `\x` as `x` for any
/// punctuation `x`), `|` included so a cell never splits. A run of `_` between two letters or
/// digits (`001_jump.txt`) can neither open nor close emphasis, so it stays as it is.
pub fn markdown(s: &str) -> String {
    let chars: Vec<char> = visible(s).chars().collect();
    let mut o = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == '_' {
            // The whole run at once: deciding per underscore rescanned the run (quadratic).
            let end = chars[i..]
                .iter()
                .position(|&c| c != '_')
                .map_or(chars.len(), |k| i + k);
            let inner = i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(end).is_some_and(|c| c.is_alphanumeric());
            for _ in i..end {
                if !inner {
                    o.push('\\');
                }
                o.push('_');
            }
            i = end;
            continue;
        }
        if matches!(
            ch,
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '&' | '#' | '~' | '$' | '!'
        ) {
            o.push('\\');
        }
        o.push(ch);
        i += 1;
    }
    o
}

/// `s` as literal LaTeX text: the ten special characters, `<`, `>` and `|` (which the default
/// font encoding prints as other glyphs), brackets (read as an optional argument after `\\`),
/// and the `×`, `–`, `·` of our own cells and the `χ`, `²`, `α`, `√`, `−` of the statistics.
pub fn latex(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in visible(s).chars() {
        match ch {
            '_' | '&' | '%' | '#' | '$' | '{' | '}' => {
                o.push('\\');
                o.push(ch);
            }
            '\\' => o.push_str("\\textbackslash{}"),
            '~' => o.push_str("\\textasciitilde{}"),
            '^' => o.push_str("\\textasciicircum{}"),
            '<' => o.push_str("\\textless{}"),
            '>' => o.push_str("\\textgreater{}"),
            '|' => o.push_str("\\textbar{}"),
            '[' => o.push_str("{[}"),
            ']' => o.push_str("{]}"),
            '×' => o.push_str("$\\times$"),
            // The symbols of the statistics' text, which the default LaTeX fonts lack.
            'χ' => o.push_str("\\ensuremath{\\chi}"),
            'α' => o.push_str("\\ensuremath{\\alpha}"),
            '²' => o.push_str("\\ensuremath{^2}"),
            '√' => o.push_str("\\ensuremath{\\surd}"),
            '−' => o.push_str("\\ensuremath{-}"),
            '·' => o.push_str("\\ensuremath{\\cdot}"),
            '–' => o.push_str("--"),
            _ => o.push(ch),
        }
    }
    o
}

/// `s` as HTML text (element content or a quoted attribute value): `&`, `<`, `>`, `"` and `'`
/// as character references.
pub fn html(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in visible(s).chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// `s` as chart text (see the module documentation: markup is escaped by the SVG writer).
pub fn chart(s: &str) -> String {
    visible(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NASTY: &str = "<script>alert(1)</script> a|b & 5% \"q\" x_y #1 $2 \\ [o] ~^\nnext\r\u{7}";

    #[test]
    fn controls_become_visible() {
        assert_eq!(visible("a\nb\tc\r\u{1b}"), "a\\nb\\tc\\r\\u{1b}");
        assert_eq!(visible("plain 9×9 – ok"), "plain 9×9 – ok");
        assert_eq!(chart(NASTY).lines().count(), 1);
    }

    #[test]
    fn markdown_cells_are_literal() {
        let m = markdown(NASTY);
        assert_eq!(
            m,
            "\\<script\\>alert(1)\\</script\\> a\\|b \\& 5% \"q\" x_y \\#1 \\$2 \\\\ \\[o\\] \\~^\\\\nnext\\\\r\\\\u{7}"
        );
        // No unescaped pipe (a cell boundary) and no raw tag start.
        let b = m.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            if matches!(c, b'|' | b'<' | b'&') {
                let slashes = b[..i].iter().rev().take_while(|&&x| x == b'\\').count();
                assert_eq!(slashes % 2, 1, "unescaped {} at {i} in {m}", c as char);
            }
        }
        assert!(!m.contains('\n'));
        assert_eq!(
            markdown("alpha=0.5 naked_pairs=true"),
            "alpha=0.5 naked_pairs=true"
        );
        // Underscores that could start or end emphasis are escaped.
        assert_eq!(markdown("_a_ b__ __c x_y"), "\\_a\\_ b\\_\\_ \\_\\_c x_y");
    }

    #[test]
    fn html_text_is_literal() {
        assert_eq!(
            html("<b>a & 'b'</b> \"c\"\n"),
            "&lt;b&gt;a &amp; &#39;b&#39;&lt;/b&gt; &quot;c&quot;\\n"
        );
        assert!(!html(NASTY).contains(['<', '>', '"', '\'', '\n']));
    }

    #[test]
    fn latex_text_is_literal() {
        assert_eq!(
            latex("a_b & 5% #1 $2 {x} \\ ~ ^ <t> | [o] 9×9 1–2"),
            "a\\_b \\& 5\\% \\#1 \\$2 \\{x\\} \\textbackslash{} \\textasciitilde{} \\textasciicircum{} \\textless{}t\\textgreater{} \\textbar{} {[}o{]} 9$\\times$9 1--2"
        );
        assert_eq!(latex("a\nb"), "a\\textbackslash{}nb");
        assert_eq!(
            latex("χ²_F α −1 · √"),
            "\\ensuremath{\\chi}\\ensuremath{^2}\\_F \\ensuremath{\\alpha} \\ensuremath{-}1 \\ensuremath{\\cdot} \\ensuremath{\\surd}"
        );
        // Every special character left is one this function wrote.
        let t = latex(NASTY);
        assert!(!t.contains('\n'));
        for special in ["&", "%", "#", "_"] {
            assert_eq!(
                t.matches(special).count(),
                t.matches(&format!("\\{special}")).count(),
                "{special} in {t}"
            );
        }
    }
}
