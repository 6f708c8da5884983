//! Polynomial constructions of a full grid (Takano et al., §5.1: "the empty grid is in P") and the
//! random symmetry transforms that turn one pattern into many different grids.
//!
//! Coordinates: row `r = q·n + i` (band `q`, row `i` inside the band), column `c = p·n + j`
//! (stack `p`, column `j` inside the stack). Digits are computed 0-based and stored `+ 1`.

use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::{
    choices, Budget, Generator, Grid, Limit, Order, Outcome, Rng, Stats, Status, Variant,
};

/// Which construction [`Pattern`] writes before shuffling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construction {
    /// `circular` for the classic variant, `linear` for the diagonal one.
    Auto,
    /// Takano et al., first algorithm: the circular list `1..N` written block by block, going down
    /// the first stack of blocks, then the next; each block starts one element after the
    /// previous block's start. Value `(p·n + q + i·n + j) mod N`.
    Circular,
    /// Takano et al., second algorithm: every row is the circular list `1..N` starting (digit 1) at
    /// column `i·n + q`: the start moves by `n` from row to row inside a band and by one from
    /// band to band. Value `(c − i·n − q) mod N`.
    Rows,
    /// Ours, for Sudoku-X: a digit is a pair `(x, y)` of `Z_n`, `x = q + i + p`, `y = q + j`
    /// (digit `x·n + y`). Rows, columns, blocks and both diagonals are bijective for every
    /// `n ≥ 2` (the 2×2 determinants of the linear maps are ±1).
    Linear,
}

impl Construction {
    fn resolve(self, variant: Variant) -> Construction {
        match (self, variant) {
            (Construction::Auto, Variant::Classic) => Construction::Circular,
            (Construction::Auto, Variant::Diagonal) => Construction::Linear,
            (c, _) => c,
        }
    }

    /// Whether this construction satisfies `variant`'s units.
    pub fn supports(self, variant: Variant) -> bool {
        match self.resolve(variant) {
            Construction::Linear | Construction::Auto => true,
            Construction::Circular | Construction::Rows => variant == Variant::Classic,
        }
    }

    /// The name used in parameters.
    pub fn name(self) -> &'static str {
        match self {
            Construction::Auto => "auto",
            Construction::Circular => "circular",
            Construction::Rows => "rows",
            Construction::Linear => "linear",
        }
    }
}

/// The unshuffled grid of a construction, or `None` when it does not satisfy `variant`
/// (the seed's two constructions repeat digits on the diagonals). `O(N²)`.
pub fn construct(order: Order, variant: Variant, construction: Construction) -> Option<Grid> {
    if !construction.supports(variant) {
        return None;
    }
    let construction = construction.resolve(variant);
    let (n, size) = (order.n(), order.size());
    let mut cells = Vec::with_capacity(order.cells());
    for r in 0..size {
        let (q, i) = (r / n, r % n);
        for c in 0..size {
            let (p, j) = (c / n, c % n);
            let v = match construction {
                Construction::Circular => (p * n + q + i * n + j) % size,
                Construction::Rows => (c + size - (i * n + q)) % size,
                _ => ((q + i + p) % n) * n + (q + j) % n,
            };
            cells.push(v as u16 + 1);
        }
    }
    Some(Grid::from_cells(order, cells).expect("digits in 1..=N"))
}

/// A random permutation of `0..len` that commutes with the reversal `k ↦ len−1−k`: pairs
/// `{k, len−1−k}` go to pairs (each in a random orientation), the middle (odd `len`) stays.
fn mirror_perm(len: usize, rng: &mut Rng) -> Vec<usize> {
    let half = len / 2;
    let mut pairs: Vec<usize> = (0..half).collect();
    pairs.shuffle(rng);
    let mut perm = vec![0; len];
    for (k, &to) in pairs.iter().enumerate() {
        let (a, b) = if rng.random_bool(0.5) {
            (to, len - 1 - to)
        } else {
            (len - 1 - to, to)
        };
        perm[k] = a;
        perm[len - 1 - k] = b;
    }
    if len % 2 == 1 {
        perm[half] = half;
    }
    perm
}

/// A permutation of the `N` lines (rows or columns) that keeps bands: bands permuted by
/// `outer`, lines inside band `q` by `inner[q]`. Line `q·n + i` goes to `outer[q]·n + inner[q][i]`.
fn line_perm(n: usize, outer: &[usize], inner: &[Vec<usize>]) -> Vec<usize> {
    let mut perm = Vec::with_capacity(n * n);
    for (&to, lines) in outer.iter().zip(inner) {
        perm.extend(lines.iter().map(|&i| to * n + i));
    }
    perm
}

