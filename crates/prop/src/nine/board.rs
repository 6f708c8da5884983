//! The 9×9 bitboard: for each digit, the cells where it may stand, as three bands of 27 bits
//! (bit `9r + c` of band `b` is row `3b + r`, column `c`). A placed digit keeps its own bit
//! and loses every peer, so each unit of a consistent board holds at least one bit per digit.
//! The whole state is 128 bytes: copying it is the undo.

/// Does this processor have what [`Board::propagate_bmi`] is compiled for? Checked once per
/// engine (the standard library caches the answer).
pub(crate) fn fast_path() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One board: three bands of 27 bits.
pub(crate) type Bands = [u32; 3];

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// Row `r` of a band (9 bits).
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
/// Box `k` of a band (columns `3k..3k+3` of its three rows).
const BOX: [u32; 3] = [0x7 * 0x40201, 0x38 * 0x40201, 0x1C0 * 0x40201];
/// Column `c` within a band: bits `c`, `c + 9`, `c + 18`; multiply a 9-bit column mask by
/// this to get its cells.
const COLS: u32 = 0x40201;

/// For a 3-bit set of boxes (rows): the box (row) mask if exactly one, else 0.
const ONE_BOX: [u32; 8] = [0, BOX[0], BOX[1], 0, BOX[2], 0, 0, 0];
const ONE_ROW: [u32; 8] = [0, ROW[0], ROW[1], 0, ROW[2], 0, 0, 0];
/// The three columns of the stack of column `c` (9-bit), padded to 16 for a masked index.
const STACK_OF: [u32; 16] = [
    7, 7, 7, 0x38, 0x38, 0x38, 0x1C0, 0x1C0, 0x1C0, 0, 0, 0, 0, 0, 0, 0,
];

/// The peers of each cell (same row, column or box, not the cell itself), indexed by band
/// and bit. 32 bits per band so that an index masked with 31 is provably in range.
const PEERS: [[Bands; 32]; 3] = peers();

const fn peers() -> [[Bands; 32]; 3] {
    let mut t = [[[0u32; 3]; 32]; 3];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let mut other = 0;
        while other < 81 {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                t[cell / 27][cell % 27][other / 27] |= 1 << (other % 27);
            }
            other += 1;
        }
        cell += 1;
    }
    t
}

/// The candidates of every digit and the cells not yet placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    cand: [Bands; 9],
    unsolved: Bands,
    /// Digits (bit d) whose candidates changed since their last hidden-single scan.
    dirty_hidden: u32,
    /// Digits whose candidates changed since their last locked-candidates pass.
    dirty_locked: u32,
}

/// The propagation found a contradiction.
#[derive(Debug)]
pub(crate) struct Dead;

impl Board {
    /// The empty grid: every digit everywhere.
    pub(crate) fn new() -> Board {
        Board {
            cand: [[BAND; 3]; 9],
            unsolved: [BAND; 3],
            dirty_hidden: 0x1FF,
            dirty_locked: 0x1FF,
        }
    }

    /// Places a given (`cell < 81`, `digit` 0..9); `Dead` if it clashes with earlier ones.
    pub(crate) fn give(&mut self, cell: usize, digit: usize) -> Result<(), Dead> {
        let (b, i) = (cell / 27, cell % 27);
        if b >= 3 || digit >= 9 {
            return Err(Dead);
        }
        let bit = 1 << i;
        if self.cand[digit][b] & self.unsolved[b] & bit == 0 {
            return Err(Dead);
        }
        // As `place`, without marking digits dirty: on a new board they all are.
        let i = i & 31;
        for c in self.cand.iter_mut() {
            c[b] &= !bit;
        }
        let peers = &PEERS[b][i];
        let own = &mut self.cand[digit];
        for k in 0..3 {
            own[k] &= !peers[k];
        }
        own[b] |= bit;
        self.unsolved[b] &= !bit;
        Ok(())
    }

