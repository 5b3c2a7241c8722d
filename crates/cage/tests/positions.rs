//! The positions of `positions/*.toml`: every legal one has no contradiction (not even with the
//! automatic cage attempt), every illegal one with a `reason` is proven illegal with that code (by
//! the plain analysis, or by the automatic cage attempt alone when marked `needs = "auto-cage"`),
//! and those marked unproven are still unproven by both.

use std::collections::HashSet;

use retrace_cage::{analyze_thoroughly, CageStore};
use retrace_legal::{analyze, ReasonCode, Verdict};
use retrace_unmove::RetroPosition;
use serde::Deserialize;
use shakmaty::Color;

/// One `[[position]]` table (unknown fields are ignored: the format is open).
#[derive(Debug, Deserialize)]
struct Entry {
    id: String,
    fen: String,
    retract: Option<String>,
    source: String,
    why: Option<String>,
    stipulation: String,
    reason: Option<String>,
    status: Option<String>,
    needs: Option<String>,
}

#[derive(Debug, Deserialize)]
struct File {
    position: Vec<Entry>,
}

fn load(name: &str) -> Vec<Entry> {
    let path = format!("{}/../../positions/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    match toml::from_str::<File>(&text) {
        Ok(file) => file.position,
        Err(e) => panic!("{path} is not valid: {e}"),
    }
}

fn setup(e: &Entry) -> RetroPosition {
    let retract = match e.retract.as_deref() {
        None => None,
        Some("w") => Some(Color::White),
        Some("b") => Some(Color::Black),
        Some(other) => panic!("{}: retract must be w or b, not {other}", e.id),
    };
    RetroPosition::parse(&e.fen, retract).unwrap_or_else(|err| panic!("{}: {err}", e.id))
}

fn check_metadata(entries: &[Entry], stipulation: &str, ids: &mut HashSet<String>) {
    for e in entries {
        assert!(ids.insert(e.id.clone()), "duplicate id {}", e.id);
        assert!(!e.source.trim().is_empty(), "{}: no source", e.id);
        if e.source == "constructed" {
            assert!(
                e.why.as_ref().is_some_and(|w| !w.trim().is_empty()),
                "{}: constructed without why",
                e.id
            );
        }
        assert_eq!(e.stipulation, stipulation, "{}", e.id);
    }
}

#[test]
fn positions_files_are_well_formed() {
    let mut ids = HashSet::new();
    check_metadata(&load("illegal.toml"), "illegal", &mut ids);
    check_metadata(&load("legal.toml"), "legal", &mut ids);
    assert!(ids.len() >= 100, "only {} positions", ids.len());
}

#[test]
fn legal_positions_have_no_contradiction() {
    let entries = load("legal.toml");
    for e in &entries {
        let a = analyze_thoroughly(&setup(e), &CageStore::new());
        assert_eq!(
            a.verdict(),
            Verdict::NoContradiction,
            "{} ({}) called illegal: {:?}",
            e.id,
            e.fen,
            a.reasons
        );
    }
}

#[test]
fn illegal_positions_are_proven_with_their_reason() {
    let entries = load("illegal.toml");
    let mut proven = 0;
    let mut by_auto_cage = 0;
    for e in &entries {
        let pos = setup(e);
        let a = analyze(&pos);
        match (&e.reason, e.status.as_deref()) {
            (Some(code), None) => {
                let code = ReasonCode::from_code(code)
                    .unwrap_or_else(|| panic!("{}: unknown code {code}", e.id));
                let a = match e.needs.as_deref() {
                    None => a,
                    Some("auto-cage") => {
                        assert_eq!(
                            a.verdict(),
                            Verdict::NoContradiction,
                            "{} is proven by the plain analysis now ({:?}): drop `needs`",
                            e.id,
                            a.reasons
                        );
                        by_auto_cage += 1;
                        analyze_thoroughly(&pos, &CageStore::new())
                    }
                    Some(other) => panic!("{}: unknown needs {other}", e.id),
                };
                assert!(
                    a.has(code),
                    "{} ({}) should be illegal with {code}, got {:?}",
                    e.id,
                    e.fen,
                    a.reasons
                );
                proven += 1;
            }
            (None, Some("unproven")) => {
                assert!(e.needs.is_none(), "{}: `needs` without `reason`", e.id);
                let a = analyze_thoroughly(&pos, &CageStore::new());
                assert_eq!(
                    a.verdict(),
                    Verdict::NoContradiction,
                    "{} is proven now ({:?}): put the code in `reason`",
                    e.id,
                    a.reasons
                );
            }
            _ => panic!(
                "{}: an illegal position needs either `reason` or `status = \"unproven\"`",
                e.id
            ),
        }
    }
    eprintln!(
        "{proven} of {} illegal positions proven, {by_auto_cage} of them by the automatic cage \
         attempt",
        entries.len()
    );
    assert!(proven >= 30);
    assert!(by_auto_cage >= 2);
}
