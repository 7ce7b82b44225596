//! `keliya replay`: check a record file move by move; print a game or a position.

use std::path::{Path, PathBuf};

use keliya_engine::State;
use keliya_play::record::{GameRecord, THROW_PREFIX, read_records, replay, replay_each};
use keliya_play::state_json;

use crate::{CliError, load_game};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A JSON Lines record file written by `keliya simulate -o` or `keliya play` (save).
    record: PathBuf,
    /// Print this game (its index in the file, from 0) move by move: who moved, each throw, each move.
    #[arg(long)]
    game: Option<usize>,
    /// With --game: stop after this many recorded steps (a throw is a step) and draw the position there.
    #[arg(long, requires = "game")]
    ply: Option<usize>,
    /// With --game: draw the position at the end (or at --ply).
    #[arg(long, requires = "game")]
    board: bool,
    /// With --game: write the state at the end (or at --ply) to this file, for `moves --state` and
    /// `render --state`.
    #[arg(short, long, requires = "game", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Use this ruleset instead of the one named in the record (the hash must still match).
    #[arg(long)]
    ruleset: Option<String>,
    /// Print JSON: with --game the steps (player, kind, text) and the result; without, the games
    /// checked.
    #[arg(long)]
    json: bool,
}

/// What a record's `ruleset` field may name: a ruleset by name, or a file by a relative path under the
/// record's own folder (the form `simulate --record` writes). Anything else (an absolute path, a path
/// that climbs out with `..`) is refused unread, so that a record cannot make `replay` read, and echo in
/// its diagnostics, a file its maker chose.
fn recorded_ruleset(field: &str, record: &Path) -> Result<String, String> {
    use std::path::Component;
    let path = Path::new(field);
    let plain = !field.is_empty()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !plain {
        return Err(format!(
            "the record names its ruleset `{field}`, which is not a name nor a path under the \
             record's folder; give the ruleset with --ruleset"
        ));
    }
    if !keliya_rules::looks_like_path(field) {
        return Ok(field.to_string());
    }
    let folder = record.parent().unwrap_or(Path::new(""));
    Ok(folder.join(path).to_string_lossy().into_owned())
}

/// How `simulate --record` names `ruleset` in the record at `record`: a name as it is; a path as a path
/// from the record's folder, when the ruleset is under it (otherwise as given, and `replay` then needs
/// `--ruleset`).
pub fn ruleset_for_record(ruleset: &str, record: &Path) -> String {
    if !keliya_rules::looks_like_path(ruleset) {
        return ruleset.to_string();
    }
    let folder = match record.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (Ok(file), Ok(folder)) = (
        std::fs::canonicalize(ruleset),
        std::fs::canonicalize(folder),
    ) else {
        return ruleset.to_string();
    };
    match file.strip_prefix(&folder) {
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) => ruleset.to_string(),
    }
}

pub fn run(args: ReplayArgs) -> Result<(), CliError> {
    let text = crate::read_text(&args.record, crate::MAX_RECORD_BYTES)
        .map_err(|e| CliError::Message(format!("{}: {e}", args.record.display())))?;
    let records = read_records(&text)
        .map_err(|e| CliError::Message(format!("{}: {e}", args.record.display())))?;
    if records.is_empty() {
        return Err(CliError::Message(format!(
            "{}: no games in the file",
            args.record.display()
        )));
    }
    let mut compiled: Option<(String, keliya_rules::Compiled)> = None;
    let mut checked = 0;
    for (i, r) in records.iter().enumerate() {
        if args.game.is_some_and(|g| g != i) {
            continue;
        }
        let name = match &args.ruleset {
            Some(given) => given.clone(),
            None => recorded_ruleset(&r.ruleset, &args.record)
                .map_err(|e| CliError::Message(format!("game {i} (record line {}): {e}", i + 1)))?,
        };
        if compiled.as_ref().is_none_or(|(n, _)| *n != name) {
            compiled = Some((name.clone(), load_game(&name)?));
        }
        let (_, c) = compiled.as_ref().expect("loaded above");
        if r.ruleset_hash != c.hash {
            return Err(CliError::Message(format!(
                "game {i} (record line {}): recorded with ruleset `{}` hash {}, but `{name}` now has hash {}; refusing to replay",
                i + 1,
                r.ruleset,
                r.ruleset_hash,
                c.hash
            )));
        }
        let game = c.game();
        // A game saved unfinished from `play` has no result to check: its steps are checked as far as
        // they go.
        let unfinished = r.winner.is_none() && r.summary.reason.is_empty();
        let shown = args.game == Some(i);
        let states = if unfinished {
            r.moves
                .to_vec()
                .map_err(|e| e.to_string())
                .and_then(|moves| crate::play::replay_prefix(game, &moves))
        } else if shown {
            replay(game, r)
        } else {
            // Only checked: no position is kept, so a long game needs the memory of one.
            replay_each(game, r, |_| {}).map(|()| Vec::new())
        }
        .map_err(|e| CliError::Message(format!("game {i} (record line {}): {e}", i + 1)))?;
        checked += 1;
        if shown {
            show_game(&args, c, r, i, &states, unfinished)?;
        }
    }
    if let Some(g) = args.game {
        if g >= records.len() {
            return Err(CliError::Message(format!(
                "the file holds {} games (0 to {})",
                records.len(),
                records.len() - 1
            )));
        }
    } else if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"games": checked, "ok": true}))
                .expect("JSON values serialise")
        );
    } else {
        outln!("{checked} game(s) replayed: every move legal, every result as recorded");
    }
    Ok(())
}

