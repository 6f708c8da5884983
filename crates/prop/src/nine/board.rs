//! The 9×9 bitboard: for each digit, the cells where it may stand, as three bands of 27 bits
//! (bit `9r + c` of band `b` is row `3b + r`, column `c`). A placed digit keeps its own bit
//! and, once the rules reach their fixpoint, every peer has lost it, so each unit of a
//! consistent board holds at least one bit per digit. The rules work on one band of one digit
//! at a time and only on the bands that changed. The whole state is 228 bytes: copying it is
//! the undo.

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
/// Column `c` within a band: bits `c`, `c + 9`, `c + 18`; multiply a 9-bit column mask by
/// this to get its cells.
const COLS: u32 = 0x40201;

/// Which boxes (bit k) a 9-bit row of a band has candidates in.
const SEGMENTS: [u32; 512] = segments();

const fn segments() -> [u32; 512] {
    let mut t = [0; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if v & (7 << (3 * k)) != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
}

/// For the segments of a band that hold a digit (bit `3r + k`: row `r` in box `k`), the cells
/// of those segments that some placement of the band's three digits (one per row and box)
/// uses; 0 if there is none.
const ARRANGED: [u32; 512] = arranged();

/// The six ways to give rows 0, 1, 2 of a band distinct boxes (a digit's configurations in
/// the band); for a stack, columns and bands.
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For the segments that hold a digit (as for [`ARRANGED`]), which configurations (bit p:
/// `PERMS[p]`) they allow.
const CONFIGS: [u8; 512] = configs();

const fn configs() -> [u8; 512] {
    let mut t = [0; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut p = 0;
        while p < 6 {
            let mut segs = 0u32;
            let mut r = 0;
            while r < 3 {
                segs |= 1 << (3 * r + PERMS[p][r]);
                r += 1;
            }
            if segs & !(occ as u32) == 0 {
                t[occ] |= 1 << p;
            }
            p += 1;
        }
        occ += 1;
    }
    t
}

/// The cells of a band that configuration p of a digit leaves it.
const H_CELLS: [u32; 6] = h_cells();

const fn h_cells() -> [u32; 6] {
    let mut t = [0; 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            t[p] |= (7 << (3 * PERMS[p][r])) << (9 * r);
            r += 1;
        }
        p += 1;
    }
    t
}

/// For stack s and configuration p (column j of the stack in band `PERMS[p][j]`), the cells
/// of each band that it leaves the digit (all of the other stacks).
const V_CELLS: [[Bands; 6]; 3] = v_cells();

const fn v_cells() -> [[Bands; 6]; 3] {
    let mut t = [[[0; 3]; 6]; 3];
    let mut st = 0;
    while st < 3 {
        let mut p = 0;
        while p < 6 {
            // The other stacks keep their cells.
            let outside = BAND & !((7 << (3 * st)) * COLS);
            t[st][p] = [outside; 3];
            let mut j = 0;
            while j < 3 {
                t[st][p][PERMS[p][j]] |= (1 << (3 * st + j)) * COLS;
                j += 1;
            }
            p += 1;
        }
        st += 1;
    }
    t
}

/// Bit c of a band's 9 columns moved to bit `9(c / 3) + 3(c % 3)`: shifted left by the band,
/// three such words make the segment occupancy of the three stacks (stack s in bits
/// `9s..9s + 9`, column j of the stack in band b at bit `3j + b`).
const SPREAD9: [u32; 512] = spread9();

const fn spread9() -> [u32; 512] {
    let mut t = [0; 512];
    let mut x = 0;
    while x < 512 {
        let mut c = 0;
        while c < 9 {
            if x & (1 << c) != 0 {
                t[x] |= 1 << (9 * (c / 3) + 3 * (c % 3));
            }
            c += 1;
        }
        x += 1;
    }
    t
}

/// How many configurations [`CONFIGS`] allows.
const CONFIG_COUNT: [u8; 512] = config_count();

const fn config_count() -> [u8; 512] {
    let mut t = [0; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = CONFIGS[i].count_ones() as u8;
        i += 1;
    }
    t
}

/// The cells of the segments of a band (bit `3r + k`: row r in box k).
const SEG_CELLS: [u32; 512] = seg_cells();

const fn seg_cells() -> [u32; 512] {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let mut s = 0;
        while s < 9 {
            if m & (1 << s) != 0 {
                t[m] |= 7 << (3 * s);
            }
            s += 1;
        }
        m += 1;
    }
    t
}

