//! The seed papers' puzzles in `datasets/seeds/` (see `datasets/README.md`), for tests and
//! examples anywhere in the workspace: one place that knows where the files are and how a
//! puzzle file pairs with its `.solutions` file.

use std::path::PathBuf;

use crate::format::{read_file, ReadError};
use crate::{Grid, Puzzle, Variant};

/// The folder `datasets/seeds/` of this checkout (found from this crate's source folder, so it
/// is right for every crate of the workspace).
pub fn seeds_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../datasets/seeds"))
}

/// The grids of `datasets/seeds/<file>`, in file order.
pub fn seed_grids(file: &str) -> Result<Vec<Grid>, ReadError> {
    Ok(read_file(&seeds_dir().join(file))?
        .into_iter()
        .map(|e| e.grid)
        .collect())
}

/// The puzzles of `datasets/seeds/<file>` as `variant` puzzles.
pub fn seed_puzzles(file: &str, variant: Variant) -> Result<Vec<Puzzle>, ReadError> {
    Ok(seed_grids(file)?
        .into_iter()
        .map(|g| Puzzle::new(g, variant))
        .collect())
}

/// Each puzzle of `datasets/seeds/<stem>.txt` with the grid printed for it in
/// `<stem>.solutions.txt` (the i-th grid solves the i-th puzzle).
pub fn seed_pairs(stem: &str, variant: Variant) -> Result<Vec<(Puzzle, Grid)>, ReadError> {
    let puzzles = seed_puzzles(&format!("{stem}.txt"), variant)?;
    let solutions = seed_grids(&format!("{stem}.solutions.txt"))?;
    Ok(puzzles.into_iter().zip(solutions).collect())
}
