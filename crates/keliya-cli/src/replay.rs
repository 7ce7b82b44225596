//! `keliya replay`: check a record file move by move; print a game or a position.

use std::path::PathBuf;

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

pub fn run(args: ReplayArgs) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.record)
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
        let name = args.ruleset.clone().unwrap_or_else(|| r.ruleset.clone());
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
