//! The puzzles transcribed from the papers (`datasets/seeds/`) and the malformed inputs
//! (`tests/malformed/`): every file parses (or fails exactly as documented), every printed
//! solution solves its puzzle, and every damaged grid fails the verifier with its own violation.
//! `datasets/README.md` describes each file.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use sudoku_core::format::{parse_entries, parse_str, Entry, ParseErrorKind, ParseOptions};
use sudoku_core::{
    check_givens, verify_solution, Cell, Grid, Order, Puzzle, UnitKind, Variant, Violation,
};

const SEEDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../datasets/seeds");
const MALFORMED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/malformed");

/// Every file of `datasets/seeds`, the number of puzzles it holds, and its variant.
/// `.damaged` files hold grids that cannot be parsed; their count is the number of errors.
const FILES: &[(&str, usize, Variant)] = &[
    ("000_unicamp_ilp.txt", 7, Variant::Classic),
    ("000_unicamp_ilp.solutions.txt", 7, Variant::Classic),
    ("000_unicamp_ilp.diagonal.txt", 5, Variant::Diagonal),
    (
        "000_unicamp_ilp.diagonal.solutions.txt",
        5,
        Variant::Diagonal,
    ),
    (
        "000_unicamp_ilp.diagonal.as_printed.txt",
        3,
        Variant::Diagonal,
    ),
    (
        "000_unicamp_ilp.diagonal.as_printed.solutions.txt",
        3,
        Variant::Diagonal,
    ),
    ("000_unicamp_ilp.multiple.txt", 4, Variant::Classic),
    (
        "000_unicamp_ilp.multiple.solutions.txt",
        4,
        Variant::Classic,
    ),
    ("000_unicamp_ilp.full_grids.txt", 1, Variant::Classic),
    ("000_unicamp_ilp.damaged.txt", 3, Variant::Classic),
    ("001_jump.txt", 4, Variant::Classic),
    ("001_jump.solutions.txt", 4, Variant::Classic),
    ("001_jump.25x25.txt", 1, Variant::Classic),
    ("001_jump.25x25.partial_solutions.txt", 1, Variant::Classic),
    ("002_takano.txt", 1, Variant::Classic),
    ("002_takano.solutions.txt", 1, Variant::Classic),
    ("002_takano.as_printed.txt", 1, Variant::Classic),
    ("002_takano.as_printed.solutions.txt", 1, Variant::Classic),
    ("003_raggi.full_grids.txt", 1, Variant::Classic),
    ("004_teles.txt", 3, Variant::Classic),
    ("004_teles.damaged.txt", 1, Variant::Classic),
];

/// (puzzles, printed solutions, variant): the i-th grid of the second file solves the i-th
/// puzzle of the first.
const PAIRS: &[(&str, &str, Variant)] = &[
    (
        "000_unicamp_ilp.txt",
        "000_unicamp_ilp.solutions.txt",
        Variant::Classic,
    ),
    (
        "000_unicamp_ilp.diagonal.txt",
        "000_unicamp_ilp.diagonal.solutions.txt",
        Variant::Diagonal,
    ),
    (
        "000_unicamp_ilp.multiple.txt",
        "000_unicamp_ilp.multiple.solutions.txt",
        Variant::Classic,
    ),
    ("001_jump.txt", "001_jump.solutions.txt", Variant::Classic),
    (
        "002_takano.txt",
        "002_takano.solutions.txt",
        Variant::Classic,
    ),
];

