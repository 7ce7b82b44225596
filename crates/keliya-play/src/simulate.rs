//! Self-play: one game with a set of agents, many games in parallel, and their statistics.

use keliya_engine::{EngineError, Game, Reason, Side, State, Successors};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Dice;
use crate::agents::{Agent, parse_agent};
use crate::record::{GameRecord, Steps, THROW_PREFIX};

/// How one game went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSummary {
    pub winner: Option<u8>,
    /// The name of the end condition, rule or cap that ended it.
    pub reason: String,
    pub capped: bool,
    pub plies: u32,
    pub captures: u32,
}

pub fn reason_name(game: &Game, reason: Reason) -> (String, bool) {
    match reason {
        Reason::End(i) => (game.ends[i as usize].name.clone(), false),
        Reason::Rule(r) => (game.rule_name(r).to_string(), false),
        Reason::Cap(c) => (format!("cap:{}", c.name()), true),
    }
}

/// Plays one game to the end: throws drawn from the table, moves chosen by the seat's agent. Returns the
/// record (every throw and move) and the final state.
pub fn play_game(
    game: &Game,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
) -> Result<(GameRecord, State), EngineError> {
    play_game_with(
        game,
        agents,
        seed,
        Detail {
            keep_moves: true,
            check_invariants: false,
        },
    )
}

/// What a played game keeps and checks beyond its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// Keep every throw and move for the record (writing notations costs time).
    pub keep_moves: bool,
    /// Check the ruleset's invariants after every throw and move; a broken one is an error.
    pub check_invariants: bool,
}

/// A game longer than `limits: max_steps_per_game` (`Game::max_steps_per_game`): a ruleset whose games
/// need not end (no `caps`, and end conditions that random play may never meet) would otherwise play
/// one game forever.
#[cold]
fn endless(game: &Game) -> EngineError {
    EngineError {
        rule: "limits".into(),
        at: 0,
        message: format!(
            "the game did not end within {} steps (`limits: max_steps_per_game`); cap its length \
             (`caps: max_turns`, `no_capture_turns`, `repetition`) or give it an end it reaches",
            game.max_steps_per_game
        ),
    }
}

/// What is checked after each step: the game's length, and with `detail.check_invariants` the invariants.
fn check(game: &Game, st: &State, detail: Detail, step: usize) -> Result<(), EngineError> {
    if step > game.max_steps_per_game as usize {
        return Err(endless(game));
    }
    if !detail.check_invariants {
        return Ok(());
    }
    let broken = game.broken_invariants(st)?;
    if broken.is_empty() {
        return Ok(());
    }
    // Shown where the first of them is written.
    let at = game
        .invariants
        .iter()
        .find(|i| i.name == broken[0])
        .map_or(0, |i| i.at);
    Err(EngineError {
        rule: "invariants".into(),
        at,
        message: format!(
            "after step {step} the invariant(s) {} do not hold",
            broken.join(", ")
        ),
    })
}

/// [`play_game`] with a choice of what to keep and check.
pub fn play_game_with(
    game: &Game,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    detail: Detail,
) -> Result<(GameRecord, State), EngineError> {
    play_watched(game, agents, seed, detail, None, &mut Successors::new())
}

/// What [`play_watched`] keeps of a game: where it stands, and the position before step `keep` (before
/// none when `None`: the steps are counted only).
type Watch<'w> = Option<(&'w mut Kept, Option<usize>)>;

/// What a watched game has kept so far: a [`Failure`] once it fails, with the position taken only at the
/// step watched for (so watching a game that never gets there costs no position).
#[derive(Default)]
struct Kept {
    steps: usize,
    before: Option<State>,
    step: Option<String>,
}

impl Kept {
    fn into_failure(self, game: &Game) -> Failure {
        Failure {
            steps: self.steps,
            before: self.before.unwrap_or_else(|| game.initial_state()),
            step: self.step,
        }
    }
}

/// Where a game that failed stood when it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The steps (throws and moves) played before the one that failed.
    pub steps: usize,
    /// The position before the step that failed.
    pub before: State,
    /// That step as a record writes it (`throw:NAME`, a move's notation), once it was chosen; `None` when
    /// finding the moves failed.
    pub step: Option<String>,
}

