//! `keliya diff A B`: what changed between two rulesets, structurally, and with `--simulate N` what the
//! change does to play. The comparing is done by `keliya-diff`; this file loads, prints and sets the exit code.

use crate::CliError;
use crate::simulate::split_agents;
use keliya_diff::text::{diff_text, simulation_text};
use keliya_diff::{Side, SimOptions, SimulateError, Which};
use keliya_play::RunError;
use keliya_rules::{Catalog, Compiled, Loaded};

#[derive(clap::Args)]
pub struct DiffArgs {
    /// The first ruleset, a name or a path (the "before").
    a: String,
    /// The second ruleset, a name or a path (the "after").
    b: String,
    /// Print JSON: `{"changes": [...]}`, and `"simulation": {...}` with --simulate.
    #[arg(long)]
    json: bool,
    /// Exit with 1 when there are changes and 0 when there are none, as `git diff --exit-code` does.
    #[arg(long)]
    exit_code: bool,
    /// Also play N games of each ruleset and compare the results: win rates, first-player advantage,
    /// length, captures, capped games, with significance tests.
    #[arg(long, value_name = "N", value_parser = crate::simulate::games)]
    simulate: Option<u64>,
    /// Agents per seat for --simulate, comma-separated, in player order: random, greedy,
    /// mcts[:iterations=N,c=X,depth=D]. One agent serves every seat.
    #[arg(long, default_value = "random")]
    agents: String,
    /// Master seed for --simulate; game i of both rulesets uses a seed derived from (seed, i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads for --simulate, 1 to 256. Results are the same for any count.
    #[arg(long, default_value_t = 1, value_parser = crate::simulate::threads)]
    threads: usize,
    #[command(flatten)]
    backend: crate::backend::BackendArg,
}

pub fn run(args: DiffArgs) -> Result<(), CliError> {
    let (text, changed) = report(&args, &crate::catalog())?;
    crate::write_stdout(&text);
    if args.exit_code && changed {
        return Err(CliError::Reported);
    }
    Ok(())
}

fn load(catalog: &Catalog, what: &str) -> Result<Loaded, CliError> {
    let loaded = keliya_rules::load(catalog, what);
    if let Err(diags) = &loaded.result {
        for d in diags {
            err!("{}", crate::diagnostics::render(&loaded.sources, d));
        }
        errln!("{what}: {} problem(s) found", diags.len());
        return Err(CliError::Reported);
    }
    Ok(loaded)
}

