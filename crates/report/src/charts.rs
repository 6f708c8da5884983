//! What each chart shows, in words: the one place docs/report.md's chart list is made from. The
//! charts themselves are the chart list of [`crate::plots`] ([`crate::plots::stems`]); a test
//! keeps this table to exactly those, in their order.

/// A chart as the documentation describes it.
#[derive(Clone, Copy, Debug)]
pub struct ChartDoc {
    /// Its file stem (`cactus` → `cactus.svg`, `cactus.png`).
    pub stem: &'static str,
    /// Its name in prose.
    pub name: &'static str,
    /// What it shows (Markdown).
    pub shows: &'static str,
}

/// Every chart a run may draw, in reading order.
pub const CHARTS: &[ChartDoc] = &[
    ChartDoc {
        stem: "time_vs_order",
        name: "time against order",
        shows: "median wall time per order with its interquartile band, one line per \
                configuration, one panel per variant",
    },
    ChartDoc {
        stem: "boxplot",
        name: "box plots",
        shows: "one panel per grid size, one horizontal box per configuration, named on the axis",
    },
    ChartDoc {
        stem: "cactus",
        name: "cactus plot",
        shows: "runs solved within a time, for each configuration",
    },
    ChartDoc {
        stem: "ecdf",
        name: "run-time ECDF",
        shows: "the share of runs solved by each time",
    },
    ChartDoc {
        stem: "profile",
        name: "performance profile",
        shows: "the share of instances a configuration solves within a factor τ of the best \
                configuration on each instance",
    },
    ChartDoc {
        stem: "scatter",
        name: "per-instance scatter",
        shows: "each configuration's median time per instance against the flagship's, one \
                panel each",
    },
    ChartDoc {
        stem: "success_vs_givens",
        name: "success against the share of givens",
        shows: "where the hard region is",
    },
    ChartDoc {
        stem: "convergence",
        name: "convergence",
        shows: "the best cost against time of traced metaheuristics",
    },
    ChartDoc {
        stem: "ert",
        name: "ERT",
        shows: "the expected run time to reach each target cost, for traced metaheuristics",
    },
];

/// The charts of parameter sweeps: one per (method, parameter) that takes several values.
pub const SWEEP: ChartDoc = ChartDoc {
    stem: "sweep_METHOD_PARAMETER",
    name: "parameter sweeps",
    shows: "time against a parameter that takes several values, one series per grid size",
};

/// The chart list as Markdown (docs/report.md's): one item per chart, in reading order.
pub fn markdown() -> String {
    let items: Vec<String> = CHARTS
        .iter()
        .chain([&SWEEP])
        .map(|c| format!("- **{}** (`{}`): {}", c.name, c.stem, c.shows))
        .collect();
    items.join(";\n") + ".\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_exactly_the_charts_in_their_order() {
        let described: Vec<&str> = CHARTS.iter().map(|c| c.stem).collect();
        assert_eq!(crate::plots::stems(), described);
    }
}