/// Plays the game of `seed` again with fresh agents of `agent_specs` and, if it fails, says where
/// (only a game that failed needs this). It is played twice: once to count the steps before the failure,
/// then again to keep the position before that step alone. (A copy of the position at every step would
/// share the repetition history with the game, and every step would then copy it whole: a game that
/// fails after millions of steps would take hours to trace.)
pub fn trace_failure(
    game: &Game,
    agent_specs: &[String],
    seed: u64,
    detail: Detail,
) -> Option<Failure> {
    let mut watch = Kept::default();
    let mut legal = Successors::new();
    let mut agents = fresh_agents(agent_specs).ok()?;
    play_watched(
        game,
        &mut agents,
        seed,
        detail,
        Some((&mut watch, None)),
        &mut legal,
    )
    .err()?;
    let failed_at = watch.steps;
    let mut agents = fresh_agents(agent_specs).ok()?;
    match play_watched(
        game,
        &mut agents,
        seed,
        detail,
        Some((&mut watch, Some(failed_at))),
        &mut legal,
    ) {
        Ok(_) => None,
        Err(_) => Some(watch.into_failure(game)),
    }
}

/// One seat's agent per spec; random for every seat when there is none.
fn fresh_agents(agent_specs: &[String]) -> Result<Vec<Box<dyn Agent>>, String> {
    let mut agents = agent_specs
        .iter()
        .map(|s| parse_agent(s))
        .collect::<Result<Vec<_>, _>>()?;
    if agents.is_empty() {
        agents.push(Box::new(crate::agents::RandomAgent));
    }
    Ok(agents)
}

/// The game loop of [`play_game_with`]; `watch`, when given, holds the position before each step and,
/// once chosen, the step. `legal` is the list of moves the loop fills at each step, with the room of
/// the caller's last game (a run of games keeps one per thread).
fn play_watched(
    game: &Game,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    detail: Detail,
    mut watch: Watch<'_>,
    legal: &mut Successors,
) -> Result<(GameRecord, State), EngineError> {
    let keep_moves = detail.keep_moves;
    let mut steps = 0;
    let mut dice = Dice::new(seed);
    let mut st = game.initial_state_in(legal);
    // Kept as the record writes them, a long game's in a file of their own.
    let mut moves = Steps::new();
    while st.result.is_none() {
        // The step kept is written down as text only there: a watched game (every game of a run is, for
        // the length limit) pays for no notation on the other steps.
        let keeping = watch.as_ref().is_some_and(|(_, keep)| *keep == Some(steps));
        if let Some((w, keep)) = watch.as_mut() {
            w.steps = steps;
            if *keep == Some(steps) {
                match &mut w.before {
                    Some(before) => before.clone_from(&st),
                    None => w.before = Some(st.clone()),
                }
            }
            w.step = None;
        }
        if let Some(rows) = game.throw_due(&st) {
            let row = dice.weighted(rows.iter().map(|r| r.probability));
            if keep_moves {
                moves.push(&format!("{THROW_PREFIX}{}", rows[row].name));
            }
            if let Some((w, _)) = watch.as_mut().filter(|_| keeping) {
                w.step = Some(format!("{THROW_PREFIX}{}", rows[row].name));
            }
            game.throw_in_place(&mut st, row as u8);
            steps += 1;
            check(game, &st, detail, steps)?;
            continue;
        }
        game.successors_into(&st, legal)?;
        let seat = st.to_move as usize % agents.len();
        let k = agents[seat].choose(game, &st, legal, &mut dice)?;
        // (A choice past the end is refused by `advance_found_in_place`.)
        if keep_moves && let Some(chosen) = legal.mv(k) {
            moves.push(&game.notation(&chosen));
        }
        if let Some((w, _)) = watch.as_mut().filter(|_| keeping) {
            w.step = legal.mv(k).map(|chosen| game.notation(&chosen));
        }
        game.advance_found_in_place(&mut st, legal, k)?;
        steps += 1;
        check(game, &st, detail, steps)?;
    }
    let outcome = st.result.expect("the loop ends with a result");
    let (reason, capped) = reason_name(game, outcome.reason);
    let summary = GameSummary {
        winner: outcome.winner,
        reason,
        capped,
        plies: st.ply,
        captures: st.captures,
    };
    let record = GameRecord {
        seed,
        agents: agents.iter().map(|a| a.spec()).collect(),
        moves,
        winner: outcome
            .winner
            .map(|w| game.players[w as usize].name.clone()),
        team: outcome
            .winner
            .and_then(|w| game.team_of(w))
            .map(str::to_string),
        summary,
        ..GameRecord::default()
    };
    Ok((record, st))
}

/// Plays one game with uniformly random moves.
pub fn play_random_game(game: &Game, seed: u64) -> Result<(GameSummary, State), EngineError> {
    play_random_game_in(game, seed, &mut Successors::new())
}

