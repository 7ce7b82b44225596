//! Helpers for the scenario tests: load a bundled ruleset, set up a position, list and play moves by notation.

use std::path::PathBuf;

use keliya_engine::{Game, Outcome, State};
use keliya_play::state_json;
use keliya_rules::{Catalog, Compiled};

/// The workspace root (the folder holding `rulesets/`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn catalog() -> Catalog {
    Catalog {
        dirs: vec![root().join("rulesets")],
        embedded: Vec::new(),
    }
}

/// Loads a ruleset by name or path; panics with every diagnostic if it is invalid.
pub fn compile(name: &str) -> Compiled {
    loaded(name, keliya_rules::load(&catalog(), name))
}

/// [`compile`] without preparing the game (`keliya_rules::load_as_written`).
pub fn compile_as_written(name: &str) -> Compiled {
    loaded(name, keliya_rules::load_as_written(&catalog(), name))
}

fn loaded(name: &str, loaded: keliya_rules::Loaded) -> Compiled {
    match loaded.result {
        Ok(c) => c,
        Err(diags) => {
            let text: Vec<String> = diags.iter().map(|d| loaded.sources.short(d)).collect();
            panic!("{name} does not load:\n{}", text.join("\n"))
        }
    }
}

/// A game in progress, driven by move notation as the CLI prints it.
pub struct Scenario {
    pub compiled: Compiled,
    pub state: State,
}

impl Scenario {
    /// The initial position of a ruleset.
    pub fn new(name: &str) -> Self {
        let compiled = compile(name);
        let state = compiled.game().initial_state();
        Scenario { compiled, state }
    }

    /// A position written as a state file (see docs/cli.md); end conditions are checked as at a turn start.
    pub fn at(name: &str, state: serde_json::Value) -> Self {
        let compiled = compile(name);
        let state = state_json::from_json(compiled.game(), &state)
            .unwrap_or_else(|e| panic!("bad test position: {e}"));
        Scenario { compiled, state }
    }

    pub fn game(&self) -> &Game {
        self.compiled.game()
    }

    /// The legal moves, in notation, sorted.
    pub fn moves(&self) -> Vec<String> {
        let g = self.game();
        let mut m: Vec<String> = g
            .legal_moves(&self.state)
            .expect("rules run")
            .iter()
            .map(|m| g.notation(m))
            .collect();
        m.sort();
        m
    }

    pub fn can(&self, mv: &str) -> bool {
        self.moves().iter().any(|m| m == mv)
    }

    /// Plays a move given in notation; panics (failing the test) if it is not legal.
    pub fn play(&mut self, mv: &str) -> &mut Self {
        let g = self.compiled.game();
        let parsed = g.parse_move(&self.state, mv).expect("rules run");
        let Some(parsed) = parsed else {
            panic!("`{mv}` is not legal here; legal: {:?}", self.moves())
        };
        self.state = g.apply(&self.state, &parsed).expect("legal moves apply");
        self
    }

    /// The throws that can come now: each row's name, value, probability and whether it throws again.
    pub fn throw_outcomes(&self) -> Vec<(String, i64, f64, bool)> {
        let g = self.game();
        let rows = g.throws.as_ref().expect("the game has throws");
        g.chance_outcomes(&self.state)
            .iter()
            .map(|&(i, p)| {
                let r = &rows[i as usize];
                (r.name.clone(), r.value, p, r.again)
            })
            .collect()
    }

    /// Plays a throw outcome by its name.
    pub fn throw(&mut self, name: &str) -> &mut Self {
        let g = self.compiled.game();
        let rows = g.throws.as_ref().expect("the game has throws");
        let i = rows
            .iter()
            .position(|r| r.name == name)
            .unwrap_or_else(|| panic!("no throw named {name}"));
        assert!(self.state.chance_due, "no throw is due");
        self.state = g.apply_chance(&self.state, i as u8);
        self
    }

    /// The players' display names, in turn order.
    pub fn displays(&self) -> Vec<&str> {
        self.game()
            .players
            .iter()
            .map(|p| p.display.as_str())
            .collect()
    }

    pub fn to_move(&self) -> &str {
        &self.game().players[self.state.to_move as usize].name
    }

    /// Pieces of `piece` on `site`.
    pub fn count(&self, site: &str, piece: &str) -> u16 {
        let g = self.game();
        let s = g
            .board
            .site(site)
            .unwrap_or_else(|| panic!("no site {site}"));
        let p = g.piece(piece).unwrap_or_else(|| panic!("no piece {piece}"));
        self.state.count(g, s, p)
    }

