//! Game records: JSON Lines, one game per line, and their replay.
//!
//! A line holds the engine version, the ruleset's name and hash, the seed, the agents, every throw and move
//! (a throw as `throw:NAME`, a move in its notation) and the result. Files are written to a temporary name
//! and renamed into place, so a crash never leaves half a line.

use std::io::{Seek, Write};
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
    /// Every throw and move, as the record writes them.
    pub moves: Steps,
    pub winner: Option<String>,
    /// The winner's team, when the ruleset puts the winner in one (`teams:`).
    pub team: Option<String>,
    pub summary: GameSummary,
}

impl GameRecord {
    /// The record as JSON, its steps in a list. (A record file is written by [`RecordWriter`], which
    /// writes the steps of a long game from where they are kept, never a list of them all at once.)
    pub fn to_json(&self) -> Value {
        let mut v = self.to_json_without_steps();
        v["moves"] = json!(self.moves.to_vec().unwrap_or_default());
        v
    }

    /// The record as JSON with an empty list of steps.
    fn to_json_without_steps(&self) -> Value {
        let mut v = json!({
            "engine": if self.engine.is_empty() { ENGINE_VERSION } else { &self.engine },
            "ruleset": self.ruleset,
            "ruleset_hash": self.ruleset_hash,
            "game": self.game,
            "seed": self.seed,
            "agents": self.agents,
            "moves": [],
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

    /// Writes the record as one line of JSON (the text of `to_json`, byte for byte), its steps copied
    /// from where they are kept.
    pub fn write_line(&self, out: &mut impl Write) -> std::io::Result<()> {
        let line = serde_json::to_string(&self.to_json_without_steps()).expect("records serialise");
        // The keys are written in order and the only place the exact text `"moves":[]` can stand is
        // the key itself (a `"` inside a string is written `\"`).
        let (before, after) = line
            .split_once(r#""moves":[]"#)
            .expect("a record has its list of steps");
        out.write_all(before.as_bytes())?;
        out.write_all(br#""moves":"#)?;
        self.moves.write_json(out)?;
        out.write_all(after.as_bytes())?;
        out.write_all(b"\n")
    }

    pub fn from_json(v: &Value) -> Result<GameRecord, String> {
        // A key that is there with a value of the wrong kind is told apart from a missing one.
        let wrong = |k: &str, what: &str| match v.get(k) {
            None => format!("missing `{k}`"),
            Some(found) => format!("`{k}` must be {what}, found {found}"),
        };
        let s = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| wrong(k, "a string"))
        };
        let u = |k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| wrong(k, "a whole number from 0"))
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
            moves: Steps::from(list("moves")?),
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

/// Writes records as JSON Lines, atomically (see [`RecordWriter`]).
pub fn write_records(path: &Path, records: &[GameRecord]) -> std::io::Result<()> {
    let mut writer = RecordWriter::create(path)?;
    for r in records {
        writer.write(r)?;
    }
    writer.finish()
}

/// A record file being written, one game at a time, so that a run of any length holds no more than the
/// games in hand. The lines go to a temporary file beside `path`, made new (never one that stood there
/// before, never through a link); [`RecordWriter::finish`] flushes and syncs it and renames it over
/// `path`. Whatever fails before that (a full disk, a game that fails, a dropped writer) removes the
/// temporary file and leaves `path` as it was.
pub struct RecordWriter {
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl RecordWriter {
    /// Refuses a `path` that stands and is not a regular file (a link, a folder, a FIFO, a device), which
    /// the rename would replace: only a regular file is ever replaced.
    pub fn create(path: &Path) -> std::io::Result<Self> {
        refuse_unless_regular(path)?;
        let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        Ok(RecordWriter {
            path: path.to_path_buf(),
            tmp,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    /// Appends one game, as one line.
    pub fn write(&mut self, record: &GameRecord) -> std::io::Result<()> {
        let f = self.file.as_mut().expect("not finished");
        record.write_line(f)
    }

    /// Flushes, syncs and renames the file into place.
    pub fn finish(mut self) -> std::io::Result<()> {
        let mut f = self.file.take().expect("finished once");
        f.flush()?;
        f.get_ref().sync_all()?;
        drop(f);
        // Looked at again: something may have been put at `path` while the games ran.
        refuse_unless_regular(&self.path)?;
        std::fs::rename(&self.tmp, &self.path)
    }
}

impl Drop for RecordWriter {
    /// The temporary file goes with a writer that did not finish, or whose rename failed.
    fn drop(&mut self) {
        self.file = None;
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// An error unless nothing stands at `path` or a regular file does (a link is not followed).
fn refuse_unless_regular(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => Err(std::io::Error::other(format!(
            "not a regular file ({}); a record replaces only a regular file",
            kind_of(&m.file_type())
        ))),
        _ => Ok(()),
    }
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else {
        "a device, FIFO or socket"
    }
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
/// (index 0 is the initial position). An illegal step is an error naming the ply. (Every position is
/// kept, each with its repetition history: a check alone is [`replay_each`].)
pub fn replay(game: &Game, record: &GameRecord) -> Result<Vec<State>, String> {
    let mut states = Vec::new();
    replay_each(game, record, |st| states.push(st.clone()))?;
    Ok(states)
}

/// [`replay`], handing each position to `each` in turn (the initial one first) instead of keeping
/// them: the game is played on one position changed in place, so a check of a long game needs the
/// memory of one position, and a step costs the same however long the game has run.
pub fn replay_each(
    game: &Game,
    record: &GameRecord,
    mut each: impl FnMut(&State),
) -> Result<(), String> {
    let mut st = game.initial_state();
    each(&st);
    let mut found = keliya_engine::Successors::new();
    let moves = record.moves.to_vec().map_err(|e| e.to_string())?;
    for (k, step) in moves.iter().enumerate() {
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
            game.throw_in_place(&mut st, i as u8);
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
            // Played from the legal moves' own list, on the position in place: `apply` would copy
            // the position, and with it the repetition history, at every step.
            game.successors_into(&st, &mut found)
                .map_err(|e| format!("step {ply}: {e}"))?;
            let i = (0..found.len())
                .find(|&i| found.mv(i).as_ref() == Some(&mv))
                .ok_or_else(|| format!("step {ply}: `{step}` is not a legal move"))?;
            game.advance_found_in_place(&mut st, &found, i)
                .map_err(|e| format!("step {ply}: {e}"))?;
        }
        each(&st);
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
    Ok(())
}

/// The steps of a game (throws and moves) as a record writes them: the text of the record's list of
/// steps, each a JSON string. A played game adds a step at a time; past [`Steps::SPILL_BYTES`] of text,
/// the text goes on in a temporary file of its own (removed from its folder as soon as it is made, so
/// nothing is left behind whatever happens), and a game of any length holds that much text at most.
pub struct Steps {
    count: usize,
    /// The steps not written out, each a JSON string, a comma before every one but the first.
    text: String,
    /// The text of the earlier steps, when there is more than fits in memory.
    spill: Option<std::fs::File>,
    /// Why the text could not be written out: reported when the steps are read.
    failed: Option<String>,
}

impl Steps {
    /// Text held in memory before it is written out.
    pub const SPILL_BYTES: usize = 1 << 20;

    pub const fn new() -> Steps {
        Steps {
            count: 0,
            text: String::new(),
            spill: None,
            failed: None,
        }
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Adds a step.
    pub fn push(&mut self, step: &str) {
        if self.count > 0 {
            self.text.push(',');
        }
        self.count += 1;
        // A string always serialises.
        if let Ok(json) = serde_json::to_string(step) {
            self.text.push_str(&json);
        }
        if self.text.len() >= Self::SPILL_BYTES {
            self.spill_text();
        }
    }

    /// Moves the text held in memory to the temporary file (made the first time).
    fn spill_text(&mut self) {
        if self.failed.is_none() {
            let written = match &mut self.spill {
                Some(f) => f.write_all(self.text.as_bytes()),
                None => unnamed_file().and_then(|mut f| {
                    f.write_all(self.text.as_bytes())?;
                    self.spill = Some(f);
                    Ok(())
                }),
            };
            if let Err(e) = written {
                self.failed = Some(format!("the steps of a game could not be kept: {e}"));
            }
        }
        self.text.clear();
    }

    /// The whole text of the steps, as the record's list holds them, to `out`.
    fn copy_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        if let Some(why) = &self.failed {
            return Err(std::io::Error::other(why.clone()));
        }
        if let Some(mut f) = self.spill.as_ref() {
            f.seek(std::io::SeekFrom::Start(0))?;
            std::io::copy(&mut f, out)?;
            f.seek(std::io::SeekFrom::End(0))?;
        }
        out.write_all(self.text.as_bytes())
    }

    /// The steps as a JSON list, written to `out`.
    pub fn write_json(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(b"[")?;
        self.copy_text(out)?;
        out.write_all(b"]")
    }

    /// Every step, read back.
    pub fn to_vec(&self) -> std::io::Result<Vec<String>> {
        let mut list = Vec::new();
        self.write_json(&mut list)?;
        serde_json::from_slice(&list).map_err(std::io::Error::other)
    }
}

/// A new file for scratch data, with no name left in any folder: made in the temporary folder and
/// removed from it at once (the open file stays). Where a file that is open cannot be removed, the
/// name stays until the file is dropped ([`Steps`] then removes nothing: the folder's own clean-up does).
fn unnamed_file() -> std::io::Result<std::fs::File> {
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("keliya-steps-{}-{n}.tmp", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    Ok(file)
}

impl Default for Steps {
    fn default() -> Self {
        Steps::new()
    }
}

impl From<Vec<String>> for Steps {
    fn from(list: Vec<String>) -> Self {
        let mut steps = Steps::new();
        for step in &list {
            steps.push(step);
        }
        steps
    }
}

impl Clone for Steps {
    /// A copy in memory (a long game's steps are read back from their file).
    fn clone(&self) -> Self {
        let mut text = Vec::new();
        let failed = self.copy_text(&mut text).err().map(|e| e.to_string());
        Steps {
            count: self.count,
            text: String::from_utf8(text).unwrap_or_default(),
            spill: None,
            failed: self.failed.clone().or(failed),
        }
    }
}

impl PartialEq for Steps {
    fn eq(&self, other: &Self) -> bool {
        self.count == other.count
            && match (self.to_vec(), other.to_vec()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
    }
}

impl std::fmt::Debug for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_vec() {
            Ok(list) => f.debug_list().entries(list).finish(),
            Err(e) => write!(f, "<{} steps: {e}>", self.count),
        }
    }
}

#[cfg(test)]
mod writer_tests {
    use super::*;

    fn temporary_files(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .expect("readable")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    /// Steps past what is kept in memory go on in their file, and come back as they went in: the list,
    /// the record's line (byte for byte what `to_json` writes), a copy, the comparison.
    #[test]
    fn steps_past_memory_are_written_as_a_list_of_them_would_be() {
        let list: Vec<String> = (0..200_000)
            .map(|i| match i % 3 {
                0 => format!("throw:\"{i}\""),
                1 => format!("r{i}c1-r{i}c2 é"),
                _ => "pass".to_string(),
            })
            .collect();
        let steps = Steps::from(list.clone());
        assert!(steps.spill.is_some(), "the text went to its file");
        assert!(steps.text.len() < Steps::SPILL_BYTES);
        assert_eq!(steps.len(), list.len());
        assert_eq!(steps.to_vec().expect("read back"), list);
        let record = GameRecord {
            agents: vec!["random".into()],
            ruleset: r#"a "moves":[] name"#.into(),
            moves: steps,
            ..GameRecord::default()
        };
        let mut line = Vec::new();
        record.write_line(&mut line).expect("written");
        let mut whole = serde_json::to_string(&record.to_json()).expect("serialises");
        whole.push('\n');
        assert_eq!(String::from_utf8(line).expect("text"), whole);
        // Written twice: the file is read from its start each time.
        let mut again = Vec::new();
        record.write_line(&mut again).expect("written");
        assert_eq!(String::from_utf8(again).expect("text"), whole);
        let copy = record.clone();
        assert!(copy.moves.spill.is_none());
        assert_eq!(copy, record);
    }

    /// A writer that does not finish, or whose rename is refused, takes its temporary file with it and
    /// leaves the file it was to replace as it was.
    #[test]
    fn a_failed_write_leaves_no_temporary_file_and_the_old_file_whole() {
        let dir = std::env::temp_dir().join(format!("keliya-writer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("games.jsonl");
        std::fs::write(&path, "old\n").expect("written");
        let record = GameRecord::default();
        {
            let mut w = RecordWriter::create(&path).expect("created");
            w.write(&record).expect("written");
            assert_eq!(temporary_files(&dir).len(), 1);
        }
        assert!(temporary_files(&dir).is_empty());
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), "old\n");
        // Something that is not a regular file put in its place while the games ran: refused too.
        let mut w = RecordWriter::create(&path).expect("created");
        w.write(&record).expect("written");
        std::fs::remove_file(&path).expect("removed");
        std::fs::create_dir(&path).expect("a folder in its place");
        assert!(w.finish().is_err());
        assert!(temporary_files(&dir).is_empty());
        assert!(path.is_dir());
        std::fs::remove_dir_all(&dir).ok();
    }
}