/// One game, readable: each step with who made it, then the result, and the position if asked.
fn show_game(
    args: &ReplayArgs,
    c: &keliya_rules::Compiled,
    r: &GameRecord,
    i: usize,
    states: &[State],
    unfinished: bool,
) -> Result<(), CliError> {
    let game = c.game();
    let last = states.len() - 1;
    let upto = args.ply.unwrap_or(last);
    if upto > last {
        return Err(CliError::Message(format!(
            "game {i} has {last} steps; --ply takes 0 to {last}"
        )));
    }
    let mut steps = Vec::new();
    let moves = r
        .moves
        .to_vec()
        .map_err(|e| CliError::Message(e.to_string()))?;
    for (k, step) in moves.iter().enumerate().take(upto) {
        let before = &states[k];
        let who = game.players[before.to_move as usize].display.clone();
        let (kind, text) = match step.strip_prefix(THROW_PREFIX) {
            Some(name) => {
                let value = game
                    .throws
                    .as_deref()
                    .and_then(|rows| rows.iter().find(|row| row.name == name))
                    .map_or(String::new(), |row| format!(" ({})", row.value));
                ("throw", format!("throws {name}{value}"))
            }
            None => {
                let shown = game
                    .parse_move(before, step)
                    .ok()
                    .flatten()
                    .map_or(step.clone(), |m| {
                        crate::status::readable_move(game, &c.info.move_labels, &m)
                    });
                ("move", shown)
            }
        };
        steps.push((k + 1, who, kind, text, step.clone()));
    }
    let at = &states[upto];
    let result = if upto < last {
        format!("after {upto} of {last} steps")
    } else if unfinished {
        format!(
            "unfinished: {} to play",
            game.players[at.to_move as usize].display
        )
    } else {
        // (A team wins as a team, as `moves` says it.)
        let who = r.winner.as_deref().map_or("draw".to_string(), |w| {
            format!("{} wins", r.team.as_deref().unwrap_or(w))
        });
        format!("{who} ({})", r.summary.reason)
    };
    if let Some(path) = &args.output {
        let text = serde_json::to_string_pretty(&state_json::to_json(game, at))
            .expect("JSON values serialise");
        std::fs::write(path, text + "\n")
            .map_err(|e| CliError::Message(format!("{}: {e}", path.display())))?;
    }
    if args.json {
        let value = serde_json::json!({
            "game": i,
            "seed": r.seed,
            "agents": r.agents,
            "steps": steps.iter().map(|(k, who, kind, text, written)| serde_json::json!({
                "step": k, "player": who, "kind": kind, "text": text, "recorded": written,
            })).collect::<Vec<_>>(),
            "result": result,
            "unfinished": unfinished,
            "state": args.ply.is_some().then(|| state_json::to_json(game, at)),
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON values serialise")
        );
        return Ok(());
    }
    outln!("game {i}: seed {}, agents {}", r.seed, r.agents.join(","));
    for (k, who, kind, text, _) in &steps {
        match *kind {
            "throw" => outln!("{k:>5}. {who} {text}"),
            _ => outln!("{k:>5}. {who}: {text}"),
        }
    }
    outln!("result: {result}");
    if args.board || args.ply.is_some() {
        let figures = crate::status::figures(game, &c.info.display, at);
        let style = crate::text_board::Style {
            color: false,
            unicode: crate::text_board::Style::unicode_locale(),
            detail: false,
        };
        out!(
            "{}",
            crate::text_board::board(game, at, style, &figures.per_player)
        );
        if !figures.game.is_empty() {
            outln!("{}", figures.game);
        }
        if at.result.is_none() {
            outln!("{} to play", game.players[at.to_move as usize].display);
        }
    }
    Ok(())
}
