//! The batch subcommands: each turns one position into one answer, human or JSON.

use std::{
    io::{self, Write},
    process::ExitCode,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, OnceLock,
    },
    time::{Duration, Instant},
};

use retrace_legal::text::plural;
use retrace_legal::{Cage, CageStore};
use retrace_unmove::{retro_perft_limited, PerftLimit, RetroPosition};
use serde_json::{json, Value};
use shakmaty::{ByColor, Color, Square};

use crate::{
    args::{side_letter, SolveRequest, Uncapturers, KEPT_SOLUTIONS},
    cli::{CageCommand, Cli, Command, PositionArgs},
    interactive,
    lines::read_text_file,
    output::CliError,
    proof::ProofReport,
    proofgame, render, script,
};

/// Set by Ctrl-C while a batch subcommand or a script runs: the search stops, its answer says it
/// is incomplete, and the exit status is 130.
static INTERRUPT: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// How long work that does not look at the interrupt flag (a cage verification, say) may go on
/// after Ctrl-C before the process ends anyway, so that every command stops within 0.2 s.
const INTERRUPT_GRACE: Duration = Duration::from_millis(100);

/// The interrupt flag, with the Ctrl-C handler installed the first time it is asked for.
///
/// The handler sets the flag, which every search polls; what has not wound down and exited when
/// the grace period is over is cut off with exit status 130 and a line saying the answer is
/// incomplete. (The handler runs on a thread of its own, so waiting there blocks nothing.)
pub fn interrupt_flag() -> Arc<AtomicBool> {
    Arc::clone(INTERRUPT.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let setter = Arc::clone(&flag);
        // If no handler can be installed, Ctrl-C ends the process as the default signal does.
        let _ = ctrlc::set_handler(move || {
            setter.store(true, Ordering::Relaxed);
            std::thread::sleep(INTERRUPT_GRACE);
            eprintln!("retrace: interrupted before the answer was complete");
            std::process::exit(130);
        });
        flag
    }))
}

pub(crate) fn interrupted() -> bool {
    INTERRUPT.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// 130 after an interrupt, else success.
pub(crate) fn exit_status() -> ExitCode {
    if interrupted() {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    use std::io::IsTerminal;
    // Everything but the terminal REPL (which catches Ctrl-C itself, to return to its prompt)
    // stops on Ctrl-C with exit status 130.
    let terminal_repl = matches!(cli.command, None | Some(Command::Repl { script: None, .. }))
        && io::stdin().is_terminal();
    if !terminal_repl {
        interrupt_flag();
    }
    match cli.command {
        None => repl(None, false),
        Some(Command::Repl { script, strict }) => repl(script.as_deref(), strict),
        Some(Command::List(args)) => for_each_position(&args, list),
        Some(Command::Check {
            position,
            cages,
            prove,
            max_nodes,
        }) => {
            let store = load_cages(cages.as_deref())?;
            for_each_position(&position, |pos| check(pos, &store, prove, max_nodes))
        }
        Some(Command::Rights {
            position,
            depth,
            max_nodes,
            cages,
        }) => {
            let params = retrace_search::rights::RightsParams {
                depth,
                max_nodes,
                total_nodes: max_nodes.saturating_mul(20),
                cancel: Some(interrupt_flag()),
            };
            crate::rights::run(&position, &params, &load_cages(cages.as_deref())?)
        }
        Some(Command::Cage(CageCommand::Verify {
            fen,
            zone,
            depth,
            frozen,
            captures,
            cages,
            max_nodes,
            json,
        })) => {
            let store = load_cages(cages.as_deref())?;
            let claim = ClaimRequest {
                zone: zone.as_deref(),
                depth,
                frozen: &frozen,
                captures: captures.as_deref(),
                max_nodes,
            };
            let answer = |text: &str| cage_verify(text, &claim, &store);
            if fen != "-" {
                print_answer(&answer(&fen)?, json)?;
                return Ok(exit_status());
            }
            crate::batch::run(json, crate::batch::default_jobs(), answer)
        }
        Some(Command::Solve {
            position,
            depth,
            extra,
            max,
            no_uncapture,
            exact_fen,
            game_clocks,
            max_nodes,
            cages,
            jsonl,
            no_auto_cages,
        }) => {
            let mut position = position;
            position.json |= jsonl;
            if jsonl {
                // Solutions stream as they are found: one line at a time keeps them in order.
                position.jobs = Some(1);
            }
            let store = load_cages(cages.as_deref())?;
            let request = SolveRequest {
                extra,
                max,
                max_nodes,
                no_uncapture: no_uncapture.map_or_else(ByColor::default, Uncapturers::forbidden),
                auto_cages: !no_auto_cages,
                exact_fen,
                game_clocks,
                ..SolveRequest::new(depth)
            };
            for_each_position_text(&position, |pos, fen| {
                solve(pos, fen, &request, jsonl, &store)
            })
        }
        Some(Command::Proofgame {
            position,
            moves,
            plies,
            max,
            max_nodes,
            pgn,
            exact_fen,
            cages,
        }) => {
            let store = load_cages(cages.as_deref())?;
            // Clap makes exactly one of the two present.
            let plies = moves.or(plies).unwrap_or_default();
            let request = proofgame::Request {
                plies,
                max,
                max_nodes,
                exact_castling: exact_fen,
            };
            proofgame_command(&position, request, pgn.as_deref(), &store)
        }
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command, "retrace", &mut out);
            io::stdout().lock().write_all(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Man) => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut out)?;
            io::stdout().lock().write_all(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Retractor(args)) => {
            print_answer(&crate::retractor::answer(&args)?, args.json)?;
            Ok(exit_status())
        }
        Some(Command::Perft {
            position,
            depth,
            max_nodes,
        }) => for_each_position(&position, |pos| perft(pos, depth, max_nodes)),
    }
}

