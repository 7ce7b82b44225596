//! Random self-play and its statistics.

use keliya_engine::{EngineError, Game, Reason, State};

use crate::Dice;

/// How one game went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    pub winner: Option<u8>,
    /// The name of the end condition, rule or cap that ended it.
    pub reason: String,
    pub capped: bool,
    pub plies: u32,
    pub captures: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimulationStats {
    pub games: u64,
    pub seed: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub capped: u64,
    pub total_plies: u64,
    pub total_captures: u64,
    /// Games per ending (end condition, rule or cap name), in first-seen order.
    pub endings: Vec<(String, u64)>,
}

impl SimulationStats {
    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_plies as f64 / self.games as f64
        }
    }
}

/// Plays one game with uniformly random moves and throws drawn from the throw table.
pub fn play_random_game(game: &Game, seed: u64) -> Result<(GameSummary, State), EngineError> {
    let mut dice = Dice::new(seed);
    let mut st = game.initial_state();
    while st.result.is_none() {
        let outcomes = game.chance_outcomes(&st);
        if !outcomes.is_empty() {
            let i = dice.weighted(outcomes.iter().map(|o| o.1));
            st = game.apply_chance(&st, outcomes[i].0);
            continue;
        }
        let moves = game.legal_moves(&st)?;
        let mv = &moves[dice.below(moves.len())];
        st = game.apply(&st, mv)?;
    }
    let outcome = st.result.expect("loop ends with a result");
    let (reason, capped) = reason_name(game, outcome.reason);
    Ok((
        GameSummary {
            winner: outcome.winner,
            reason,
            capped,
            plies: st.ply,
            captures: st.captures,
        },
        st,
    ))
}

pub fn reason_name(game: &Game, reason: Reason) -> (String, bool) {
    match reason {
        Reason::End(i) => (game.ends[i as usize].name.clone(), false),
        Reason::Rule(r) => (game.rule_name(r).to_string(), false),
        Reason::Cap(c) => (format!("cap:{}", c.name()), true),
    }
}

/// Plays `games` random games; game `i` uses the seed derived from (`seed`, `i`), so results do not depend on
/// how the games are scheduled.
pub fn simulate(game: &Game, games: u64, seed: u64) -> Result<SimulationStats, EngineError> {
    let mut stats = SimulationStats {
        games,
        seed,
        wins: vec![0; game.players.len()],
        ..Default::default()
    };
    for i in 0..games {
        let (summary, _) = play_random_game(game, Dice::game_seed(seed, i))?;
        match summary.winner {
            Some(w) => stats.wins[w as usize] += 1,
            None => stats.draws += 1,
        }
        stats.capped += summary.capped as u64;
        stats.total_plies += summary.plies as u64;
        stats.total_captures += summary.captures as u64;
        match stats.endings.iter_mut().find(|(n, _)| *n == summary.reason) {
            Some((_, c)) => *c += 1,
            None => stats.endings.push((summary.reason, 1)),
        }
    }
    Ok(stats)
}