fn text(dir: &str, name: &str) -> String {
    let path = Path::new(dir).join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(name: &str) -> Vec<Entry> {
    parse_str(&text(SEEDS, name), name).unwrap_or_else(|e| panic!("{e}"))
}

fn grids(name: &str) -> Vec<Grid> {
    read(name).into_iter().map(|e| e.grid).collect()
}

fn puzzles(name: &str, variant: Variant) -> Vec<Puzzle> {
    grids(name)
        .into_iter()
        .map(|g| Puzzle::new(g, variant))
        .collect()
}

fn variant_of(name: &str) -> Variant {
    FILES
        .iter()
        .find(|f| f.0 == name)
        .unwrap_or_else(|| panic!("{name} is not in FILES"))
        .2
}

/// A grid from the line format.
fn line(s: &str) -> Grid {
    parse_str(s, "literal").unwrap().remove(0).grid
}

fn cell(row: usize, col: usize) -> Cell {
    Cell {
        row: row - 1,
        col: col - 1,
    }
}

/// `Violation::Duplicate` with 1-based rows and columns.
fn dup(unit: UnitKind, digit: u16, first: (usize, usize), second: (usize, usize)) -> Violation {
    Violation::Duplicate {
        unit,
        digit,
        first: cell(first.0, first.1),
        second: cell(second.0, second.1),
    }
}

fn file_names(dir: &str) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn is_damaged(name: &str) -> bool {
    name.ends_with(".damaged.txt")
}

#[test]
fn every_seed_file_is_listed_and_holds_its_count() {
    let listed: BTreeSet<String> = FILES.iter().map(|f| f.0.to_string()).collect();
    let on_disk: BTreeSet<String> = file_names(SEEDS)
        .into_iter()
        .filter(|n| n.ends_with(".txt"))
        .collect();
    assert_eq!(listed, on_disk, "FILES and datasets/seeds differ");
    let mut total = 0;
    for &(name, count, variant) in FILES {
        let results = parse_entries(&text(SEEDS, name), name, ParseOptions::default());
        assert_eq!(results.len(), count, "{name}");
        if is_damaged(name) {
            assert!(results.iter().all(|r| r.is_err()), "{name}");
            continue;
        }
        total += count;
        for r in results {
            let e = r.unwrap_or_else(|e| panic!("{e}"));
            // Every grid says where it comes from and whether it is diagonal.
            let label = e
                .label
                .unwrap_or_else(|| panic!("{name}:{}: no label", e.line));
            assert!(
                ["Figure", "Figura", "Section", "In ["]
                    .iter()
                    .any(|w| label.starts_with(w)),
                "{name}:{}: {label}",
                e.line
            );
            assert_eq!(
                label.contains("variant=diagonal"),
                variant == Variant::Diagonal,
                "{name}:{}: {label}",
                e.line
            );
            assert_eq!(name.contains(".diagonal."), variant == Variant::Diagonal);
        }
    }
    // Grids that parse (puzzles and solutions), over all files but the `.damaged` ones.
    assert_eq!(total, 57);
}

#[test]
fn consistent_puzzles_pass_check_givens() {
    for &(name, _, variant) in FILES {
        if is_damaged(name) || name.contains("as_printed") {
            continue;
        }
        for (i, p) in puzzles(name, variant).iter().enumerate() {
            assert_eq!(check_givens(p), Ok(()), "{name} #{}", i + 1);
        }
    }
}

#[test]
fn printed_solutions_solve_their_puzzles() {
    for &(pz, sol, variant) in PAIRS {
        assert_eq!(variant_of(pz), variant);
        assert_eq!(variant_of(sol), variant);
        let ps = read(pz);
        let ss = read(sol);
        assert_eq!(ps.len(), ss.len(), "{pz} / {sol}");
        for (p, s) in ps.iter().zip(&ss) {
            // The solution repeats its puzzle's comment, then says what it is.
            let (pl, sl) = (p.label.as_deref().unwrap(), s.label.as_deref().unwrap());
            assert!(
                sl.starts_with(pl),
                "{sol}:{}: label {sl:?} is not {pl:?}",
                s.line
            );
            assert!(s.grid.is_full(), "{sol}:{}", s.line);
            let puzzle = Puzzle::new(p.grid.clone(), variant);
            assert_eq!(
                verify_solution(&puzzle, &s.grid),
                Ok(()),
                "{sol}:{} does not solve {pz}:{}",
                s.line,
                p.line
            );
        }
    }
}

#[test]
fn givens_counts_match_the_papers() {
    let filled = |name: &str| -> Vec<usize> { grids(name).iter().map(Grid::filled).collect() };
    // Paper 000, Section 4.3's table ("Células"), after Figure 1a's 24.
    assert_eq!(filled("000_unicamp_ilp.txt"), [24, 26, 25, 26, 25, 23, 24]);
    assert_eq!(filled("000_unicamp_ilp.diagonal.txt"), [28, 50, 26, 19, 0]);
    // Recovery moves givens, it never adds or drops one.
    assert_eq!(
        filled("000_unicamp_ilp.diagonal.as_printed.txt"),
        [50, 26, 19]
    );
    assert_eq!(filled("000_unicamp_ilp.multiple.txt"), [77, 77, 28, 0]);
    assert_eq!(filled("001_jump.txt"), [22, 23, 38, 22]);
    assert_eq!(filled("001_jump.25x25.txt"), [344]);
    // Paper 002: "Instância com 17 dígitos pré-preenchidos"; 004: "17 atribuições iniciais".
    assert_eq!(filled("002_takano.txt"), [17]);
    assert_eq!(filled("002_takano.as_printed.txt"), [17]);
    assert_eq!(filled("004_teles.txt"), [17, 35, 27]);
    assert_eq!(filled("000_unicamp_ilp.full_grids.txt"), [81]);
    assert_eq!(filled("003_raggi.full_grids.txt"), [81]);
    for g in grids("000_unicamp_ilp.txt")
        .iter()
        .chain(&grids("001_jump.txt"))
        .chain(&grids("004_teles.txt"))
    {
        assert_eq!(g.order(), Order::new(3).unwrap());
    }
    assert_eq!(grids("001_jump.25x25.txt")[0].size(), 25);
}

#[test]
fn missing_rows_fail_to_parse_as_short_blocks() {
    let cases: &[(&str, &[usize], usize)] = &[
        ("000_unicamp_ilp.damaged.txt", &[7, 17, 27], 8),
        ("004_teles.damaged.txt", &[7], 7),
    ];
    for &(name, lines, rows) in cases {
        let results = parse_entries(&text(SEEDS, name), name, ParseOptions::default());
        assert_eq!(results.len(), lines.len(), "{name}");
        for (r, &line) in results.iter().zip(lines) {
            let e = r.as_ref().unwrap_err();
            assert_eq!(
                e.kind,
                ParseErrorKind::ShortBlock {
                    found: rows,
                    expected: 9
                },
                "{name}"
            );
            assert_eq!((e.line, e.column), (line, 1), "{name}");
        }
        let first = parse_str(&text(SEEDS, name), name).unwrap_err();
        assert_eq!(
            first.to_string(),
            format!(
                "{name}:{}:1: the grid block starting here has {rows} rows, 9 expected",
                lines[0]
            )
        );
    }
}

/// The rows of each grid block of a `.damaged` file, as printed (they cannot be parsed as grids).
fn damaged_rows(name: &str) -> Vec<Vec<Vec<u16>>> {
    let mut blocks = Vec::new();
    let mut cur: Vec<Vec<u16>> = Vec::new();
    for l in text(SEEDS, name).lines() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            if !cur.is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
            continue;
        }
        cur.push(t.split_whitespace().map(|x| x.parse().unwrap()).collect());
    }
    if !cur.is_empty() {
        blocks.push(cur);
    }
    blocks
}

