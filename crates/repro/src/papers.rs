//! The papers `repro` reproduces, by name: what `repro NAME`, `list` and the comparison pages
//! call each one, and its citation. The values file and the experiment files keep the papers'
//! numbers (`000` … `004`, `lewis`: [`crate::PAPERS`]); `repro` takes either.

/// One reproduced paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paper {
    /// The name `repro` takes and the results folder carries (`results/repro-NAME`).
    pub name: &'static str,
    /// Its number in the values file and the experiment files (`scripts/experiments/repro/ID-*.toml`);
    /// `repro` takes it too.
    pub id: &'static str,
    /// Authors, short (surnames), or who made it when no author is stated.
    pub authors: &'static str,
    /// The year of publication, when the paper states one.
    pub year: Option<u16>,
    /// The full citation: authors, title, venue, year where known.
    pub citation: &'static str,
    /// What of it `repro` compares, in a few words.
    pub about: &'static str,
}

/// Every reproduced paper, in the order `repro all` runs them.
pub const CATALOGUE: &[Paper] = &[
    Paper {
        name: "unicamp-ilp",
        id: "000",
        authors: "Raimundo, Tartare, Carrenho, Cabrera",
        year: None,
        citation: "B. A. do Prado Raimundo, F. G. Tartare, T. F. C. Carrenho, V. J. Cabrera, \
                   \"Sudoku: uma abordagem por programação inteira\", course project MS728, \
                   IMECC, Unicamp",
        about: "binary ILP model, Σk·x objective, preference objectives, timing table (MATLAB intlinprog)",
    },
    Paper {
        name: "jump",
        id: "001",
        authors: "author not stated",
        year: None,
        citation: "A Jupyter notebook solving Sudoku of order n with JuMP and GLPK (author not stated)",
        about: "the notebook's 9×9 and 25×25 puzzles, solutions and @time cells",
    },
    Paper {
        name: "takano",
        id: "002",
        authors: "Takano, de Freitas, de Sá",
        year: None,
        citation: "K. Takano, R. de Freitas, V. G. de Sá, \"O jogo de lógica Sudoku: modelagem \
                   teórica, NP-completeness e estratégias algorítmicas exatas e heurísticas\", \
                   UFAM / UFRJ",
        about: "backtracking, dancing links, Norvig and its improvement, GRASP, grid constructions, carving",
    },
    Paper {
        name: "raggi",
        id: "003",
        authors: "Raggi, Neto, Fontes",
        year: None,
        citation: "L. R. Raggi, N. G. Neto, W. S. Fontes, \"Geração de Sudoku com programação \
                   linear e com heurísticas\", UFAL",
        about: "grid generation by whole-grid ILP against backtracking, big prune and big weighted prune",
    },
    Paper {
        name: "teles",
        id: "004",
        authors: "Teles",
        year: Some(2016),
        citation: "B. F. da C. Teles, \"Sudoku: estratégias e estruturas\", master's dissertation, \
                   PROFMAT, UERJ, 2016",
        about: "Provan's theorem: puzzles the pigeonhole rule solves have a unique LP solution",
    },
    Paper {
        name: "lewis",
        id: "lewis",
        authors: "Lewis",
        year: Some(2007),
        citation: "R. Lewis, \"Metaheuristics can solve sudoku puzzles\", Journal of Heuristics \
                   13(4), 2007",
        about: "the phase transition: metaheuristics find puzzles hardest near 40-50 % givens",
    },
];

/// The paper called `name`, or numbered `name` (`takano` or `002`).
pub fn paper(name: &str) -> Option<&'static Paper> {
    CATALOGUE.iter().find(|p| p.name == name || p.id == name)
}

impl Paper {
    /// `Takano, de Freitas, de Sá` or `Teles (2016)`: authors and the year when known.
    pub fn byline(&self) -> String {
        match self.year {
            Some(y) => format!("{} ({y})", self.authors),
            None => self.authors.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numbered_paper_has_a_name_and_both_find_it() {
        assert_eq!(
            CATALOGUE.iter().map(|p| p.id).collect::<Vec<_>>(),
            crate::PAPERS
        );
        for p in CATALOGUE {
            assert_eq!(paper(p.name), Some(p));
            assert_eq!(paper(p.id), Some(p));
        }
        assert_eq!(paper("takano").map(|p| p.id), Some("002"));
        assert_eq!(paper("005"), None);
        assert_eq!(paper("teles").unwrap().byline(), "Teles (2016)");
    }
}
