//! How the ILP method is configured: [`IlpConfig`] (objective, model, search) and
//! [`CbcOptions`] (CBC's own switches), and the configuration as `extra` statistics.

use std::fmt;
use std::str::FromStr;

use crate::model::{ModelKind, Objective};
use crate::IlpError;

keyword_enum!(
    /// CBC's `presolve` (Clp's LP presolve before the root).
    Presolve, "presolve", {
        /// CBC's default.
        #[default]
        On => "on",
        /// No presolve.
        Off => "off",
        /// Ten passes instead of five.
        More => "more",
    }
);

keyword_enum!(
    /// CBC's `preprocess` (integer preprocessing with CglPreProcess).
    Preprocess, "preprocess", {
        /// Leave CBC's choice (`sos` in CbcMain1).
        #[default]
        Default => "default",
        /// No integer preprocessing.
        Off => "off",
        /// Preprocessing without SOS detection.
        On => "on",
        /// Turns the `= 1` rows into special ordered sets.
        Sos => "sos",
        /// Turns clique inequalities into equalities.
        Equal => "equal",
    }
);

keyword_enum!(
    /// CBC's `cuts` switch for all cut generators.
    Cuts, "cuts", {
        /// CBC's default.
        #[default]
        On => "on",
        /// No cuts.
        Off => "off",
        /// Cuts at the root only.
        Root => "root",
        /// Cuts where they move the bound.
        IfMove => "ifmove",
        /// Cuts everywhere.
        ForceOn => "forceOn",
    }
);

keyword_enum!(
    /// Who runs the branch-and-bound tree.
    Search, "search", {
        /// CBC's branch and cut (`CbcMain1`: preprocessing, cuts, heuristics, its own tree).
        #[default]
        Cbc => "cbc",
        /// This crate's depth-first branch and bound over the same LPs, solved by Clp inside
        /// CBC and warm-started (see the `dfs` module).
        Dfs => "dfs",
    }
);

/// CBC settings. CBC is built without threads (`cbc-src` without `parallel`), so it always
/// runs on one thread; `threads=1` is recorded with the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CbcOptions {
    /// LP presolve.
    pub presolve: Presolve,
    /// Integer preprocessing.
    pub preprocess: Preprocess,
    /// Cut generators.
    pub cuts: Cuts,
    /// Primal heuristics (feasibility pump, rounding, diving...).
    pub heuristics: bool,
    /// CBC's log level; 0 is silent. Above 0 CBC prints to standard output.
    pub log: u8,
}

impl Default for CbcOptions {
    fn default() -> CbcOptions {
        CbcOptions {
            presolve: crate::PRESOLVE.default,
            preprocess: crate::PREPROCESS.default,
            cuts: crate::CUTS.default,
            heuristics: crate::HEURISTICS.default,
            log: crate::LOG.default,
        }
    }
}

/// Everything that configures the ILP solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IlpConfig {
    /// Objective function.
    pub objective: Objective,
    /// Full or reduced model.
    pub model: ModelKind,
    /// CBC settings.
    pub cbc: CbcOptions,
    /// Check the givens for a repeated digit before building anything (then CBC never sees
    /// them). With `false` the full model hands contradictory givens to CBC, as the seeds do;
    /// the reduced model always notices them while reducing.
    pub precheck: bool,
    /// Solve the LP relaxation first and stop when its optimum is integral (it is then an
    /// optimal ILP solution); otherwise go on to branch and cut on the same model.
    pub lp_first: bool,
    /// Who runs the tree search.
    pub search: Search,
}

impl Default for IlpConfig {
    fn default() -> IlpConfig {
        IlpConfig {
            objective: Objective::Zero,
            model: crate::MODEL.default,
            cbc: CbcOptions::default(),
            precheck: crate::PRECHECK.default,
            lp_first: crate::LP_FIRST.default,
            search: crate::SEARCH.default,
        }
    }
}

impl IlpConfig {
    /// Checks the `prefer` objective's `cell` and `digit` against a grid of `order`: they are
    /// read before any puzzle is seen (the parameter range is 1..=256), so a 9×9 run with
    /// `cell=10,10` is caught here, as a parameter error, before any trial.
    pub fn check_order(&self, order: sudoku_core::Order) -> Result<(), sudoku_core::ParamError> {
        check_objective(&self.objective, order)
    }
}

/// [`IlpConfig::check_order`] for an objective alone (the relaxation keeps no `IlpConfig`).
pub(crate) fn check_objective(
    objective: &Objective,
    order: sudoku_core::Order,
) -> Result<(), sudoku_core::ParamError> {
    let Objective::Prefer {
        row, col, digit, ..
    } = *objective
    else {
        return Ok(());
    };
    let size = order.size();
    let invalid = |key: &str, value: String, what: &str| sudoku_core::ParamError::Invalid {
        key: key.to_string(),
        value,
        expected: format!("{what} in 1..={size} for a {size}×{size} grid"),
    };
    if !(1..=size).contains(&row) || !(1..=size).contains(&col) {
        return Err(invalid(
            "cell",
            format!("{row},{col}"),
            "R,C with rows and columns",
        ));
    }
    if !(1..=size).contains(&(digit as usize)) {
        return Err(invalid("digit", digit.to_string(), "a digit"));
    }
    Ok(())
}

/// The configuration as `extra` statistics, so every result row says how it was made.
pub(crate) fn config_extra(c: &IlpConfig) -> Vec<(String, String)> {
    let mut extra = vec![
        ("objective".to_string(), c.objective.name().to_string()),
        ("model".to_string(), c.model.name().to_string()),
        ("presolve".to_string(), c.cbc.presolve.name().to_string()),
        (
            "preprocess".to_string(),
            c.cbc.preprocess.name().to_string(),
        ),
        ("cuts".to_string(), c.cbc.cuts.name().to_string()),
        (
            "heuristics".to_string(),
            if c.cbc.heuristics { "on" } else { "off" }.to_string(),
        ),
        ("lp_first".to_string(), c.lp_first.to_string()),
        ("search".to_string(), c.search.name().to_string()),
        ("threads".to_string(), "1".to_string()),
    ];
    if let Objective::Prefer {
        row,
        col,
        digit,
        sign,
    } = c.objective
    {
        extra.push((
            "prefer".to_string(),
            format!("{sign}*x({row},{col},{digit})"),
        ));
    }
    extra
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefer_cell_and_digit_are_checked_against_the_order() {
        let order = |n| sudoku_core::Order::new(n).unwrap();
        let prefer = |row, col, digit| IlpConfig {
            objective: Objective::Prefer {
                row,
                col,
                digit,
                sign: -1,
            },
            ..IlpConfig::default()
        };
        assert!(prefer(9, 9, 9).check_order(order(3)).is_ok());
        assert!(IlpConfig::default().check_order(order(2)).is_ok());
        let e = prefer(10, 10, 1).check_order(order(3)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "parameter `cell`: `10,10` is not valid (expected R,C with rows and columns in 1..=9 for a 9×9 grid)"
        );
        let e = prefer(1, 1, 10).check_order(order(3)).unwrap_err();
        assert!(e.to_string().starts_with("parameter `digit`: `10`"), "{e}");
        assert!(prefer(10, 10, 10).check_order(order(4)).is_ok());
    }
}
