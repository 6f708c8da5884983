//! Parameter grids: a `params` table expanded into one configuration per combination of its
//! lists ([`expand_params`]), each value checked as a scalar; apart because the runner and the
//! key checks (`fields.rs`) both use it.

use std::collections::BTreeMap;

use sudoku_core::Params;

use crate::error::ExperimentError;
use crate::MAX_CONFIGURATIONS;

/// Expands a parameter table into its grid of configurations, in a stable order (keys sorted,
/// list elements in the order written); `what` names the table's owner in errors.
pub fn expand_params(
    table: &BTreeMap<String, toml::Value>,
    what: &str,
) -> Result<Vec<Params>, ExperimentError> {
    let mut columns = Vec::with_capacity(table.len());
    let mut size = 1usize;
    for (key, value) in table {
        let values = param_values(value).map_err(|problem| ExperimentError::Param {
            what: what.to_string(),
            key: key.clone(),
            problem,
        })?;
        size = size.saturating_mul(values.len());
        columns.push((key, values));
    }
    if size > MAX_CONFIGURATIONS {
        return Err(ExperimentError::GridTooLarge {
            what: what.to_string(),
            size,
        });
    }
    let mut grid = vec![Params::new()];
    for (key, values) in columns {
        let mut next = Vec::with_capacity(grid.len() * values.len());
        for p in &grid {
            for v in &values {
                let mut q = p.clone();
                q.set(key.clone(), v.clone());
                next.push(q);
            }
        }
        grid = next;
    }
    Ok(grid)
}

/// The values one parameter takes, as text: a scalar, or each element of a non-empty list.
pub(crate) fn param_values(value: &toml::Value) -> Result<Vec<String>, String> {
    match value {
        toml::Value::Array(items) => {
            if items.is_empty() {
                return Err("an empty list gives no configuration".into());
            }
            items
                .iter()
                .map(|v| {
                    scalar(v)?.ok_or_else(|| {
                        "list elements must be numbers, strings or booleans".to_string()
                    })
                })
                .collect()
        }
        v => Ok(vec![scalar(v)?.ok_or_else(|| {
            "must be a number, string, boolean or a list of them".to_string()
        })?]),
    }
}

/// A scalar as text; `None` for a table, list or date; an error for a float that is not a
/// number a method could use.
fn scalar(v: &toml::Value) -> Result<Option<String>, String> {
    Ok(match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) if !f.is_finite() => {
            return Err(format!("{f} is not a finite number"));
        }
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    })
}
