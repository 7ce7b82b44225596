//! Playing games: seeded dice and agents, simulation with statistics, and the state file format.
//!
//! Architecture invariant: this crate never parses rulesets; it takes a compiled [`keliya_engine::Game`].

pub mod dice;
pub mod simulate;
pub mod state_json;

pub use dice::Dice;
pub use simulate::{GameSummary, SimulationStats, play_random_game, simulate};