/// The output, and whether there are structural changes.
fn report(args: &DiffArgs, catalog: &Catalog) -> Result<(String, bool), CliError> {
    let (mut la, mut lb) = (load(catalog, &args.a)?, load(catalog, &args.b)?);
    for loaded in [&mut la, &mut lb] {
        if let Ok(Compiled {
            game: Some(game), ..
        }) = &mut loaded.result
        {
            game.set_backend(args.backend.engine());
        }
    }
    let (a, b) = (
        Side::of(&la).expect("loaded"),
        Side::of(&lb).expect("loaded"),
    );
    let diff = keliya_diff::structural(a, b);
    let simulation = match args.simulate {
        None => None,
        Some(games) => {
            let library = |what: &str| {
                CliError::Message(format!(
                    "`{what}` is a library of shared rules, not a game: it cannot be simulated"
                ))
            };
            let ga = a.compiled.game.as_ref().ok_or_else(|| library(&args.a))?;
            let gb = b.compiled.game.as_ref().ok_or_else(|| library(&args.b))?;
            let options = SimOptions {
                games,
                seed: args.seed,
                agents: split_agents(&args.agents),
                threads: args.threads,
            };
            let bar = crate::progress::Progress::new(2 * games, "games");
            let progress = || bar.step();
            let sim = keliya_diff::simulate(
                (&a.compiled.info.name, ga),
                (&b.compiled.info.name, gb),
                &options,
                &progress,
            )
            .map_err(|e| {
                let SimulateError::Run {
                    which,
                    ruleset,
                    error:
                        RunError::Game {
                            game,
                            error,
                            failure,
                        },
                } = &e
                else {
                    return CliError::Message(e.to_string());
                };
                let (side, loaded, played) = match which {
                    Which::A => (&a, &la, ga),
                    Which::B => (&b, &lb, gb),
                };
                let game = crate::GameOfRun::new(
                    played,
                    error,
                    (*game, args.seed),
                    "--simulate",
                    failure.as_deref(),
                );
                match crate::engine_error_with(
                    error,
                    Some(&game),
                    &side.compiled.spans,
                    &loaded.sources,
                ) {
                    // Not located: which of the two rulesets, then.
                    CliError::Message(m) => CliError::Message(format!("{ruleset}: {m}")),
                    reported => reported,
                }
            })?;
            bar.finish();
            Some(sim)
        }
    };
    let changed = !diff.is_empty();
    let text = if args.json {
        let mut v = diff.to_json();
        if let Some(s) = &simulation {
            v["simulation"] = s.to_json();
        }
        format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("JSON values serialise")
        )
    } else {
        let mut t = diff_text(&diff);
        if let Some(s) = &simulation {
            t.push('\n');
            t.push_str(&simulation_text(s));
        }
        t
    };
    Ok((text, changed))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use clap::Parser;
    use serde_json::json;

    use super::*;

    #[derive(Parser)]
    struct Cmd {
        #[command(flatten)]
        args: DiffArgs,
    }

    fn repo() -> Catalog {
        Catalog {
            dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulesets")],
            embedded: Vec::new(),
        }
    }

    fn output(argv: &[&str]) -> (String, bool) {
        let cmd = Cmd::parse_from(std::iter::once("diff").chain(argv.iter().copied()));
        report(&cmd.args, &repo()).unwrap_or_else(|e| panic!("{argv:?}: {e:?}"))
    }

    /// The shipped games (not libraries) with their families, in name order.
    fn games() -> Vec<(String, String)> {
        let cat = repo();
        cat.names()
            .into_iter()
            .filter_map(|(name, _)| {
                let c = keliya_rules::load(&cat, &name).result.ok()?;
                (!c.info.is_library).then_some((name, c.info.family))
            })
            .collect()
    }

    const SMALL: &str = "keliya: 1\ntitle: Small hunt\nextends: lib/hunt\nboard:\n  sites:\n    a: {at: [0, 0]}\n    b: {at: [1, 0]}\n    c: {at: [2, 0]}\n  edges:\n    a: [b]\n    b: [c]\n  lines:\n    row: [a, b, c]\nsetup:\n  hunter-hand: {hunter: 1}\n  prey-hand: {prey: 1}\n";

    const LARGER: &str = "keliya: 1\ntitle: Small hunt, one more point\nextends: small\nboard:\n  sites:\n    d: {at: [3, 0]}\n  edges:\n    c: [d]\n  lines:\n    row: [a, b, c, d]\nparams:\n  hunter_win_captures: 1\n";

    #[test]
    fn text_groups_changes_by_section_with_marks_and_lines() {
        let dir = std::env::temp_dir().join(format!("keliya-cli-diff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("small.yaml"), SMALL).unwrap();
        std::fs::write(dir.join("larger.yaml"), LARGER).unwrap();
        let (a, b) = (
            dir.join("small.yaml").display().to_string(),
            dir.join("larger.yaml").display().to_string(),
        );
        let (text, changed) = output(&[&a, &b]);
        assert!(changed);
        assert!(text.contains("\nboard\n  ~ board: 3 points -> 4"), "{text}");
        assert!(text.contains("  + site d added: at (3, 0)\n"), "{text}");
        assert!(text.contains("  ~ line row: a-b-c -> a-b-c-d\n"), "{text}");
        assert!(text.contains("larger.yaml:10  "), "{text}");
        assert!(
            text.contains("  ~ param hunter_win_captures: 4 -> 1\n"),
            "{text}"
        );
        assert!(
            text.ends_with("changes: 2 added, 0 removed, 5 changed\n"),
            "{text}"
        );
        let (same, changed) = output(&[&a, &a, "--json"]);
        assert!(!changed);
        let v: serde_json::Value = serde_json::from_str(&same).unwrap();
        assert_eq!(v["changes"], json!([]));
        assert!(v.get("simulation").is_none());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn games_of_two_families_give_changes_and_a_simulation_section() {
        let games = games();
        let Some((first, family)) = games.first().cloned() else {
            return;
        };
        let (same, changed) = output(&[&first, &first, "--json", "--exit-code"]);
        assert!(!changed);
        let v: serde_json::Value = serde_json::from_str(&same).unwrap();
        assert_eq!(v["changes"], json!([]));
        let Some((other, _)) = games.iter().find(|(_, f)| *f != family) else {
            println!("note: only one family of games is shipped; skipped");
            return;
        };
        let (text, changed) = output(&[
            &first,
            other,
            "--json",
            "--simulate",
            "2",
            "--seed",
            "3",
            "--threads",
            "2",
        ]);
        assert!(changed);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["changes"].as_array().is_some_and(|c| !c.is_empty()));
        assert!(
            v["notes"][0]
                .as_str()
                .unwrap()
                .contains("different families")
        );
        let sim = &v["simulation"];
        assert_eq!(sim["games"], 2);
        assert_eq!(sim["seed"], 3);
        let keys: Vec<&str> = sim["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["key"].as_str().unwrap())
            .collect();
        for k in [
            "first_player_win_rate",
            "capped_rate",
            "mean_plies",
            "median_plies",
            "captures_per_game",
        ] {
            assert!(keys.contains(&k), "{keys:?}");
        }
    }
}
