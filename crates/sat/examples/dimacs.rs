//! Writes the CNF of every puzzle of a file in DIMACS, so that other SAT solvers can be run on
//! exactly the formulas `sat` solves (this is how the solver was chosen; see docs/notes/sat-backend-and-large-orders.md).
//!
//! `cargo run --release -p sudoku-sat --example dimacs -- PUZZLES OUT_PREFIX [ENCODING [AMO]]`
//! writes OUT_PREFIX-1.cnf, OUT_PREFIX-2.cnf, ... (classic variant).

use std::error::Error;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use sudoku_core::{format, Params, Puzzle, Variant};
use sudoku_sat::{encode, Cnf, Sat};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, prefix, rest @ ..] = args.as_slice() else {
        return Err("usage: dimacs PUZZLES OUT_PREFIX [ENCODING [AMO]]".into());
    };
    let mut params = Params::new();
    if let Some(e) = rest.first() {
        params.set("encoding", e.as_str());
    }
    if let Some(a) = rest.get(1) {
        params.set("amo", a.as_str());
    }
    let cfg = Sat::from_params(&params)?.config();
    for (i, entry) in format::read_file(Path::new(file))?.into_iter().enumerate() {
        let puzzle = Puzzle::new(entry.grid, Variant::Classic);
        let mut cnf = Cnf::default();
        let layout = encode(&puzzle, cfg.encoding, cfg.amo, &mut cnf)?;
        let path = format!("{prefix}-{}.cnf", i + 1);
        cnf.write_dimacs(layout.vars, &mut BufWriter::new(File::create(&path)?))?;
        println!("{path}: {} variables, {} clauses", layout.vars, cnf.clauses);
    }
    Ok(())
}
