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

/// The line `show --code` ends with: how a game's rules run.
pub fn describe(game: &keliya_engine::Game) -> String {
    let (generated, total) = game.compiled_programs();
    let on = game.backend().name();
    match (game.backend(), generated, total) {
        (Backend::Vm, _, _) => format!("Backend: {on} (the executor runs every rule)"),
        (_, 0, _) => {
            format!("Backend: {on} (no generated code for these rules: the executor runs them)")
        }
        (_, g, t) if g == t => format!("Backend: {on} (all {t} rule programs generated)"),
        (_, g, t) => format!(
            "Backend: {on} ({g} of {t} rule programs generated, the executor runs the rest)"
        ),
    }
}
