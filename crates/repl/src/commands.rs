//! The dispatcher of the subcommands: each turns one position into one answer (made in
//! [`crate::output`]), printed as text or JSON, on one position or on every line of a
//! batch.

use std::{io::IsTerminal, path::Path, process::ExitCode, time::Instant};

use retrace_cage::{Cage, CageStore};
use retrace_legal::text::plural;
use retrace_unmove::{retro_perft_limited, PerftLimit, RetroPosition};
use shakmaty::{ByColor, Square};

use crate::{
    args::{Setup, SolveRequest, Uncapturers, KEPT_SOLUTIONS},
    cli::{CageCommand, Cli, Command, PositionArgs},
    interactive,
    interrupt::Interrupt,
    lines::read_text_file,
    output::{self, proof::ProofReport, Answer, CliError, JsonlSolution},
    proofgame, script,
};

/// Runs the subcommand of `cli`.
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    // Everything but the terminal REPL (which catches Ctrl-C itself, to return to its prompt)
    // stops on Ctrl-C with exit status 130.
    let terminal_repl = matches!(cli.command, None | Some(Command::Repl { script: None, .. }))
        && std::io::stdin().is_terminal();
    let interrupt = if terminal_repl {
        Interrupt::new()
    } else {
        Interrupt::install()
    };
    let interrupt = &interrupt;
    match cli.command {
        None => repl(None, false, interrupt),
        Some(Command::Repl { script, strict }) => repl(script.as_deref(), strict, interrupt),
        Some(Command::List(args)) => {
            for_each_position(&args, interrupt, |setup| output::list(&setup.pos))
        }
        Some(Command::Check {
            position,
            cages,
            prove,
            max_nodes,
            exact_fen,
        }) => {
            let store = load_cages(cages.as_deref(), interrupt)?;
            // Each line gets the cages with a memo of its own (a clone): its answer is the same
            // whatever `--jobs` and whatever lines came before.
            for_each_position(&position, interrupt, |setup| {
                let request = CheckRequest {
                    prove,
                    max_nodes,
                    exact_fen,
                };
                check(setup, &store.clone(), request, interrupt)
            })
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
                cancel: Some(interrupt.flag()),
            };
            let store = load_cages(cages.as_deref(), interrupt)?;
            crate::rights::run(&position, &params, &store, interrupt)
        }
        Some(Command::Cage(CageCommand::Verify {
            fen,
            zone,
            depth,
            frozen,
            captures,
            cages,
            max_nodes,
            max_memory,
            json,
        })) => {
            let store = load_cages(cages.as_deref(), interrupt)?;
            let claim = ClaimRequest {
                zone: zone.as_deref(),
                depth,
                frozen: &frozen,
                captures: captures.as_deref(),
                max_nodes,
                max_bytes: max_memory << 20,
            };
            let answer = |text: &str| cage_verify(text, &claim, &store.clone(), interrupt);
            if fen != "-" {
                answer(&fen)?.print(json)?;
                return Ok(interrupt.status());
            }
            crate::batch::run(json, crate::batch::default_jobs(), interrupt, answer)
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
            let store = load_cages(cages.as_deref(), interrupt)?;
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
            for_each_position(&position, interrupt, |setup| {
                solve(setup, &request, jsonl, &store.clone(), interrupt)
            })
        }
        Some(Command::Proofgame {
            position,
            moves,
            plies,
            shortest,
            longest,
            max,
            max_nodes,
            pgn,
            exact_fen,
            cages,
        }) => {
            let store = load_cages(cages.as_deref(), interrupt)?;
            // Clap makes exactly one of the three present.
            let plies = if shortest {
                longest.unwrap_or(proofgame::DEFAULT_LONGEST)
            } else {
                moves.or(plies).unwrap_or_default()
            };
            let request = proofgame::Request {
                plies,
                shortest,
                max,
                max_nodes,
                exact_castling: exact_fen,
            };
            proofgame_command(&position, request, pgn.as_deref(), &store, interrupt)
        }
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command, "retrace", &mut out);
            output::print(&String::from_utf8_lossy(&out))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Man { subcommand }) => {
            use clap::CommandFactory;
            let cli = Cli::command();
            let page = match subcommand {
                None => cli,
                Some(name) => {
                    let Some(sub) = cli.find_subcommand(&name) else {
                        let names: Vec<&str> =
                            cli.get_subcommands().map(clap::Command::get_name).collect();
                        return Err(CliError::BadInput(format!(
                            "no subcommand '{}': the pages are {}",
                            crate::output::one_line(&name),
                            names.join(", ")
                        )));
                    };
                    sub.clone()
                }
            };
            // Titled as man names a subcommand's page: retrace-solve.
            let title = match page.get_name() {
                "retrace" => "retrace".to_owned(),
                sub => format!("retrace-{sub}"),
            };
            let mut out = Vec::new();
            clap_mangen::Man::new(page)
                .title(title)
                .render(&mut out)
                .map_err(|e| CliError::Internal(format!("cannot make the manual page: {e}")))?;
            output::print(&String::from_utf8_lossy(&out))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Retractor(args)) => {
            interrupt.heed();
            crate::retractor::answer(&args, interrupt.flag())?.print(args.json)?;
            Ok(interrupt.status())
        }
        Some(Command::Perft {
            position,
            depth,
            max_nodes,
        }) => for_each_position(&position, interrupt, |setup| {
            perft(setup, depth, max_nodes, interrupt)
        }),
    }
}