fn random_perm(len: usize, rng: &mut Rng) -> Vec<usize> {
    let mut p: Vec<usize> = (0..len).collect();
    p.shuffle(rng);
    p
}

/// Applies random validity-preserving symmetries to a full grid of `variant`.
///
/// Classic: relabel digits, permute bands, rows inside each band, stacks, columns inside each
/// stack, and transpose with probability ½. Diagonal: relabel digits, transpose and rotate a
/// quarter turn with probability ½ each, and one band-preserving line permutation that
/// commutes with reversal applied to rows and columns alike (it maps both diagonals onto
/// themselves).
pub fn shuffle(grid: &Grid, variant: Variant, rng: &mut Rng) -> Grid {
    let order = grid.order();
    let (n, size) = (order.n(), order.size());
    let relabel = random_perm(size, rng);
    let (rows, cols) = match variant {
        Variant::Classic => {
            let band = random_perm(n, rng);
            let inner: Vec<Vec<usize>> = (0..n).map(|_| random_perm(n, rng)).collect();
            let rows = line_perm(n, &band, &inner);
            let stack = random_perm(n, rng);
            let inner: Vec<Vec<usize>> = (0..n).map(|_| random_perm(n, rng)).collect();
            (rows, line_perm(n, &stack, &inner))
        }
        Variant::Diagonal => {
            let band = mirror_perm(n, rng);
            let mut inner = vec![Vec::new(); n];
            for q in 0..n.div_ceil(2) {
                if q == n - 1 - q {
                    inner[q] = mirror_perm(n, rng);
                } else {
                    let p = random_perm(n, rng);
                    inner[n - 1 - q] = (0..n).map(|i| n - 1 - p[n - 1 - i]).collect();
                    inner[q] = p;
                }
            }
            // Band q goes to band[q]; its mirror band n-1-q goes to n-1-band[q], and its inner
            // permutation is the mirror of band q's, so the whole line map commutes with
            // reversal.
            let rows = line_perm(n, &band, &inner);
            (rows.clone(), rows)
        }
    };
    let transpose = rng.random_bool(0.5);
    let rotate = variant == Variant::Diagonal && rng.random_bool(0.5);
    let mut out = vec![0u16; order.cells()];
    for (r, &row_to) in rows.iter().enumerate() {
        for (c, &col_to) in cols.iter().enumerate() {
            let d = grid.at(r, c);
            let (mut r2, mut c2) = (row_to, col_to);
            if transpose {
                std::mem::swap(&mut r2, &mut c2);
            }
            if rotate {
                // (r, c) -> (c, N-1-r): blocks go to blocks, each diagonal to the other.
                (r2, c2) = (c2, size - 1 - r2);
            }
            out[r2 * size + c2] = relabel[d as usize - 1] as u16 + 1;
        }
    }
    Grid::from_cells(order, out).expect("relabelled digits in range")
}

/// The registry name, also returned by [`Generator::name`].
pub(crate) const PATTERN: &str = "pattern";

sudoku_core::config! {
    /// The `pattern` generator: a seed-002 construction, then (by default) random symmetries.
    #[derive(Clone, Debug)]
    pub struct Pattern for PATTERN {
        construction: Construction = "auto"
            of choices![
                "auto" => Construction::Auto,
                "circular" => Construction::Circular,
                "rows" => Construction::Rows,
                "linear" => Construction::Linear,
            ],
            "circular/rows: Takano et al.'s constructions (classic only); linear: ours, also satisfies \
             both diagonals; auto: circular for classic, linear for diagonal";
        /// Apply [`shuffle`] so that the output is not one fixed grid.
        shuffle: bool = true,
            "apply random symmetries (relabel digits, permute bands/rows/stacks/columns, \
             transpose) so the output is not one fixed grid";
    }
}

impl Generator for Pattern {
    fn name(&self) -> &str {
        PATTERN
    }

    /// Never fails for a supported (construction, variant); for the seed's constructions with
    /// the diagonal variant it returns [`Status::Exhausted`] with no grid and an
    /// `unsupported` entry in [`Stats::extra`].
    fn generate(&mut self, order: Order, variant: Variant, _: &Budget, rng: &mut Rng) -> Outcome {
        let mut stats = Stats::default();
        let status = match construct(order, variant, self.construction) {
            Some(g) => {
                stats.iterations = 1;
                Status::Solved(if self.shuffle {
                    shuffle(&g, variant, rng)
                } else {
                    g
                })
            }
            None => {
                stats.extra.push((
                    "unsupported".to_string(),
                    format!(
                        "construction {} repeats digits on the diagonals; use construction=linear",
                        self.construction.name()
                    ),
                ));
                Status::Exhausted {
                    limit: Limit::Iterations,
                    best: None,
                }
            }
        };
        Outcome { status, stats }
    }
}
