//! `keliya simulate`: many seeded games, in parallel, with statistics and optional records.

use std::path::PathBuf;

use keliya_play::RunError;
use keliya_play::SimulationStats;
use keliya_play::record::{ENGINE_VERSION, write_records};
use keliya_play::simulate::{Detail, simulate_records, wilson};
use serde_json::{Map, Value, json};

use crate::{CliError, load_game};

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
    let specs = agents_for_seats(game, split_agents(&args.agents))?;
    let bar = crate::progress::Progress::new(args.games, "games");
    let progress = || bar.step();
    let start = std::time::Instant::now();
    let mut records = simulate_records(
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
    })?;
    let secs = start.elapsed().as_secs_f64();
    bar.finish();
    for r in &mut records {
        r.engine = ENGINE_VERSION.into();
        // What the user named (a bundled name or a path), so `keliya replay` finds the same file again.
        r.ruleset = args.ruleset.clone();
        r.ruleset_hash = c.hash.clone();
    }
    if let Some(path) = &args.record {
        write_records(path, &records)
            .map_err(|e| CliError::Message(format!("{}: {e}", path.display())))?;
    }
    let summaries: Vec<_> = records.iter().map(|r| r.summary.clone()).collect();
    let sides = game.sides();
    let stats = SimulationStats::from_summaries(&summaries, args.seed, &sides);
    let names: Vec<String> = sides.iter().map(|s| s.name.clone()).collect();
    let agents: Vec<String> = records.first().map(|r| r.agents.clone()).unwrap_or(specs);
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
        eprintln!(
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
