//! The selection language of the values file's `select` column: `field=value` and
//! `field~text` filters joined by `;`, each naming a trial-row column ([`Field`]).

use serde::Deserialize;
use sudoku_analysis::{KindColumns, Row};

use crate::by_name;

/// One row filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// The trial-row column.
    pub field: Field,
    /// `~`: the column contains the text; `=`: it equals it.
    pub contains: bool,
    /// The text.
    pub text: String,
}

/// The trial-row columns a filter may name (by their names in trials.csv).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// `method`.
    Method,
    /// `params`.
    Params,
    /// `variant`.
    Variant,
    /// `order`.
    Order,
    /// `instance_set`.
    InstanceSet,
    /// `instance`.
    Instance,
    /// `trial` (0-based, as in trials.csv).
    Trial,
    /// `status`.
    Status,
    /// `givens`.
    Givens,
    /// `rules_needed` (kind = logic-lp).
    RulesNeeded,
}

impl Field {
    fn of(self, r: &Row) -> String {
        match self {
            Field::Method => r.method.clone(),
            Field::Params => r.params.clone(),
            Field::Variant => r.variant.clone(),
            Field::Order => r.order.to_string(),
            Field::InstanceSet => r.instance_set.clone(),
            Field::Instance => r.instance.clone(),
            Field::Trial => r.trial.to_string(),
            Field::Status => r.status.name().to_string(),
            Field::Givens => r.givens.to_string(),
            Field::RulesNeeded => r
                .kind_columns
                .as_ref()
                .and_then(KindColumns::logic_lp)
                .map_or_else(String::new, |c| c.rules_needed.clone()),
        }
    }
}

/// The rows an item looks at: all filters hold (an empty list keeps every row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Select(pub Vec<Filter>);

impl Select {
    /// Does `r` pass every filter? `params=` compares the parameter pairs as a set, and a
    /// `params~k=v` filter with several pairs needs each of them.
    pub fn keeps(&self, r: &Row) -> bool {
        self.0.iter().all(|f| {
            let v = f.field.of(r);
            match (f.field, f.contains) {
                (Field::Params, true) => {
                    let have: Vec<&str> = v.split_whitespace().collect();
                    f.text.split_whitespace().all(|p| have.contains(&p))
                }
                (Field::Params, false) => {
                    let mut a: Vec<&str> = v.split_whitespace().collect();
                    let mut b: Vec<&str> = f.text.split_whitespace().collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    a == b
                }
                (_, true) => v.contains(&f.text),
                (_, false) => v == f.text,
            }
        })
    }
}

pub(crate) fn parse_select(s: &str) -> Result<Select, String> {
    let mut filters = Vec::new();
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (at, contains) = match (part.find('='), part.find('~')) {
            (Some(e), Some(t)) if t < e => (t, true),
            (Some(e), _) => (e, false),
            (None, Some(t)) => (t, true),
            (None, None) => {
                return Err(format!(
                    "select `{part}`: expected field=value or field~text"
                ))
            }
        };
        let name = part[..at].trim();
        let field = by_name::<Field>(name).map_err(|e| format!("select `{part}`: field: {e}"))?;
        filters.push(Filter {
            field,
            contains,
            text: part[at + 1..].trim().to_string(),
        });
    }
    Ok(Select(filters))
}
