// The `external` protocol around tdoku (github.com/t-dillon/tdoku, BSD-2), the fastest public
// 9x9 solver: one long-lived process answers puzzle after puzzle, and before each answer says
// its own clock (`# stats solve_ms=`: the solver call alone, by the monotonic clock) and its
// guesses. Nothing of tdoku is here: build.sh compiles this file against a clone of its source.
//
// Line format only, 9x9 classic only (tdoku knows nothing else): anything else ends it with
// status 2 and the reason on standard error (the trial is an `error` saying so). Counting
// (SUDOKU_TASK=count) lists the solutions found up to SUDOKU_COUNT_LIMIT through tdoku's
// enumerator, timed the same way.
#include "tdoku.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <time.h>
#include <vector>

namespace {

double now_ms() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

const char *env(const char *name, const char *fallback) {
    const char *v = std::getenv(name);
    return v && *v ? v : fallback;
}

// The puzzle as tdoku reads it ('.' for an empty cell), or false when it is not a 9x9 line.
bool to_tdoku(const std::string &line, char out[82]) {
    if (line.size() != 81) return false;
    for (int i = 0; i < 81; i++) {
        char c = line[i];
        if (c == '0' || c == '.') c = '.';
        else if (c < '1' || c > '9') return false;
        out[i] = c;
    }
    out[81] = '\0';
    return true;
}

// Standard input, read by hand: before it sleeps in `read`, the adapter watches the pipe for a
// while without sleeping (SPIN_MS), so that a puzzle that comes soon is read without the
// wake-up a sleeping reader pays (about ten microseconds here, a fifth of a hard puzzle's
// solve). That costs CPU time (its cpu_ms), not the solver's own clock, and takes a core while
// it watches: with as many trials at once as cores (--jobs 2 on two), run it alone.
const double SPIN_MS = 0.5;
char in_buf[1 << 16];
size_t in_pos = 0, in_len = 0;

int next_char() {
    if (in_pos < in_len) return static_cast<unsigned char>(in_buf[in_pos++]);
    const double until = now_ms() + SPIN_MS;
    pollfd p{0, POLLIN, 0};
    while (poll(&p, 1, 0) == 0 && now_ms() < until) {
    }
    ssize_t n;
    do {
        n = read(0, in_buf, sizeof in_buf);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return EOF;
    in_len = static_cast<size_t>(n);
    in_pos = 1;
    return static_cast<unsigned char>(in_buf[0]);
}

void collect(const char *grid, void *arg) {
    static_cast<std::vector<std::string> *>(arg)->emplace_back(grid, 81);
}

}  // namespace

int main() {
    const bool grid_format = std::strcmp(env("SUDOKU_FORMAT", "line"), "line") != 0;
    const bool diagonal = std::strcmp(env("SUDOKU_VARIANT", "classic"), "classic") != 0;
    const bool count = std::strcmp(env("SUDOKU_TASK", "solve"), "count") == 0;
    const size_t limit = std::strtoull(env("SUDOKU_COUNT_LIMIT", "2"), nullptr, 10);
    if (grid_format || diagonal) {
        std::fprintf(stderr, "tdoku solves classic 9x9 puzzles in the line format only\n");
        return 2;
    }
    std::string line;
    char puzzle[82];
    char solution[82];
    int ch;
    while (true) {
        line.clear();
        while ((ch = next_char()) != EOF && ch != '\n') line.push_back(static_cast<char>(ch));
        if (ch == EOF && line.empty()) break;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (!to_tdoku(line, puzzle)) {
            std::fprintf(stderr, "tdoku solves 9x9 puzzles only, not this line of %zu characters\n",
                         line.size());
            return 2;
        }
        if (count) {
            std::vector<std::string> found;
            double t0 = now_ms();
            size_t k = TdokuEnumerate(puzzle, limit, collect, &found);
            double ms = now_ms() - t0;
            std::printf("# stats solve_ms=%.6f\ncount %zu\n", ms, k);
            for (const auto &s : found) std::printf("%s\n", s.c_str());
        } else {
            size_t guesses = 0;
            double t0 = now_ms();
            size_t k = TdokuSolverDpllTriadSimd(puzzle, 1, 0, solution, &guesses);
            double ms = now_ms() - t0;
            std::printf("# stats solve_ms=%.6f guesses=%zu\n", ms, guesses);
            if (k == 0) std::fputs("infeasible\n", stdout);
            else std::printf("%.81s\n", solution);
        }
        std::fflush(stdout);
        if (ch == EOF) break;
    }
    return 0;
}