/// The REPL: on a terminal interactive, otherwise the commands of a script file or a pipe.
fn repl(script_file: Option<&std::path::Path>, strict: bool) -> Result<ExitCode, CliError> {
    use std::io::IsTerminal;
    match script_file {
        Some(path) => {
            let cannot = |why: String| {
                CliError::BadInput(format!("cannot open script {}: {why}", path.display()))
            };
            let file = std::fs::File::open(path).map_err(|e| cannot(e.to_string()))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(cannot("it is a directory".into()));
            }
            script::run(io::BufReader::new(file), strict, interrupt_flag())?;
        }
        None if io::stdin().is_terminal() => interactive::run()?,
        None => script::run(io::stdin().lock(), strict, interrupt_flag())?,
    }
    Ok(exit_status())
}

/// One answer: the JSON document and the text for people.
pub struct Answer {
    pub json: Value,
    pub text: String,
}

/// Runs `answer` on the position of `args`, or on every line of stdin when the FEN is `-`.
///
/// In batch mode a bad line gives an error line and the batch goes on; the exit status is then 2.
fn for_each_position(
    args: &PositionArgs,
    answer: impl Fn(&RetroPosition) -> Result<Answer, CliError> + Sync,
) -> Result<ExitCode, CliError> {
    for_each_position_text(args, |pos, _| answer(pos))
}

/// As [`for_each_position`], also handing over the FEN text (for facts beyond the position).
fn for_each_position_text(
    args: &PositionArgs,
    answer: impl Fn(&RetroPosition, &str) -> Result<Answer, CliError> + Sync,
) -> Result<ExitCode, CliError> {
    if args.fen != "-" {
        let pos = position_from_args(&args.fen, args)?;
        print_answer(&answer(&pos, &args.fen)?, args.json)?;
        return Ok(exit_status());
    }
    crate::batch::run(args.json, args.jobs(), |line| {
        position_from_args(line, args).and_then(|pos| answer(&pos, line))
    })
}

pub(crate) fn print_answer(answer: &Answer, json: bool) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", answer.json)?;
    } else {
        write!(out, "{}", answer.text)?;
    }
    out.flush()?;
    Ok(())
}

