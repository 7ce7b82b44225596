//! `--backend`: which of the engine's two ways of running rules a command plays with.

use keliya_engine::Backend;
use keliya_rules::Compiled;

use crate::{CliError, load_game};

/// The `--backend` argument of the commands that play games.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct BackendArg {
    /// What runs the rules: generated Rust where the engine was built with it (`compiled`), or the
    /// executor alone (`vm`, the reference). Both play the same games.
    #[arg(long, value_enum, default_value_t = Which::Compiled)]
    pub backend: Which,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Compiled,
    Vm,
}

impl BackendArg {
    /// The engine's backend asked for.
    pub fn engine(self) -> Backend {
        match self.backend {
            Which::Compiled => Backend::Compiled,
            Which::Vm => Backend::Vm,
        }
    }
}

/// [`load_game`], with its game set to run on `backend`.
pub fn load_game_on(what: &str, backend: BackendArg) -> Result<Compiled, CliError> {
    let mut c = load_game(what)?;
    if let Some(game) = c.game.as_mut() {
        game.set_backend(backend.engine());
    }
    Ok(c)
}

/// The line `show --code` ends with: how a game's rules run, counting the rules' programs and the
/// conditions the turn tests (each rule's `when`, each end condition), which have generated code
/// each of their own.
pub fn describe(game: &keliya_engine::Game) -> String {
    let (programs, all_programs) = game.compiled_programs();
    let (conditions, all_conditions) = game.compiled_conditions();
    let on = game.backend().name();
    let whole = programs == all_programs && conditions == all_conditions;
    let part = |n: usize, of: usize, what: &str| match (n == of, of) {
        (true, 1) => format!("the {what}"),
        (true, _) => format!("all {of} {what}s"),
        (false, _) => format!("{n} of {of} {what}s"),
    };
    let parts = match all_conditions {
        0 => part(programs, all_programs, "rule program"),
        _ => format!(
            "{} and {}",
            part(programs, all_programs, "rule program"),
            part(conditions, all_conditions, "turn condition")
        ),
    };
    match game.backend() {
        Backend::Vm => format!("Backend: {on} (the executor runs every rule)"),
        _ if programs + conditions == 0 => {
            format!("Backend: {on} (no generated code for these rules: the executor runs them)")
        }
        _ if whole => format!("Backend: {on} ({parts} generated)"),
        // Two lines, to fit 80 columns.
        _ => format!(
            "Backend: {on}, the executor running what is not generated\n  generated: {parts}"
        ),
    }
}
