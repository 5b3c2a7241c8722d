//! The documentation builds without a warning (broken intra-doc links, missing docs on the
//! library crates, bad code blocks): `cargo doc --workspace --no-deps` with `-D warnings`, the
//! same command as `just lint`.
//!
//! CI runs only `cargo test --workspace --release` (the README's command), so the check lives
//! here. It builds into its own target directory (`target/doc-check`) so that it never waits on
//! the lock of the build running the tests; a fresh build takes about half a minute.

use std::{path::Path, process::Command};

#[test]
fn cargo_doc_is_clean_with_warnings_denied() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let out = Command::new(env!("CARGO"))
        .args(["doc", "--workspace", "--no-deps", "--quiet"])
        .current_dir(root)
        .env("RUSTDOCFLAGS", "-D warnings")
        .env("CARGO_TARGET_DIR", root.join("target/doc-check"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo doc failed or warned:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
