//! Builds tdoku's DPLL-triad SIMD solver from a clone of its public source when the
//! environment variable `TDOKU_SRC` names one, so that the bench can time it in process beside
//! `prop`. Nothing of tdoku is in this repository; without `TDOKU_SRC` the bench runs without it.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tdoku)");
    println!("cargo:rerun-if-env-changed=TDOKU_SRC");
    let Some(root) = std::env::var_os("TDOKU_SRC").filter(|v| !v.is_empty()) else {
        return;
    };
    let root = PathBuf::from(root);
    let src = root.join("src");
    let files = ["solver_dpll_triad_simd.cc", "util.cc"];
    for f in files {
        let path = src.join(f);
        if !path.is_file() {
            // A build script cannot return an error to the user other than by failing.
            panic!(
                "TDOKU_SRC={}: {} not found (TDOKU_SRC must name a clone of tdoku's source)",
                root.display(),
                path.display()
            );
        }
        println!("cargo:rerun-if-changed={}", path.display());
    }
    // As tdoku's own CMake build of its solver library: -O3 -march=native, no exceptions or
    // RTTI, C++14.
    cc::Build::new()
        .cpp(true)
        .files(files.iter().map(|f| src.join(f)))
        .include(&src)
        .include(root.join("include"))
        .opt_level(3)
        .flag("-march=native")
        .flag("-std=c++14")
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .warnings(false)
        .compile("tdoku");
    println!("cargo:rustc-cfg=tdoku");
}
