//! `keliya simulate`: many seeded games, in parallel, with statistics and optional records.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use keliya_play::RunError;
use keliya_play::SimulationStats;
use keliya_play::record::{ENGINE_VERSION, RecordWriter};
use keliya_play::simulate::{Detail, simulate_each, wilson};
use serde_json::{Map, Value, json};

use crate::{CliError, load_game};

#[derive(clap::Args)]
pub struct SimulateArgs {
    /// A ruleset name or path.
    ruleset: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Master seed; game i uses a seed derived from (seed, i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Agents per seat, comma-separated, in player order: random, greedy, mcts[:iterations=N,c=X,depth=D].
    /// One agent serves every seat.
    #[arg(long, default_value = "random")]
    agents: String,
    /// Worker threads. Results are the same for any count.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Write every game to this JSON Lines file (atomically).
    #[arg(long)]
    record: Option<PathBuf>,
    /// Check the ruleset's invariants after every throw and move; exit 1 naming the game and step if one
    /// breaks.
    #[arg(long)]
    check: bool,
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,
}

/// Splits `mcts:iterations=5,c=1,random` into agent specs: a comma starts a new agent unless it continues
/// the options (`key=value`) of the one before.
pub fn split_agents(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match out.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

pub fn run(args: SimulateArgs) -> Result<(), CliError> {
    let c = load_game(&args.ruleset)?;
    let game = c.game();
    let specs = split_agents(&args.agents);
    if specs.is_empty() {
        return Err(CliError::Message(
            "--agents names no agent; give random, greedy or mcts[:...], one per seat".into(),
        ));
    }
    if args.threads == 0 || args.threads > 256 {
        return Err(CliError::Message("--threads takes 1 to 256".into()));
    }
    // No statistics can be made of no game (and `diff --simulate 0` is refused alike).
    if args.games == 0 {
        return Err(CliError::Message("--games takes at least 1".into()));
    }
    let done = AtomicU64::new(0);
    let show = std::io::stderr().is_terminal() && args.games >= 20;
    let progress = || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if show && (n.is_multiple_of((args.games / 100).max(1)) || n == args.games) {
            err!("\r{n}/{} games", args.games);
        }
    };
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
        args.games,
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
    if show {
        errln!();
    }
    if let (Some(path), Some(w)) = (&args.record, writer) {
        w.finish().map_err(|e| record_error(path, e))?;
    }
    let agents = agents.unwrap_or(specs);
    let names: Vec<String> = sides.iter().map(|s| s.name.clone()).collect();
    if args.json {
        let mut v = stats_json(&stats, &names);
        if !game.teams.is_empty() {
            v["teams"] = json!(
                sides
                    .iter()
                    .map(|s| (s.name.clone(), json!(team_players(game, s))))
                    .collect::<Map<_, _>>()
            );
        }
        v["ruleset"] = json!(c.info.name);
        v["ruleset_hash"] = json!(c.hash);
        v["agents"] = json!(agents);
        v["threads"] = json!(args.threads);
        v["games_per_sec"] = json!(args.games as f64 / secs.max(1e-9));
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).expect("JSON serialises")
        );
    } else {
        outln!(
            "{} ({}): {} games, seed {}, agents {}",
            c.info.title,
            c.info.name,
            args.games,
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
            args.games as f64 / secs.max(1e-9),
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

/// The statistics as JSON, wins keyed by side (a player, or a team): deterministic for a seed (no timing
/// inside).
pub fn stats_json(stats: &SimulationStats, sides: &[String]) -> Value {
    let wins: Map<String, Value> = sides
        .iter()
        .zip(&stats.wins)
        .map(|(p, w)| (p.clone(), json!(w)))
        .collect();
    let rates: Map<String, Value> = sides
        .iter()
        .zip(&stats.wins)
        .map(|(p, &w)| {
            let (lo, hi) = wilson(w, stats.games);
            (
                p.clone(),
                json!({"rate": w as f64 / stats.games.max(1) as f64, "ci95": [lo, hi]}),
            )
        })
        .collect();
    json!({
        "games": stats.games,
        "seed": stats.seed,
        "wins": wins,
        "win_rates": rates,
        "draws": stats.draws,
        "capped": stats.capped,
        "mean_plies": stats.mean_plies(),
        "plies": {
            "min": stats.plies_quantile(0.0),
            "p25": stats.plies_quantile(0.25),
            "median": stats.plies_quantile(0.5),
            "p75": stats.plies_quantile(0.75),
            "max": stats.plies_quantile(1.0),
        },
        "mean_captures": stats.mean_captures(),
        "endings": stats.endings.iter().map(|(n, k)| (n.clone(), json!(k))).collect::<Map<_, _>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::split_agents;

    #[test]
    fn agent_lists_split_on_commas_between_agents_only() {
        assert_eq!(split_agents("random,greedy"), ["random", "greedy"]);
        assert_eq!(
            split_agents("mcts:iterations=50,c=1.2,random"),
            ["mcts:iterations=50,c=1.2", "random"]
        );
        assert_eq!(
            split_agents("random, mcts:iterations=9"),
            ["random", "mcts:iterations=9"]
        );
    }
}