#[test]
fn recovered_rows_are_the_printed_rows_plus_one_empty_row() {
    // Figure 1a lost row 1, "muito fácil" row 3, "moderado" row 8 (see the labels).
    let printed = damaged_rows("000_unicamp_ilp.damaged.txt");
    let recovered = grids("000_unicamp_ilp.txt");
    let solutions = grids("000_unicamp_ilp.solutions.txt");
    for (block, (idx, lost)) in printed.iter().zip([(0, 1), (1, 3), (3, 8)]) {
        assert_eq!(block.len(), 8);
        let g = &recovered[idx];
        let mut rows: Vec<Vec<u16>> = g.cells().chunks(9).map(<[u16]>::to_vec).collect();
        assert_eq!(rows.remove(lost - 1), vec![0; 9], "puzzle {}", idx + 1);
        assert_eq!(&rows, block, "puzzle {}", idx + 1);
        // No other place for the lost row fits the printed solution.
        let sol: Vec<&[u16]> = solutions[idx].cells().chunks(9).collect();
        let fits = |k: usize| {
            let mut s = sol.clone();
            s.remove(k);
            block
                .iter()
                .zip(&s)
                .all(|(p, s)| p.iter().zip(s.iter()).all(|(&a, &b)| a == 0 || a == b))
        };
        let places: Vec<usize> = (0..9).filter(|&k| fits(k)).map(|k| k + 1).collect();
        assert_eq!(places, [lost]);
    }
    // Figure 5 of paper 004: 7 rows printed, 2 lost, not recovered.
    let f5 = damaged_rows("004_teles.damaged.txt");
    assert_eq!(f5.len(), 1);
    assert_eq!(f5[0].len(), 7);
    assert!(f5[0].iter().all(|r| r.len() == 9));
}

