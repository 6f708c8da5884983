fn main() {
    afl::fuzz!(|data: &[u8]| sudoku_fuzz::trial_csv_plot(data));
}