/// Builds the position from a FEN and the marking options.
pub fn position_from_args(fen: &str, args: &PositionArgs) -> Result<RetroPosition, CliError> {
    let mut pos = RetroPosition::parse(fen, args.retract).map_err(bad)?;
    for &sq in &args.frozen {
        pos.mark_never_moved(sq).map_err(bad)?;
    }
    for &sq in &args.promoted {
        pos.mark_promoted(sq).map_err(bad)?;
    }
    Ok(pos)
}

fn bad(err: impl std::fmt::Display) -> CliError {
    CliError::BadInput(err.to_string())
}

/// `check`: the static analysis (with the user's cages and, failing a contradiction, the automatic
/// cage attempt), its reasons and its deductions.
fn check(
    pos: &RetroPosition,
    cages: &CageStore,
    prove: Option<u32>,
    max_nodes: Option<u64>,
) -> Result<Answer, CliError> {
    let analysis = retrace_legal::analyze_thoroughly(pos, cages);
    let mut reasons: Vec<Value> = analysis.reasons.iter().map(render::reason_json).collect();
    // Legality by retraction, only where the analysis alone found nothing.
    let report = prove.filter(|_| reasons.is_empty()).map(|depth| {
        let pruner = retrace_search::LegalPruner::with_cages(cages);
        let proof =
            retrace_search::prove_within(pos, depth, &pruner, Some(interrupt_flag()), max_nodes);
        ProofReport::new(pos, depth, &proof)
    });
    if let Some(report) = report.as_ref().filter(|r| r.has_history == Some(false)) {
        let code = if report.closure {
            retrace_legal::ReasonCode::Closure.as_str()
        } else {
            "no_history"
        };
        reasons.push(json!({ "code": code, "message": report.summary, "squares": [] }));
    }
    let illegal = !reasons.is_empty();
    let by_side =
        |f: &dyn Fn(Color) -> u64| json!({ "white": f(Color::White), "black": f(Color::Black) });
    let mut text = if illegal {
        "illegal\n".to_owned()
    } else {
        "no contradiction found\n".to_owned()
    };
    for r in &analysis.reasons {
        text.push_str(&format!("  {r}\n"));
    }
    if let Some(report) = &report {
        for line in report.text().lines() {
            text.push_str(&format!("  {line}\n"));
        }
    }
    text.push_str(&render::needs(&analysis));
    text.push('\n');
    let mut json = json!({
            "verdict": if illegal { "illegal" } else { "no_contradiction" },
            "reasons": reasons,
            "captures": by_side(&|c| u64::from(analysis.captures.get(c).total)),
            "captures_by_pawns": by_side(&|c| u64::from(analysis.captures.get(c).by_pawns)),
            "promoted": by_side(&|c| u64::from(*analysis.promoted.get(c))),
    });
    if let Some(report) = &report {
        json["retraction"] = report.json.clone();
    }
    Ok(Answer { json, text })
}

/// `list`: every legal retraction with the FEN of the position it leads to.
pub fn list(pos: &RetroPosition) -> Result<Answer, CliError> {
    let retractions = pos.retractions();
    let mut entries = Vec::with_capacity(retractions.len());
    let mut text = render::retraction_count(pos, retractions.len());
    text.push('\n');
    for (i, &r) in retractions.iter().enumerate() {
        let notation = pos.notation(r);
        let fen = pos.retract(r).fen();
        text.push_str(&format!("{:>4}. {notation:<12} {fen}\n", i + 1));
        entries.push(json!({ "move": notation, "fen": fen }));
    }
    Ok(Answer {
        json: json!({ "retracting": side_letter(pos.retracting()), "retractions": entries }),
        text,
    })
}