#[test]
fn damaged_grids_fail_with_their_violation() {
    let d = Variant::Diagonal;
    let printed = puzzles("000_unicamp_ilp.diagonal.as_printed.txt", d);
    let sols = grids("000_unicamp_ilp.diagonal.as_printed.solutions.txt");
    // Diagonal "fácil": 4 twice in row 2 (r2c2 should be 1), in the puzzle and its solution.
    let row2_four = dup(UnitKind::Row(1), 4, (2, 2), (2, 5));
    assert_eq!(check_givens(&printed[0]), Err(row2_four.clone()));
    assert_eq!(
        verify_solution(&printed[0], &sols[0]),
        Err(row2_four.clone())
    );
    // Diagonal "moderado": shifted givens put 7 twice in block 5; the clean printed solution
    // disagrees with the damaged puzzle.
    assert_eq!(
        check_givens(&printed[1]),
        Err(dup(UnitKind::Block(4), 7, (4, 5), (5, 6)))
    );
    assert_eq!(
        verify_solution(&printed[1], &sols[1]),
        Err(Violation::GivenChanged {
            row: 3,
            col: 3,
            given: 9,
            found: 8
        })
    );
    assert_eq!(
        verify_solution(&Puzzle::empty(sols[1].order(), d), &sols[1]),
        Ok(())
    );
    // Diagonal "difícil": 5 twice in block 8; its solution has 4 twice in row 2.
    assert_eq!(
        check_givens(&printed[2]),
        Err(dup(UnitKind::Block(7), 5, (7, 6), (8, 5)))
    );
    assert_eq!(
        verify_solution(&printed[2], &sols[2]),
        Err(Violation::GivenChanged {
            row: 0,
            col: 5,
            given: 9,
            found: 1
        })
    );
    assert_eq!(
        verify_solution(&Puzzle::empty(sols[2].order(), d), &sols[2]),
        Err(row2_four)
    );
    // Paper 002, Figura 1a as printed: no repeated digit, but it disagrees with its solution.
    let p = &puzzles("002_takano.as_printed.txt", Variant::Classic)[0];
    let s = &grids("002_takano.as_printed.solutions.txt")[0];
    assert_eq!(check_givens(p), Ok(()));
    assert_eq!(
        verify_solution(p, s),
        Err(Violation::GivenChanged {
            row: 0,
            col: 5,
            given: 8,
            found: 9
        })
    );
    assert_eq!(s, &grids("002_takano.solutions.txt")[0]);
}

/// The recovered grid keeps every printed given in its row, at its column or moved right by
/// one; returns the moved givens as (row, printed column, digit), 1-based.
fn moves(printed: &Grid, recovered: &Grid) -> Vec<(usize, usize, u16)> {
    assert_eq!(printed.filled(), recovered.filled());
    let n = printed.size();
    let mut out = Vec::new();
    for i in 0..n * n {
        let d = printed.get(i);
        if d == 0 || recovered.get(i) == d {
            continue;
        }
        assert!(i % n + 1 < n && recovered.get(i + 1) == d, "cell {i}");
        out.push((i / n + 1, i % n + 1, d));
    }
    out
}