/// [`play_random_game`] filling `found` with the moves at each step: a loop of playouts that keeps
/// one list for all its games allocates none after the first.
pub fn play_random_game_in(
    game: &Game,
    seed: u64,
    found: &mut Successors,
) -> Result<(GameSummary, State), EngineError> {
    let mut dice = Dice::new(seed);
    let mut st = game.initial_state_in(found);
    let mut steps = 0;
    while st.result.is_none() {
        steps += 1;
        if steps > game.max_steps_per_game {
            return Err(endless(game));
        }
        if let Some(rows) = game.throw_due(&st) {
            let i = dice.weighted(rows.iter().map(|r| r.probability));
            game.throw_in_place(&mut st, i as u8);
            continue;
        }
        // The moves come with what makes their positions, so the chosen move's rule is not run again;
        // one list serves every move.
        game.successors_into(&st, found)?;
        let pick = dice.below(found.len());
        game.advance_found_in_place(&mut st, found, pick)?;
    }
    let outcome = st.result.expect("the loop ends with a result");
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

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimulationStats {
    pub games: u64,
    pub seed: u64,
    /// Wins per side of the game ([`Game::sides`]), in that order: a team's are its players' together.
    pub wins: Vec<u64>,
    pub draws: u64,
    pub capped: u64,
    /// Games by length in plies: as many entries as lengths seen, however many games.
    pub plies: std::collections::BTreeMap<u32, u64>,
    pub total_captures: u64,
    /// Games per ending (end condition, rule or cap name), in first-seen order.
    pub endings: Vec<(String, u64)>,
}

impl SimulationStats {
    /// The statistics of `games`, their wins counted by `sides` ([`Game::sides`]).
    pub fn from_summaries(games: &[GameSummary], seed: u64, sides: &[Side]) -> Self {
        let mut stats = SimulationStats::new(seed, sides);
        for g in games {
            stats.add(g, sides);
        }
        stats
    }

    /// The statistics of no game yet, to [`add`](Self::add) games to one by one.
    pub fn new(seed: u64, sides: &[Side]) -> Self {
        SimulationStats {
            seed,
            wins: vec![0; sides.len()],
            ..Default::default()
        }
    }

    /// Counts one more game, its win counted by `sides` (those given to [`new`](Self::new)).
    pub fn add(&mut self, g: &GameSummary, sides: &[Side]) {
        self.games += 1;
        match g.winner {
            Some(w) => {
                if let Some(side) = sides.iter().position(|s| s.players.contains(&w)) {
                    self.wins[side] += 1;
                }
            }
            None => self.draws += 1,
        }
        self.capped += g.capped as u64;
        *self.plies.entry(g.plies).or_default() += 1;
        self.total_captures += g.captures as u64;
        match self.endings.iter_mut().find(|(n, _)| *n == g.reason) {
            Some((_, c)) => *c += 1,
            None => self.endings.push((g.reason.clone(), 1)),
        }
    }

    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            // Whole numbers: the sum is exact in any order.
            self.plies
                .iter()
                .map(|(&p, &n)| p as f64 * n as f64)
                .sum::<f64>()
                / self.games as f64
        }
    }

    pub fn mean_captures(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_captures as f64 / self.games as f64
        }
    }

    /// The q-quantile of game length (nearest rank).
    pub fn plies_quantile(&self, q: f64) -> u32 {
        let n: u64 = self.plies.values().sum();
        if n == 0 {
            return 0;
        }
        // The rank, counted from 1, of the game whose length is the quantile.
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (&p, &k) in &self.plies {
            seen += k;
            if seen >= rank {
                return p;
            }
        }
        unreachable!("the rank is at most the number of games")
    }
}

