fn main() {
    afl::fuzz!(|data: &[u8]| sudoku_fuzz::paper_values(data));
}
