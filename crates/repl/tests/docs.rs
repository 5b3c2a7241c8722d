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

/// The repository stands alone: no tracked text points into the developers' `shared/` folder,
/// which a clone does not have. What users need (the rules of retraction, the cage format, the
/// command line) lives in `docs/`.
#[test]
fn no_file_points_outside_the_repository() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output();
    // A source tarball without git has nothing to list; the check is for checkouts.
    let Ok(out) = out else { return };
    if !out.status.success() {
        return;
    }
    let needles = [
        ["shared", "/design"].concat(),
        ["shared", "/corpora"].concat(),
        ["shared", "/seeds"].concat(),
    ];
    let mut found = Vec::new();
    for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name);
        let Ok(text) = std::fs::read_to_string(root.join(name.as_ref())) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n.as_str())) {
                found.push(format!("{name}:{}: {line}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "files point outside the repository:\n{}",
        found.join("\n")
    );
}