#[test]
fn recoveries_only_fix_what_the_labels_say() {
    let printed = grids("000_unicamp_ilp.diagonal.as_printed.txt");
    let printed_sols = grids("000_unicamp_ilp.diagonal.as_printed.solutions.txt");
    let recovered = grids("000_unicamp_ilp.diagonal.txt");
    let recovered_sols = grids("000_unicamp_ilp.diagonal.solutions.txt");
    // "fácil": r2c2 4 -> 1, in the puzzle and in the solution, nothing else.
    for (a, b) in [
        (&printed[0], &recovered[1]),
        (&printed_sols[0], &recovered_sols[1]),
    ] {
        let diff: Vec<usize> = (0..81).filter(|&i| a.get(i) != b.get(i)).collect();
        assert_eq!(diff, [9 + 1]);
        assert_eq!((a.at(1, 1), b.at(1, 1)), (4, 1));
    }
    // "moderado" and "difícil": eight givens each moved one column right.
    assert_eq!(
        moves(&printed[1], &recovered[2]),
        [
            (4, 4, 9),
            (4, 5, 7),
            (5, 6, 7),
            (5, 8, 1),
            (7, 5, 8),
            (8, 6, 4),
            (8, 7, 7),
            (8, 8, 8)
        ]
    );
    assert_eq!(printed_sols[1], recovered_sols[2]);
    assert_eq!(
        moves(&printed[2], &recovered[3]),
        [
            (1, 6, 9),
            (2, 5, 7),
            (2, 7, 8),
            (3, 3, 9),
            (3, 4, 3),
            (3, 7, 1),
            (4, 8, 8),
            (7, 6, 5)
        ]
    );
    let diff: Vec<usize> = (0..81)
        .filter(|&i| printed_sols[2].get(i) != recovered_sols[3].get(i))
        .collect();
    assert_eq!(diff, [9 + 1]);
    // Paper 002: six givens moved one column right.
    assert_eq!(
        moves(
            &grids("002_takano.as_printed.txt")[0],
            &grids("002_takano.txt")[0]
        ),
        [
            (1, 6, 8),
            (1, 8, 5),
            (7, 3, 6),
            (7, 5, 3),
            (8, 3, 2),
            (9, 2, 4)
        ]
    );
}

