//! The seed papers' puzzles in `datasets/seeds/` (see `datasets/README.md`), for tests and
//! examples anywhere in the workspace: one place that knows where the files are and how a
//! puzzle file pairs with its `.solutions` file.

use std::path::PathBuf;

use crate::format::{read_file, Entry, ReadError};
use crate::{Grid, Puzzle, Variant};

/// A seed grid could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    /// The file could not be read or parsed.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// No grid of the file has a label containing the text asked for.
    #[error("{file}: no grid is labelled with {label:?}")]
    NoSuchLabel {
        /// The file, relative to `datasets/seeds/`.
        file: String,
        /// The text asked for.
        label: String,
    },
    /// Grids that differ share the text asked for in their labels.
    #[error("{file}: {count} different grids are labelled with {label:?}")]
    Ambiguous {
        /// The file, relative to `datasets/seeds/`.
        file: String,
        /// The text asked for.
        label: String,
        /// How many distinct grids match.
        count: usize,
    },
}

/// The folder `datasets/seeds/` of this checkout (found from this crate's source folder, so it
/// is right for every crate of the workspace).
pub fn seeds_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../datasets/seeds"))
}

/// The entries (grid, line, label) of `datasets/seeds/<file>`, in file order.
pub fn seed_entries(file: &str) -> Result<Vec<Entry>, ReadError> {
    read_file(&seeds_dir().join(file))
}

/// The grids of `datasets/seeds/<file>`, in file order.
pub fn seed_grids(file: &str) -> Result<Vec<Grid>, ReadError> {
    Ok(seed_entries(file)?.into_iter().map(|e| e.grid).collect())
}

/// The puzzles of `datasets/seeds/<file>` as `variant` puzzles.
pub fn seed_puzzles(file: &str, variant: Variant) -> Result<Vec<Puzzle>, ReadError> {
    Ok(seed_grids(file)?
        .into_iter()
        .map(|g| Puzzle::new(g, variant))
        .collect())
}

/// The one grid of `datasets/seeds/<file>` whose label contains `label` (e.g. `"In [6]"`,
/// `"Figure 10a"`). A grid listed twice with the same cells (Figure 9 of paper 000) counts
/// once; labels that match different grids are an error, so a test never picks one silently.
pub fn seed_grid(file: &str, label: &str) -> Result<Grid, FixtureError> {
    let mut found: Vec<Grid> = Vec::new();
    for e in seed_entries(file)? {
        if e.label.as_deref().is_some_and(|l| l.contains(label)) && !found.contains(&e.grid) {
            found.push(e.grid);
        }
    }
    match found.len() {
        0 => Err(FixtureError::NoSuchLabel {
            file: file.to_string(),
            label: label.to_string(),
        }),
        1 => Ok(found.remove(0)),
        count => Err(FixtureError::Ambiguous {
            file: file.to_string(),
            label: label.to_string(),
            count,
        }),
    }
}

/// [`seed_grid`] as a `variant` puzzle.
pub fn seed_puzzle(file: &str, label: &str, variant: Variant) -> Result<Puzzle, FixtureError> {
    Ok(Puzzle::new(seed_grid(file, label)?, variant))
}

/// Each puzzle of `datasets/seeds/<stem>.txt` with the grid printed for it in
/// `<stem>.solutions.txt` (the i-th grid solves the i-th puzzle).
pub fn seed_pairs(stem: &str, variant: Variant) -> Result<Vec<(Puzzle, Grid)>, ReadError> {
    let puzzles = seed_puzzles(&format!("{stem}.txt"), variant)?;
    let solutions = seed_grids(&format!("{stem}.solutions.txt"))?;
    Ok(puzzles.into_iter().zip(solutions).collect())
}

/// The public benchmark sets, `datasets/public/` of the checkout (provenance in
/// `datasets/README.md`). They are committed, so this is always `Some`; the `Option` stays so
/// that callers written for an optional folder keep compiling.
pub fn public_dir() -> Option<PathBuf> {
    Some(PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../datasets/public"
    )))
}