/// Segments at the low bit of each group of three (27 bits).
const GROUP_LOW: u32 = 0x124_9249;

/// The segment counting of [`Board::segment_rules`] for one orientation, on each digit's
/// segment occupancy `occ` (27 bits, nine groups of three: the segments of one row or column
/// in a band or stack), which it narrows. Returns whether it narrowed any.
#[inline(always)]
fn segment_counts(occ: &mut [u32; 9]) -> Result<bool, Dead> {
    // Possible: digits that may use a segment, at least 1..4; forced: digits that must.
    let (mut p1, mut p2, mut p3, mut p4) = (0u32, 0u32, 0u32, 0u32);
    let (mut f1, mut f2, mut f3, mut f4) = (0u32, 0u32, 0u32, 0u32);
    let mut forced = [0u32; 9];
    for (d, &x) in occ.iter().enumerate() {
        // Groups with two or more segments, at their low bit, then spread over the group.
        let two = ((x & (x >> 1)) | (x & (x >> 2)) | ((x >> 1) & (x >> 2))) & GROUP_LOW;
        let f = x & !(two * 7);
        forced[d] = f;
        p4 |= p3 & x;
        p3 |= p2 & x;
        p2 |= p1 & x;
        p1 |= x;
        f4 |= f3 & f;
        f3 |= f2 & f;
        f2 |= f1 & f;
        f1 |= f;
    }
    const ALL: u32 = (1 << 27) - 1;
    if f4 != 0 || p3 != ALL {
        return Err(Dead);
    }
    let full = f3;
    let only = p3 & !p4;
    if full | only == 0 {
        return Ok(false);
    }
    let mut changed = false;
    for (d, x) in occ.iter_mut().enumerate() {
        // Full segments keep their three digits only.
        let mut y = *x & !(full & !forced[d]);
        // A segment only three digits can use has each: its group keeps it alone.
        let must = y & only;
        let groups = ((must | (must >> 1) | (must >> 2)) & GROUP_LOW) * 7;
        y &= !groups | must;
        changed |= y != *x;
        *x = y;
    }
    Ok(changed)
}

/// Which segments (bit `3r + k`: row r in box k) of a band hold a digit, from its 27 cells:
/// each triad's bits are or-ed into its lowest, and a multiplication by 21 (`16 + 4 + 1`)
/// gathers each row's three bits in one place without carries.
#[inline(always)]
fn segments_of(x: u32) -> u32 {
    let y = (x | (x >> 1) | (x >> 2)) & 0x124_9249;
    let m = y * 21;
    ((m >> 4) & 7) | ((m >> 10) & 0x38) | ((m >> 16) & 0x1C0)
}

const fn arranged() -> [u32; 512] {
    let mut t = [0; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut used = 0u32;
        let mut p = 0;
        while p < 6 {
            let mut segs = 0u32;
            let mut r = 0;
            while r < 3 {
                segs |= 1 << (3 * r + PERMS[p][r]);
                r += 1;
            }
            if segs & !(occ as u32) == 0 {
                used |= segs;
            }
            p += 1;
        }
        let mut s = 0;
        while s < 9 {
            if used & (1 << s) != 0 {
                let (r, k) = (s / 3, s % 3);
                t[occ] |= (7 << (3 * k)) << (9 * r);
            }
            s += 1;
        }
        occ += 1;
    }
    t
}

/// For the columns (9 bits) where a band holds a digit, the cells the other bands keep: a box
/// with the digit in one column takes that column.
const OTHER_BANDS_KEEP: [u32; 512] = other_bands_keep();

const fn other_bands_keep() -> [u32; 512] {
    let mut t = [0; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut locked = 0u32;
        let mut s = 0;
        while s < 3 {
            let m = (cols as u32) & (7 << (3 * s));
            if m != 0 && m & (m - 1) == 0 {
                locked |= m;
            }
            s += 1;
        }
        t[cols] = BAND & !(locked * COLS);
        cols += 1;
    }
    t
}

