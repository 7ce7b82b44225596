//! Playing games: seeded dice, agents, self-play and its statistics, records and replay, state files.
//!
//! Architecture invariant: this crate never parses rulesets; it takes a compiled [`keliya_engine::Game`].

pub mod agents;
pub mod dice;
pub mod record;
pub mod report;
pub mod simulate;
pub mod state_json;

pub use dice::Dice;
pub use simulate::{
    Failure, GameSummary, RunError, SimulationStats, play_game, play_random_game,
    play_random_game_in, simulate, simulate_each, simulate_records, trace_failure,
};
