fn main() {
    afl::fuzz!(|data: &[u8]| sudoku_fuzz::puzzle_text(data));
}