#[test]
fn paper_000_diagonal_claims() {
    let (c, d) = (Variant::Classic, Variant::Diagonal);
    let classic = grids("000_unicamp_ilp.txt");
    let classic_sols = grids("000_unicamp_ilp.solutions.txt");
    // "ao incluir a restrição da diagonal ao Sudoku da Figura 1a, o mesmo não teria solução":
    // its givens do not clash on a diagonal (only a solver shows it is infeasible), and its
    // printed solution repeats 9 on the main diagonal.
    let fig1a = Puzzle::new(classic[0].clone(), d);
    assert_eq!(check_givens(&fig1a), Ok(()));
    assert_eq!(
        verify_solution(&fig1a, &classic_sols[0]),
        Err(dup(UnitKind::MainDiagonal, 9, (6, 6), (7, 7)))
    );
    // Figure 8: a classic solution of Figure 2a, with digits repeated on both diagonals.
    let multiple = grids("000_unicamp_ilp.multiple.txt");
    let multiple_sols = grids("000_unicamp_ilp.multiple.solutions.txt");
    let fig2a = &grids("000_unicamp_ilp.diagonal.txt")[0];
    assert_eq!(&multiple[2], fig2a);
    let fig8 = &multiple_sols[2];
    assert_eq!(
        verify_solution(&Puzzle::new(fig2a.clone(), c), fig8),
        Ok(())
    );
    assert_eq!(
        verify_solution(&Puzzle::new(fig2a.clone(), d), fig8),
        Err(dup(UnitKind::MainDiagonal, 5, (1, 1), (4, 4)))
    );
    let anti: Vec<u16> = (0..9).map(|i| fig8.at(i, 8 - i)).collect();
    assert!((1..=9).any(|k| anti.iter().filter(|&&x| x == k).count() > 1));
    assert_ne!(fig8, &grids("000_unicamp_ilp.diagonal.solutions.txt")[0]);
    // Figure 6: the empty grid; 6a is a classic answer only, 6b a diagonal one.
    let fig6a = &multiple_sols[3];
    let order = fig6a.order();
    assert_eq!(multiple[3].filled(), 0);
    assert_eq!(
        verify_solution(&Puzzle::empty(order, d), fig6a),
        Err(dup(UnitKind::MainDiagonal, 2, (5, 5), (7, 7)))
    );
    let fig6b = &grids("000_unicamp_ilp.diagonal.solutions.txt")[4];
    assert_eq!(verify_solution(&Puzzle::empty(order, d), fig6b), Ok(()));
    assert_eq!(verify_solution(&Puzzle::empty(order, c), fig6b), Ok(()));
    // Figure 7: a classic answer for Figure 5a, "infactível ... por ter dois elementos 1 na
    // diagonal principal": the main diagonal of Figure 7 repeats 1 (and 6).
    let fig7 = &grids("000_unicamp_ilp.full_grids.txt")[0];
    assert_eq!(verify_solution(&Puzzle::empty(order, c), fig7), Ok(()));
    assert_eq!(
        verify_solution(&Puzzle::empty(order, d), fig7),
        Err(dup(UnitKind::MainDiagonal, 6, (2, 2), (4, 4)))
    );
    let ones: Vec<usize> = (0..9)
        .filter(|&i| fig7.at(i, i) == 1)
        .map(|i| i + 1)
        .collect();
    assert_eq!(ones, [1, 6, 9]);
    // The Section 4.4 solutions are classic only: each repeats a digit on a diagonal.
    for (i, s) in classic_sols.iter().enumerate() {
        let p = Puzzle::new(classic[i].clone(), d);
        assert!(
            matches!(
                verify_solution(&p, s),
                Err(Violation::Duplicate {
                    unit: UnitKind::MainDiagonal | UnitKind::AntiDiagonal,
                    ..
                })
            ),
            "puzzle {}",
            i + 1
        );
    }
}

#[test]
fn figure_9_has_two_solutions() {
    let multiple = grids("000_unicamp_ilp.multiple.txt");
    let sols = grids("000_unicamp_ilp.multiple.solutions.txt");
    assert_eq!(multiple[0], multiple[1]);
    let (a, b) = (&sols[0], &sols[1]);
    // Both verify (printed_solutions_solve_their_puzzles); they differ in the four empty
    // cells only, and a(1,1) is 1 under Z1 = -x(1,1,1), 2 under Z2 = x(1,1,1).
    let diff: Vec<(usize, usize)> = (0..81)
        .filter(|&i| a.get(i) != b.get(i))
        .map(|i| (i / 9 + 1, i % 9 + 1))
        .collect();
    assert_eq!(diff, [(1, 1), (1, 2), (7, 1), (7, 2)]);
    let empty: Vec<(usize, usize)> = (0..81)
        .filter(|&i| multiple[0].get(i) == 0)
        .map(|i| (i / 9 + 1, i % 9 + 1))
        .collect();
    assert_eq!(empty, diff);
    assert_eq!((a.at(0, 0), b.at(0, 0)), (1, 2));
}

#[test]
fn jump_25x25_partial_solution_agrees_with_its_puzzle() {
    let puzzle = &grids("001_jump.25x25.txt")[0];
    let partial = &grids("001_jump.25x25.partial_solutions.txt")[0];
    assert_eq!(puzzle.order(), Order::new(5).unwrap());
    assert_eq!(partial.order(), puzzle.order());
    // Rows 1-10 printed in full, rows 11-25 cut off in the source.
    for r in 0..25 {
        let row = &partial.cells()[r * 25..r * 25 + 25];
        if r < 10 {
            let mut sorted = row.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=25).collect::<Vec<u16>>(), "row {}", r + 1);
        } else {
            assert!(row.iter().all(|&d| d == 0), "row {}", r + 1);
        }
    }
    // It agrees with every given, and givens plus printed rows clash nowhere.
    let mut merged = puzzle.clone();
    for i in 0..625 {
        let (g, s) = (puzzle.get(i), partial.get(i));
        if g != 0 && s != 0 {
            assert_eq!(g, s, "cell {i}");
        }
        if g == 0 && s != 0 {
            merged.set(i, s);
        }
    }
    assert_eq!(merged.filled(), 344 + 250 - 138);
    assert_eq!(check_givens(&Puzzle::new(merged, Variant::Classic)), Ok(()));
    // It is not an answer.
    assert_eq!(
        verify_solution(&Puzzle::new(puzzle.clone(), Variant::Classic), partial),
        Err(Violation::EmptyCell { row: 10, col: 0 })
    );
}

