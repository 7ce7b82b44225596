//! Game records: JSON Lines, one game per line, and their replay.
//!
//! A line holds the engine version, the ruleset's name and hash, the seed, the agents, every throw and move
//! (a throw as `throw:NAME`, a move in its notation) and the result. Files are written to a temporary name
//! and renamed into place, so a crash never leaves half a line.

use std::io::Write;
use std::path::Path;

use keliya_engine::{Game, State};
use serde_json::{Value, json};

use crate::simulate::{GameSummary, reason_name};

pub const THROW_PREFIX: &str = "throw:";
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    pub game: u64,
    pub engine: String,
    pub ruleset: String,
    pub ruleset_hash: String,
    pub seed: u64,
    pub agents: Vec<String>,
    pub moves: Vec<String>,
    pub winner: Option<String>,
    /// The winner's team, when the ruleset puts the winner in one (`teams:`).
    pub team: Option<String>,
    pub summary: GameSummary,
}

impl GameRecord {
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "engine": if self.engine.is_empty() { ENGINE_VERSION } else { &self.engine },
            "ruleset": self.ruleset,
            "ruleset_hash": self.ruleset_hash,
            "game": self.game,
            "seed": self.seed,
            "agents": self.agents,
            "moves": self.moves,
            "result": {
                "winner": self.winner,
                "reason": self.summary.reason,
                "capped": self.summary.capped,
                "plies": self.summary.plies,
                "captures": self.summary.captures,
            },
        });
        // Only in a game with teams, so that other records stay as they were.
        if let Some(team) = &self.team {
            v["result"]["team"] = json!(team);
        }
        v
    }

    pub fn from_json(v: &Value) -> Result<GameRecord, String> {
        let s = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("missing `{k}`"))
        };
        let u = |k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("missing `{k}`"))
        };
        let list = |k: &str| -> Result<Vec<String>, String> {
            v.get(k)
                .and_then(Value::as_array)
                .ok_or_else(|| format!("missing `{k}`"))?
                .iter()
                .map(|x| {
                    x.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("`{k}` holds strings"))
                })
                .collect()
        };
        let result = v.get("result").ok_or("missing `result`")?;
        Ok(GameRecord {
            game: u("game")?,
            engine: s("engine")?,
            ruleset: s("ruleset")?,
            ruleset_hash: s("ruleset_hash")?,
            seed: u("seed")?,
            agents: list("agents")?,
            moves: list("moves")?,
            winner: result
                .get("winner")
                .and_then(Value::as_str)
                .map(str::to_string),
            team: result
                .get("team")
                .and_then(Value::as_str)
                .map(str::to_string),
            summary: GameSummary {
                winner: None,
                reason: result
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                capped: result
                    .get("capped")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                plies: result.get("plies").and_then(Value::as_u64).unwrap_or(0) as u32,
                captures: result.get("captures").and_then(Value::as_u64).unwrap_or(0) as u32,
            },
        })
    }
}

/// Writes records as JSON Lines, atomically (temporary file, flush, sync, rename).
pub fn write_records(path: &Path, records: &[GameRecord]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for r in records {
            let line = serde_json::to_string(&r.to_json()).expect("records serialise");
            f.write_all(line.as_bytes())?;
            f.write_all(b"\n")?;
        }
        f.flush()?;
        f.get_ref().sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Reads a JSON Lines record file; a line that is not a record is an error naming its line.
pub fn read_records(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("line {}: not JSON: {e}", i + 1))?;
        out.push(GameRecord::from_json(&v).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(out)
}

/// Replays a record against the game, checking every throw and move; returns the states after each ply
/// (index 0 is the initial position). An illegal step is an error naming the ply.
pub fn replay(game: &Game, record: &GameRecord) -> Result<Vec<State>, String> {
    let mut states = vec![game.initial_state()];
    let mut st = states[0].clone();
    for (k, step) in record.moves.iter().enumerate() {
        let ply = k + 1;
        if let Some(name) = step.strip_prefix(THROW_PREFIX) {
            if !st.chance_due {
                return Err(format!("step {ply}: throw `{name}` where no throw is due"));
            }
            let rows = game
                .throws
                .as_ref()
                .ok_or_else(|| format!("step {ply}: this ruleset has no throws"))?;
            let i = rows
                .iter()
                .position(|r| r.name == name)
                .ok_or_else(|| format!("step {ply}: unknown throw `{name}`"))?;
            st = game.apply_chance(&st, i as u8);
        } else {
            if st.chance_due {
                return Err(format!("step {ply}: move `{step}` where a throw is due"));
            }
            if st.result.is_some() {
                return Err(format!("step {ply}: move `{step}` after the game ended"));
            }
            let mv = game
                .parse_move(&st, step)
                .map_err(|e| format!("step {ply}: {e}"))?
                .ok_or_else(|| format!("step {ply}: `{step}` is not a legal move"))?;
            st = game
                .apply(&st, &mv)
                .map_err(|e| format!("step {ply}: {e}"))?;
        }
        states.push(st.clone());
    }
    let Some(outcome) = st.result else {
        return Err(format!(
            "the game is not over after its {} recorded steps",
            record.moves.len()
        ));
    };
    let winner = outcome
        .winner
        .map(|w| game.players[w as usize].name.clone());
    let (reason, _) = reason_name(game, outcome.reason);
    if winner != record.winner || reason != record.summary.reason {
        return Err(format!(
            "the replay ends with {} ({reason}), the record says {} ({})",
            winner.as_deref().unwrap_or("a draw"),
            record.winner.as_deref().unwrap_or("a draw"),
            record.summary.reason
        ));
    }
    Ok(states)
}
