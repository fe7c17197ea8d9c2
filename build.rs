//! Says once that unicorn was built with the CMake that `tools/cmake` fetched
//! from PyPI (the shim's own message is hidden inside unicorn's build log).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("target"));
    let dir = target.join("cmake-pypi");
    let marker = dir.join(".announced");
    if dir.join("cmake/data/bin/cmake").exists() && !marker.exists() {
        println!(
            "cargo:warning=no cmake on PATH: unicorn's C core was built with cmake 3.31.6 from PyPI, installed in {}",
            dir.display()
        );
        let _ = std::fs::write(marker, "");
    }
}