/// `perft`: leaves of the retraction tree, within the node budget and until Ctrl-C.
fn perft(pos: &RetroPosition, depth: u32, max_nodes: Option<u64>) -> Result<Answer, CliError> {
    let start = Instant::now();
    let cancel = interrupt_flag();
    let limit = PerftLimit {
        max_nodes,
        cancel: Some(&cancel),
    };
    let count = retro_perft_limited(pos, depth, limit);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    let leaves = count.leaves;
    let cut = if count.complete {
        ""
    } else {
        " (cut short: the count is incomplete)"
    };
    Ok(Answer {
        json: json!({
            "depth": depth,
            "nodes": leaves,
            "complete": count.complete,
            "expanded": count.nodes,
            "elapsed_ms": elapsed_ms,
        }),
        text: format!("retro perft {depth}: {leaves} leaves{cut} in {elapsed_ms:.1} ms\n"),
    })
}

/// `solve`: every sequence of the last N moves.
fn solve(
    pos: &RetroPosition,
    fen: &str,
    request: &SolveRequest,
    jsonl: bool,
    cages: &CageStore,
) -> Result<Answer, CliError> {
    let facts = request.facts(pos, fen).map_err(CliError::BadInput)?;
    // With --jsonl each solution is written as it is found; a write that fails (the reader went
    // away) stops the search and is reported after it.
    let mut write_error = None;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut stream = |line: &[retrace_unmove::Retraction]| {
        let solution = json!({ "solution": retrace_search::line_notation(pos, line) });
        let written = writeln!(out, "{solution}");
        written.map_err(|e| write_error = Some(e)).is_ok()
    };
    let keep = if jsonl { 0 } else { KEPT_SOLUTIONS };
    let mut params = request.params(facts, interrupt_flag(), keep);
    if jsonl {
        params.on_solution = Some(&mut stream);
    }
    let found = retrace_search::solve(pos, params, &request.pruner(cages));
    if let Some(err) = write_error {
        return Err(err.into());
    }
    out.flush()?;
    drop(out);
    let elapsed_ms = found.elapsed.as_secs_f64() * 1e3;
    if jsonl {
        return Ok(Answer {
            json: json!({
                "count": found.count,
                "complete": found.complete,
                "nodes": found.nodes,
                "elapsed_ms": elapsed_ms,
            }),
            text: String::new(),
        });
    }
    let mut text = render::solve_summary(&found, " (search cut short: there may be more)");
    text.push('\n');
    text.push_str(&render::solution_lines(
        pos,
        &found.lines,
        found.count,
        KEPT_SOLUTIONS,
        ", not kept (--jsonl streams them all)",
    ));
    text.push_str(&render::refutations_text(pos, &found.refuted));
    let lines: Vec<Vec<String>> = found
        .lines
        .iter()
        .map(|line| retrace_search::line_notation(pos, line))
        .collect();
    Ok(Answer {
        json: json!({
            "solutions": lines,
            "count": found.count,
            "refuted": render::refutations_json(pos, &found.refuted),
            "complete": found.complete,
            "nodes": found.nodes,
            "elapsed_ms": elapsed_ms,
        }),
        text,
    })
}

/// Loads a cage file; every cage is re-verified, and one that is malformed or unverifiable is an
/// error (the contract: never trust an unverified cage, never silently drop one the user gave).
fn load_cages(file: Option<&std::path::Path>) -> Result<CageStore, CliError> {
    let Some(file) = file else {
        return Ok(CageStore::new());
    };
    let text = read_text_file(file, "cage file").map_err(CliError::BadInput)?;
    let cancel = interrupt_flag();
    let budget = retrace_legal::cage::LoadBudget {
        cancel: Some(&cancel),
        ..retrace_legal::cage::LoadBudget::default()
    };
    let (store, errors) = CageStore::load_within(&text, &budget);
    if errors.is_empty() {
        return Ok(store);
    }
    // Every refused line, in one line of error.
    let all: Vec<String> = errors
        .iter()
        .map(|(line, err)| format!("line {line}: {err}"))
        .collect();
    Err(CliError::BadInput(format!(
        "cage file {}: {} line{} refused: {}",
        file.display(),
        errors.len(),
        plural(errors.len()),
        all.join("; ")
    )))
}

/// The options of `cage verify` beyond the board.
struct ClaimRequest<'a> {
    zone: Option<&'a [Square]>,
    depth: Option<u32>,
    frozen: &'a [Square],
    /// The `captures=` bounds, as typed.
    captures: Option<&'a str>,
    max_nodes: u64,
}