    pub fn var(&self, name: &str, player: Option<&str>) -> i64 {
        let g = self.game();
        let v = g.var(name).unwrap_or_else(|| panic!("no variable {name}"));
        let p = player.map(|p| g.player(p).unwrap_or_else(|| panic!("no player {p}")));
        self.state.vars[g.var_slot(v, p)]
    }

    pub fn result(&self) -> Option<Outcome> {
        self.state.result
    }

    /// The winner's player name, `draw`, or `none` while the game goes on.
    pub fn winner(&self) -> String {
        match self.state.result {
            None => "none".into(),
            Some(Outcome { winner: None, .. }) => "draw".into(),
            Some(Outcome {
                winner: Some(w), ..
            }) => self.game().players[w as usize].name.clone(),
        }
    }

    /// What ended the game: an end condition's name, a rule's name, or `cap:<kind>`.
    pub fn ended_by(&self) -> String {
        self.state.result.map_or("none".into(), |o| {
            keliya_play::simulate::reason_name(self.game(), o.reason).0
        })
    }
}

/// Plays game `i` of the seed `seed` to its end with uniformly random moves (a game without throws),
/// checking the ruleset's invariants after every move; the final position.
pub fn random_game(game: &Game, seed: u64, i: u64) -> State {
    let mut dice = keliya_play::Dice::new(keliya_play::Dice::game_seed(seed, i));
    let mut st = game.initial_state();
    while st.result.is_none() {
        let moves = game.legal_moves(&st).expect("rules run");
        st = game
            .apply(&st, &moves[dice.below(moves.len())])
            .expect("applies");
        let broken = game.broken_invariants(&st).unwrap();
        assert!(broken.is_empty(), "game {i}: {broken:?}");
    }
    st
}

/// Plays games `0 .. games` of the seed `seed` with `random_game` and gives, for each, its final position
/// and the name of the `ends` entry that ended it; a game ended by an engine cap instead fails the test.
pub fn random_endings(game: &Game, seed: u64, games: u64) -> Vec<(State, String)> {
    (0..games)
        .map(|i| {
            let st = random_game(game, seed, i);
            let reason = st.result.as_ref().expect("over").reason;
            let keliya_engine::Reason::End(e) = reason else {
                panic!("game {i} ended by an engine cap: {reason:?}")
            };
            let end = game.ends[e as usize].name.clone();
            (st, end)
        })
        .collect()
}

/// The value of a variable shared by all players (not per player) in a final position.
pub fn shared_var(game: &Game, st: &State, name: &str) -> i64 {
    st.vars[game.var_slot(game.var(name).unwrap(), None)]
}

/// Hole `i` of a 2 x 7 sowing board numbered anticlockwise from South's left: 0-6 South's row (`r1h1` ..
/// `r1h7`), 7-13 North's row from his left (`r2h7` .. `r2h1`), so that hole 13 - i faces hole i.
pub fn seven_a_side(i: usize) -> String {
    if i < 7 {
        format!("r1h{}", i + 1)
    } else {
        format!("r2h{}", 14 - i)
    }
}

/// A two-row sowing board (Raja Pasu's family) numbered hole by hole: `hole(i)` names hole `i` (0 is South's
/// left), `holes` is how many there are.
pub struct SowingBoard {
    pub hole: fn(usize) -> String,
    pub holes: usize,
    /// The counters of a position: on the board and in both stores.
    pub total: i64,
}

impl SowingBoard {
    /// A position in the middle of a round (as a state file, see docs/cli.md): counters per hole, the holes
    /// closed (one `closed` marker each), each player's `store`, the player to move.
    pub fn position(
        &self,
        counts: &[u16],
        closed: &[usize],
        (south, north): (i64, i64),
        to_move: &str,
    ) -> serde_json::Value {
        assert_eq!(counts.len(), self.holes, "one count a hole");
        let on_board: i64 = counts.iter().map(|&n| i64::from(n)).sum();
        assert_eq!(
            on_board + south + north,
            self.total,
            "the counters of a position"
        );
        let mut sites = serde_json::Map::new();
        for (i, &n) in counts.iter().enumerate() {
            if closed.contains(&i) {
                assert_eq!(n, 0, "a closed hole holds nothing");
                sites.insert((self.hole)(i), serde_json::json!({"closed": 1}));
            } else if n > 0 {
                sites.insert((self.hole)(i), serde_json::json!({"seed": n}));
            }
        }
        serde_json::json!({
            "to_move": to_move,
            "turn": 10,
            "sites": sites,
            "vars": {"store": {"south": south, "north": north}},
        })
    }