/// Wilson score interval at 95% for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays `games` games, game `i` seeded from (`seed`, `i`) with fresh agents from `agent_specs` (one per
/// seat, repeated if fewer). Games run on `threads` threads; records come back in game order, so the output
/// does not depend on the thread count. `progress` is called from worker threads as games finish.
/// Holds every record: for many games, [`simulate_each`].
pub fn simulate_records(
    game: &Game,
    games: u64,
    seed: u64,
    agent_specs: &[String],
    threads: usize,
    detail: Detail,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, RunError> {
    let mut records = Vec::new();
    simulate_each(
        game,
        0..games,
        seed,
        agent_specs,
        threads,
        detail,
        progress,
        &mut |r| {
            records.push(r);
            Ok(())
        },
    )?;
    Ok(records)
}

/// Games played at once per thread by [`simulate_each`]: enough to keep the threads busy, few enough
/// that the records in hand stay a small, fixed number whatever the number of games.
const BATCH_PER_THREAD: u64 = 64;

/// [`simulate_records`] of the games numbered `games` (all of a run's, `0..N`, or a shard's block of
/// them: [`crate::report::shard_range`]; game `i` plays as it does in the whole run), handing each record
/// to `each` in game order as soon as the games before it are done, so memory does not grow with the
/// number of games. An error from `each` (a record that cannot be written) stops the run.
#[allow(clippy::too_many_arguments)]
pub fn simulate_each(
    game: &Game,
    games: std::ops::Range<u64>,
    seed: u64,
    agent_specs: &[String],
    threads: usize,
    detail: Detail,
    progress: &(dyn Fn() + Sync),
    each: &mut dyn FnMut(GameRecord) -> Result<(), String>,
) -> Result<(), RunError> {
    fresh_agents(agent_specs).map_err(RunError::Setup)?;
    // The lowest game known to have failed: games after it are not started, games before it still
    // run, so the error reported is the first game's that fails, however the games were scheduled.
    let first_failed = AtomicU64::new(u64::MAX);
    // The lists of moves of the games being played, kept for the next games (their room): a game takes
    // one and gives it back, so a run allocates about one per thread.
    let lists = std::sync::Mutex::new(Vec::<Successors>::new());
    type Played = Result<GameRecord, (EngineError, Option<Failure>)>;
    let play_one = |i: u64| -> Option<Played> {
        if i > first_failed.load(Ordering::Relaxed) {
            return None;
        }
        let mut agents = fresh_agents(agent_specs).expect("checked above");
        let mut legal = lists
            .lock()
            .ok()
            .and_then(|mut l| l.pop())
            .unwrap_or_default();
        // The position before the last step the length limit allows is kept as the game goes (one copy,
        // in a game that gets there), so that a game stopped by the limit is not played again to trace.
        let mut watch = Kept::default();
        let at_limit = Some(game.max_steps_per_game as usize);
        let played = play_watched(
            game,
            &mut agents,
            Dice::game_seed(seed, i),
            detail,
            Some((&mut watch, at_limit)),
            &mut legal,
        );
        if let Ok(mut kept) = lists.lock() {
            kept.push(legal);
        }
        progress();
        Some(match played {
            Ok((mut record, _)) => {
                record.game = i;
                Ok(record)
            }
            Err(error) => {
                first_failed.fetch_min(i, Ordering::Relaxed);
                let stopped = error == endless(game) && Some(watch.steps) == at_limit;
                Err((error, stopped.then(|| watch.into_failure(game))))
            }
        })
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| RunError::Setup(e.to_string()))?;
    let batch = BATCH_PER_THREAD * threads.max(1) as u64;
    let mut start = games.start;
    while start < games.end {
        let end = start.saturating_add(batch).min(games.end);
        let played: Vec<_> = pool.install(|| (start..end).into_par_iter().map(play_one).collect());
        for (i, game_played) in (start..end).zip(played) {
            match game_played {
                Some(Ok(record)) => each(record).map_err(RunError::Output)?,
                Some(Err((error, kept))) => {
                    // The games' lists of moves go before the game is played again to trace it: a
                    // list may hold a search as large as one may be.
                    if let Ok(mut lists) = lists.lock() {
                        lists.clear();
                    }
                    let failure = kept.or_else(|| {
                        trace_failure(game, agent_specs, Dice::game_seed(seed, i), detail)
                    });
                    return Err(RunError::Game {
                        game: i,
                        error,
                        failure: failure.map(Box::new),
                    });
                }
                // Only after a game that failed, which ends the loop first.
                None => {}
            }
        }
        start = end;
    }
    Ok(())
}

/// Why [`simulate_records`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// An agent's text does not parse, or the threads could not be started.
    Setup(String),
    /// What was done with a finished game's record failed (writing it down).
    Output(String),
    /// A rule failed in game `game` of the run (the first game that failed), at `failure` (found by
    /// playing the game again, alone; games are deterministic, so it fails again, but should it not,
    /// `None`).
    Game {
        game: u64,
        error: EngineError,
        failure: Option<Box<Failure>>,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Setup(message) | RunError::Output(message) => f.write_str(message),
            RunError::Game { game, error, .. } => write!(f, "game {game}: {error}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Random self-play statistics (one thread, random agents).
pub fn simulate(game: &Game, games: u64, seed: u64) -> Result<SimulationStats, EngineError> {
    let mut summaries = Vec::new();
    let mut found = Successors::new();
    for i in 0..games {
        let (summary, _) = play_random_game_in(game, Dice::game_seed(seed, i), &mut found)?;
        summaries.push(summary);
    }
    Ok(SimulationStats::from_summaries(
        &summaries,
        seed,
        &game.sides(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_is_sane() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }
}
