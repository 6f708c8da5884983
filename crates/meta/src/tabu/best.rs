//! `tabu::best`: the summaries a step reads instead of every candidate: each cell's best moves
//! ([`LocalBest`], kept between steps), their tally over the conflict list, and a least pick with
//! random ties; plain values with no view of the search, so that the step's arithmetic reads
//! on its own.

use rand::Rng as _;
use sudoku_core::Rng;

/// The best moves of one vertex: the least change of cost among its digits that are not
/// tabu, and among those that are, with how many digits reach each. Kept between steps: it
/// goes stale when a neighbour takes or leaves one of its digits or the vertex moves, and
/// expires when one of its tabu digits is freed. Sixteen bytes, so that a step's scan of the
/// conflicting vertices reads four to a cache line; stale is `expires` 0 (the clock is at
/// least 1 when it is read), so one comparison tells both.
#[derive(Clone, Copy, Debug)]
pub(super) struct LocalBest {
    pub(super) free: i32,
    pub(super) tabu: i32,
    /// The first step at which one of its tabu digits is free again; 0: stale.
    expires: u32,
    /// A vertex has at most 256 digits.
    pub(super) free_ties: u16,
    pub(super) tabu_ties: u16,
}

impl LocalBest {
    pub(super) const STALE: LocalBest = LocalBest {
        free: i32::MAX,
        tabu: i32::MAX,
        expires: 0,
        free_ties: 0,
        tabu_ties: 0,
    };

    /// Must it be scanned again before a step at `clock` trusts it?
    #[inline]
    pub(super) fn due(&self, clock: u32) -> bool {
        clock >= self.expires
    }

    /// Scans the slots `at` of a vertex holding slot `now`.
    #[inline]
    pub(super) fn of(
        now: u32,
        at: std::ops::Range<u32>,
        clash: &[u16],
        until: &[u32],
        clock: u32,
    ) -> Self {
        let here = clash[now as usize] as i32;
        let at = at.start as usize..at.end as usize;
        // Branch-free, in one pass (a new least restarts its count): which digits are tabu
        // and which is least are what a branch would mispredict.
        let (mut free, mut tabu, mut expires) = (i32::MAX, i32::MAX, u32::MAX);
        let (mut free_ties, mut tabu_ties) = (0u16, 0u16);
        for s in at {
            let delta = clash[s] as i32 - here;
            let u = until[s];
            let barred = s == now as usize;
            let is_tabu = u > clock;
            let f = if barred || is_tabu { i32::MAX } else { delta };
            let t = if barred || !is_tabu { i32::MAX } else { delta };
            free_ties = if f < free {
                1
            } else {
                free_ties + (f == free) as u16
            };
            free = free.min(f);
            tabu_ties = if t < tabu {
                1
            } else {
                tabu_ties + (t == tabu) as u16
            };
            tabu = tabu.min(t);
            expires = expires.min(if is_tabu { u } else { u32::MAX });
        }
        // Ties counted among barred digits (key i32::MAX) are no moves.
        if free == i32::MAX {
            free_ties = 0;
        }
        if tabu == i32::MAX {
            tabu_ties = 0;
        }
        LocalBest {
            free,
            tabu,
            expires,
            free_ties,
            tabu_ties,
        }
    }

    /// The least change of cost among the allowed moves, and how many reach it (0: none is
    /// allowed). A tabu move is allowed below `aspire`.
    #[inline]
    pub(super) fn allowed(&self, aspire: i64) -> (i64, u64) {
        let (free, tabu) = (self.free as i64, self.tabu as i64);
        if tabu < aspire && tabu <= free {
            let also = if free == tabu { self.free_ties } else { 0 };
            (tabu, self.tabu_ties as u64 + also as u64)
        } else {
            (free, self.free_ties as u64)
        }
    }
}

/// The least change of cost over the conflict list, how many allowed moves reach it, and the
/// list place of the first vertex that does (where
/// [`TabuSearch::nth_best`](super::TabuSearch::nth_best) starts).
pub(super) struct Tally {
    pub(super) least: i64,
    pub(super) ties: u64,
    pub(super) first: usize,
}

impl Tally {
    pub(super) fn new() -> Tally {
        Tally {
            least: i64::MAX,
            ties: 0,
            first: 0,
        }
    }

    #[inline]
    pub(super) fn offer(&mut self, m: i64, k: u64, at: usize) {
        if m < self.least {
            (self.least, self.ties, self.first) = (m, k, at);
        } else if m == self.least {
            self.ties += k;
        }
    }
}

/// The item of least key among those offered, ties broken uniformly at random (reservoir
/// sampling: a random number is drawn only on a tie).
pub(super) struct Least {
    pub(super) key: i64,
    pub(super) ties: u32,
    pub(super) pick: u32,
}

impl Least {
    pub(super) fn new() -> Least {
        Least {
            key: i64::MAX,
            ties: 0,
            pick: u32::MAX,
        }
    }

    #[inline]
    pub(super) fn offer(&mut self, key: i64, item: u32, rng: &mut Rng) {
        if key < self.key {
            (self.key, self.ties, self.pick) = (key, 1, item);
        } else if key == self.key {
            self.ties += 1;
            if rng.random_range(0..self.ties) == 0 {
                self.pick = item;
            }
        }
    }
}