    /// The counters in each hole, in hole order.
    pub fn counts(&self, s: &Scenario) -> Vec<u16> {
        (0..self.holes)
            .map(|i| s.count(&(self.hole)(i), "seed"))
            .collect()
    }

    /// The closed holes, in hole order.
    pub fn closed(&self, s: &Scenario) -> Vec<usize> {
        (0..self.holes)
            .filter(|&i| s.count(&(self.hole)(i), "closed") == 1)
            .collect()
    }
}

/// A position of a game built on `lib/hunt`: hunters and prey on the given points, `prey_in_hand` prey still
/// off the board, `captures` made by the hunters, `to_move` to play (as a state file, see docs/cli.md).
pub fn hunt_position(
    hunters: &[&str],
    prey: &[&str],
    prey_in_hand: u16,
    to_move: &str,
    captures: i64,
) -> serde_json::Value {
    let mut sites = serde_json::Map::new();
    for h in hunters {
        sites.insert(h.to_string(), serde_json::json!({"hunter": 1}));
    }
    for p in prey {
        assert!(!sites.contains_key(*p), "{p} given twice");
        sites.insert(p.to_string(), serde_json::json!({"prey": 1}));
    }
    if prey_in_hand > 0 {
        sites.insert(
            "prey-hand".into(),
            serde_json::json!({"prey": prey_in_hand}),
        );
    }
    serde_json::json!({"to_move": to_move, "sites": sites, "vars": {"captures": {"hunter": captures, "prey": 0}}})
}

/// One row of a board table of `docs/rules/`: point, coordinates, neighbours, leaps (over -> land).
pub type BoardRow<'a> = (&'a str, (f64, f64), &'a [&'a str], &'a [(&'a str, &'a str)]);

/// Checks a board against a board table of `docs/rules/`: point, coordinates, neighbours, leaps (over -> land).
pub fn check_board_table(b: &keliya_board::Board, table: &[BoardRow<'_>]) {
    assert_eq!(
        b.playing_sites().count(),
        table.len(),
        "the table lists every point"
    );
    for (point, (x, y), neighbours, leaps) in table {
        let s = b.site(point).unwrap_or_else(|| panic!("no point {point}"));
        let (gx, gy) = b.at[s as usize];
        assert!(
            (gx - x).abs() < 1e-9 && (gy - y).abs() < 1e-9,
            "{point} is at ({gx}, {gy}), not ({x}, {y})"
        );
        let mut got: Vec<&str> = b.neighbours(s).iter().map(|&n| b.name(n)).collect();
        let mut want = neighbours.to_vec();
        got.sort();
        want.sort();
        assert_eq!(got, want, "neighbours of {point}");
        let mut got: Vec<(&str, &str)> = b
            .leaps(s)
            .iter()
            .map(|&(o, l)| (b.name(o), b.name(l)))
            .collect();
        let mut want = leaps.to_vec();
        got.sort();
        want.sort();
        assert_eq!(got, want, "leaps from {point}");
    }
}

/// Checks a rules page's tables against its test file: every id in `ids` has a row (`| ID |` or `| ID /`)
/// in `docs/rules/<page>`, the rows name at least one test, and every test they name (a name in backticks
/// starting with one of `test_prefixes`) is a `fn` of `tests/tests/<tests>`.
pub fn check_rule_rows(page: &str, tests: &str, ids: &[String], test_prefixes: &[&str]) {
    let doc = std::fs::read_to_string(root().join("docs/rules").join(page)).expect("the page");
    let code = std::fs::read_to_string(root().join("tests/tests").join(tests)).expect("the tests");
    for id in ids {
        let rows: Vec<&str> = doc
            .lines()
            .filter(|l| l.starts_with(&format!("| {id} |")) || l.starts_with(&format!("| {id} /")))
            .collect();
        assert!(!rows.is_empty(), "{page} has no row for {id}");
        let named: Vec<&str> = rows
            .iter()
            .flat_map(|row| row.split('`').skip(1).step_by(2))
            .filter(|n| test_prefixes.iter().any(|p| n.starts_with(p)))
            .collect();
        assert!(!named.is_empty(), "{id}: {page} names no test");
        for n in named {
            assert!(
                code.contains(&format!("fn {n}()")),
                "{id}: {page} names `{n}`, which is not a test of {tests}"
            );
        }
    }
}
