//! `keliya bench`: random playouts per second per ruleset, after a warm-up. Single-threaded by default.

use std::time::{Duration, Instant};

use keliya_play::{Dice, play_random_game_in};
use serde_json::json;

use crate::CliError;
use crate::backend::load_game_on;
use crate::progress::Progress;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Ruleset names or paths.
    #[arg(required = true)]
    rulesets: Vec<String>,
    /// Measured seconds per ruleset, more than 0 and at most 3600 (after a warm-up of a fifth of that, at
    /// least one second).
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    seconds: f64,
    /// Threads playing at once, 1 to 256; playouts per second are summed over them.
    #[arg(long, default_value_t = 1, value_parser = crate::simulate::threads)]
    threads: usize,
    /// Rounds the measured seconds are split into, 1 to 1000; the median round is reported, with the
    /// slowest and the fastest.
    #[arg(long, default_value_t = 1, value_parser = rounds)]
    rounds: usize,
    /// One JSON object per ruleset, one per line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    backend: crate::backend::BackendArg,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("a number of seconds above 0 and at most 3600".into()),
    }
}

fn rounds(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(n),
        _ => Err("a whole number from 1 to 1000".into()),
    }
}

struct Measured {
    playouts: u64,
    plies: u64,
    secs: f64,
}

/// The bar a thread moves while it measures, and how many milliseconds of the run came before.
type Ticker<'p> = Option<(&'p Progress, u64)>;

fn run_for(
    game: &keliya_engine::Game,
    seconds: f64,
    first_seed: u64,
    ticker: Ticker<'_>,
) -> Result<Measured, CliError> {
    let start = Instant::now();
    let limit = Duration::from_secs_f64(seconds);
    let (mut playouts, mut plies) = (0u64, 0u64);
    // One list of moves for every playout of the thread.
    let mut found = keliya_engine::Successors::new();
    while start.elapsed() < limit {
        if let Some((bar, before)) = ticker
            && playouts % 64 == 0
        {
            bar.at_millis(before + start.elapsed().as_millis() as u64);
        }
        let (summary, _) =
            play_random_game_in(game, Dice::game_seed(first_seed, playouts), &mut found)
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

/// One round: `threads` threads playing at once for `seconds`, their playouts and plies summed. Each
/// thread of each round plays its own seeds.
fn run_round(
    game: &keliya_engine::Game,
    seconds: f64,
    threads: usize,
    round: usize,
    ticker: Ticker<'_>,
) -> Result<Measured, CliError> {
    let results: Vec<Result<Measured, CliError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let first_seed = (round * threads + t) as u64;
                // The first thread alone moves the bar.
                let ticker = if t == 0 { ticker } else { None };
                scope.spawn(move || run_for(game, seconds, first_seed, ticker))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(CliError::Message("a bench thread failed".into())))
            })
            .collect()
    });
    let mut total = Measured {
        playouts: 0,
        plies: 0,
        secs: 0.0,
    };
    for r in results {
        let m = r?;
        total.playouts += m.playouts;
        total.plies += m.plies;
        total.secs = total.secs.max(m.secs);
    }
    Ok(total)
}

/// The middle of sorted figures (the mean of the two middle ones for an even count).
fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// A figure rounded to a whole number, its digits in groups of three (`2,962,740`).
fn grouped(figure: f64) -> String {
    let digits = format!("{:.0}", figure.max(0.0));
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Peak resident memory of this process in KiB, where the system tells it.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn run(args: BenchArgs) -> Result<(), CliError> {
    for name in &args.rulesets {
        let c = load_game_on(name, args.backend)?;
        let game = c.game();
        let warm = (args.seconds / 5.0).max(1.0).min(args.seconds);
        let bar = Progress::timed(warm + args.seconds, &c.info.name);
        run_for(game, warm, u64::MAX, Some((&bar, 0)))?;
        let round_secs = args.seconds / args.rounds as f64;
        let mut rounds = Vec::with_capacity(args.rounds);
        for round in 0..args.rounds {
            let before = ((warm + round_secs * round as f64) * 1000.0) as u64;
            rounds.push(run_round(
                game,
                round_secs,
                args.threads,
                round,
                Some((&bar, before)),
            )?);
        }
        bar.finish();
        let playouts: u64 = rounds.iter().map(|r| r.playouts).sum();
        let plies: u64 = rounds.iter().map(|r| r.plies).sum();
        let secs: f64 = rounds.iter().map(|r| r.secs).sum();
        let in_order: Vec<f64> = rounds.iter().map(|r| r.playouts as f64 / r.secs).collect();
        let sorted = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v
        };
        let per_round = sorted(in_order.clone());
        let per_sec = median(&per_round);
        let moves_per_sec = median(&sorted(
            rounds.iter().map(|r| r.plies as f64 / r.secs).collect(),
        ));
        let (slowest, fastest) = (per_round[0], per_round[per_round.len() - 1]);
        let mean_plies = plies as f64 / playouts.max(1) as f64;
        let memory = peak_memory_kib();
        let (generated, total) = game.compiled_programs();
        let (generated_conditions, conditions) = game.compiled_conditions();
        if args.json {
            outln!(
                "{}",
                json!({
                    "ruleset": c.info.name,
                    "playouts_per_sec": per_sec,
                    "playouts_per_sec_min": slowest,
                    "playouts_per_sec_max": fastest,
                    "playouts_per_sec_by_round": in_order,
                    "moves_per_sec": moves_per_sec,
                    "mean_plies": mean_plies,
                    "playouts": playouts,
                    "seconds": secs,
                    "rounds": args.rounds,
                    "threads": args.threads,
                    "peak_memory_kib": memory,
                    "backend": game.backend().name(),
                    "rule_programs": total,
                    "generated_programs": generated,
                    "turn_conditions": conditions,
                    "generated_conditions": generated_conditions,
                })
            );
        } else {
            // Three short lines, to fit a terminal of 80 columns: the ruleset, its figures, how
            // they were taken.
            let backend = match game.backend() {
                keliya_engine::Backend::Vm => "vm".to_string(),
                _ => format!("compiled {generated}/{total}"),
            };
            let threads = match args.threads {
                1 => "1 thread".to_string(),
                n => format!("{n} threads"),
            };
            let peak = memory.map_or("?".to_string(), |m| format!("{:.1} MiB", m as f64 / 1024.0));
            let spread = match args.rounds {
                1 => String::new(),
                n => format!(
                    "  median of {n} rounds ({}-{})",
                    grouped(slowest),
                    grouped(fastest)
                ),
            };
            outln!("{}", c.info.name);
            outln!(
                "  {} playouts/s  {} moves/s  {mean_plies:.1} plies a game",
                grouped(per_sec),
                grouped(moves_per_sec)
            );
            outln!("  {backend}  {threads}  peak {peak}{spread}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn figures_are_grouped_in_threes() {
        assert_eq!(super::grouped(0.0), "0");
        assert_eq!(super::grouped(999.4), "999");
        assert_eq!(super::grouped(1000.0), "1,000");
        assert_eq!(super::grouped(2_962_740.2), "2,962,740");
        assert_eq!(super::grouped(12_345_678_901.0), "12,345,678,901");
    }

    #[test]
    fn the_median_is_the_middle_figure_or_the_mean_of_the_two_middle_ones() {
        assert_eq!(super::median(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(super::median(&[1.0, 2.0, 3.0, 10.0]), 2.5);
        assert_eq!(super::median(&[4.0]), 4.0);
        assert_eq!(super::median(&[]), 0.0);
    }
}