#[test]
fn paper_004_givens_match_the_text() {
    let g = grids("004_teles.txt");
    let givens = |grid: &Grid| -> Vec<(usize, u16)> {
        (0..81)
            .filter(|&i| grid.get(i) != 0)
            .map(|i| (i + 1, grid.get(i)))
            .collect()
    };
    // Figure 24: equation (3) lists the 27 givens as x(square, digit) = 1.
    let eq3: Vec<(usize, u16)> = vec![
        (2, 4),
        (8, 6),
        (9, 8),
        (10, 7),
        (15, 5),
        (16, 3),
        (21, 9),
        (23, 2),
        (28, 3),
        (31, 5),
        (36, 7),
        (39, 1),
        (40, 2),
        (41, 6),
        (42, 4),
        (43, 9),
        (46, 2),
        (51, 7),
        (54, 6),
        (59, 5),
        (61, 7),
        (66, 6),
        (67, 3),
        (72, 1),
        (73, 4),
        (74, 8),
        (80, 3),
    ];
    assert_eq!(givens(&g[2]), eq3);
    // Figure 22: "A = {(13, 7), (48, 6), (68, 3), ...}".
    let f22 = givens(&g[1]);
    for a in [(13, 7), (48, 6), (68, 3)] {
        assert!(f22.contains(&a), "{a:?}");
    }
    // Figure 2 and paper 003's solved board.
    // Figure 2, typed again row by row from the source as a second reading.
    let fig2 = [
        "3......9.",
        ".....87..",
        "....1....",
        "...63..4.",
        ".81...5..",
        ".2.......",
        "5..9.....",
        "..93.....",
        "......1..",
    ];
    assert_eq!(g[0], line(&fig2.concat()));
    let board = &grids("003_raggi.full_grids.txt")[0];
    assert_eq!(
        verify_solution(&Puzzle::empty(board.order(), Variant::Classic), board),
        Ok(())
    );
}

#[test]
fn malformed_inputs_fail_with_the_expected_error() {
    let expected_text = text(MALFORMED, "EXPECTED.txt");
    let mut listed = BTreeSet::new();
    for l in expected_text.lines().filter(|l| !l.trim().is_empty()) {
        let (file, want) = l
            .split_once('\t')
            .unwrap_or_else(|| panic!("EXPECTED.txt: no tab in {l:?}"));
        assert!(listed.insert(file.to_string()), "{file} listed twice");
        let err = parse_str(&text(MALFORMED, file), file)
            .err()
            .unwrap_or_else(|| panic!("{file} parses"));
        assert_eq!(err.to_string(), want, "{file}");
        assert_eq!(err.source_name, file);
    }
    let mut on_disk = file_names(MALFORMED);
    assert!(on_disk.remove("EXPECTED.txt"));
    assert_eq!(listed, on_disk, "EXPECTED.txt and tests/malformed differ");
    assert!(listed.len() >= 11);
}

#[test]
fn malformed_second_puzzle_is_the_one_reported() {
    let name = "second_puzzle_bad.txt";
    let r = parse_entries(&text(MALFORMED, name), name, ParseOptions::default());
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].as_ref().unwrap().line, 1);
    let e = r[1].as_ref().unwrap_err();
    assert_eq!(
        (e.line, &e.kind),
        (3, &ParseErrorKind::NotAnOrder { len: 80 })
    );
}
