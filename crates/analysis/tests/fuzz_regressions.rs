//! Inputs the fuzzer (fuzz/, target `trial_csv`) found crashing, kept so they stay fixed. Each
//! is the finding cut down to what still triggered it.

use std::path::Path;

use sudoku_analysis::{parse_rows, summary, Row, TraceRow, Trials};

const HEADER: &str = "task,experiment,kind,method,params,variant,order,instance_set,instance,givens,trial,seed,status,verified,wall_ms,cpu_ms,build_ms,nodes,guesses,iterations,restarts,best_cost,objective,time_to_best_ms,count,limit,extra,message,commit,repeats\n";

/// A trials.csv row of `order`, otherwise as a real run wrote it (with 11 givens, which every
/// order has room for).
fn row(order: &str) -> String {
    format!("0,baselines-sets,solve,backtrack,,classic,{order},norvig_top95.txt,norvig_top95.txt:1,11,0,13223212328691845126,timeout,,100.03,96.86,,715647,0,0,0,,,,,time,,,231cc5a69d3a,3\n")
}

/// Found by `trial_csv` (crashes id:000000 and id:000001): an order of 333333333333 (and
/// 17364193204695818765) read fine, then `N×N` in the summary overflowed. Orders outside
/// 2..=16 are now errors naming the row.
#[test]
fn an_order_beyond_the_supported_range_is_an_error_not_an_overflow() {
    for bad in ["333333333333", "17364193204695818765", "0", "1", "17"] {
        let text = format!("{HEADER}{}{}", row("3"), row(bad));
        let e = parse_rows::<Row>(text, Path::new("t.csv"), false).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("t.csv: line 3") && e.contains(&format!("order {bad} is outside")),
            "{bad}: {e}"
        );
    }
    // Every supported order reads, and its summary labels the grid.
    for n in 2..=16 {
        let rows: Vec<Row> = parse_rows(
            format!("{HEADER}{}", row(&n.to_string())),
            Path::new("t.csv"),
            false,
        )
        .unwrap();
        let md = summary::markdown("t", &summary::summarise(&Trials::of_rows(&rows)));
        assert!(md.contains(&format!("{0}×{0}", n * n)), "{md}");
    }
    // traces.csv has an order column too.
    let traces = "task,method,params,order,instance,trial,iteration,elapsed_ms,best_cost\n0,sa,,99999999999,x,0,1,0.5,3\n";
    assert!(parse_rows::<TraceRow>(traces.into(), Path::new("t.csv"), false).is_err());
}
