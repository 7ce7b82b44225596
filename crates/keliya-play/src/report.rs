//! A run's statistics as JSON (what `keliya simulate --json` prints and Python's `keliya.simulate`
//! returns), and the merging of a run played in shards back into exactly the statistics of one run.
//!
//! A run of `games` games can be cut into `n` shards, each a block of consecutive game numbers
//! ([`shard_range`]). Game `i` is seeded from the run's seed and `i` alone, so a shard plays exactly the
//! games the whole run would, and [`merge_shards`] adds their counts up into the same JSON.

use std::ops::Range;

use keliya_engine::Game;
use serde_json::{Map, Value, json};

use crate::simulate::{SimulationStats, wilson};

/// What names a run besides its statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunMeta {
    /// The ruleset's name as loaded.
    pub ruleset: String,
    /// The stable hash of the resolved ruleset.
    pub ruleset_hash: String,
    /// The agents of the seats, as their texts.
    pub agents: Vec<String>,
}

/// Which part of a run a shard is: `index` from 1 to `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

impl Shard {
    /// Reads `K/N` (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is written K/N with 1 <= K <= N, e.g. 1/4; found `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let of: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || of == 0 || index > of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }
}

/// The game numbers of shard `shard` of a run of `games` games: consecutive blocks whose sizes differ by
/// at most one, in order, covering `0..games` once.
pub fn shard_range(games: u64, shard: Shard) -> Range<u64> {
    let cut = |k: u64| ((games as u128 * k as u128) / shard.of as u128) as u64;
    cut(shard.index - 1)..cut(shard.index)
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

/// The names of the game's sides, in [`Game::sides`] order.
pub fn side_names(game: &Game) -> Vec<String> {
    game.sides().into_iter().map(|s| s.name).collect()
}

/// Each team's players by name, for a ruleset with `teams`.
fn teams_json(game: &Game) -> Option<Value> {
    if game.teams.is_empty() {
        return None;
    }
    let teams: Map<String, Value> = game
        .sides()
        .iter()
        .map(|s| {
            let players: Vec<&str> = s
                .players
                .iter()
                .map(|&p| game.players[p as usize].name.as_str())
                .collect();
            (s.name.clone(), json!(players))
        })
        .collect();
    Some(Value::Object(teams))
}

fn with_meta(mut v: Value, teams: Option<Value>, meta: &RunMeta) -> Value {
    if let Some(teams) = teams {
        v["teams"] = teams;
    }
    v["ruleset"] = json!(meta.ruleset);
    v["ruleset_hash"] = json!(meta.ruleset_hash);
    v["agents"] = json!(meta.agents);
    v
}

/// A whole run's statistics with what names it: the JSON of `keliya simulate --json`, less the timing
/// fields (`threads`, `games_per_sec`) that the caller adds.
pub fn run_json(game: &Game, stats: &SimulationStats, meta: &RunMeta) -> Value {
    with_meta(stats_json(stats, &side_names(game)), teams_json(game), meta)
}

/// A shard's statistics ([`run_json`] of its games) with what [`merge_shards`] needs to add them up
/// exactly: which shard, the run's size, the sides in order, every game length with its count.
pub fn shard_json(
    game: &Game,
    stats: &SimulationStats,
    meta: &RunMeta,
    shard: Shard,
    games_total: u64,
) -> Value {
    let mut v = run_json(game, stats, meta);
    let counted: Vec<[u64; 2]> = stats.plies.iter().map(|(&p, &n)| [p as u64, n]).collect();
    v["shard"] = json!({
        "index": shard.index,
        "of": shard.of,
        "games_total": games_total,
        "sides": side_names(game),
        "plies_counts": counted,
        "total_captures": stats.total_captures,
    });
    v
}

/// Adds up the shards of one run (every shard `1..=N` once, in any order) into the JSON one run of all
/// its games gives: the same fields and values, but for the timing fields, which are the shards' sums
/// (`threads`, and `games_per_sec` as the throughput of the shards run side by side).
pub fn merge_shards(parts: &[Value]) -> Result<Value, String> {
    let first = parts.first().ok_or("nothing to merge")?;
    let shard_of = |v: &Value, i: usize| -> Result<(u64, u64, u64), String> {
        let s = v.get("shard").ok_or_else(|| {
            format!("part {}: not a shard's statistics (no `shard` field: run `simulate --shard K/N --json`)", i + 1)
        })?;
        let num = |key: &str| {
            s.get(key).and_then(Value::as_u64).ok_or_else(|| {
                format!(
                    "part {}: `shard.{key}` is missing or not a whole number",
                    i + 1
                )
            })
        };
        Ok((num("index")?, num("of")?, num("games_total")?))
    };
    let (_, of, games_total) = shard_of(first, 0)?;
    let same = ["ruleset", "ruleset_hash", "agents", "seed", "teams"];
    let mut seen = vec![false; of.min(1 << 20) as usize];
    for (i, v) in parts.iter().enumerate() {
        let (index, n, total) = shard_of(v, i)?;
        if n != of || total != games_total {
            return Err(format!(
                "part {}: shard {index}/{n} of {total} games does not belong to a run of {of} shards of {games_total} games",
                i + 1
            ));
        }
        for key in same {
            if v.get(key) != first.get(key) {
                return Err(format!(
                    "part {}: its `{key}` differs from the first part's: the shards are not of one run",
                    i + 1
                ));
            }
        }
        let slot = seen
            .get_mut(index as usize - 1)
            .ok_or_else(|| format!("part {}: shard index {index} out of 1..{of}", i + 1))?;
        if std::mem::replace(slot, true) {
            return Err(format!("shard {index}/{of} is given twice"));
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(format!(
            "shard {}/{of} is missing: a merge needs every shard of the run",
            missing + 1
        ));
    }
    let sides: Vec<String> = serde_json::from_value(first["shard"]["sides"].clone())
        .map_err(|_| "part 1: `shard.sides` is not a list of names".to_string())?;
    let mut stats = SimulationStats {
        seed: first["seed"].as_u64().ok_or("part 1: `seed` is missing")?,
        wins: vec![0; sides.len()],
        ..Default::default()
    };
    let mut threads = 0;
    let mut rate = 0.0;
    for (i, v) in parts.iter().enumerate() {
        let count = |key: &str| {
            v.get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("part {}: `{key}` is missing", i + 1))
        };
        stats.games += count("games")?;
        stats.draws += count("draws")?;
        stats.capped += count("capped")?;
        for (side, w) in sides.iter().zip(&mut stats.wins) {
            *w += v["wins"][side].as_u64().unwrap_or(0);
        }
        let pairs: Vec<[u64; 2]> = serde_json::from_value(v["shard"]["plies_counts"].clone())
            .map_err(|_| {
                format!(
                    "part {}: `shard.plies_counts` is not a list of pairs",
                    i + 1
                )
            })?;
        for [plies, n] in pairs {
            let plies = u32::try_from(plies)
                .map_err(|_| format!("part {}: a game length out of range", i + 1))?;
            *stats.plies.entry(plies).or_default() += n;
        }
        stats.total_captures += v["shard"]["total_captures"].as_u64().unwrap_or(0);
        if let Some(endings) = v["endings"].as_object() {
            for (name, k) in endings {
                let k = k.as_u64().unwrap_or(0);
                match stats.endings.iter_mut().find(|(n, _)| n == name) {
                    Some((_, c)) => *c += k,
                    None => stats.endings.push((name.clone(), k)),
                }
            }
        }
        threads += v["threads"].as_u64().unwrap_or(0);
        rate += v["games_per_sec"].as_f64().unwrap_or(0.0);
    }
    if stats.games != games_total || stats.plies.values().sum::<u64>() != games_total {
        return Err(format!(
            "the shards hold {} games, where the run has {games_total}",
            stats.games
        ));
    }
    let meta = RunMeta {
        ruleset: first["ruleset"].as_str().unwrap_or_default().to_string(),
        ruleset_hash: first["ruleset_hash"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        agents: serde_json::from_value(first["agents"].clone()).unwrap_or_default(),
    };
    let mut v = with_meta(
        stats_json(&stats, &sides),
        first.get("teams").cloned(),
        &meta,
    );
    if first.get("threads").is_some() {
        v["threads"] = json!(threads);
        v["games_per_sec"] = json!(rate);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_in_order() {
        for games in [1, 2, 7, 100, 1001] {
            for of in 1..=9 {
                let mut next = 0;
                for index in 1..=of {
                    let r = shard_range(games, Shard { index, of });
                    assert_eq!(r.start, next, "{games} games, shard {index}/{of}");
                    assert!(r.end - r.start <= games / of + 1);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn a_shard_is_read_as_k_of_n() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, of: 5 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
