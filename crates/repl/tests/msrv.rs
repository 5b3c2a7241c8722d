//! The minimum Rust version: declared once for the workspace, inherited by every crate, true of
//! the dependencies, and no newer than the toolchain that builds the tests.
//!
//! CI runs only `cargo test --workspace --release` (the README's command), so the check lives
//! here. What it checks: `rust-version` is set in `[workspace.package]`; every member's manifest
//! says `rust-version.workspace = true` (and cargo resolves it to the same value); no package in
//! the resolved dependency graph (shakmaty above all) declares a newer `rust-version` than ours,
//! so the declared version is not a promise the dependencies break; and the toolchain running this
//! test (`rustc --version`) is at least that version. What it does not check: that the code
//! compiles on the declared version with an older toolchain than the one at hand. Only one
//! toolchain is installable here; when it equals the declared version (as now), building the
//! suite is that check too, and the test says so in its output.

use std::{path::Path, process::Command};

use serde_json::Value;

/// A `major.minor[.patch]` version, compared numerically.
fn version(text: &str) -> (u64, u64, u64) {
    let mut parts = text.split('.').map(|p| {
        p.parse::<u64>()
            .unwrap_or_else(|_| panic!("not a version: {text}"))
    });
    let major = parts.next().expect("a major version");
    let minor = parts.next().unwrap_or(0);
    let patch = parts.next().unwrap_or(0);
    (major, minor, patch)
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// `rust-version = "X"` of `[workspace.package]` in the root manifest.
fn declared() -> String {
    let manifest =
        std::fs::read_to_string(root().join("Cargo.toml")).expect("the root manifest reads");
    let section = manifest
        .split("\n[")
        .find(|s| s.starts_with("workspace.package]"))
        .expect("a [workspace.package] section");
    section
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("rust-version in [workspace.package]")
        .to_owned()
}

/// The toolchain's `rustc`, as cargo names it to the tests.
fn rustc() -> Command {
    Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
}

/// `cargo metadata` for this machine's platform (the packages a build here uses, all downloaded
/// by the build already), resolved from the lock file as it is.
fn metadata() -> Value {
    let host = rustc().arg("-vV").output().expect("rustc runs").stdout;
    let host = String::from_utf8(host).expect("UTF-8");
    let host = host
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(["--filter-platform", host])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn every_crate_inherits_the_workspace_rust_version() {
    let declared = declared();
    let meta = metadata();
    let members = meta["workspace_members"]
        .as_array()
        .expect("workspace members");
    assert!(members.len() >= 5, "every crate of the workspace is listed");
    for package in meta["packages"].as_array().expect("packages") {
        if !members.contains(&package["id"]) {
            continue;
        }
        let name = package["name"].as_str().expect("a name");
        let manifest_path = package["manifest_path"].as_str().expect("a manifest");
        let manifest = std::fs::read_to_string(manifest_path).expect("the manifest reads");
        assert!(
            manifest
                .lines()
                .any(|l| l.trim() == "rust-version.workspace = true"),
            "{name} does not inherit rust-version from the workspace"
        );
        assert_eq!(package["rust_version"].as_str(), Some(declared.as_str()));
    }
}

#[test]
fn no_dependency_needs_a_newer_rust_than_declared() {
    let declared = declared();
    let meta = metadata();
    let resolved: Vec<&Value> = meta["resolve"]["nodes"]
        .as_array()
        .expect("the resolved graph")
        .iter()
        .map(|n| &n["id"])
        .collect();
    let mut shakmaty = None;
    for package in meta["packages"].as_array().expect("packages") {
        if !resolved.contains(&&package["id"]) {
            continue;
        }
        let name = package["name"].as_str().expect("a name");
        if let Some(needs) = package["rust_version"].as_str() {
            assert!(
                version(needs) <= version(&declared),
                "{name} {} needs Rust {needs}, but the workspace declares {declared}",
                package["version"]
            );
            if name == "shakmaty" {
                shakmaty = Some(needs.to_owned());
            }
        }
    }
    // shakmaty is the dependency that sets the bar; its rust-version must have been seen.
    let shakmaty = shakmaty.expect("shakmaty declares a rust-version");
    println!("shakmaty needs Rust {shakmaty}; the workspace declares {declared}");
}

#[test]
fn the_toolchain_is_at_least_the_declared_version() {
    let declared = declared();
    let out = rustc().arg("--version").output().expect("rustc runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    // "rustc 1.95.0 (59807616e 2026-04-14)", possibly with a -nightly or -beta suffix.
    let number = text
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('-').next())
        .expect("a version in rustc --version");
    assert!(
        version(number) >= version(&declared),
        "the toolchain ({number}) is older than the declared rust-version {declared}"
    );
    if version(number) == version(&declared) {
        println!("building with rustc {number} compiles the suite at the declared minimum");
    } else {
        println!("rustc {number} is newer than {declared}: the minimum itself is not compiled");
    }
}

#[test]
fn versions_compare_numerically() {
    assert!(version("1.95") > version("1.9"));
    assert!(version("1.100.0") > version("1.95.1"));
    assert_eq!(version("1.95"), version("1.95.0"));
}