/// The grids of one public set (a path relative to [`public_dir`], e.g.
/// `lewis/lewis_9x9_f040.txt`). A missing file is an error, not a skip: the sets are part of
/// the checkout. Always `Ok(Some(..))` or `Err`.
pub fn public_grids(file: &str) -> Result<Option<Vec<Grid>>, ReadError> {
    let Some(dir) = public_dir() else {
        return Ok(None);
    };
    Ok(Some(
        read_file(&dir.join(file))?
            .into_iter()
            .map(|e| e.grid)
            .collect(),
    ))
}

/// A classic 9×9 puzzle from one line of text (81 characters, `.` or `0` for empty); panics on
/// text that does not parse, as a test's own literal should.
pub fn line_puzzle(text: &str) -> Puzzle {
    let grid = crate::format::parse_str(text, "literal")
        .expect("a test's puzzle literal parses")
        .remove(0)
        .grid;
    Puzzle::new(grid, Variant::Classic)
}

/// A carved pattern grid with one given changed: no solution (`prop`'s complete search proves
/// it), yet naked and hidden singles leave 21 cells open without a contradiction, so a local
/// search alone can never finish on it.
pub const UNSOLVABLE_PAST_SINGLES: &str =
    "1..45........8...37..1.3..6.3.56.89.5.7...2.....2......4..7.9126.89..3.7...34....";

/// A classic puzzle of order `n` for tests at large orders without a generator crate: the
/// shifted-rows full grid (row `r` of band `b` starts at digit `n·r + b`) with its digits, its
/// bands and the rows within each band shuffled from `seed`, then all but a `keep` share of
/// its cells blanked, also from `seed`. It has at least that one solution.
pub fn carved_pattern(n: usize, keep: f64, seed: u64) -> Puzzle {
    use rand::seq::SliceRandom as _;
    let order = crate::Order::new(n).expect("a test asks for a supported order");
    let size = n * n;
    let mut rng = crate::rng_from_seed(seed);
    let mut digits: Vec<u16> = (1..=size as u16).collect();
    digits.shuffle(&mut rng);
    let mut bands: Vec<usize> = (0..n).collect();
    bands.shuffle(&mut rng);
    let mut rows = Vec::with_capacity(size);
    for b in bands {
        let mut within: Vec<usize> = (0..n).collect();
        within.shuffle(&mut rng);
        rows.extend(within.into_iter().map(|r| b * n + r));
    }
    let mut grid = Grid::empty(order);
    for (i, &r) in rows.iter().enumerate() {
        for c in 0..size {
            grid.set(i * size + c, digits[(n * (r % n) + r / n + c) % size]);
        }
    }
    let mut cells: Vec<usize> = (0..size * size).collect();
    cells.shuffle(&mut rng);
    let blank = ((1.0 - keep.clamp(0.0, 1.0)) * cells.len() as f64).round() as usize;
    for &c in &cells[..blank] {
        grid.set(c, 0);
    }
    Puzzle::new(grid, Variant::Classic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_picks_one_grid() {
        let fig9 = seed_grid("000_unicamp_ilp.multiple.txt", "Figure 9").unwrap();
        assert_eq!(fig9.filled(), 77);
        let fig10a = seed_grid("000_unicamp_ilp.multiple.solutions.txt", "Figure 10a").unwrap();
        assert!(fig10a.is_full());
        let p = seed_puzzle("001_jump.txt", "In [6]", Variant::Classic).unwrap();
        assert_eq!(p.givens().filled(), 38);
    }

    #[test]
    fn a_missing_or_ambiguous_label_is_an_error() {
        assert!(matches!(
            seed_grid("001_jump.txt", "In [99]"),
            Err(FixtureError::NoSuchLabel { .. })
        ));
        assert!(matches!(
            seed_grid("001_jump.txt", "classic 9x9 puzzle"),
            Err(FixtureError::Ambiguous { count: 4, .. })
        ));
        assert!(matches!(
            seed_grid("no_such_file.txt", "x"),
            Err(FixtureError::Read(_))
        ));
    }
}
