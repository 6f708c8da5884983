//! What to carve from a full grid ([`Shape`]): the names an experiment file (and `generate
//! --puzzle`) may give, with the clue-count levels ([`ClueLevel`]) and rating bands
//! ([`RATING_LEVELS`]) they stand for; a vocabulary of its own, shared by the schema, the
//! checks and the runner.

use std::fmt;
use std::str::FromStr;

use serde::Deserialize;

/// A clue-count level of Takano et al., carved by sudoku-gen: the names an experiment file may give
/// as a puzzle (`clues-easy`, `clues-medium`, `clues-hard`). The runner maps each to the
/// generator's own level (and a test checks the names agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClueLevel {
    /// Many clues.
    Easy,
    /// Between easy and hard.
    Medium,
    /// A minimal puzzle.
    Hard,
}

impl ClueLevel {
    /// Every level, easiest first.
    pub const ALL: [ClueLevel; 3] = [ClueLevel::Easy, ClueLevel::Medium, ClueLevel::Hard];

    /// The name in experiment files.
    pub fn name(self) -> &'static str {
        match self {
            ClueLevel::Easy => "clues-easy",
            ClueLevel::Medium => "clues-medium",
            ClueLevel::Hard => "clues-hard",
        }
    }
}

/// sudoku-logic's rating bands by the names an experiment file may give as a puzzle, each with
/// its inclusive score range: `puzzle = "medium"` is `rating=1.3..2.0`. The runner's tests
/// check them against sudoku-logic's own bands.
pub const RATING_LEVELS: [(&str, (f64, f64)); 5] = [
    ("easy", (0.0, 1.2)),
    ("medium", (1.3, 2.0)),
    ("hard", (2.1, 4.0)),
    ("expert", (4.1, 5.9)),
    ("beyond-logic", (6.0, 10.0)),
];

/// A puzzle to carve from a full grid: `unique`, `minimal`, a rating level (`easy`, `medium`,
/// `hard`, `expert`, `beyond-logic`: sudoku-logic's score bands) or range (`rating=MIN..MAX`),
/// a clue-count level (`clues-easy`, `clues-medium`, `clues-hard`: Takano et al.'s), or `keep=P`
/// (share of cells kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub enum Shape {
    /// Unique solution (optionally stopping at a clue count).
    #[default]
    Unique,
    /// Unique and minimal.
    Minimal,
    /// A clue-count level.
    Level(ClueLevel),
    /// A rating range (inclusive), as sudoku-logic's `rate` scores it.
    Rated(f64, f64),
    /// Keep this share of the cells.
    Keep(f64),
}

impl FromStr for Shape {
    type Err = String;
    fn from_str(s: &str) -> Result<Shape, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "unique" => Shape::Unique,
            "minimal" => Shape::Minimal,
            t => {
                if let Some(l) = ClueLevel::ALL.into_iter().find(|l| l.name() == t) {
                    return Ok(Shape::Level(l));
                }
                if let Some((_, (min, max))) = RATING_LEVELS.iter().find(|(name, _)| *name == t) {
                    return Ok(Shape::Rated(*min, *max));
                }
                if let Some(range) = t.strip_prefix("rating=") {
                    return parse_rating(range).map(|(a, b)| Shape::Rated(a, b));
                }
                match t.strip_prefix("keep=").map(str::parse::<f64>) {
                    Some(Ok(p)) if (0.0..=1.0).contains(&p) => Shape::Keep(p),
                    _ => return Err(format!("puzzle `{s}`: expected unique, minimal, easy, medium, hard, expert, beyond-logic, rating=MIN..MAX, clues-easy, clues-medium, clues-hard or keep=P with P in 0..=1")),
                }
            }
        })
    }
}

/// `MIN..MAX`, two scores with `MIN <= MAX` (either may be left out: 0 and 10).
pub fn parse_rating(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("rating `{text}`: expected MIN..MAX, scores from 0 to 10");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let num = |t: &str, default: f64| -> Result<f64, String> {
        let t = t.trim().trim_start_matches('=');
        if t.is_empty() {
            return Ok(default);
        }
        t.parse::<f64>()
            .ok()
            .filter(|v| (0.0..=10.0).contains(v))
            .ok_or_else(bad)
    };
    let (min, max) = (num(a, 0.0)?, num(b, 10.0)?);
    if min > max {
        return Err(bad());
    }
    Ok((min, max))
}

impl TryFrom<String> for Shape {
    type Error = String;
    fn try_from(s: String) -> Result<Shape, String> {
        s.parse()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Unique => f.write_str("unique"),
            Shape::Minimal => f.write_str("minimal"),
            Shape::Level(l) => f.write_str(l.name()),
            Shape::Rated(min, max) => {
                match RATING_LEVELS
                    .iter()
                    .find(|(_, range)| *range == (*min, *max))
                {
                    Some((name, _)) => f.write_str(name),
                    None => write!(f, "rating={min}..{max}"),
                }
            }
            Shape::Keep(p) => write!(f, "keep={p}"),
        }
    }
}
