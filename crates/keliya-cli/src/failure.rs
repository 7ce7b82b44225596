//! How a rule that fails in play is shown: at its line of the ruleset, like a problem found when loading,
//! with the game and the position it failed in when it failed in a run of games.

use crate::{CliError, RUNNING, diagnostics, render};

/// A rule failed while running: shown at the rule's source line when it is known.
pub(crate) fn engine_error(e: keliya_engine::EngineError) -> CliError {
    engine_error_in(&e, None)
}

/// Which game of a run of seeded games a rule failed in.
pub(crate) struct GameOfRun {
    game: u64,
    seed: u64,
    /// The option that sets the number of games (`--games`, `--simulate`).
    count_option: &'static str,
    /// Where the game stood when it failed, as [`failure_text`] writes it.
    failure: Option<String>,
    /// The error is a broken invariant (`simulate --check`), located at the invariant, not a rule.
    broken_invariant: bool,
}

impl GameOfRun {
    /// Game `game` of a run seeded with `seed` that failed with `e` in `played`, standing at `failure`.
    pub(crate) fn new(
        played: &keliya_engine::Game,
        e: &keliya_engine::EngineError,
        (game, seed): (u64, u64),
        count_option: &'static str,
        failure: Option<&keliya_play::Failure>,
    ) -> Self {
        GameOfRun {
            game,
            seed,
            count_option,
            failure: failure.map(|f| failure_text(played, f)),
            broken_invariant: e.at != 0 && played.invariants.iter().any(|i| i.at == e.at),
        }
    }
}

/// The position a game failed in and the step it failed at, for the error's reader.
fn failure_text(game: &keliya_engine::Game, f: &keliya_play::Failure) -> String {
    let mover = &game.players[f.before.to_move as usize].display;
    let step = match &f.step {
        Some(step) => format!("failed playing `{step}`"),
        None => "failed while its moves were found".to_string(),
    };
    format!(
        "after {} steps ({mover} to move), the game {step}; the position then:\n{}",
        f.steps,
        render::text(game, &f.before)
    )
}

/// [`engine_error`], for a rule that failed in a game of a run when `game` is given.
pub(crate) fn engine_error_in(
    e: &keliya_engine::EngineError,
    game: Option<&GameOfRun>,
) -> CliError {
    let running = RUNNING.lock().ok();
    match running.as_ref().and_then(|r| r.as_ref()) {
        Some((spans, sources)) => engine_error_with(e, game, spans, sources),
        None => CliError::Message(unlocated(e, game)),
    }
}

/// [`engine_error`] against a given ruleset's `spans` and `sources`.
pub(crate) fn engine_error_with(
    e: &keliya_engine::EngineError,
    game: Option<&GameOfRun>,
    spans: &[keliya_rules::Loc],
    sources: &keliya_rules::Sources,
) -> CliError {
    match located_engine_error(e, game, spans, sources) {
        Some(text) => {
            err!("{text}");
            CliError::Reported
        }
        None => CliError::Message(unlocated(e, game)),
    }
}

/// An error without a place in the rules (a broken invariant of `simulate --check`), with where its game
/// stood when there is one.
fn unlocated(e: &keliya_engine::EngineError, game: Option<&GameOfRun>) -> String {
    match game {
        Some(GameOfRun {
            game,
            failure: Some(failure),
            ..
        }) => format!("game {game}: {e}\n{failure}"),
        Some(g) => format!("game {}: {e}", g.game),
        None => e.to_string(),
    }
}

/// A failed rule rendered at its line of `sources` (`spans` is the ruleset's table of locations), with
/// the game it failed in and how to play that game again; `None` when the error has no location.
fn located_engine_error(
    e: &keliya_engine::EngineError,
    game: Option<&GameOfRun>,
    spans: &[keliya_rules::Loc],
    sources: &keliya_rules::Sources,
) -> Option<String> {
    let loc = *spans.get(e.at).filter(|_| e.at != 0)?;
    let broken_invariant = game.is_some_and(|g| g.broken_invariant);
    let (message, mut hint) = if broken_invariant {
        (
            e.message.clone(),
            String::from(
                "the ruleset is valid, but a position reached in play breaks this invariant",
            ),
        )
    } else {
        (
            format!("rule `{}`: {}", e.rule, e.message),
            String::from(
                "the ruleset is valid, but this rule did something impossible while the game was played",
            ),
        )
    };
    let mut text = String::new();
    if let Some(GameOfRun {
        game,
        seed,
        count_option,
        failure,
        ..
    }) = game
    {
        // Game i of a run depends only on (seed, i), so the same run cut after it plays it again.
        // (A broken invariant is seen only with `--check`.)
        let check = if broken_invariant { " --check" } else { "" };
        hint.push_str(&format!(
            " (game {game} of the run: `{count_option} {} --seed {seed}{check}` plays it again)",
            game + 1
        ));
        if let Some(failure) = failure {
            text = format!("game {game}: {failure}");
        }
    }
    let d = keliya_rules::Diagnostic::new(loc, message).hint(hint);
    Some(diagnostics::render(sources, &d) + &text)
}
