/*
 * Simulated annealing for Sudoku as R. Lewis describes it in "Metaheuristics can solve sudoku
 * puzzles", Journal of Heuristics 13 (2007): a small, independent transcription of the paper,
 * written to check the project's own `sa` (crates/meta/src/sa.rs) against it. It shares no code
 * with that crate; scripts/adapters/lewis_sa.py compiles it and runs it as an `external` method.
 *
 * The algorithm, step by step as the paper gives it:
 *   1. Initial solution: every n x n box gets the digits it misses, in random order, in its
 *      non-fixed cells. Boxes are then always right; only rows and columns can be wrong.
 *   2. Cost: for every row and every column, the number of digits 1..N missing from it, summed.
 *      A solution has cost 0.
 *   3. Neighbourhood: a random box with at least two non-fixed cells, two different non-fixed
 *      cells of it at random, and their contents swapped.
 *   4. Initial temperature t0: the standard deviation of the cost over a sample of neighbourhood
 *      moves (200 here), each one performed (a random walk from the initial solution).
 *   5. Acceptance: a move that does not raise the cost is taken; one that raises it by delta is
 *      taken with probability exp(-delta / t).
 *   6. Cooling: t <- 0.99 t after every Markov chain of ml = (number of non-fixed cells)^2 moves.
 *   7. Reheating: when 20 Markov chains in a row bring no improvement in cost, t <- t0. Read
 *      here as: no move of the chain reached a cost lower than the cost the chain started at.
 *   8. The run ends at cost 0 (solved), or at the cut-off: a number of moves (the first command
 *      line argument; 0 or none: no limit) or the time limit (SUDOKU_TIME_LIMIT seconds of
 *      processor time, checked every 1024 moves).
 *
 * Input (standard input): the order n, then the N x N grid (N = n * n) as numbers, 0 for an
 * empty cell. Output: a line `# stats iterations=... chains=... reheats=... t0=...
 * chain_length=... best_cost=...`, then the solution as N x N numbers on one line, or
 * `unknown`. SUDOKU_SEED seeds the generator (splitmix64). Standard C only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define T0_SAMPLE 200
#define COOLING 0.99
#define REHEAT_AFTER 20

static unsigned long long rng_state;

/* splitmix64: a small generator with good statistics, enough for this use. */
static unsigned long long next_random(void)
{
    unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double uniform(void)
{
    return (double)(next_random() >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in 0..k-1. */
static int below(int k)
{
    return (int)(uniform() * k);
}

static int n, N;       /* box side and grid side */
static int *grid;      /* N*N values, 1..N */
static int *fixed;     /* 1 where the puzzle gives the value */
static int *row_count; /* row_count[r * (N + 1) + d]: how often d is in row r */
static int *col_count;
static int **box_free; /* the non-fixed cells of each box */
static int *box_free_len;
static int *movable; /* boxes with at least two non-fixed cells */
static int movable_len;
static long cost;

/* The change of cost when one d leaves (step -1) or enters (step +1) a line. */
static int count_change(int *count, int line, int d, int step)
{
    int *c = &count[line * (N + 1) + d];
    int before = *c;
    *c += step;
    if (step < 0 && *c == 0)
        return 1; /* d is now missing from the line */
    if (step > 0 && before == 0)
        return -1; /* d was missing and is not any more */
    return 0;
}

/* Puts value d in cell i in place of its value, returning the change of cost. */
static int place(int i, int d)
{
    int r = i / N, c = i % N, delta = 0, old = grid[i];
    delta += count_change(row_count, r, old, -1);
    delta += count_change(col_count, c, old, -1);
    grid[i] = d;
    delta += count_change(row_count, r, d, 1);
    delta += count_change(col_count, c, d, 1);
    return delta;
}

/* Swaps the contents of cells a and b, returning the change of cost. */
static int swap_cells(int a, int b)
{
    int va = grid[a], vb = grid[b];
    return place(a, vb) + place(b, va);
}

/* One random neighbourhood move (step 3): the two cells to swap. */
static void random_move(int *a, int *b)
{
    int box = movable[below(movable_len)];
    int len = box_free_len[box];
    int i = below(len), j = below(len - 1);
    if (j >= i)
        j++;
    *a = box_free[box][i];
    *b = box_free[box][j];
}

static double seconds_used(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* Reads the puzzle; 0 when the input is not one. */
static int read_puzzle(void)
{
    int i;
    if (scanf("%d", &n) != 1 || n < 1 || n > 16)
        return 0;
    N = n * n;
    grid = calloc((size_t)N * N, sizeof *grid);
    fixed = calloc((size_t)N * N, sizeof *fixed);
    row_count = calloc((size_t)N * (N + 1), sizeof *row_count);
    col_count = calloc((size_t)N * (N + 1), sizeof *col_count);
    if (!grid || !fixed || !row_count || !col_count)
        return 0;
    for (i = 0; i < N * N; i++) {
        if (scanf("%d", &grid[i]) != 1 || grid[i] < 0 || grid[i] > N)
            return 0;
        fixed[i] = grid[i] != 0;
    }
    return 1;
}

/* Step 1; 0 when a box holds a given twice (no box-respecting fill exists). */
static int fill_boxes(void)
{
    int box, k, d, i;
    int *present = malloc((size_t)(N + 1) * sizeof *present);
    int *missing = malloc((size_t)N * sizeof *missing);
    box_free = malloc((size_t)N * sizeof *box_free);
    box_free_len = calloc((size_t)N, sizeof *box_free_len);
    movable = malloc((size_t)N * sizeof *movable);
    if (!present || !missing || !box_free || !box_free_len || !movable)
        return 0;
    movable_len = 0;
    for (box = 0; box < N; box++) {
        int top = (box / n) * n, left = (box % n) * n, nmissing = 0;
        box_free[box] = malloc((size_t)N * sizeof **box_free);
        if (!box_free[box])
            return 0;
        for (d = 1; d <= N; d++)
            present[d] = 0;
        for (k = 0; k < N; k++) {
            i = (top + k / n) * N + left + k % n;
            if (fixed[i]) {
                if (present[grid[i]])
                    return 0;
                present[grid[i]] = 1;
            } else {
                box_free[box][box_free_len[box]++] = i;
            }
        }
        for (d = 1; d <= N; d++)
            if (!present[d])
                missing[nmissing++] = d;
        /* Fisher-Yates shuffle of the missing digits, then one per free cell. */
        for (k = nmissing - 1; k > 0; k--) {
            int j = below(k + 1), t = missing[k];
            missing[k] = missing[j];
            missing[j] = t;
        }
        for (k = 0; k < nmissing; k++)
            grid[box_free[box][k]] = missing[k];
        if (box_free_len[box] >= 2)
            movable[movable_len++] = box;
    }
    free(present);
    free(missing);
    /* Step 2: count every value into its row and column; cost = digits missing per line. */
    for (i = 0; i < N * N; i++) {
        row_count[(i / N) * (N + 1) + grid[i]]++;
        col_count[(i % N) * (N + 1) + grid[i]]++;
    }
    cost = 0;
    for (i = 0; i < N; i++)
        for (d = 1; d <= N; d++)
            cost += (row_count[i * (N + 1) + d] == 0) + (col_count[i * (N + 1) + d] == 0);
    return 1;
}

static void print_solution(void)
{
    int i;
    for (i = 0; i < N * N; i++)
        printf(i ? " %d" : "%d", grid[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *seed = getenv("SUDOKU_SEED");
    const char *limit = getenv("SUDOKU_TIME_LIMIT");
    unsigned long long max_moves = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
    double time_limit = limit ? atof(limit) : 0.0;
    unsigned long long moves = 0, chains = 0, reheats = 0, chain_length, free_cells = 0;
    double t0, t, sum = 0.0, sum_sq = 0.0;
    long best;
    int k, stale = 0, stopped = 0;

    rng_state = seed ? strtoull(seed, NULL, 10) : 1;
    if (!read_puzzle()) {
        fprintf(stderr, "lewis_sa: expected the order n, then n^4 numbers 0..n^2\n");
        return 2;
    }
    if (!fill_boxes()) {
        printf("# stats iterations=0\nunknown\n");
        return 0;
    }
    for (k = 0; k < N; k++)
        free_cells += (unsigned long long)box_free_len[k];
    chain_length = free_cells * free_cells;
    best = cost;

    /* Step 4: t0 from a random walk of T0_SAMPLE moves, each performed. */
    for (k = 0; k < T0_SAMPLE && movable_len > 0 && cost > 0 && !(max_moves && moves >= max_moves);
         k++) {
        int a, b;
        random_move(&a, &b);
        cost += swap_cells(a, b);
        moves++;
        sum += (double)cost;
        sum_sq += (double)cost * (double)cost;
        if (cost < best)
            best = cost;
    }
    t0 = k > 1 ? sqrt(fmax(0.0, (sum_sq - sum * sum / k) / (k - 1))) : 0.0;
    if (t0 <= 0.0)
        t0 = 1e-3; /* a flat sample (tiny puzzles) still needs a temperature that moves */
    t = t0;

    /* Steps 5-8. */
    while (cost > 0 && movable_len > 0 && !stopped) {
        long chain_start = cost, chain_low = cost;
        unsigned long long m;
        for (m = 0; m < chain_length; m++) {
            int a, b, delta;
            if (max_moves && moves >= max_moves) {
                stopped = 1;
                break;
            }
            if (time_limit > 0.0 && (moves & 1023) == 0 && seconds_used() >= time_limit) {
                stopped = 1;
                break;
            }
            random_move(&a, &b);
            moves++;
            delta = swap_cells(a, b);
            if (delta > 0 && uniform() >= exp(-delta / t)) {
                swap_cells(a, b); /* rejected: undo */
                continue;
            }
            cost += delta;
            if (cost < chain_low)
                chain_low = cost;
            if (cost < best)
                best = cost;
            if (cost == 0)
                break;
        }
        if (cost == 0 || stopped)
            break;
        chains++;
        t *= COOLING;
        stale = chain_low < chain_start ? 0 : stale + 1;
        if (stale >= REHEAT_AFTER) {
            t = t0;
            stale = 0;
            reheats++;
        }
    }
    printf("# stats iterations=%llu chains=%llu reheats=%llu t0=%.4f chain_length=%llu best_cost=%ld\n",
           moves, chains, reheats, t0, chain_length, best);
    if (cost == 0)
        print_solution();
    else
        printf("unknown\n");
    return 0;
}
