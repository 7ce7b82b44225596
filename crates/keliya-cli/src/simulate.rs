//! `keliya simulate`: many seeded games, in parallel, with statistics and optional records.

use std::path::PathBuf;

use keliya_play::RunError;
use keliya_play::SimulationStats;
use keliya_play::record::{ENGINE_VERSION, RecordWriter};
use keliya_play::report::{RunMeta, Shard, run_json, shard_json, shard_range};
use keliya_play::simulate::{Detail, simulate_each, wilson};
use serde_json::json;

use crate::CliError;
use crate::backend::load_game_on;

#[derive(clap::Args)]
pub struct SimulateArgs {
    /// A ruleset name or path.
    ruleset: String,
    /// Number of games (at least 1).
    #[arg(long, default_value_t = 100, value_parser = games)]
    games: u64,
    /// Master seed; game i uses a seed derived from (seed, i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Agents per seat, comma-separated, in player order: random, greedy, mcts[:iterations=N,c=X,depth=D].
    /// One agent serves every seat.
    #[arg(long, default_value = "random")]
    agents: String,
    /// Worker threads, 1 to 256. Results are the same for any count.
    #[arg(long, default_value_t = 1, value_parser = threads)]
    threads: usize,
    /// Write every game to this JSON Lines file (atomically); `--record` is the old spelling.
    #[arg(
        short = 'o',
        long = "output",
        visible_alias = "record",
        value_name = "FILE"
    )]
    record: Option<PathBuf>,
    /// Check the ruleset's invariants after every throw and move; exit 1 naming the game and step if one
    /// breaks.
    #[arg(long)]
    check: bool,
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,
    /// Play only shard K of N of the run (K from 1): its block of the run's game numbers, each game as
    /// the whole run plays it. `keliya merge` adds the shards' `--json` outputs (or records) up into
    /// exactly the whole run's.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    #[command(flatten)]
    backend: crate::backend::BackendArg,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text)
}

/// A number of games: statistics of no game mean nothing.
pub fn games(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("a whole number of games, at least 1".into()),
    }
}

/// `--threads`: 1 to 256.
pub fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err("a whole number from 1 to 256".into()),
    }
}

