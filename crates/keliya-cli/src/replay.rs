//! `keliya replay`: check a record file move by move; print a game or a position.

use std::path::{Path, PathBuf};

use keliya_play::record::{read_records, replay};

use crate::{CliError, load_game, render};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A JSON Lines record file written by `keliya simulate --record` or `keliya play` (save).
    record: PathBuf,
    /// Print this game (its index in the file, from 0) move by move.
    #[arg(long)]
    game: Option<usize>,
    /// With --game: print the position after this many recorded steps instead (a throw is a step).
    #[arg(long)]
    ply: Option<usize>,
    /// Use this ruleset instead of the one named in the record (the hash must still match).
    #[arg(long)]
    ruleset: Option<String>,
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
        let states = replay(game, r)
            .map_err(|e| CliError::Message(format!("game {i} (record line {}): {e}", i + 1)))?;
        checked += 1;
        if args.game.is_some() {
            match args.ply {
                Some(k) => {
                    let Some(st) = states.get(k) else {
                        return Err(CliError::Message(format!(
                            "game {i} has {} plies",
                            states.len() - 1
                        )));
                    };
                    outln!(
                        "game {i}, after {k} steps ({} to move):",
                        game.players[st.to_move as usize].name
                    );
                    out!("{}", render::text(game, st));
                }
                None => {
                    outln!("game {i}: seed {}, agents {}", r.seed, r.agents.join(","));
                    for (k, step) in r.moves.iter().enumerate() {
                        outln!("{:>5}. {step}", k + 1);
                    }
                    outln!(
                        "result: {} ({})",
                        // (A team wins as a team, as `moves` says it.)
                        r.winner.as_deref().map_or("draw".to_string(), |w| {
                            format!("{} wins", r.team.as_deref().unwrap_or(w))
                        }),
                        r.summary.reason
                    );
                }
            }
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
    } else {
        outln!("{checked} game(s) replayed: every move legal, every result as recorded");
    }
    Ok(())
}
