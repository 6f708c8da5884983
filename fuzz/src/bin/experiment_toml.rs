fn main() {
    afl::fuzz!(|data: &[u8]| sudoku_fuzz::experiment_toml(data));
}
