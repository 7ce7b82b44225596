//! `keliya bench`: random playouts per second per ruleset, after a warm-up. Single-threaded by default.

use std::time::{Duration, Instant};

use keliya_play::{Dice, play_random_game};
use serde_json::json;

use crate::{CliError, load_game};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Ruleset names or paths.
    #[arg(required = true)]
    rulesets: Vec<String>,
    /// Measured seconds per ruleset (after a warm-up of a fifth of that, at least one second).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Threads playing at once; playouts per second are summed over them.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// One JSON object per ruleset, one per line.
    #[arg(long)]
    json: bool,
}

struct Measured {
    playouts: u64,
    plies: u64,
    secs: f64,
}

fn run_for(
    game: &keliya_engine::Game,
    seconds: f64,
    first_seed: u64,
) -> Result<Measured, CliError> {
    let start = Instant::now();
    let limit = Duration::from_secs_f64(seconds);
    let (mut playouts, mut plies) = (0u64, 0u64);
    while start.elapsed() < limit {
        let (summary, _) = play_random_game(game, Dice::game_seed(first_seed, playouts))
            .map_err(crate::engine_error)?;
        playouts += 1;
        plies += summary.plies as u64;
    }
    Ok(Measured {
        playouts,
        plies,
        secs: start.elapsed().as_secs_f64(),
    })
}

/// Peak resident memory of this process in KiB, where the system tells it.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn run(args: BenchArgs) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err(CliError::Message(
            "--seconds takes a number from 0 to 3600".into(),
        ));
    }
    if args.threads == 0 || args.threads > 256 {
        return Err(CliError::Message("--threads takes 1 to 256".into()));
    }
    for name in &args.rulesets {
        let c = load_game(name)?;
        let game = c.game();
        let warm = (args.seconds / 5.0).max(1.0).min(args.seconds);
        run_for(game, warm, u64::MAX)?;
        let results: Vec<Result<Measured, CliError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..args.threads)
                .map(|t| scope.spawn(move || run_for(game, args.seconds, t as u64)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(CliError::Message("a bench thread failed".into())))
                })
                .collect()
        });
        let (mut playouts, mut plies, mut secs) = (0u64, 0u64, 0f64);
        for r in results {
            let m = r?;
            playouts += m.playouts;
            plies += m.plies;
            secs = secs.max(m.secs);
        }
        let per_sec = playouts as f64 / secs;
        let moves_per_sec = plies as f64 / secs;
        let mean_plies = plies as f64 / playouts.max(1) as f64;
        let memory = peak_memory_kib();
        if args.json {
            outln!(
                "{}",
                json!({
                    "ruleset": c.info.name,
                    "playouts_per_sec": per_sec,
                    "moves_per_sec": moves_per_sec,
                    "mean_plies": mean_plies,
                    "playouts": playouts,
                    "seconds": secs,
                    "threads": args.threads,
                    "peak_memory_kib": memory,
                })
            );
        } else {
            outln!(
                "{:<34} {:>10.0} playouts/s  {:>11.0} moves/s  {:>6.1} plies/game  {} thread(s)  peak {}",
                c.info.name,
                per_sec,
                moves_per_sec,
                mean_plies,
                args.threads,
                memory.map_or("?".to_string(), |m| format!("{:.1} MiB", m as f64 / 1024.0))
            );
        }
    }
    Ok(())
}