/// The REPL: on a terminal interactive, otherwise the commands of a script file or a pipe.
fn repl(
    script_file: Option<&Path>,
    strict: bool,
    interrupt: &Interrupt,
) -> Result<ExitCode, CliError> {
    let failed_writes = match script_file {
        Some(path) => {
            let cannot = |why: String| {
                CliError::BadInput(format!("cannot open script {}: {why}", path.display()))
            };
            let file = std::fs::File::open(path).map_err(|e| cannot(e.to_string()))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(cannot("it is a directory".into()));
            }
            script::run(std::io::BufReader::new(file), strict, interrupt.flag())?
        }
        None if std::io::stdin().is_terminal() => interactive::run()?,
        None => script::run(std::io::stdin().lock(), strict, interrupt.flag())?,
    };
    if failed_writes > 0 && !interrupt.is_set() {
        output::warn(&format!(
            "{failed_writes} file{} could not be written (see the errors above)",
            plural(failed_writes)
        ));
        return Ok(ExitCode::from(1));
    }
    Ok(interrupt.status())
}

/// Runs `answer` on the position of `args`, or on every line of stdin when the FEN is `-`.
///
/// In batch mode a bad line gives an error line and the batch goes on; the exit status is then 2.
fn for_each_position(
    args: &PositionArgs,
    interrupt: &Interrupt,
    answer: impl Fn(&Setup) -> Result<Answer, CliError> + Sync,
) -> Result<ExitCode, CliError> {
    if args.fen != "-" {
        answer(&args.setup(&args.fen)?)?.print(args.json)?;
        return Ok(interrupt.status());
    }
    crate::batch::run(args.json, args.jobs(), interrupt, |line| {
        args.setup(line).and_then(|setup| answer(&setup))
    })
}

fn bad(err: impl std::fmt::Display) -> CliError {
    CliError::BadInput(err.to_string())
}

/// What `check` is asked beyond the position.
#[derive(Clone, Copy, Debug)]
struct CheckRequest {
    /// Look for a history this many plies deep where the analysis finds nothing.
    prove: Option<u32>,
    /// The node budget of that search.
    max_nodes: Option<u64>,
    /// Read the FEN's castling and en passant fields as complete.
    exact_fen: bool,
}

/// `check`: the static analysis (with the user's cages and, failing a contradiction, the automatic
/// cage attempt), its reasons and its deductions; with `prove`, legality by retraction where the
/// analysis alone found nothing; with `exact_fen`, the FEN's castling and en passant fields read
/// as facts by both.
fn check(
    setup: &Setup,
    cages: &CageStore,
    request: CheckRequest,
    interrupt: &Interrupt,
) -> Result<Answer, CliError> {
    let pos = &setup.pos;
    let facts = crate::exact::facts(request.exact_fen, &setup.facts);
    let analysis = crate::exact::analyze(pos, cages, facts);
    let report = request
        .prove
        .filter(|_| analysis.reasons.is_empty())
        .map(|depth| {
            let pruner = retrace_search::LegalPruner::with_cages(cages);
            interrupt.heed();
            let (proof, _) = retrace_search::prove_with_facts(
                pos,
                depth,
                &pruner,
                facts,
                Some(interrupt.flag()),
                request.max_nodes,
            );
            ProofReport::new(pos, depth, &proof)
        });
    output::check(&analysis, report)
}

/// `perft`: leaves of the retraction tree, within the node budget and until Ctrl-C.
fn perft(
    setup: &Setup,
    depth: u32,
    max_nodes: Option<u64>,
    interrupt: &Interrupt,
) -> Result<Answer, CliError> {
    let start = Instant::now();
    interrupt.heed();
    let cancel = interrupt.flag();
    let limit = PerftLimit {
        max_nodes,
        cancel: Some(&cancel),
    };
    let count = retro_perft_limited(&setup.pos, depth, limit);
    output::perft(depth, &count, start.elapsed().as_secs_f64() * 1e3)
}

