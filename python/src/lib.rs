//! `keliya._keliya`: the Rust side of the Python package. A thin layer, as the CLI is: it loads rulesets
//! through `keliya-rules`, asks the engine for moves and positions, and runs simulations and diffs
//! through `keliya-play` and `keliya-diff`. Statistics, states and diffs cross as the JSON the CLI
//! prints (`keliya/__init__.py` turns it into Python values), so the two cannot drift apart.
//!
//! Every long call (a simulation, a diff) releases the GIL while Rust runs.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use keliya_engine::{EngineError, Game, Successors};
use keliya_play::agents::split_agents;
use keliya_play::report::{RunMeta, Shard, merge_shards, run_json, shard_json, shard_range};
use keliya_play::simulate::{Detail, GameSummary, RunError, SimulationStats, simulate_each};
use keliya_play::state_json;
use keliya_rules::{Catalog, Compiled, Diagnostic, Loaded, Sources};
use pyo3::exceptions::{PyException, PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::{Value, json};

pyo3::create_exception!(
    _keliya,
    KeliyaError,
    PyException,
    "A ruleset that does not load, a rule that fails while it runs, or a move that is not legal. \
     `str(e)` is every problem as `path:line:col: error: message`; `e.diagnostics` lists them one by one."
);

/// Where names are looked up: as on the command line (`keliya_bundled::catalog`).
fn catalog(extra: Vec<PathBuf>) -> Catalog {
    keliya_bundled::catalog(extra)
}

fn error(py: Python<'_>, lines: Vec<String>) -> PyErr {
    let err = KeliyaError::new_err(lines.join("\n"));
    let list = PyList::new(py, &lines).map(|l| l.into_any().unbind());
    if let Ok(list) = list {
        // An exception instance takes attributes; failing that, the message still says it all.
        let _ = err.value(py).setattr("diagnostics", list);
    }
    err
}

fn diagnostics(sources: &Sources, found: &[Diagnostic]) -> Vec<String> {
    found.iter().map(|d| sources.short(d)).collect()
}

/// A ruleset loaded and checked: its game, and what it was loaded from (for locating errors).
struct Loadedness {
    /// What it was loaded as (a bundled name or a path), to load it again when a state is unpickled.
    what: String,
    sources: Sources,
    compiled: Compiled,
}

impl Loadedness {
    fn game(&self) -> &Game {
        self.compiled.game()
    }

    /// The game, for a simulation: a library of shared rules has none.
    fn simulated(&self) -> PyResult<&Game> {
        self.compiled.game.as_ref().ok_or_else(|| {
            PyValueError::new_err(format!(
                "`{}` is a library of shared rules, not a game: it cannot be simulated",
                self.what
            ))
        })
    }

    /// A rule that failed in play, at its line when it has one.
    fn engine_error(&self, py: Python<'_>, e: &EngineError) -> PyErr {
        let located = self
            .compiled
            .spans
            .get(e.at)
            .filter(|_| e.at != 0)
            .map(|&loc| {
                self.sources.short(&Diagnostic::new(
                    loc,
                    format!("rule `{}` failed: {}", e.rule, e.message),
                ))
            });
        error(py, vec![located.unwrap_or_else(|| e.to_string())])
    }
}

fn load_checked(py: Python<'_>, what: &str, dirs: Vec<PathBuf>) -> PyResult<Loadedness> {
    let cat = catalog(dirs);
    let Loaded { sources, result } = py.detach(|| keliya_rules::load(&cat, what));
    match result {
        Ok(compiled) => Ok(Loadedness {
            what: what.to_string(),
            sources,
            compiled,
        }),
        Err(found) => Err(error(py, diagnostics(&sources, &found))),
    }
}

/// A ruleset, loaded with everything it extends and checked.
#[pyclass(frozen, module = "keliya")]
struct Ruleset {
    inner: Arc<Loadedness>,
}

impl Ruleset {
    fn game(&self, py: Python<'_>) -> PyResult<&Game> {
        match &self.inner.compiled.game {
            Some(g) => Ok(g),
            None => Err(error(
                py,
                vec![format!(
                    "`{}` is a library of shared rules, not a game; games extend it",
                    self.inner.what
                )],
            )),
        }
    }
}

#[pymethods]
impl Ruleset {
    /// The ruleset's name (`game`, `game/variant`, as `keliya list` shows it, or a file's stem).
    #[getter]
    fn name(&self) -> &str {
        &self.inner.compiled.info.name
    }
    /// What it was loaded as: the name or path given to `load`.
    #[getter]
    fn loaded_as(&self) -> &str {
        &self.inner.what
    }
    #[getter]
    fn title(&self) -> &str {
        &self.inner.compiled.info.title
    }
    #[getter]
    fn family(&self) -> &str {
        &self.inner.compiled.info.family
    }
    #[getter]
    fn description(&self) -> &str {
        &self.inner.compiled.info.description
    }
    #[getter]
    fn sources(&self) -> Vec<String> {
        self.inner.compiled.info.sources.clone()
    }
    /// The stable hash of the resolved ruleset, as records carry it.
    #[getter]
    fn hash(&self) -> &str {
        &self.inner.compiled.hash
    }
    #[getter]
    fn is_library(&self) -> bool {
        self.inner.compiled.info.is_library
    }
    /// The players' names, in turn order (a player's index is its place here).
    #[getter]
    fn players(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self
            .game(py)?
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect())
    }
    /// The sides results are counted by: each team, and each player in none.
    #[getter]
    fn sides(&self, py: Python<'_>) -> PyResult<Vec<(String, Vec<usize>)>> {
        Ok(self
            .game(py)?
            .sides()
            .into_iter()
            .map(|s| (s.name, s.players.iter().map(|&p| p as usize).collect()))
            .collect())
    }
    /// The throw table as (name, value, probability, throw again) rows; empty for a game without dice.
    #[getter]
    fn throws(&self, py: Python<'_>) -> PyResult<Vec<(String, i64, f64, bool)>> {
        Ok(self
            .game(py)?
            .throws
            .as_deref()
            .unwrap_or_default()
            .iter()
            .map(|r| (r.name.clone(), r.value, r.probability, r.again))
            .collect())
    }
    /// The most throws and moves a game may take (`limits: max_steps_per_game`).
    #[getter]
    fn max_steps(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.game(py)?.max_steps_per_game as u64)
    }
    /// The most options one position's search goes through (`limits: max_options_per_position`), so
    /// also the most legal moves a position can have.
    #[getter]
    fn max_moves(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.game(py)?.max_options_per_position as u64)
    }
    /// The position the game starts from.
    fn initial_state(&self, py: Python<'_>) -> PyResult<State> {
        let st = self.game(py)?.initial_state();
        Ok(State::new(self.inner.clone(), st))
    }
    /// A position from the state file's JSON (as `State.to_json` and `keliya apply` write it).
    fn state_from_json(&self, py: Python<'_>, text: &str) -> PyResult<State> {
        let game = self.game(py)?;
        let value: Value = serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("not JSON: {e}")))?;
        let st = state_json::from_json(game, &value).map_err(|e| error(py, vec![e]))?;
        Ok(State::new(self.inner.clone(), st))
    }
    fn __repr__(&self) -> String {
        format!("<keliya.Ruleset {}>", self.inner.compiled.info.name)
    }
}