/// `cage verify`: is the claim a cage? The cages of `store` count as proven.
fn cage_verify(fen: &str, claim: &ClaimRequest<'_>, store: &CageStore) -> Result<Answer, CliError> {
    use retrace_legal::cage::Failure;
    let board_field = fen.split_ascii_whitespace().next().unwrap_or("");
    let board = Cage::parse_board(board_field).map_err(bad)?;
    let zone = claim.zone.map(|list| list.iter().copied().collect());
    let frozen = claim.frozen.iter().copied().collect();
    let mut cage = Cage::from_parts(board, zone, frozen, claim.depth).map_err(bad)?;
    if let Some(bounds) = claim.captures {
        cage.captures = Cage::parse_captures(bounds).map_err(bad)?;
    }
    let options = retrace_legal::cage::VerifyOptions {
        max_nodes: claim.max_nodes,
        ..retrace_legal::cage::VerifyOptions::default()
    };
    let cancel = interrupt_flag();
    let verification =
        retrace_legal::cage::verify_cancellable(&cage, store, &options, Some(&cancel));
    let text = match &verification.outcome {
        Ok(()) => format!("a cage: verified in {} nodes\n{cage}\n", verification.nodes),
        Err(escape) => {
            // Only an escape is a line out of the cage; a limit or a cancel stopped on some line.
            let which = match escape.failure {
                Failure::BoardEmpty | Failure::AllHome => "a line that escapes",
                _ => "the line it stopped on",
            };
            format!(
                "not verified ({}) after {} nodes; {which}: {}\n",
                escape.failure,
                verification.nodes,
                escape.line.join(" ")
            )
        }
    };
    Ok(Answer {
        json: json!({
            "cage": verification.verified(),
            "line": verification.escape(),
            "nodes": verification.nodes,
            "cage_line": cage.to_string(),
        }),
        text,
    })
}

/// `proofgame`: the games of the requested length, on one position or on every line of stdin; with
/// `--pgn`, every game found is also written to the file.
fn proofgame_command(
    args: &PositionArgs,
    request: proofgame::Request,
    pgn_file: Option<&std::path::Path>,
    cages: &CageStore,
) -> Result<ExitCode, CliError> {
    let pgn = std::sync::Mutex::new(String::new());
    let answer = |fen: &str| {
        let fen = proofgame::complete_fen(fen, request.plies);
        let pos = position_from_args(&fen, args)?;
        proofgame::check_side(&pos, request.plies).map_err(CliError::BadInput)?;
        let request = proofgame::Request {
            exact_castling: request.exact_castling
                && retrace_unmove::FenFacts::parse(&fen).castling_known,
            ..request
        };
        let params = retrace_search::ProofGameParams {
            cancel: Some(interrupt_flag()),
            ..retrace_search::ProofGameParams::default()
        };
        let found = proofgame::search(&pos, request, cages, params);
        let report =
            proofgame::Report::new(&pos, request.plies, &found).map_err(CliError::Internal)?;
        if pgn_file.is_some() {
            let games = proofgame::pgn(&pos, &found.games).map_err(CliError::Internal)?;
            pgn.lock()
                .map_err(|_| CliError::Internal("the PGN buffer was poisoned".into()))?
                .push_str(&games);
        }
        Ok(Answer {
            json: report.json,
            text: report.text,
        })
    };
    let code = if args.fen == "-" {
        // One job: the games are gathered for the PGN file in input order.
        crate::batch::run(args.json, 1, answer)?
    } else {
        print_answer(&answer(&args.fen)?, args.json)?;
        if interrupted() {
            ExitCode::from(130)
        } else {
            ExitCode::SUCCESS
        }
    };
    if let Some(file) = pgn_file {
        std::fs::write(file, pgn.into_inner().unwrap_or_default())
            .map_err(|e| CliError::BadInput(format!("cannot write {}: {e}", file.display())))?;
    }
    Ok(code)
}
