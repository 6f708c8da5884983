//! `mmcol::pool`: the population and its distance-quality update. The distance between two
//! assignments is the number of vertices whose colours differ (colours keep their meaning in
//! list colouring, so no matching of classes is needed). An offspring enters unless it equals
//! a member; then every assignment S of the pool and the offspring gets the score
//! `f(S) + exp(β · |V| / D(S))`, where f counts clashing pairs and D is the distance from S to
//! the nearest other one, so that a close pair scores badly whatever its cost. The worst-scored
//! one leaves; when that is the offspring itself it still replaces the second worst with
//! probability 0.2 (after Lü and Hao's MACOL, whose rule MMCOL uses).

use rand::Rng as _;
use sudoku_core::Rng;

/// The chance that an offspring scored worst of all still replaces the second worst.
pub(crate) const WORST_ENTERS: f64 = 0.2;

/// The population: assignments (slots per vertex), their costs, and their distances.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pool {
    members: Vec<Vec<u32>>,
    cost: Vec<u64>,
    /// `dist[i][j]`: vertices where members `i` and `j` differ.
    dist: Vec<Vec<u32>>,
}

/// Vertices where `a` and `b` differ.
pub(crate) fn distance(a: &[u32], b: &[u32]) -> u32 {
    a.iter().zip(b).filter(|(x, y)| x != y).count() as u32
}

/// What became of an offspring offered to the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// It equals a member.
    Twin,
    /// It was scored worst and left out.
    Rejected,
    /// It took the place of member `i`.
    Replaced(usize),
}

impl Pool {
    /// Members so far.
    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    /// The lowest cost of a member.
    #[cfg(test)]
    pub(crate) fn best_cost(&self) -> Option<u64> {
        self.cost.iter().copied().min()
    }

    /// The members' costs.
    #[cfg(test)]
    pub(crate) fn costs(&self) -> &[u64] {
        &self.cost
    }

    /// The nearest distance between two members (none below two members).
    pub(crate) fn closest(&self) -> Option<u32> {
        (0..self.len())
            .flat_map(|i| (i + 1..self.len()).map(move |j| (i, j)))
            .map(|(i, j)| self.dist[i][j])
            .min()
    }

    /// The distances from `x` to every member, or none when it equals one.
    fn distances(&self, x: &[u32]) -> Option<Vec<u32>> {
        let d: Vec<u32> = self.members.iter().map(|m| distance(m, x)).collect();
        (!d.contains(&0)).then_some(d)
    }

    /// Adds a member while the pool is being filled; false when it equals one.
    pub(crate) fn add(&mut self, x: Vec<u32>, cost: u64) -> bool {
        let Some(d) = self.distances(&x) else {
            return false;
        };
        for (row, &k) in self.dist.iter_mut().zip(&d) {
            row.push(k);
        }
        let mut own = d;
        own.push(0);
        self.dist.push(own);
        self.members.push(x);
        self.cost.push(cost);
        true
    }

    /// Two different members at random (the pool holds at least two).
    pub(crate) fn parents(&self, rng: &mut Rng) -> (Vec<u32>, Vec<u32>) {
        let i = rng.random_range(0..self.len());
        let mut j = rng.random_range(0..self.len() - 1);
        if j >= i {
            j += 1;
        }
        (self.members[i].clone(), self.members[j].clone())
    }

    /// The distance-quality update with the offspring `x` of cost `cost`; `vertices` is |V|.
    pub(crate) fn offer(
        &mut self,
        x: Vec<u32>,
        cost: u64,
        beta: f64,
        vertices: usize,
        rng: &mut Rng,
    ) -> Entry {
        let Some(d) = self.distances(&x) else {
            return Entry::Twin;
        };
        let p = self.len();
        // Index p is the offspring.
        let nearest = |i: usize| -> u32 {
            if i == p {
                return d.iter().copied().min().unwrap_or(u32::MAX);
            }
            (0..p)
                .filter(|&j| j != i)
                .map(|j| self.dist[i][j])
                .chain(std::iter::once(d[i]))
                .min()
                .expect("the offspring is another")
        };
        let score = |i: usize| -> f64 {
            let f = if i == p { cost } else { self.cost[i] };
            f as f64 + (beta * vertices as f64 / nearest(i) as f64).exp()
        };
        let scores: Vec<f64> = (0..=p).map(score).collect();
        let worst = |skip: Option<usize>| {
            (0..=p)
                .filter(|&i| Some(i) != skip)
                .max_by(|&i, &j| scores[i].total_cmp(&scores[j]))
                .expect("a pool of at least one")
        };
        let w = worst(None);
        let out = if w != p {
            w
        } else if p > 0 && rng.random_bool(WORST_ENTERS) {
            worst(Some(p))
        } else {
            return Entry::Rejected;
        };
        for (j, row) in self.dist.iter_mut().enumerate() {
            row[out] = if j == out { 0 } else { d[j] };
        }
        self.dist[out] = d;
        self.dist[out][out] = 0;
        self.members[out] = x;
        self.cost[out] = cost;
        Entry::Replaced(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::rng_from_seed;

    #[test]
    fn twins_stay_out_and_distances_follow_replacements() {
        let mut rng = rng_from_seed(1);
        let mut pool = Pool::default();
        assert!(pool.add(vec![0, 0, 0, 0], 5));
        assert!(pool.add(vec![1, 1, 0, 0], 3));
        assert!(!pool.add(vec![0, 0, 0, 0], 1), "a twin is not added");
        assert!(pool.add(vec![1, 1, 1, 1], 4));
        assert_eq!(pool.closest(), Some(2));
        assert_eq!(
            pool.offer(vec![1, 1, 0, 0], 0, 0.08, 4, &mut rng),
            Entry::Twin
        );
        // Far from all and cheapest: it replaces someone, and the books stay true.
        let got = pool.offer(vec![0, 1, 1, 0], 0, 0.08, 4, &mut rng);
        assert!(matches!(got, Entry::Replaced(_)), "{got:?}");
        for i in 0..pool.len() {
            for j in 0..pool.len() {
                assert_eq!(
                    pool.dist[i][j],
                    distance(&pool.members[i], &pool.members[j])
                );
            }
        }
        assert_eq!(pool.best_cost(), Some(0));
    }

    #[test]
    fn the_worst_scored_member_leaves() {
        let mut rng = rng_from_seed(2);
        let mut pool = Pool::default();
        // Two members far apart and one that sits next to the first with a higher cost.
        assert!(pool.add(vec![0; 10], 1));
        assert!(pool.add(vec![1; 10], 1));
        let mut near = vec![0; 10];
        near[0] = 2;
        assert!(pool.add(near, 9));
        // An offspring far from every member, of cost 1: the close, costly one leaves.
        let x = vec![2, 2, 2, 2, 2, 1, 1, 1, 1, 1];
        assert_eq!(pool.offer(x, 1, 0.08, 10, &mut rng), Entry::Replaced(2));
        assert_eq!(pool.costs(), &[1, 1, 1]);
    }
}