/// A position of a game, with everything needed to continue from it. `play` and `throw` change it
/// in place; `apply` and `apply_throw` return a new one.
#[pyclass(frozen, module = "keliya")]
struct State {
    ruleset: Arc<Loadedness>,
    /// Behind a lock because Python may share the object between threads; never contended in practice.
    position: Mutex<Position>,
}

struct Position {
    st: keliya_engine::State,
    /// The legal moves of `st` and the positions they lead to, once asked for; cleared by every change.
    found: Option<Successors>,
}

impl State {
    fn new(ruleset: Arc<Loadedness>, st: keliya_engine::State) -> State {
        State {
            ruleset,
            position: Mutex::new(Position { st, found: None }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Position> {
        // A panic cannot leave a position half-changed (the engine changes it only when a step succeeds).
        self.position.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn game(&self) -> &Game {
        self.ruleset.game()
    }

    /// The legal moves, listed once per position.
    fn listed<'a>(&self, py: Python<'_>, p: &'a mut Position) -> PyResult<&'a Successors> {
        if p.found.is_none() {
            let mut found = Successors::new();
            if p.st.result.is_none() && self.game().throw_due(&p.st).is_none() {
                self.game()
                    .successors_into(&p.st, &mut found)
                    .map_err(|e| self.ruleset.engine_error(py, &e))?;
            }
            p.found = Some(found);
        }
        Ok(p.found.as_ref().expect("just filled"))
    }

    fn play_index(&self, py: Python<'_>, p: &mut Position, index: usize) -> PyResult<()> {
        let count = self.listed(py, p)?.len();
        if index >= count {
            return Err(PyIndexError::new_err(format!(
                "move {index} of {count} legal move(s)"
            )));
        }
        let found = p.found.take().expect("listed above");
        self.game()
            .advance_found_in_place(&mut p.st, &found, index)
            .map_err(|e| self.ruleset.engine_error(py, &e))
    }

    fn play_text(&self, py: Python<'_>, p: &mut Position, text: &str) -> PyResult<()> {
        let game = self.game();
        if game.throw_due(&p.st).is_some() {
            return Err(error(
                py,
                vec![format!(
                    "a throw is due, not a move: `throw` one of {}",
                    self.outcome_names(&p.st).join(", ")
                )],
            ));
        }
        let mv = game
            .parse_move(&p.st, text)
            .map_err(|e| self.ruleset.engine_error(py, &e))?;
        let Some(mv) = mv else {
            let legal: Vec<String> = game
                .legal_moves(&p.st)
                .map_err(|e| self.ruleset.engine_error(py, &e))?
                .iter()
                .map(|m| game.notation(m))
                .collect();
            return Err(error(
                py,
                vec![format!(
                    "`{text}` is not a legal move here; the legal moves: {}",
                    legal.join(", ")
                )],
            ));
        };
        p.st = game
            .apply(&p.st, &mv)
            .map_err(|e| self.ruleset.engine_error(py, &e))?;
        p.found = None;
        Ok(())
    }

    fn play_any(&self, py: Python<'_>, p: &mut Position, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(i) = mv.extract::<usize>() {
            return self.play_index(py, p, i);
        }
        let text: String = mv.extract().map_err(|_| {
            PyValueError::new_err("a move is its notation (str) or its index (int)")
        })?;
        self.play_text(py, p, &text)
    }

    fn throw_any(
        &self,
        py: Python<'_>,
        p: &mut Position,
        outcome: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let game = self.game();
        let rows = game.throws.as_deref().unwrap_or_default();
        let due = game.chance_outcomes(&p.st);
        if due.is_empty() {
            return Err(error(
                py,
                vec!["no throw is due here: `play` a move".into()],
            ));
        }
        let row = match outcome.extract::<usize>() {
            Ok(i) => Some(i),
            Err(_) => {
                let name: String = outcome.extract().map_err(|_| {
                    PyValueError::new_err("a throw is its name (str) or its row (int)")
                })?;
                rows.iter()
                    .position(|r| r.name.eq_ignore_ascii_case(name.trim()))
            }
        };
        let Some(row) = row.filter(|r| due.iter().any(|(i, _)| *i as usize == *r)) else {
            return Err(error(
                py,
                vec![format!(
                    "`{outcome}` is not a throw due here; the outcomes: {}",
                    self.outcome_names(&p.st).join(", ")
                )],
            ));
        };
        game.throw_in_place(&mut p.st, row as u8);
        p.found = None;
        Ok(())
    }

    fn outcome_names(&self, st: &keliya_engine::State) -> Vec<String> {
        let game = self.game();
        let rows = game.throws.as_deref().unwrap_or_default();
        game.chance_outcomes(st)
            .iter()
            .map(|(i, _)| rows[*i as usize].name.clone())
            .collect()
    }

    fn copy_of(&self, p: &Position) -> State {
        State::new(self.ruleset.clone(), p.st.clone())
    }
}

#[pymethods]
impl State {
    /// The index of the player to move (or to throw), in `Ruleset.players` order.
    #[getter]
    fn current_player(&self) -> usize {
        self.lock().st.to_move as usize
    }
    /// The name of the player to move.
    #[getter]
    fn player(&self) -> String {
        let to_move = self.lock().st.to_move;
        self.game().players[to_move as usize].name.clone()
    }
    /// Throws and moves played so far.
    #[getter]
    fn ply(&self) -> u32 {
        self.lock().st.ply
    }
    /// Pieces captured so far.
    #[getter]
    fn captures(&self) -> u32 {
        self.lock().st.captures
    }
    /// The game is over.
    fn is_terminal(&self) -> bool {
        self.lock().st.result.is_some()
    }
    /// A throw is due: the next step is chance's (`chance_outcomes`, then `throw`).
    fn is_chance(&self) -> bool {
        let p = self.lock();
        p.st.result.is_none() && self.game().throw_due(&p.st).is_some()
    }
    /// The legal moves in notation, in the engine's order (the order `play(i)` counts in).
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut p = self.lock();
        let found = self.listed(py, &mut p)?;
        Ok(found.moves().map(|m| self.game().notation(&m)).collect())
    }
    /// How many legal moves there are (cheaper than `legal_moves` when the notation is not needed).
    fn num_moves(&self, py: Python<'_>) -> PyResult<usize> {
        let mut p = self.lock();
        Ok(self.listed(py, &mut p)?.len())
    }
    /// The notation of legal move `index`.
    fn move_notation(&self, py: Python<'_>, index: usize) -> PyResult<String> {
        let mut p = self.lock();
        let found = self.listed(py, &mut p)?;
        let count = found.len();
        found
            .mv(index)
            .map(|m| self.game().notation(&m))
            .ok_or_else(|| PyIndexError::new_err(format!("move {index} of {count} legal move(s)")))
    }
    /// When a throw is due, its outcomes as (name, probability); empty otherwise.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let p = self.lock();
        let game = self.game();
        let rows = game.throws.as_deref().unwrap_or_default();
        game.chance_outcomes(&p.st)
            .iter()
            .map(|(i, pr)| (rows[*i as usize].name.clone(), *pr))
            .collect()
    }
    /// The same as (row of the throw table, probability): the row is a throw's stable number.
    fn chance_rows(&self) -> Vec<(usize, f64)> {
        let p = self.lock();
        self.game()
            .chance_outcomes(&p.st)
            .iter()
            .map(|(i, pr)| (*i as usize, *pr))
            .collect()
    }
    /// Plays a move, given by its notation (as `legal_moves` writes it) or by its index in that list.
    fn play(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut p = self.lock();
        self.play_any(py, &mut p, mv)
    }
    /// Plays a throw outcome, by its name or its row in the throw table (`chance_rows`).
    fn throw(&self, py: Python<'_>, outcome: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut p = self.lock();
        self.throw_any(py, &mut p, outcome)
    }
    /// `play` on a copy: the position after the move, this one unchanged.
    fn apply(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<State> {
        let next = self.copy();
        {
            let mut p = next.lock();
            next.play_any(py, &mut p, mv)?;
        }
        Ok(next)
    }
    /// `throw` on a copy.
    fn apply_throw(&self, py: Python<'_>, outcome: &Bound<'_, PyAny>) -> PyResult<State> {
        let next = self.copy();
        {
            let mut p = next.lock();
            next.throw_any(py, &mut p, outcome)?;
        }
        Ok(next)
    }
    /// An independent copy of this position.
    fn copy(&self) -> State {
        let p = self.lock();
        self.copy_of(&p)
    }
    fn __copy__(&self) -> State {
        self.copy()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.copy()
    }
    /// How the game ended as JSON, or `None` while it goes on (`State.result` in Python).
    fn result_json(&self) -> Option<String> {
        let game = self.game();
        let r = self.lock().st.result?;
        let (reason, capped) = keliya_play::simulate::reason_name(game, r.reason);
        let v = json!({
            "winner": r.winner.map(|w| game.side_name(w)),
            "player": r.winner.map(|w| &game.players[w as usize].name),
            "reason": reason,
            "capped": capped,
        });
        Some(v.to_string())
    }
    /// Each player's return: 1 for every player of the winning side, -1 for every other player, 0 for
    /// all at a draw or while the game goes on.
    fn returns(&self) -> Vec<f64> {
        let game = self.game();
        let n = game.players.len();
        let winner = self.lock().st.result.and_then(|r| r.winner);
        match winner {
            None => vec![0.0; n],
            Some(w) => {
                let side = game.side_name(w);
                (0..n)
                    .map(|p| {
                        if game.side_name(p as u8) == side {
                            1.0
                        } else {
                            -1.0
                        }
                    })
                    .collect()
            }
        }
    }
    /// The position drawn as `keliya render` draws it: `"svg"` (with the ruleset's title), `"text"`
    /// (within 80 columns; `unicode=False` for ASCII only) or `"dot"` (Graphviz).
    #[pyo3(signature = (format = "svg", unicode = true))]
    fn render(&self, format: &str, unicode: bool) -> PyResult<String> {
        let p = self.lock();
        let game = self.game();
        match format {
            "svg" => {
                let info = &self.ruleset.compiled.info;
                let figures = keliya_render::status::figures(game, &info.display, &p.st);
                Ok(keliya_render::picture::svg(
                    game,
                    &p.st,
                    &info.title,
                    &figures.per_player,
                ))
            }
            "text" => Ok(keliya_render::render::text_in(game, &p.st, unicode)),
            "dot" => Ok(keliya_render::render::dot(game, &p.st)),
            other => Err(PyValueError::new_err(format!(
                "a picture is \"svg\", \"text\" or \"dot\", not {other:?}"
            ))),
        }
    }
    /// The position as the state file's JSON (docs/cli.md), which `Ruleset.state_from_json` and
    /// `keliya moves --state` read.
    fn to_json(&self) -> String {
        let p = self.lock();
        serde_json::to_string_pretty(&state_json::to_json(self.game(), &p.st))
            .expect("JSON serialises")
    }
    /// Pickling (OpenSpiel copies and serialises states so): the ruleset by what it was loaded as, and
    /// the position as the state file's JSON, which holds all of it (the repetition history too).
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String, String))> {
        let restore = py.import("keliya._keliya")?.getattr("_restore_state")?;
        Ok((
            restore.unbind(),
            (self.ruleset.what.clone(), self.to_json()),
        ))
    }
    fn __eq__(&self, other: &State) -> bool {
        if std::ptr::eq(self, other) {
            return true;
        }
        self.ruleset.compiled.hash == other.ruleset.compiled.hash
            && self.lock().st == other.lock().st
    }
    fn __hash__(&self) -> u64 {
        self.lock().st.position_hash()
    }
    fn __repr__(&self) -> String {
        let p = self.lock();
        let who = &self.game().players[p.st.to_move as usize].name;
        let what = match p.st.result {
            Some(_) => "game over".to_string(),
            None if self.game().throw_due(&p.st).is_some() => format!("{who} to throw"),
            None => format!("{who} to move"),
        };
        format!(
            "<keliya.State {} ply {}: {what}>",
            self.ruleset.compiled.info.name, p.st.ply
        )
    }
}

