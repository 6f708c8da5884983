# Sourced by .ci/run: installs every peer program the tests use that a package registry
# carries, so that no test of theirs skips in CI (scripts/test.sh --strict fails on a skip
# that .ci/may-skip does not name):
# - MiniZinc with Gecode (Debian: minizinc, flatzinc), as root with apt-get;
# - OR-Tools (CP-SAT), swiglpk (GLPK) and passagemath-kissat (the kissat program), pinned in
#   scripts/adapters/requirements.txt, with pip into a venv outside the checkout (Debian's
#   Python refuses pip; a later run reuses the venv), whose bin/ goes first on PATH;
# - Lewis's SA needs only `cc` (compiled from scripts/adapters/lewis_sa/lewis_sa.c on first use).
# Measured on the 2-core development machine: apt-get update 4 s and install 20 s, pip 71 s
# into a new venv (184 MB), 1 s when all is there already.
echo "== peers for the adapter tests (.ci/peers.sh)"
peers_start=$SECONDS
if ! command -v minizinc >/dev/null || ! command -v fzn-gecode >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends minizinc flatzinc >/dev/null ||
      echo "MiniZinc could not be installed: its test will skip (and fail the run in CI)"
  else
    echo "MiniZinc is missing and cannot be installed here (not root): its test will skip"
  fi
fi
peers_venv="${SUDOKU_BENCH_VENV:-$HOME/.cache/sudoku-bench-venv}"
if { [ -x "$peers_venv/bin/python3" ] || python3 -m venv "$peers_venv"; } &&
  "$peers_venv/bin/python3" -m pip install --quiet --disable-pip-version-check \
    -r scripts/adapters/requirements.txt; then
  export PATH="$peers_venv/bin:$PATH"
else
  echo "the venv $peers_venv could not be made: the OR-Tools, GLPK and Kissat tests will skip (and fail the run in CI)"
fi
echo "peers ready in $((SECONDS - peers_start)) s"
