//! The comparison as people read it: Markdown and LaTeX tables (items named `Group | Row |
//! Column` also laid out as grids) and a CSV file, with the verdicts counted.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use sudoku_analysis::escape;

use crate::{paper, Comparison, Ours, ReproError, Verdict, COLUMNS};

/// How many items have each verdict.
pub fn counts(cs: &[Comparison]) -> BTreeMap<Verdict, usize> {
    let mut m = BTreeMap::new();
    for c in cs {
        *m.entry(c.verdict).or_insert(0) += 1;
    }
    m
}

/// `12 reproduced, 3 differs, 2 not yet` (and `, 4 quick: not judged` when a quick run left
/// some).
pub fn counts_text(cs: &[Comparison]) -> String {
    let m = counts(cs);
    [
        Verdict::Reproduced,
        Verdict::Differs,
        Verdict::NotYet,
        Verdict::Unjudged,
    ]
    .iter()
    .filter(|v| **v != Verdict::Unjudged || m.contains_key(v))
    .map(|v| format!("{} {}", m.get(v).copied().unwrap_or(0), v.name()))
    .collect::<Vec<_>>()
    .join(", ")
}

fn ours_text(c: &Comparison) -> String {
    c.ours.as_ref().map_or("–".into(), Ours::to_string)
}

/// The grids of `Group | Row | Column` items: group → (rows, columns, cells).
type Grids<'a> = Vec<(
    String,
    Vec<String>,
    Vec<String>,
    BTreeMap<(String, String), &'a Comparison>,
)>;

fn grids(cs: &[Comparison]) -> Grids<'_> {
    let mut out: Grids<'_> = Vec::new();
    for c in cs {
        let parts: Vec<&str> = c.value.item.split(" | ").map(str::trim).collect();
        let [g, r, col] = parts.as_slice() else {
            continue;
        };
        let i = match out.iter().position(|x| x.0 == *g) {
            Some(i) => i,
            None => {
                out.push((g.to_string(), vec![], vec![], BTreeMap::new()));
                out.len() - 1
            }
        };
        let e = &mut out[i];
        if !e.1.iter().any(|x| x == r) {
            e.1.push(r.to_string());
        }
        if !e.2.iter().any(|x| x == col) {
            e.2.push(col.to_string());
        }
        e.3.insert((r.to_string(), col.to_string()), c);
    }
    out
}

/// One comparison row's cells: paper, item, page, quantity, the paper's value (with its unit),
/// ours, ours/paper, verdict, reason.
fn fields(c: &Comparison) -> [String; 9] {
    let v = &c.value;
    let unit = match v.unit.as_str() {
        "" | "status" | "count" | "-" => String::new(),
        u => format!(" {u}"),
    };
    [
        // Pages show the paper's name; the CSV keeps the values file's number.
        paper(&v.paper).map_or_else(|| v.paper.clone(), |p| p.name.to_string()),
        v.item.clone(),
        v.page.clone(),
        v.quantity.clone(),
        format!("{}{unit}", v.value),
        ours_text(c),
        c.agreement.clone(),
        c.verdict.name().to_string(),
        c.reason.clone(),
    ]
}

/// The comparison as Markdown: one row per item, then each `Group | Row | Column` group laid out
/// as the paper lays it out (paper / ours per cell).
pub fn markdown(title: &str, cs: &[Comparison]) -> String {
    let m = escape::markdown;
    let mut s = format!("# {}\n\n{}.\n\n", m(title), counts_text(cs));
    s.push_str(
        "| Paper | Item | Page | Quantity | Paper value | Ours | Ours/paper | Verdict | Reason |\n",
    );
    s.push_str("| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |\n");
    for c in cs {
        let row: Vec<String> = fields(c).iter().map(|f| m(f)).collect();
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    for (g, rows, cols, cells) in grids(cs) {
        let _ = write!(s, "\n## {} (paper / ours)\n\n| |", m(&g));
        for col in &cols {
            let _ = write!(s, " {} |", m(col));
        }
        s.push_str("\n| --- |");
        s.push_str(&" ---: |".repeat(cols.len()));
        s.push('\n');
        for r in &rows {
            let _ = write!(s, "| {} |", m(r));
            for col in &cols {
                let cell = cells
                    .get(&(r.clone(), col.clone()))
                    .map_or(String::new(), |c| {
                        format!("{} / {}", c.value.value, ours_text(c))
                    });
                let _ = write!(s, " {} |", m(&cell));
            }
            s.push('\n');
        }
    }
    s
}

/// The comparison as a LaTeX `longtable` (needs the `longtable` package).
pub fn latex(title: &str, cs: &[Comparison]) -> String {
    let l = escape::latex;
    let mut s = format!(
        "% {}\n\\begin{{longtable}}{{lllrrrl}}\n\\caption{{{}}}\\\\\n\\hline\nItem & Page & Quantity & Paper & Ours & Ours/paper & Verdict \\\\\n\\hline\n\\endhead\n",
        counts_text(cs),
        l(title)
    );
    for c in cs {
        // Item to verdict: the paper is the caption's, the reason too long for a page.
        let row: Vec<String> = fields(c)[1..8].iter().map(|f| l(f)).collect();
        let _ = writeln!(s, "{} \\\\", row.join(" & "));
    }
    s.push_str("\\hline\n\\end{longtable}\n");
    s
}

/// The comparison as CSV (the values file's columns plus ours, agreement, verdict, reason), for
/// machines and tests.
pub fn write_csv(path: &Path, cs: &[Comparison]) -> Result<(), ReproError> {
    // Whole or not at all, as every file of the workspace is written.
    sudoku_analysis::write_with(path, |out| {
        let mut w = csv::Writer::from_writer(out);
        let extra = ["ours", "agreement", "verdict", "reason", "notes"];
        let header = COLUMNS[..6].iter().chain(extra.iter());
        w.write_record(header).map_err(std::io::Error::other)?;
        for c in cs {
            let v = &c.value;
            let given = [&v.paper, &v.item, &v.page, &v.quantity, &v.value, &v.unit];
            let judged = [ours_text(c), c.agreement.clone(), c.verdict.name().into()];
            let record = given.into_iter().cloned().chain(judged);
            w.write_record(record.chain([c.reason.clone(), v.notes.clone()]))
                .map_err(std::io::Error::other)?;
        }
        w.flush()
    })
    .map_err(|e| ReproError::Write {
        path: path.to_path_buf(),
        // Its own message names the file too.
        what: match e {
            sudoku_analysis::AnalysisError::NotWritten { source, .. } => source.to_string(),
            e => e.to_string(),
        },
    })?;
    Ok(())
}
