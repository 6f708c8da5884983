//! The one number formatter of the tables: about three significant figures, never scientific
//! notation. Two ways to use it, because two kinds of table need different things:
//!
//! - [`num`], for the summaries, the performance table and the statistics: from 100 on no
//!   decimals, from 10 one, from 1 two, below 1 three (so 0.0004 ms shows as `0.000`: a column
//!   of times keeps its width and sub-microsecond noise does not show);
//! - [`significant`], for values compared with a paper's: whole numbers as they are (counts,
//!   objectives), others to three significant digits however small (a time of 0.00042 s is
//!   `0.000420`, not `0.000`).
//!
//! And [`p_value`] for the p-values of the statistics.

/// How many decimals at most, and whether a whole number is printed without any.
#[derive(Clone, Copy)]
struct Digits {
    /// Most decimals, for numbers below 1.
    max_decimals: usize,
    /// Whole numbers (below 10^15) as integers.
    whole_as_integer: bool,
}

fn format(x: f64, d: Digits) -> String {
    let a = x.abs();
    if d.whole_as_integer && x.fract() == 0.0 && a < 1e15 {
        return format!("{}", x as i64);
    }
    if a == 0.0 {
        return "0".to_string();
    }
    let decimals = if a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        // Three significant digits: 3 decimals for 0.1..1, 4 for 0.01..0.1, …
        ((2 - a.log10().floor() as i32).max(0) as usize).min(d.max_decimals)
    };
    format!("{x:.decimals$}")
}

/// A number for a table of times: three significant figures from 1 on, three decimals below.
pub fn num(x: f64) -> String {
    format(
        x,
        Digits {
            max_decimals: 3,
            whole_as_integer: false,
        },
    )
}

/// A number beside a paper's: whole numbers as integers, others to three significant digits.
pub fn significant(x: f64) -> String {
    format(
        x,
        Digits {
            max_decimals: usize::MAX,
            whole_as_integer: true,
        },
    )
}

/// A p-value: three decimals, or `< 0.001`.
pub fn p_value(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else {
        format!("{p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_to_three_decimals_at_most() {
        let shown: Vec<String> = [
            0.0, 0.00042, 0.0126, 0.5, 1.0, 2.345, 9.999, 12.34, 99.96, 150.5, -3.5,
        ]
        .map(num)
        .to_vec();
        assert_eq!(
            shown,
            [
                "0", "0.000", "0.013", "0.500", "1.00", "2.35", "10.00", "12.3", "100.0", "150",
                "-3.50"
            ]
        );
    }

    #[test]
    fn paper_values_keep_three_significant_digits() {
        let shown: Vec<String> = [0.0, 0.00042, 0.0126, 0.5, 1.0, 2.345, 12.34, 150.5, 7.0]
            .map(significant)
            .to_vec();
        assert_eq!(
            shown,
            ["0", "0.000420", "0.0126", "0.500", "1", "2.35", "12.3", "150", "7"]
        );
    }
}
