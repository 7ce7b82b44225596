//! `keliya merge`: the shards of one run (`simulate --shard K/N`), added up into exactly what one run of
//! all its games prints: their `--json` statistics, or their record files.

use std::path::PathBuf;

use keliya_play::record::{GameRecord, read_records, write_records};
use keliya_play::report::merge_shards;
use serde_json::Value;

use crate::CliError;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    keliya simulate RULESET --games 1000 --seed 7 --shard 1/2 --json > a.json\n  \
    keliya simulate RULESET --games 1000 --seed 7 --shard 2/2 --json > b.json\n  \
    keliya merge a.json b.json            # = simulate ... --games 1000 --seed 7 --json\n  \
    keliya merge a.jsonl b.jsonl -o all.jsonl  # the shards' --record files, as one run's")]
pub struct MergeArgs {
    /// The shards' outputs: every `simulate --shard K/N --json` of one run (any order), or every shard's
    /// `--record` file.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged statistics or records to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(args: MergeArgs) -> Result<(), CliError> {
    let mut texts = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Message(format!("{}: {e}", path.display())))?;
        texts.push((path, text));
    }
    // A statistics file is one JSON object over several lines; a record file has one game per line.
    let records = texts.iter().all(|(_, t)| {
        t.lines()
            .next()
            .is_some_and(|l| l.trim_start().starts_with('{') && l.trim_end().ends_with('}'))
    });
    if records {
        let mut games: Vec<GameRecord> = Vec::new();
        for (path, text) in &texts {
            let part = read_records(text)
                .map_err(|e| CliError::Message(format!("{}: {e}", path.display())))?;
            games.extend(part);
        }
        let games = in_run_order(games)?;
        return match &args.output {
            Some(path) => write_records(path, &games)
                .map_err(|e| CliError::Message(format!("{}: {e}", path.display()))),
            None => {
                for g in &games {
                    outln!("{}", g.to_json());
                }
                Ok(())
            }
        };
    }
    let mut parts = Vec::new();
    for (path, text) in &texts {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            CliError::Message(format!(
                "{}:{}:{}: not the JSON of `simulate --json`: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
        })?;
        parts.push(v);
    }
    let merged = merge_shards(&parts).map_err(CliError::Message)?;
    let text = serde_json::to_string_pretty(&merged).expect("JSON serialises");
    match &args.output {
        Some(path) => std::fs::write(path, format!("{text}\n"))
            .map_err(|e| CliError::Message(format!("{}: {e}", path.display()))),
        None => {
            outln!("{text}");
            Ok(())
        }
    }
}

/// The games of the shards in game order, checked to be one run's: one ruleset and set of agents, and
/// every game number from 0 once.
fn in_run_order(mut games: Vec<GameRecord>) -> Result<Vec<GameRecord>, CliError> {
    games.sort_by_key(|g| g.game);
    let Some(first) = games.first() else {
        return Err(CliError::Message("the record files hold no game".into()));
    };
    for (i, g) in games.iter().enumerate() {
        if g.ruleset_hash != first.ruleset_hash || g.agents != first.agents {
            return Err(CliError::Message(format!(
                "game {} was played with another ruleset or other agents than game {}: the files are not of one run",
                g.game, first.game
            )));
        }
        if g.game != i as u64 {
            let what = if g.game < i as u64 {
                "is given twice"
            } else {
                "is missing"
            };
            let missing = if g.game < i as u64 { g.game } else { i as u64 };
            return Err(CliError::Message(format!(
                "game {missing} {what}: a merge needs every shard of the run once"
            )));
        }
    }
    Ok(games)
}