/// `solve`: every sequence of the last N moves.
fn solve(
    setup: &Setup,
    request: &SolveRequest,
    jsonl: bool,
    cages: &CageStore,
    interrupt: &Interrupt,
) -> Result<Answer, CliError> {
    let pos = &setup.pos;
    let facts = request.facts(setup).map_err(CliError::BadInput)?;
    // With --jsonl each solution is written as it is found; a write that fails (the reader went
    // away) stops the search and is reported after it.
    let mut write_error = None;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut stream = |line: &[retrace_unmove::Retraction]| {
        let solution = JsonlSolution {
            solution: retrace_search::line_notation(pos, line),
        };
        let written = output::to_json(&solution)
            .and_then(|json| output::write_to(&mut out, &format!("{json}\n")));
        written.map_err(|e| write_error = Some(e)).is_ok()
    };
    let keep = if jsonl { 0 } else { KEPT_SOLUTIONS };
    interrupt.heed();
    let mut params = request.params(facts, interrupt.flag(), keep);
    if jsonl {
        params.on_solution = Some(&mut stream);
    }
    let found = retrace_search::solve(pos, params, &request.pruner(cages, interrupt.flag()));
    if let Some(err) = write_error {
        return Err(err);
    }
    if jsonl {
        output::solve_stream_summary(pos, &found)
    } else {
        // Why an illegal position has no solution, said before the empty list of them (with
        // --exact-fen, the reasons its fields give too).
        let illegal = match found.count {
            0 => {
                let mut reasons = retrace_cage::analyze_with_cages(pos, cages).reasons;
                reasons.extend(crate::exact::reasons(pos, cages, facts));
                reasons
            }
            _ => Vec::new(),
        };
        output::solve(pos, &illegal, &found)
    }
}

/// Loads a cage file; every cage is re-verified, and one that is malformed or unverifiable is an
/// error (the contract: never trust an unverified cage, never silently drop one the user gave).
fn load_cages(file: Option<&Path>, interrupt: &Interrupt) -> Result<CageStore, CliError> {
    let Some(file) = file else {
        return Ok(CageStore::new());
    };
    let text = read_text_file(file, "cage file").map_err(CliError::BadInput)?;
    interrupt.heed();
    let cancel = interrupt.flag();
    let budget = retrace_cage::LoadBudget {
        cancel: Some(&cancel),
        ..retrace_cage::LoadBudget::default()
    };
    let (store, errors) = CageStore::load_within(&text, &budget);
    if errors.is_empty() {
        return Ok(store);
    }
    if interrupt.is_set() {
        return Err(CliError::Interrupted(format!(
            "interrupted while loading the cage file {}: nothing was answered",
            file.display()
        )));
    }
    // The refused lines in one line of error: every line's number (the first 20), then as many
    // reasons whole as fit.
    let numbers: Vec<String> = errors.iter().take(20).map(|(n, _)| n.to_string()).collect();
    let mut message = format!(
        "cage file {}: {} line{} refused ({}{})",
        file.display(),
        errors.len(),
        plural(errors.len()),
        numbers.join(", "),
        if errors.len() > numbers.len() {
            ", ..."
        } else {
            ""
        }
    );
    for (i, (line, err)) in errors.iter().enumerate() {
        let one = format!("; line {line}: {err}");
        if i > 0 && message.len() + one.len() > crate::output::ONE_LINE_BYTES {
            break;
        }
        message.push_str(&one);
    }
    Err(CliError::BadInput(message))
}

/// The options of `cage verify` beyond the board.
struct ClaimRequest<'a> {
    zone: Option<&'a [Square]>,
    depth: Option<u32>,
    frozen: &'a [Square],
    /// The `captures=` bounds, as typed.
    captures: Option<&'a str>,
    max_nodes: u64,
    /// The memory budget of the verification's tables, in bytes.
    max_bytes: u64,
}

/// `cage verify`: is the claim a cage? The cages of `store` count as proven.
fn cage_verify(
    fen: &str,
    claim: &ClaimRequest<'_>,
    store: &CageStore,
    interrupt: &Interrupt,
) -> Result<Answer, CliError> {
    let board_field = fen.split_ascii_whitespace().next().unwrap_or("");
    let board = Cage::parse_board(board_field).map_err(bad)?;
    let zone = claim.zone.map(|list| list.iter().copied().collect());
    let frozen = claim.frozen.iter().copied().collect();
    let mut cage = Cage::from_parts(board, zone, frozen, claim.depth).map_err(bad)?;
    if let Some(bounds) = claim.captures {
        cage.captures = Cage::parse_captures(bounds).map_err(bad)?;
    }
    let options = retrace_cage::VerifyOptions {
        max_nodes: claim.max_nodes,
        max_bytes: claim.max_bytes,
        ..retrace_cage::VerifyOptions::default()
    };
    interrupt.heed();
    let cancel = interrupt.flag();
    let verification = retrace_cage::verify_cancellable(&cage, store, &options, Some(&cancel));
    output::cage_verify(&cage, &verification)
}

