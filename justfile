# Recipes for sudoku-bench. `just` is optional: each recipe is one cargo command you can type.

# The main job: the default experiment (scripts/experiments/default.toml).
run *ARGS:
    cargo run --release -- {{ARGS}}

# One experiment file, e.g. `just experiment prop-sets` (what every README table is made by).
experiment NAME *ARGS:
    cargo run --release -- run scripts/experiments/{{NAME}}.toml {{ARGS}}

# Reproduce a paper (unicamp-ilp, jump, takano, raggi, teles, lewis, all) beside its own numbers,
# e.g. `just repro takano --quick`; writes results/repro-NAME/comparison.md (docs/reproducing.md).
repro PAPER *ARGS:
    cargo run --release -- repro {{PAPER}} {{ARGS}}

# The test suite (cargo test --workspace --release, then how many tests skipped and why); CI
# adds --strict.
test:
    bash scripts/test.sh

# Formatting and lints, as CI runs them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --release -- -D warnings

fmt:
    cargo fmt --all

# Criterion benchmarks of every crate that has them.
bench:
    cargo bench --workspace

# CI, locally.
ci:
    bash .ci/run

# Coverage-guided fuzzing of one parser (puzzle_text, experiment_toml, trial_csv, paper_values) with cargo afl,
# until stopped; extra arguments go to afl-fuzz (e.g. `-V 60`). See fuzz/README.md.
fuzz TARGET *ARGS:
    bash fuzz/run.sh {{TARGET}} {{ARGS}}