/// For the columns (9 bits) where a digit lies in this band only, the cells the band keeps:
/// such a column must hold the digit in this band, so its box loses the digit from its other
/// two columns (claiming); two such columns in one box leave the box empty (a contradiction the
/// band rules then find).
const CLAIM_KEEP: [u32; 512] = claim_keep();

const fn claim_keep() -> [u32; 512] {
    let mut t = [0; 512];
    let mut only = 0;
    while only < 512 {
        let mut keep = 0u32;
        let mut s = 0;
        while s < 3 {
            let stack = 7u32 << (3 * s);
            let m = (only as u32) & stack;
            keep |= if m == 0 {
                stack
            } else if m & (m - 1) == 0 {
                m
            } else {
                0
            };
            s += 1;
        }
        t[only] = keep * COLS;
        only += 1;
    }
    t
}

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
    /// Each band of each digit as the band rules last left it: a band that differs has
    /// changed since and is due for them again.
    seen: [Bands; 9],
    unsolved: Bands,
}

/// Which segments hold each digit: `h[d]` for the bands (bit `9b + 3r + k`: row r of band b
/// in box k), `v[d]` for the stacks (bit `9s + 3j + b`: column j of stack s in band b).
#[derive(Default)]
pub(crate) struct Occupancy {
    h: [u32; 9],
    v: [u32; 9],
}

/// A branching on a digit's configurations in one band or stack.
pub(crate) struct Choice {
    /// A stack (else a band).
    vertical: bool,
    /// Which band or stack.
    at: usize,
    digit: usize,
    /// The configurations left (bit p: `PERMS[p]`), two or more.
    pub(crate) ways: u32,
}

/// The propagation found a contradiction.
#[derive(Debug)]
pub(crate) struct Dead;