/// `proofgame`: the games of the requested length, on one position or on every line of stdin; with
/// `--pgn`, every game found is also written to the file.
fn proofgame_command(
    args: &PositionArgs,
    request: proofgame::Request,
    pgn_file: Option<&Path>,
    cages: &CageStore,
    interrupt: &Interrupt,
) -> Result<ExitCode, CliError> {
    let pgn = std::sync::Mutex::new(String::new());
    let answer = |fen: &str| {
        if request.shortest {
            return shortest_answer(
                args,
                fen,
                request,
                cages,
                interrupt,
                &pgn,
                pgn_file.is_some(),
            );
        }
        let setup = args.setup(&proofgame::complete_fen(fen, request.plies))?;
        let pos = &setup.pos;
        proofgame::check_side(pos, request.plies).map_err(CliError::BadInput)?;
        let request = proofgame::Request {
            exact_castling: request.exact_castling && setup.facts.castling_known,
            ..request
        };
        let params = retrace_search::ProofGameParams {
            cancel: Some(interrupt.flag()),
            ..retrace_search::ProofGameParams::default()
        };
        // The search looks at the flag: after Ctrl-C it returns what it found, to be printed.
        interrupt.heed();
        let found = proofgame::search(pos, request, cages, params);
        let answer = output::proofgame::answer(pos, request.plies, &found)?;
        if pgn_file.is_some() {
            let games = proofgame::pgn(pos, &found.games).map_err(CliError::Internal)?;
            pgn.lock()
                .map_err(|_| CliError::Internal("the PGN buffer was poisoned".into()))?
                .push_str(&games);
        }
        Ok(answer)
    };
    let code = if args.fen == "-" {
        // One job: the games are gathered for the PGN file in input order.
        crate::batch::run(args.json, 1, interrupt, answer)?
    } else {
        let answer = answer(&args.fen)?;
        if pgn_file.is_some_and(|file| file == Path::new("-")) {
            answer.print(args.json)?;
            write_pgn(pgn_file, &pgn)?;
            return Ok(interrupt.status());
        }
        // The file first: if it cannot be written the answer is still printed, alone.
        let written = write_pgn(pgn_file, &pgn);
        answer.print(args.json)?;
        return written.map(|()| interrupt.status());
    };
    write_pgn(pgn_file, &pgn)?;
    Ok(code)
}

/// `proofgame --shortest`'s answer for one FEN (a bare board tries either side to move), its
/// games added to `pgn` when `want_pgn`.
fn shortest_answer(
    args: &PositionArgs,
    fen: &str,
    request: proofgame::Request,
    cages: &CageStore,
    interrupt: &Interrupt,
    pgn: &std::sync::Mutex<String>,
    want_pgn: bool,
) -> Result<Answer, CliError> {
    let setups = proofgame::shortest_fens(fen)
        .iter()
        .map(|fen| args.setup(fen))
        .collect::<Result<Vec<_>, _>>()?;
    let request = proofgame::Request {
        exact_castling: request.exact_castling && setups.iter().all(|s| s.facts.castling_known),
        ..request
    };
    let positions: Vec<RetroPosition> = setups.into_iter().map(|setup| setup.pos).collect();
    let params = retrace_search::ProofGameParams {
        cancel: Some(interrupt.flag()),
        ..retrace_search::ProofGameParams::default()
    };
    interrupt.heed();
    let found = proofgame::search_shortest(&positions, request, cages, params);
    let pos = proofgame::fitting(&positions, found.plies)
        .ok_or_else(|| CliError::Internal("no position to search".into()))?;
    let answer = output::proofgame::shortest_answer(pos, &found)?;
    if want_pgn {
        let games = proofgame::pgn(pos, &found.found.games).map_err(CliError::Internal)?;
        pgn.lock()
            .map_err(|_| CliError::Internal("the PGN buffer was poisoned".into()))?
            .push_str(&games);
    }
    Ok(answer)
}

/// Writes the games gathered to the `--pgn` file (standard output for `-`), whole or not at all.
/// A failure is one line on stderr and exit status 1, never a second JSON document: the answers
/// were printed already.
fn write_pgn(file: Option<&Path>, pgn: &std::sync::Mutex<String>) -> Result<(), CliError> {
    let Some(file) = file else {
        return Ok(());
    };
    let pgn = pgn
        .lock()
        .map_err(|_| CliError::Internal("the PGN buffer was poisoned".into()))?;
    if file == Path::new("-") {
        return output::print(&pgn);
    }
    crate::files::write_atomic(file, &pgn).map_err(CliError::WriteFailed)
}
