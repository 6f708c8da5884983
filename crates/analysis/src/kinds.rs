//! A kind's own columns of `trials.csv` ([`KindColumns`]): what one kind of experiment records
//! of a trial beside the columns every trial has. The generic [`Row`](crate::Row) holds them as
//! one optional, typed value. The file holds every kind's columns, empty in rows of other kinds,
//! so its header does not depend on the run's kind (and merged or compared folders line up).
//! Adding a kind's columns is its struct and one line of [`kind_columns!`]; the row is not
//! touched.

use std::borrow::Cow;

use csv::StringRecord;
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::header::field_names;

/// Kind `logic-lp`: which rule sets solve the puzzle and what its LP relaxation is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogicLpColumns {
    /// The smallest rule set of sudoku-logic that solves the puzzle (singles, pigeonhole,
    /// two-unit, all) or `none`.
    #[serde(default)]
    pub rules_needed: String,
    /// The LP relaxation's optimum is integral (empty when infeasible).
    #[serde(default)]
    pub lp_integral: Option<bool>,
    /// The LP polytope is that one integral point (Teles, Theorem 4).
    #[serde(default)]
    pub lp_unique: Option<bool>,
}

/// Declares [`KindColumns`] from one list of (variant, columns struct, kind name), and how a row
/// reads and writes them. Each struct is flat (one field a column), `Default` (its empty
/// columns) and `PartialEq`.
macro_rules! kind_columns {
    ($( $(#[$attr:meta])* $variant:ident($columns:ident) = $kind:literal ),* $(,)?) => {
        /// One kind's own columns of a trial row.
        #[derive(Clone, Debug, PartialEq)]
        pub enum KindColumns {
            $( $(#[$attr])* $variant($columns), )*
        }

        impl KindColumns {
            /// The kind (the `kind` column) whose columns these are.
            pub fn kind(&self) -> &'static str {
                match self {
                    $( KindColumns::$variant(_) => $kind, )*
                }
            }

            /// The columns of a row of `kind`, read from its line: `None` for a kind without
            /// columns of its own, and when every one is empty (a trial that ended before its
            /// kind's analysis, or a file written before the columns).
            pub(crate) fn read(
                kind: &str,
                record: &StringRecord,
                headers: &StringRecord,
            ) -> Result<Option<KindColumns>, csv::Error> {
                match kind {
                    $( $kind => {
                        let c: $columns = record.deserialize(Some(headers))?;
                        Ok((c != $columns::default()).then_some(KindColumns::$variant(c)))
                    } )*
                    _ => Ok(None),
                }
            }
        }

        /// Every kind's column names, in the order of the file.
        pub(crate) fn columns() -> Vec<&'static str> {
            let mut names = Vec::new();
            $( names.extend_from_slice(field_names::<$columns>()); )*
            names
        }

        /// Writes a row's kind columns: every kind's, its own kind's filled and the others'
        /// empty (a nested struct: csv writes its fields one after another in the row).
        pub(crate) fn write<S: Serializer>(
            own: &Option<KindColumns>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            let mut all = s.serialize_struct("KindColumns", [$( $kind ),*].len())?;
            $(
                let c: Cow<'_, $columns> = match own {
                    Some(KindColumns::$variant(c)) => Cow::Borrowed(c),
                    _ => Cow::Owned($columns::default()),
                };
                all.serialize_field($kind, &*c)?;
            )*
            all.end()
        }
    };
}

kind_columns! {
    /// Kind `logic-lp`.
    LogicLp(LogicLpColumns) = "logic-lp",
}

impl KindColumns {
    /// The columns of kind `logic-lp`, when these are.
    pub fn logic_lp(&self) -> Option<&LogicLpColumns> {
        match self {
            KindColumns::LogicLp(c) => Some(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{read_rows, write_rows, Row, TrialStatus};

    fn row(task: usize, kind: &str, columns: Option<KindColumns>) -> Row {
        Row {
            task,
            trial: task as u32,
            kind: kind.into(),
            order: 3,
            variant: "classic".into(),
            status: TrialStatus::Solved,
            repeats: 1,
            kind_columns: columns,
            ..Row::default()
        }
    }

    /// A logic-lp row's own columns round-trip through the file under their names, between
    /// `repeats` and `peak_rss_kb` as before they were typed; a row of another kind, and a
    /// logic-lp row that ended before its analysis, leave them empty.
    #[test]
    fn kind_columns_round_trip_and_stay_empty_in_other_kinds() {
        let lp = KindColumns::LogicLp(LogicLpColumns {
            rules_needed: "pigeonhole".into(),
            lp_integral: Some(true),
            lp_unique: Some(false),
        });
        let rows = [
            row(0, "logic-lp", Some(lp.clone())),
            row(1, "logic-lp", None),
            Row {
                verified: Some(true),
                ..row(2, "solve", None)
            },
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trials.csv");
        write_rows(&path, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
        let at = |name: &str| lines[0].iter().position(|h| *h == name).unwrap();
        let (repeats, rules) = (at("repeats"), at("rules_needed"));
        assert_eq!(
            lines[0][rules..=rules + 3],
            ["rules_needed", "lp_integral", "lp_unique", "peak_rss_kb"]
        );
        assert_eq!(rules, repeats + 1);
        assert_eq!(lines[1][rules..rules + 3], ["pigeonhole", "true", "false"]);
        for other in &lines[2..] {
            assert_eq!(other[rules..rules + 3], ["", "", ""]);
        }
        let back: Vec<Row> = read_rows(&path).unwrap();
        assert_eq!(back, rows);
        assert_eq!(
            back[0].kind_columns.as_ref().map(KindColumns::kind),
            Some("logic-lp")
        );
        // Columns filled in a row of another kind are not that row's: they read as none.
        let mut filled = lines[3].clone();
        filled[rules] = "all";
        let other = text.replace(&lines[3].join(","), &filled.join(","));
        std::fs::write(&path, other).unwrap();
        assert_eq!(read_rows::<Row>(&path).unwrap()[2].kind_columns, None);
        // A bad value in a kind column is named by its column.
        let bad = text.replacen("pigeonhole,true", "pigeonhole,maybe", 1);
        std::fs::write(&path, bad).unwrap();
        let e = read_rows::<Row>(&path).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column `lp_integral`: `maybe` is not `true`, `false` or empty"),
            "{e}"
        );
    }
}