/// The agents for the seats of `game`: one for every seat, or one per seat (a usage error otherwise).
pub fn agents_for_seats(
    game: &keliya_engine::Game,
    specs: Vec<String>,
) -> Result<Vec<String>, CliError> {
    let seats = game.players.len();
    if specs.len() == 1 || specs.len() == seats {
        return Ok(specs);
    }
    Err(CliError::Usage(format!(
        "invalid value for '--agents': {} agents given for {seats} seats (give one for every seat, or {seats}, in player order: {})",
        specs.len(),
        game.players
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

pub use keliya_play::agents::split_agents;

pub fn run(args: SimulateArgs) -> Result<(), CliError> {
    let c = load_game_on(&args.ruleset, args.backend)?;
    let game = c.game();
    let specs = split_agents(&args.agents);
    if specs.is_empty() {
        return Err(CliError::Message(
            "--agents names no agent; give random, greedy or mcts[:...], one per seat".into(),
        ));
    }
    let specs = agents_for_seats(game, specs)?;
    let range = match args.shard {
        Some(shard) if shard.of > args.games => {
            return Err(CliError::Message(format!(
                "--shard {}/{} cuts {} games into more shards than games",
                shard.index, shard.of, args.games
            )));
        }
        Some(shard) => shard_range(args.games, shard),
        None => 0..args.games,
    };
    let played = range.end - range.start;
    let bar = crate::progress::Progress::new(played, "games");
    let progress = || bar.step();
    // The record file is opened before the first game (a path that may not be replaced is refused at
    // once), and each game is written down and counted as it comes, so memory does not grow with --games.
    let record_error =
        |path: &PathBuf, e: std::io::Error| CliError::Message(format!("{}: {e}", path.display()));
    let mut writer = match &args.record {
        Some(path) => Some(RecordWriter::create(path).map_err(|e| record_error(path, e))?),
        None => None,
    };
    // What the user named (a bundled name, or a path from the record's folder), so that `keliya replay`
    // finds the same file again.
    let recorded_ruleset = args
        .record
        .as_ref()
        .map(|p| crate::replay::ruleset_for_record(&args.ruleset, p))
        .unwrap_or_default();
    let sides = game.sides();
    let mut stats = SimulationStats::new(args.seed, &sides);
    let mut agents: Option<Vec<String>> = None;
    let start = std::time::Instant::now();
    simulate_each(
        game,
        range.clone(),
        args.seed,
        &specs,
        args.threads,
        Detail {
            keep_moves: args.record.is_some(),
            check_invariants: args.check,
        },
        &progress,
        &mut |mut r| {
            stats.add(&r.summary, &sides);
            agents.get_or_insert_with(|| r.agents.clone());
            if let Some(w) = writer.as_mut() {
                r.engine = ENGINE_VERSION.into();
                r.ruleset = recorded_ruleset.clone();
                r.ruleset_hash = c.hash.clone();
                w.write(&r).map_err(|e| e.to_string())?;
            }
            Ok(())
        },
    )
    .map_err(|e| match e {
        RunError::Game {
            game: i,
            error,
            failure,
        } => {
            let run =
                crate::GameOfRun::new(game, &error, (i, args.seed), "--games", failure.as_deref());
            crate::engine_error_in(&error, Some(&run))
        }
        RunError::Setup(message) => CliError::Message(message),
        RunError::Output(message) => match &args.record {
            Some(path) => CliError::Message(format!("{}: {message}", path.display())),
            None => CliError::Message(message),
        },
    })?;
    let secs = start.elapsed().as_secs_f64();
    bar.finish();
    if let (Some(path), Some(w)) = (&args.record, writer) {
        w.finish().map_err(|e| record_error(path, e))?;
    }
    let agents = agents.unwrap_or(specs);
    if args.json {
        let meta = RunMeta {
            ruleset: c.info.name.clone(),
            ruleset_hash: c.hash.clone(),
            agents: agents.clone(),
        };
        let mut v = match args.shard {
            Some(shard) => shard_json(game, &stats, &meta, shard, args.games),
            None => run_json(game, &stats, &meta),
        };
        v["threads"] = json!(args.threads);
        v["games_per_sec"] = json!(played as f64 / secs.max(1e-9));
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).expect("JSON serialises")
        );
    } else {
        let shard = args.shard.map_or(String::new(), |k| {
            format!(
                " (shard {}/{}: games {} to {})",
                k.index,
                k.of,
                range.start,
                range.end - 1
            )
        });
        outln!(
            "{} ({}): {} games{shard}, seed {}, agents {}",
            c.info.title,
            c.info.name,
            played,
            args.seed,
            agents.join(",")
        );
        // A team is shown with its players: `team_a (a, a2)`.
        let labels: Vec<String> = sides
            .iter()
            .map(|side| {
                if game.teams.is_empty() {
                    side.name.clone()
                } else {
                    format!("{} ({})", side.name, team_players(game, side).join(", "))
                }
            })
            .collect();
        let width = labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        for (name, w) in labels.iter().zip(&stats.wins) {
            let (lo, hi) = wilson(*w, stats.games);
            outln!(
                "  {name:<width$} wins {w:>7} ({:5.1}%, 95% CI {:.1}-{:.1}%)",
                pct(*w, stats.games),
                100.0 * lo,
                100.0 * hi
            );
        }
        outln!("  draws        {:>12}", stats.draws);
        outln!("  capped       {:>12}", stats.capped);
        outln!(
            "  plies        mean {:.1}, median {}, min {}, max {}",
            stats.mean_plies(),
            stats.plies_quantile(0.5),
            stats.plies_quantile(0.0),
            stats.plies_quantile(1.0)
        );
        outln!("  captures     {:.2} per game", stats.mean_captures());
        for (n, k) in &stats.endings {
            outln!("  ended by {n}: {k}");
        }
        errln!(
            "  {:.0} games/s on {} thread(s)",
            played as f64 / secs.max(1e-9),
            args.threads
        );
    }
    Ok(())
}

/// The names of a side's players.
fn team_players(game: &keliya_engine::Game, side: &keliya_engine::Side) -> Vec<String> {
    side.players
        .iter()
        .map(|&p| game.players[p as usize].name.clone())
        .collect()
}

fn pct(k: u64, n: u64) -> f64 {
    100.0 * k as f64 / n.max(1) as f64
}