impl Board {
    /// The empty grid: every digit everywhere.
    pub(crate) fn new() -> Board {
        Board {
            cand: [[BAND; 3]; 9],
            // No band is ever all ones above bit 27, so every band is due at first.
            seen: [[u32::MAX; 3]; 9],
            unsolved: [BAND; 3],
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
        self.place(digit, b, i as u32);
        Ok(())
    }

    /// Takes `digit` (0..9) out of the candidates of `cell` (< 81; others are ignored).
    pub(crate) fn ban(&mut self, cell: usize, digit: usize) {
        if let Some(c) = self.cand.get_mut(digit).and_then(|c| c.get_mut(cell / 27)) {
            *c &= !(1 << (cell % 27));
        }
    }

    /// Is every cell placed?
    #[inline(always)]
    pub(crate) fn solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The digits (1..=9) of every cell of a solved board (each cell has one candidate left;
    /// a cell with none reads 0).
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
        for c in self.cand.iter_mut() {
            c[b] &= !bit;
        }
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

    /// The search's propagation: the band rules and naked singles to their fixpoint, or a
    /// contradiction.
    pub(crate) fn propagate(&mut self) -> Result<(), Dead> {
        self.settle_and_singles()
    }

    /// [`Board::propagate`] compiled for the bit-manipulation instructions of x86-64 (BMI1,
    /// BMI2, POPCNT, LZCNT): `andn`, `blsr`, `tzcnt` and shifts by a register without `cl`
    /// shorten the rules (by about a tenth in the previous design of this board). Call it
    /// only where [`fast_path`] said yes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    pub(crate) fn propagate_bmi(&mut self) -> Result<(), Dead> {
        self.settle_and_singles()
    }

    /// The band rules (see [`Board::band_rules`]) on every band that changed, until none
    /// does, then naked singles; again until neither finds anything.
    #[inline(always)]
    fn settle_and_singles(&mut self) -> Result<(), Dead> {
        loop {
            loop {
                let mut changed = false;
                // Unrolled, so that each call knows its digit and band.
                macro_rules! each {
                    ($(($d:literal, $b:literal))*) => {$(
                        if self.cand[$d][$b] != self.seen[$d][$b] {
                            changed = true;
                            self.band_rules::<$d, $b>()?;
                        }
                    )*};
                }
                each! {
                    (0, 0) (0, 1) (0, 2) (1, 0) (1, 1) (1, 2) (2, 0) (2, 1) (2, 2)
                    (3, 0) (3, 1) (3, 2) (4, 0) (4, 1) (4, 2) (5, 0) (5, 1) (5, 2)
                    (6, 0) (6, 1) (6, 2) (7, 0) (7, 1) (7, 2) (8, 0) (8, 1) (8, 2)
                }
                if !changed {
                    break;
                }
            }
            if self.solved() || !self.naked_singles()? {
                return Ok(());
            }
        }
    }

    /// The rules that need one band of one digit (after JCZSolve's band update; our own
    /// tables):
    /// - its three rows and three boxes each hold the digit once, so a segment (three cells
    ///   of a row in a box) that no such arrangement uses loses it: pointing, claiming and
    ///   more, by one table lookup;
    /// - a box whose candidates lie in one column takes that column from the other bands;
    /// - a row left with one cell has the digit there: the cell leaves the other digits.
    ///
    /// `Dead` if the band has no arrangement left.
    #[inline(always)]
    fn band_rules<const D: usize, const B: usize>(&mut self) -> Result<(), Dead> {
        let x = self.cand[D][B];
        let occ = SEGMENTS[(x & 0x1FF) as usize]
            | SEGMENTS[((x >> 9) & 0x1FF) as usize] << 3
            | SEGMENTS[((x >> 18) & 0x1FF) as usize] << 6;
        let x = x & ARRANGED[(occ & 0x1FF) as usize];
        if x == 0 {
            return Err(Dead);
        }
        self.cand[D][B] = x;
        self.seen[D][B] = x;
        let cols = (x | (x >> 9) | (x >> 18)) & 0x1FF;
        let keep = OTHER_BANDS_KEEP[cols as usize];
        let y1 = self.cand[D][(B + 1) % 3] & keep;
        let y2 = self.cand[D][(B + 2) % 3] & keep;
        // Column claiming into the other two bands: a column that holds the digit in one of
        // them only has it there.
        let c1 = (y1 | (y1 >> 9) | (y1 >> 18)) & 0x1FF;
        let c2 = (y2 | (y2 >> 9) | (y2 >> 18)) & 0x1FF;
        if cols | c1 | c2 != 0x1FF {
            return Err(Dead);
        }
        self.cand[D][(B + 1) % 3] = y1 & CLAIM_KEEP[(c1 & !(cols | c2)) as usize];
        self.cand[D][(B + 2) % 3] = y2 & CLAIM_KEEP[(c2 & !(cols | c1)) as usize];
        // A row whose nine bits have one set is solved for this digit: the cell leaves the
        // other digits (unconditionally: a test here is hard to predict).
        let mut solved = 0;
        for r in 0..3 {
            let v = (x >> (9 * r)) & 0x1FF;
            solved |= if v & v.wrapping_sub(1) == 0 {
                v << (9 * r)
            } else {
                0
            };
        }
        let new = solved & self.unsolved[B];
        self.unsolved[B] &= !new;
        for e in 0..9 {
            if e != D {
                self.cand[e][B] &= !new;
            }
        }
        Ok(())
    }

    /// Places every cell with one candidate (the band rules do the rest). Returns whether it
    /// placed any; `Dead` if a cell has none.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        // Bit-sliced counting: at least one, two candidates.
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
            return Ok(false);
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
                let Some(own) = self.cand.get_mut(d) else {
                    return Err(Dead);
                };
                // The cell's row and box in this band lose the digit; the band rules then
                // find the row solved and clear the column elsewhere. (If another single of
                // `d` in this batch took the cell, the next count finds it empty.)
                own[b] &= !PEERS[b][i as usize][b];
            }
        }
        Ok(true)
    }

    /// The band or stack and digit to branch on (after tdoku's notes): among the bands and
    /// stacks where some digit has two configurations left, the one with the fewest over all
    /// digits, and there the first digit with two. `None` if no digit has two anywhere.
    #[inline(always)]
    pub(crate) fn branch_band(&self, occ: &Occupancy) -> Option<Choice> {
        let mut totals = [0u32; 6];
        // Bit k: band (k < 3) or stack (k - 3) has a digit with two configurations.
        let mut pairs = 0u32;
        for d in 0..9 {
            for k in 0..3 {
                let (nh, nv) = (
                    CONFIG_COUNT[((occ.h[d] >> (9 * k)) & 0x1FF) as usize],
                    CONFIG_COUNT[((occ.v[d] >> (9 * k)) & 0x1FF) as usize],
                );
                totals[k] += u32::from(nh);
                totals[3 + k] += u32::from(nv);
                pairs |= u32::from(nh >= 2) << k | u32::from(nv >= 2) << (3 + k);
            }
        }
        // Only where some digit has two configurations: a branching on more leaves the
        // children with choices that the rules here do not check against each other (three
        // digits per segment), and searches far on the empty grid.
        let mut best = (u32::MAX, 0);
        for (k, &t) in totals.iter().enumerate() {
            if pairs >> k & 1 != 0 && t < best.0 {
                best = (t, k);
            }
        }
        if best.0 == u32::MAX {
            return None;
        }
        let (vertical, at) = (best.1 >= 3, best.1 % 3);
        let occ = if vertical { &occ.v } else { &occ.h };
        let mut pick = (u32::MAX, 0, 0);
        for (d, o) in occ.iter().enumerate() {
            let ways = u32::from(CONFIGS[((o >> (9 * at)) & 0x1FF) as usize]);
            let n = ways.count_ones();
            if n >= 2 && n < pick.0 {
                pick = (n, d, ways);
            }
        }
        Some(Choice {
            vertical,
            at,
            digit: pick.1,
            ways: pick.2,
        })
    }

    /// The segment rules (tdoku's three-of-nine triad clauses, here by counting): each
    /// segment (three cells of a row, or of a column, in one box) holds exactly three digits.
    /// A digit whose row (column) in a band (stack) has one segment left must be there; a
    /// segment that four digits must use, or that fewer than three can, is a contradiction;
    /// one that three must use loses the others, and one that only three can use has them
    /// (their row or column there loses its other segments). Returns whether anything
    /// changed. Run once per search node, after the propagation: without them, branching on
    /// configurations chooses arrangements that cannot coexist and finds out late. Leaves in
    /// `occ` the occupancy it started from (that of the board when nothing changed).
    #[inline(always)]
    pub(crate) fn segment_rules(&mut self, occ: &mut Occupancy) -> Result<bool, Dead> {
        let Occupancy { h, v } = occ;
        for d in 0..9 {
            let c = self.cand[d];
            let f = c.map(|x| (x | (x >> 9) | (x >> 18)) & 0x1FF);
            h[d] = segments_of(c[0]) | segments_of(c[1]) << 9 | segments_of(c[2]) << 18;
            v[d] =
                SPREAD9[f[0] as usize] | SPREAD9[f[1] as usize] << 1 | SPREAD9[f[2] as usize] << 2;
        }
        let hk = segment_counts(h)?;
        let vk = segment_counts(v)?;
        if !(hk || vk) {
            return Ok(false);
        }
        let mut changed = 0;
        for d in 0..9 {
            for b in 0..3 {
                let old = self.cand[d][b];
                let hs = (h[d] >> (9 * b)) & 0x1FF;
                // Column j of stack s in this band: bit `9s + 3j + b` of `v[d]`.
                let cols = (0..3).fold(0, |cols, st| {
                    let g = (v[d] >> (9 * st + b)) & 0x49;
                    cols | (((g * 21) >> 4) & 7) << (3 * st)
                });
                let x = old & SEG_CELLS[hs as usize] & (cols * COLS);
                changed |= x ^ old;
                self.cand[d][b] = x;
            }
        }
        Ok(changed != 0)
    }

    /// Keeps digit `c.digit` to configuration `p` of the band or stack of `c`.
    #[inline(always)]
    pub(crate) fn take(&mut self, c: &Choice, p: usize) {
        let p = p % 6;
        let own = &mut self.cand[c.digit % 9];
        if c.vertical {
            let m = &V_CELLS[c.at % 3][p];
            for b in 0..3 {
                own[b] &= m[b];
            }
        } else {
            own[c.at % 3] &= H_CELLS[p];
        }
    }

    /// The cell to branch on: the first with two candidates, else the first with three,
    /// else the first unplaced. Call only on an unsolved board at a fixpoint. (Rare: only
    /// where no digit has two configurations left in any band or stack.)
    #[inline(always)]
    pub(crate) fn branch_cell(&self) -> (usize, u32) {
        self.branch_cell_slow()
    }

    /// [`Board::branch_cell`] when no cell has two candidates.
    #[inline(never)]
    fn branch_cell_slow(&self) -> (usize, u32) {
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
