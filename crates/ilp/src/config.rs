//! How the ILP method is configured: [`IlpConfig`] (objective, model, search) and
//! [`CbcOptions`] (CBC's own switches), and the configuration as `extra` statistics.

use std::fmt;
use std::str::FromStr;

use sudoku_core::{choices, number_param, Choices, Param, ParamError, ParamSpec, Params};

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

sudoku_core::config! {
    /// CBC settings. CBC is built without threads (`cbc-src` without `parallel`), so it always
    /// runs on one thread; `threads=1` is recorded with the results.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct CbcOptions {
        presolve: Presolve = "on" of Presolve::CHOICES, "CBC presolve";
        preprocess: Preprocess = "default" of Preprocess::CHOICES,
            "CBC integer preprocessing (default = CBC's own choice)";
        cuts: Cuts = "on" of Cuts::CHOICES, "CBC cut generators";
        heuristics: bool = on, "CBC primal heuristics";
        log: u8 = 0 in 0..=4,
            "CBC log level; 0 is silent, above 0 CBC prints to standard output";
    }
}

// The parameters the solver and the generator share (besides `CbcOptions`).
pub(crate) const MODEL: Param<ModelKind> = Param::choice(
    "model",
    "reduced",
    ModelKind::CHOICES,
    "full = all N³ variables as in the seeds; reduced = variables fixed by the givens and the \
     rows they satisfy removed before CBC",
);
pub(crate) const LP_FIRST: Param<bool> = Param::flag(
    "lp_first",
    true,
    "solve the LP relaxation first and stop if it is integral (then it is optimal); false goes \
     straight to branch and cut (generator: only with decompose=none)",
);
pub(crate) const SEARCH: Param<Search> = Param::choice(
    "search",
    "cbc",
    Search::CHOICES,
    "who runs the tree: cbc = CBC's branch and cut; dfs = our depth-first branch and bound over \
     the same LPs (solved by Clp inside CBC, warm started), without CBC's fixed ~2 ms setup \
     (generator: only with decompose=none)",
);

// `objective=prefer`'s variable, read by `IlpConfig::prefer`.
const CELL: Param<(usize, usize)> = Param::new(
    ParamSpec {
        name: "cell",
        default: "1,1",
        range: "R,C (1-based)",
        help: "objective=prefer: the cell of x(R,C,digit)",
    },
    (1, 1),
    "R,C with 1-based row and column",
    |s| {
        let (r, c) = s.split_once(',')?;
        let rc = (r.trim().parse().ok()?, c.trim().parse().ok()?);
        let ok = |x: usize| (1..=256).contains(&x);
        (ok(rc.0) && ok(rc.1)).then_some(rc)
    },
);
const DIGIT: Param<u16> = number_param!(
    "digit",
    u16,
    1,
    1..=256 as "1..=N",
    "objective=prefer: the digit of x(R,C,digit)"
);
const SIGN: Param<i8> = Param::choice(
    "sign",
    "-1",
    Choices {
        table: &[("-1", -1), ("1", 1), ("+1", 1)],
        text: "-1|1",
    },
    "objective=prefer: -1 prefers the digit in the cell (Z1), 1 avoids it (Z2)",
);

sudoku_core::config! {
    /// Everything that configures the ILP solver.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct IlpConfig for crate::NAME, check IlpConfig::prefer {
        objective: Objective = "zero"
            of choices![
                "zero" => Objective::Zero,
                "constant" => Objective::Constant,
                "weighted" => Objective::Weighted,
                // Its cell, digit and sign are read from their own parameters.
                "prefer" => Objective::Prefer {
                    row: CELL.default.0,
                    col: CELL.default.1,
                    digit: DIGIT.default,
                    sign: SIGN.default,
                },
                "random" => Objective::Random,
            ],
            "objective: zero = 0ᵀx (Takano et al.); constant = max Σx (Raggi et al.); weighted = min Σ k·x \
             (Raimundo et al., 405 on every 9x9 solution); prefer = min sign·x(cell, digit) (Raimundo et al.'s \
             Z1/Z2); random = min of seeded random weights";
        /// Full or reduced model.
        model: ModelKind = use MODEL;
        _ = CELL;
        _ = DIGIT;
        _ = SIGN;
        /// CBC settings.
        cbc: CbcOptions = group;
        /// Solve the LP relaxation first and stop when its optimum is integral (it is then an
        /// optimal ILP solution); otherwise go on to branch and cut on the same model.
        lp_first: bool = use LP_FIRST;
        /// Who runs the tree search.
        search: Search = use SEARCH;
        /// Check the givens for a repeated digit before building anything (then CBC never sees
        /// them). With `false` the full model hands contradictory givens to CBC, as the seeds do;
        /// the reduced model always notices them while reducing.
        precheck: bool = true,
            "detect givens that repeat a digit before building the model; false hands them to CBC \
             (full model), as the seeds do";
    }
}

impl IlpConfig {
    /// `objective=prefer` takes its variable from `cell`, `digit` and `sign` (checked whatever
    /// the objective).
    fn prefer(&mut self, p: &Params) -> Result<(), ParamError> {
        let ((row, col), digit, sign) = (CELL.read(p)?, DIGIT.read(p)?, SIGN.read(p)?);
        // Set with another objective they would be ignored without a word (at their default
        // they change nothing, and every parameter builds at its default).
        let prefer = matches!(self.objective, Objective::Prefer { .. });
        let set = [
            ("cell", (row, col) != CELL.default),
            ("digit", digit != DIGIT.default),
            ("sign", sign != SIGN.default),
        ];
        if let Some((key, _)) = set.into_iter().find(|&(_, changed)| changed) {
            if !prefer {
                return Err(ParamError::Invalid {
                    key: key.to_string(),
                    value: p.raw(key).unwrap_or_default().to_string(),
                    expected: format!(
                        "objective=prefer: `{key}` sets the prefer objective's variable, and the objective is `{}`",
                        self.objective.name()
                    ),
                });
            }
        }
        if let Objective::Prefer { .. } = self.objective {
            self.objective = Objective::Prefer {
                row,
                col,
                digit,
                sign,
            };
        }
        Ok(())
    }

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