/// Loads a ruleset by name (`keliya.rulesets()`) or path, with everything it extends; raises
/// `KeliyaError` with every problem found, each at its file, line and column.
#[pyfunction]
#[pyo3(signature = (what, paths = Vec::new()))]
fn load(py: Python<'_>, what: &str, paths: Vec<PathBuf>) -> PyResult<Ruleset> {
    let inner = load_checked(py, what, paths)?;
    Ok(Ruleset {
        inner: Arc::new(inner),
    })
}

/// A pickled state back (`State.__reduce__`). Each ruleset is loaded once per process for this.
#[pyfunction]
fn _restore_state(py: Python<'_>, what: &str, json_text: &str) -> PyResult<State> {
    static LOADED: Mutex<Vec<Arc<Loadedness>>> = Mutex::new(Vec::new());
    let known = {
        let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        loaded.iter().find(|l| l.what == what).cloned()
    };
    let inner = match known {
        Some(l) => l,
        None => {
            let l = Arc::new(load_checked(py, what, Vec::new())?);
            LOADED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(l.clone());
            l
        }
    };
    Ruleset { inner }.state_from_json(py, json_text)
}

/// The names of the rulesets found (`./rulesets`, then the bundled ones), libraries included.
#[pyfunction]
fn rulesets() -> Vec<String> {
    catalog(Vec::new())
        .names()
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

fn resolve(py: Python<'_>, ruleset: &Bound<'_, PyAny>) -> PyResult<Arc<Loadedness>> {
    if let Ok(r) = ruleset.cast::<Ruleset>() {
        return Ok(r.get().inner.clone());
    }
    let what: String = ruleset
        .extract()
        .map_err(|_| PyValueError::new_err("a ruleset is a keliya.Ruleset, a name or a path"))?;
    Ok(Arc::new(load_checked(py, &what, Vec::new())?))
}

/// A shard given from Python as (k, n), checked as `--shard K/N` is.
fn shard_of((index, of): (u64, u64), games: u64) -> PyResult<Shard> {
    let s = Shard::parse(&format!("{index}/{of}")).map_err(PyValueError::new_err)?;
    if of > games {
        return Err(PyValueError::new_err(format!(
            "{of} shards of {games} games: more shards than games"
        )));
    }
    Ok(s)
}

fn run_error(py: Python<'_>, ruleset: &Loadedness, e: RunError) -> PyErr {
    match e {
        RunError::Setup(m) | RunError::Output(m) => PyValueError::new_err(m),
        RunError::Game { game, error, .. } => {
            let err = ruleset.engine_error(py, &error);
            let message = format!("game {game}: {}", err.value(py));
            KeliyaError::new_err(message)
        }
    }
}

/// Seeded games, the loop in Rust with the GIL released; the JSON of `keliya simulate --json`
/// (with `shard`, of that shard: `keliya merge` or `merge` adds the shards up).
#[pyfunction]
#[pyo3(signature = (ruleset, games, seed = 0, agents = "random", threads = 1, shard = None))]
fn simulate_json(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    games: u64,
    seed: u64,
    agents: &str,
    threads: usize,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    let loaded = resolve(py, ruleset)?;
    if games == 0 {
        return Err(PyValueError::new_err(
            "a simulation needs at least one game",
        ));
    }
    if threads == 0 || threads > 256 {
        return Err(PyValueError::new_err("threads takes 1 to 256"));
    }
    let shard = shard.map(|s| shard_of(s, games)).transpose()?;
    let range = shard.map_or(0..games, |s| shard_range(games, s));
    let played = range.end - range.start;
    let specs = split_agents(agents);
    let game = loaded.simulated()?;
    let start = std::time::Instant::now();
    let sides = game.sides();
    // Each game is counted as it comes: memory does not grow with the number of games.
    let mut stats = SimulationStats::new(seed, &sides);
    let mut seats: Option<Vec<String>> = None;
    py.detach(|| {
        simulate_each(
            game,
            range,
            seed,
            &specs,
            threads,
            Detail::default(),
            &|| {},
            &mut |r| {
                stats.add(&r.summary, &sides);
                seats.get_or_insert(r.agents);
                Ok(())
            },
        )
    })
    .map_err(|e| run_error(py, &loaded, e))?;
    let secs = start.elapsed().as_secs_f64();
    let meta = RunMeta {
        ruleset: loaded.compiled.info.name.clone(),
        ruleset_hash: loaded.compiled.hash.clone(),
        agents: seats.unwrap_or(specs),
    };
    let mut v = match shard {
        Some(s) => shard_json(game, &stats, &meta, s, games),
        None => run_json(game, &stats, &meta),
    };
    v["threads"] = json!(threads);
    v["games_per_sec"] = json!(played as f64 / secs.max(1e-9));
    Ok(v.to_string())
}

/// The shards of one run (their `simulate_json` texts), added up into the run's.
#[pyfunction]
fn merge_json(parts: Vec<String>) -> PyResult<String> {
    let values: Vec<Value> = parts
        .iter()
        .map(|t| serde_json::from_str(t))
        .collect::<Result<_, _>>()
        .map_err(|e| PyValueError::new_err(format!("not a shard's JSON: {e}")))?;
    merge_shards(&values)
        .map(|v| v.to_string())
        .map_err(PyValueError::new_err)
}

/// The structural diff of two rulesets and, with `simulate` > 0, what the change does to play: the
/// JSON of `keliya diff --json`.
#[pyfunction]
#[pyo3(signature = (a, b, simulate = 0, seed = 0, agents = "random", threads = 1))]
fn diff_json(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    simulate: u64,
    seed: u64,
    agents: &str,
    threads: usize,
) -> PyResult<String> {
    let la = resolve(py, a)?;
    let lb = resolve(py, b)?;
    let sa = keliya_diff::Side::new(&la.sources, &la.compiled);
    let sb = keliya_diff::Side::new(&lb.sources, &lb.compiled);
    let mut v = py.detach(|| keliya_diff::structural(sa, sb).to_json());
    if simulate > 0 {
        let (ga, gb) = (la.simulated()?, lb.simulated()?);
        let options = keliya_diff::SimOptions {
            games: simulate,
            seed,
            agents: split_agents(agents),
            threads,
        };
        let sim = py
            .detach(|| {
                keliya_diff::simulate(
                    (&la.compiled.info.name, ga),
                    (&lb.compiled.info.name, gb),
                    &options,
                    &|| {},
                )
            })
            .map_err(|e| KeliyaError::new_err(e.to_string()))?;
        v["simulation"] = sim.to_json();
    }
    Ok(v.to_string())
}

fn summary_json(g: &GameSummary) -> Value {
    json!([g.winner, g.reason, g.capped, g.plies, g.captures])
}

fn summary_from(v: &Value) -> Option<GameSummary> {
    let a = v.as_array()?;
    Some(GameSummary {
        winner: match &a[0] {
            Value::Null => None,
            w => Some(u8::try_from(w.as_u64()?).ok()?),
        },
        reason: a.get(1)?.as_str()?.to_string(),
        capped: a.get(2)?.as_bool()?,
        plies: u32::try_from(a.get(3)?.as_u64()?).ok()?,
        captures: u32::try_from(a.get(4)?.as_u64()?).ok()?,
    })
}

/// One shard of a behavioural diff: the games of shard `shard` of both rulesets, game `i` of both seeded
/// alike, as their summaries; `diff_merge_json` puts every shard together.
#[pyfunction]
#[pyo3(signature = (a, b, games, seed, agents, shard))]
fn diff_shard_json(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    games: u64,
    seed: u64,
    agents: &str,
    shard: (u64, u64),
) -> PyResult<String> {
    let s = shard_of(shard, games)?;
    let range = shard_range(games, s);
    let specs = split_agents(agents);
    let mut out = json!({"index": s.index, "of": s.of, "games": games, "seed": seed});
    for (key, side) in [("a", a), ("b", b)] {
        let loaded = resolve(py, side)?;
        let game = loaded.simulated()?;
        let mut summaries = Vec::new();
        let mut seats: Option<Vec<String>> = None;
        py.detach(|| {
            simulate_each(
                game,
                range.clone(),
                seed,
                &specs,
                1,
                Detail::default(),
                &|| {},
                &mut |r| {
                    summaries.push(summary_json(&r.summary));
                    seats.get_or_insert(r.agents);
                    Ok(())
                },
            )
        })
        .map_err(|e| run_error(py, &loaded, e))?;
        out[key] = json!({
            "hash": loaded.compiled.hash,
            "agents": seats.unwrap_or_else(|| specs.clone()),
            "summaries": summaries,
        });
    }
    Ok(out.to_string())
}

/// Every shard of a behavioural diff (`diff_shard_json`), put together into what `diff_json` with
/// `simulate = games` returns.
#[pyfunction]
#[pyo3(signature = (a, b, games, seed, agents, parts))]
fn diff_merge_json(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    games: u64,
    seed: u64,
    agents: &str,
    parts: Vec<String>,
) -> PyResult<String> {
    let bad = |m: String| PyValueError::new_err(m);
    let mut shards: Vec<Value> = parts
        .iter()
        .map(|t| serde_json::from_str(t))
        .collect::<Result<_, _>>()
        .map_err(|e| bad(format!("not a diff shard's JSON: {e}")))?;
    shards.sort_by_key(|v| v["index"].as_u64().unwrap_or(0));
    let of = shards.len() as u64;
    for (i, v) in shards.iter().enumerate() {
        if v["index"].as_u64() != Some(i as u64 + 1) || v["of"].as_u64() != Some(of) {
            return Err(bad(format!(
                "shard {}/{of} is missing or given twice: a merge needs every shard once",
                i + 1
            )));
        }
        if v["games"].as_u64() != Some(games) || v["seed"].as_u64() != Some(seed) {
            return Err(bad(format!("shard {} is of another run", i + 1)));
        }
    }
    let la = resolve(py, a)?;
    let lb = resolve(py, b)?;
    let options = keliya_diff::SimOptions {
        games,
        seed,
        agents: split_agents(agents),
        threads: 1,
    };
    let mut runs = Vec::new();
    for (key, loaded) in [("a", &la), ("b", &lb)] {
        let game = loaded.simulated()?;
        let mut summaries = Vec::new();
        for v in &shards {
            if v[key]["hash"].as_str() != Some(loaded.compiled.hash.as_str()) {
                return Err(bad(format!(
                    "a shard played another version of ruleset {key}"
                )));
            }
            for g in v[key]["summaries"].as_array().into_iter().flatten() {
                summaries.push(
                    summary_from(g).ok_or_else(|| bad("a game's summary is malformed".into()))?,
                );
            }
        }
        if summaries.len() as u64 != games {
            return Err(bad(format!(
                "the shards hold {} games of {games}",
                summaries.len()
            )));
        }
        let agents: Vec<String> =
            serde_json::from_value(shards[0][key]["agents"].clone()).unwrap_or_default();
        runs.push(keliya_diff::run_of(
            &loaded.compiled.info.name,
            game,
            seed,
            agents,
            summaries,
        ));
    }
    let rb = runs.pop().expect("two runs");
    let ra = runs.pop().expect("two runs");
    let sa = keliya_diff::Side::new(&la.sources, &la.compiled);
    let sb = keliya_diff::Side::new(&lb.sources, &lb.compiled);
    let mut v = keliya_diff::structural(sa, sb).to_json();
    v["simulation"] = keliya_diff::compare_runs(&options, ra, rb).to_json();
    Ok(v.to_string())
}

#[pymodule]
fn _keliya(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("KeliyaError", m.py().get_type::<KeliyaError>())?;
    m.add("ENGINE_VERSION", keliya_play::record::ENGINE_VERSION)?;
    m.add_class::<Ruleset>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_json, m)?)?;
    m.add_function(wrap_pyfunction!(merge_json, m)?)?;
    m.add_function(wrap_pyfunction!(diff_json, m)?)?;
    m.add_function(wrap_pyfunction!(diff_shard_json, m)?)?;
    m.add_function(wrap_pyfunction!(diff_merge_json, m)?)?;
    Ok(())
}