    /// Is every cell placed?
    #[inline(always)]
    pub(crate) fn solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The digits (1..=9) of every cell; cells without exactly one candidate read 0.
    pub(crate) fn cells(&self) -> Vec<u16> {
        let mut out = vec![0u16; 81];
        for (d, bands) in self.cand.iter().enumerate() {
            for (b, &band) in bands.iter().enumerate() {
                let mut m = band;
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out[27 * b + i] = d as u16 + 1;
                }
            }
        }
        out
    }

    /// Puts `d` at bit `i` of band `b`: the cell loses its other digits, the peers lose `d`.
    #[inline(always)]
    pub(crate) fn place(&mut self, d: usize, b: usize, i: u32) {
        let i = i & 31;
        let bit = 1u32 << i;
        // The digits that lose a candidate: those of the cell (d among them).
        let mut touched = 0;
        for (e, c) in self.cand.iter_mut().enumerate() {
            touched |= ((c[b] >> i) & 1) << e;
            c[b] &= !bit;
        }
        self.dirty_hidden |= touched;
        self.dirty_locked |= touched;
        let peers = &PEERS[b][i as usize];
        let own = &mut self.cand[d];
        for k in 0..3 {
            own[k] &= !peers[k];
        }
        own[b] |= bit;
        self.unsolved[b] &= !bit;
    }

    /// The candidate digits (bit `d`) of bit `i` of band `b`.
    #[inline(always)]
    pub(crate) fn digits(&self, b: usize, i: u32) -> u32 {
        let bit = 1u32 << (i & 31);
        let mut m = 0;
        for (d, c) in self.cand.iter().enumerate() {
            if c[b] & bit != 0 {
                m |= 1 << d;
            }
        }
        m
    }

    /// Naked and hidden singles to their fixpoint, then locked candidates (at most
    /// `lc_rounds` passes that change something), and again, until nothing changes or a
    /// contradiction shows. The search passes one round: the singles after one pass find most
    /// of what more passes would, for less than their cost (measured on magictour_top1465).
    pub(crate) fn propagate(&mut self, lc_rounds: u32) -> Result<(), Dead> {
        self.propagate_body(lc_rounds)
    }

    /// [`Board::propagate`] compiled for the bit-manipulation instructions of x86-64 (BMI1,
    /// BMI2, POPCNT, LZCNT): `andn`, `blsr`, `tzcnt` and shifts by a register without `cl`
    /// make the rules about a tenth shorter. Call it only where [`fast_path`] said yes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn propagate_bmi(&mut self, lc_rounds: u32) -> Result<(), Dead> {
        self.propagate_body(lc_rounds)
    }

    /// The body of [`Board::propagate`], inlined into each compiled version.
    #[inline(always)]
    fn propagate_body(&mut self, lc_rounds: u32) -> Result<(), Dead> {
        let mut lc_left = lc_rounds;
        loop {
            self.naked_singles()?;
            if self.solved() {
                return Ok(());
            }
            if self.hidden_singles()? {
                continue;
            }
            if lc_left == 0 || !self.locked_candidates() {
                return Ok(());
            }
            lc_left -= 1;
        }
    }

    /// Places every cell with one candidate, repeatedly; `Dead` if a cell has none.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<(), Dead> {
        loop {
            // Bit-sliced counting: `one` = at least one candidate, `two` = at least two.
            let mut one = [0u32; 3];
            let mut two = [0u32; 3];
            for c in &self.cand {
                for b in 0..3 {
                    two[b] |= one[b] & c[b];
                    one[b] |= c[b];
                }
            }
            let mut any = 0;
            let mut single = [0u32; 3];
            for b in 0..3 {
                if self.unsolved[b] & !one[b] != 0 {
                    return Err(Dead);
                }
                single[b] = self.unsolved[b] & !two[b];
                any |= single[b];
            }
            if any == 0 {
                return Ok(());
            }
            // The digit of each single as four bit planes (bit k of the digit index), so that
            // each single is placed without a branch per digit.
            let mut plane = [[0u32; 3]; 4];
            for (d, c) in self.cand.iter().enumerate() {
                for (k, p) in plane.iter_mut().enumerate() {
                    if d >> k & 1 != 0 {
                        for b in 0..3 {
                            p[b] |= c[b] & single[b];
                        }
                    }
                }
            }
            for b in 0..3 {
                let mut m = single[b];
                while m != 0 {
                    let i = m.trailing_zeros() & 31;
                    m &= m - 1;
                    let d = (((plane[0][b] >> i) & 1)
                        | (((plane[1][b] >> i) & 1) << 1)
                        | (((plane[2][b] >> i) & 1) << 2)
                        | (((plane[3][b] >> i) & 1) << 3)) as usize;
                    let bit = 1u32 << i;
                    let Some(own) = self.cand.get_mut(d) else {
                        return Err(Dead);
                    };
                    // Another single of `d` in this batch may have taken the cell's last
                    // candidate.
                    if own[b] & bit == 0 {
                        return Err(Dead);
                    }
                    let peers = &PEERS[b][i as usize];
                    for k in 0..3 {
                        own[k] &= !peers[k];
                    }
                    self.unsolved[b] &= !bit;
                    self.dirty_hidden |= 1 << d;
                    self.dirty_locked |= 1 << d;
                }
            }
        }
    }

    /// Places every digit that has one place left in a row, column or box. Returns whether
    /// it placed any; `Dead` if a digit has no place in some unit.
    #[inline(always)]
    fn hidden_singles(&mut self) -> Result<bool, Dead> {
        let mut placed = false;
        let mut todo = std::mem::take(&mut self.dirty_hidden);
        while todo != 0 {
            let d = (todo.trailing_zeros() & 15) as usize;
            todo &= todo - 1;
            let Some(&c) = self.cand.get(d) else { break };
            let mut hs = [0u32; 3];
            let (mut col1, mut col2) = (0u32, 0u32);
            // Branch-free: any empty row or box makes `empty` true.
            let mut empty = false;
            for b in 0..3 {
                let x = c[b];
                for r in 0..3 {
                    let v = (x >> (9 * r)) & 0x1FF;
                    empty |= v == 0;
                    hs[b] |= if v & (v.wrapping_sub(1)) == 0 {
                        v << (9 * r)
                    } else {
                        0
                    };
                    col2 |= col1 & v;
                    col1 |= v;
                }
                for bx in BOX {
                    let v = x & bx;
                    empty |= v == 0;
                    hs[b] |= if v & (v.wrapping_sub(1)) == 0 { v } else { 0 };
                }
            }
            if empty || col1 != 0x1FF {
                return Err(Dead);
            }
            let col_single = (col1 & !col2) * COLS;
            for b in 0..3 {
                hs[b] = (hs[b] | (c[b] & col_single)) & self.unsolved[b];
            }
            for (b, &h) in hs.iter().enumerate() {
                let mut m = h;
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let bit = 1u32 << i;
                    // Another digit's single of this round may have taken the cell; then this
                    // digit's unit is empty and the next round finds it.
                    if self.cand[d][b] & self.unsolved[b] & bit != 0 {
                        self.place(d, b, i);
                        placed = true;
                    }
                }
            }
        }
        Ok(placed)
    }

    /// Pointing and claiming for every digit, between boxes and rows (within a band) and
    /// boxes and columns (within a stack). Returns whether it removed any candidate.
    #[inline(always)]
    fn locked_candidates(&mut self) -> bool {
        let mut changed = 0;
        let todo = std::mem::take(&mut self.dirty_locked);
        for (d, c) in self.cand.iter_mut().enumerate() {
            if todo & (1 << d) == 0 {
                continue;
            }
            let before = *c;
            // Rows against boxes, band by band.
            for x in c.iter_mut() {
                // Bit 3r + k: row r has candidates in box k.
                // Bit 3s of `y`: segment s (three cells of a row in a box) has candidates.
                let y = (*x | (*x >> 1) | (*x >> 2)) & 0x1249249;
                let mut occ = 0u32;
                for r in 0..3 {
                    let row = y >> (9 * r);
                    occ |= ((row | (row >> 2) | (row >> 4)) & 7) << (3 * r);
                }
                let mut clear = 0u32;
                for r in 0..3 {
                    // Claiming: the row's digit lies in one box; the box's other rows lose it.
                    clear |= ONE_BOX[((occ >> (3 * r)) & 7) as usize] & !ROW[r];
                }
                for (k, bx) in BOX.iter().enumerate() {
                    // Pointing: the box's digit lies in one row; the row's other boxes lose it.
                    let rows = ((occ >> k) & 1) | ((occ >> (2 + k)) & 2) | ((occ >> (4 + k)) & 4);
                    clear |= ONE_ROW[rows as usize] & !bx;
                }
                *x &= !clear;
            }
            // Columns against boxes: bit c of `occ[b]` says column c has candidates in band b.
            // (Plain loops: `array::map` was not inlined here.)
            let mut occ = [0u32; 3];
            // Pointing: a box's digit lies in one column; the other bands lose that column.
            let mut point = [0u32; 3];
            for b in 0..3 {
                let x = c[b];
                occ[b] = (x | (x >> 9) | (x >> 18)) & 0x1FF;
                for stack in [0x7, 0x38, 0x1C0] {
                    let v = occ[b] & stack;
                    point[b] |= if v & v.wrapping_sub(1) == 0 { v } else { 0 };
                }
            }
            let mut clear = [
                (point[1] | point[2]) * COLS,
                (point[0] | point[2]) * COLS,
                (point[0] | point[1]) * COLS,
            ];
            // Claiming: a column's digit lies in one band; the box's other columns lose it.
            let twice = (occ[0] & occ[1]) | (occ[0] & occ[2]) | (occ[1] & occ[2]);
            for b in 0..3 {
                let mut m = occ[b] & !twice;
                while m != 0 {
                    let bit = m & m.wrapping_neg();
                    m &= m - 1;
                    clear[b] |= (STACK_OF[bit.trailing_zeros() as usize & 15] & !bit) * COLS;
                }
            }
            for b in 0..3 {
                c[b] &= !clear[b];
            }
            changed |= u32::from(*c != before) << d;
        }
        self.dirty_hidden |= changed;
        self.dirty_locked |= changed;
        changed != 0
    }

    /// The cell to branch on: the first with two candidates, else the first with three,
    /// else the first unplaced. Call only on an unsolved board at a fixpoint.
    #[inline(always)]
    pub(crate) fn branch_cell(&self) -> (usize, u32) {
        let (mut one, mut two, mut three, mut four) = ([0u32; 3], [0u32; 3], [0u32; 3], [0u32; 3]);
        for c in &self.cand {
            for b in 0..3 {
                let x = c[b] & self.unsolved[b];
                four[b] |= three[b] & x;
                three[b] |= two[b] & x;
                two[b] |= one[b] & x;
                one[b] |= x;
            }
        }
        let layers = [
            [two[0] & !three[0], two[1] & !three[1], two[2] & !three[2]],
            [
                three[0] & !four[0],
                three[1] & !four[1],
                three[2] & !four[2],
            ],
            self.unsolved,
        ];
        for layer in layers {
            for (b, &m) in layer.iter().enumerate() {
                if m != 0 {
                    return (b, m.trailing_zeros());
                }
            }
        }
        (0, 0)
    }
}
