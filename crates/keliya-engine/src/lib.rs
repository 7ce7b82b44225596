//! The generic interpreter.
//!
//! A [`Game`] is a ruleset compiled to flat data: the board as arrays, names resolved to indices, and every DSL
//! text lowered to the small IR in [`ir`]. The engine answers the questions every player and tool asks:
//! [`Game::initial_state`], [`Game::legal_moves`], [`Game::chance_outcomes`], [`Game::apply`] and the outcome
//! in [`State::result`].
//!
//! Architecture invariants: the engine knows primitives (sites, pieces, choices, effects), never a game; it does
//! no I/O and no parsing; its hot types carry no serde.

pub mod builtins;
pub mod codegen;
mod compile;
mod compiled;
mod counts;
mod eval;
mod exec;
mod fold;
mod interp;
pub mod ir;
mod program;
mod run;
mod state;

pub use interp::{Choice, EngineError, Move, PASS_RULE, Successor, Successors};
pub use ir::*;
pub use program::{Backend, Programs};
pub use state::{CapKind, Held, History, Outcome, Reason, State};

use keliya_board::{Board, SiteId};

pub type PlayerId = u8;
pub type PieceId = u8;

#[derive(Clone, Debug)]
pub struct PlayerDef {
    pub name: String,
    pub display: String,
}

/// Players who play as one side (`teams:` in a ruleset): whichever of them the rules name as the winner,
/// the team wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamDef {
    pub name: String,
    pub players: Vec<PlayerId>,
}

/// One side of a game as its results are reported: a team, or a player in no team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub name: String,
    pub players: Vec<PlayerId>,
}

#[derive(Clone, Debug)]
pub struct PieceDef {
    pub name: String,
    pub display: String,
    pub owner: Option<PlayerId>,
    /// The piece's role (`role:` in a ruleset), an index into [`Game::roles`]: each player's piece of one
    /// role is written `role[player]` in the rules, so that a rule is written once for every player.
    pub role: Option<u16>,
}

/// A variable: one value for the game, or one per player.
#[derive(Clone, Debug)]
pub struct VarDef {
    pub name: String,
    pub per_player: bool,
    pub initial: i64,
}

#[derive(Clone, Debug)]
pub struct RuleDef {
    pub name: String,
    /// The player who may use this rule; `None` for every player.
    pub player: Option<PlayerId>,
    pub when: Option<Expr>,
    pub body: Vec<Stmt>,
    /// How a move made by this rule is written, e.g. `{from}-{to}` as its parts; `None` gives
    /// `rule v1 v2`.
    pub notation: Option<Vec<NotationPart>>,
    pub locals: usize,
    /// Used only when no ordinary rule gives the player a move (instead of a pass): ends of rounds, say.
    pub fallback: bool,
}

/// One piece of a rule's notation template, split by the loader so the engine only fills it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationPart {
    /// Written as it is.
    Text(String),
    /// `{name}`: the last value chosen for `name` in the move.
    Last(String),
    /// `{name*sep}`: every value chosen for `name` in the move, in order, joined by `sep`.
    Every { name: String, sep: String },
}

#[derive(Clone, Debug)]
pub struct EndDef {
    pub name: String,
    pub when: Expr,
    /// `None` is a draw.
    pub winner: Option<Expr>,
}

/// One row of a throw table: how many shells land mouth up, what the throw is worth and what it is called.
#[derive(Clone, Debug, PartialEq)]
pub struct ThrowRow {
    pub name: String,
    pub value: i64,
    pub probability: f64,
    /// The thrower throws again after using (or losing) this throw.
    pub again: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Caps {
    /// Turns in all; the game is a draw when reached.
    pub max_turns: Option<u32>,
    /// Consecutive turns without a capture and without a piece entering the board from off it (so in a
    /// game with drops the count starts once the last piece is down).
    pub no_capture_turns: Option<u32>,
    /// The same position (pieces, variables, player to move) for this many times.
    pub repetition: Option<u32>,
}

/// A named condition of `invariants:`.
#[derive(Clone, Debug)]
pub struct Invariant {
    pub name: String,
    pub holds: Expr,
    /// Where it is written (an index of the rules crate's table of locations, like the IR's).
    pub at: usize,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub board: Board,
    pub players: Vec<PlayerDef>,
    /// Players who play as one side; a player may be in one team at most (none: every player is a side).
    pub teams: Vec<TeamDef>,
    pub pieces: Vec<PieceDef>,
    /// The names of the pieces' roles, in the order of their first piece.
    pub roles: Vec<String>,
    pub vars: Vec<VarDef>,
    /// Counts per (site, piece) at the start.
    pub setup: Vec<u16>,
    pub turn_order: Vec<PlayerId>,
    pub rules: Vec<RuleDef>,
    pub ends: Vec<EndDef>,
    pub throws: Option<Vec<ThrowRow>>,
    /// `throws: {resolution: stored}`: a throw that gives a throw again is held, not played, and so is the
    /// throw that ends the run of them; the player then plays the held throws one by one, in the order he
    /// chooses (see [`State::held`]). Otherwise each throw is played before the next is thrown.
    pub stored_throws: bool,
    /// `throws: {max_per_turn: n}`: a player throws at most n times in one turn; the nth throw gives no
    /// throw again, nor does `again()` after it.
    pub max_throws_per_turn: Option<u16>,
    /// `throws: {void_runs_of: n}` (stored throws): when the last n throws held are of one value, the n
    /// are struck out as the last of them is thrown; the run of throws goes on or ends as that throw says.
    pub void_runs_of: Option<u16>,
    pub caps: Caps,
    /// The off-board site tagged `hand` owned by each player.
    pub hands: Vec<Option<SiteId>>,
    /// Names of `choose` variables, by choice-point id (for notation).
    pub choice_names: Vec<Vec<String>>,
    /// Most loop iterations one move may take before it is an error.
    pub max_steps_per_move: u32,
    /// Most options one position's search may go through, over all rules (each option of a choice point
    /// followed further, and each move found), before it is an error: nested choices multiply, and this
    /// keeps a search's time and memory bounded.
    pub max_options_per_position: u32,
    /// Most steps (throws and moves) one game may take when it is played out (`keliya-play`), before it
    /// is an error: a game whose rules need not end would otherwise be played forever.
    pub max_steps_per_game: u32,
    /// Tag names used on the board, and for each site a bit set of its tags (bit i = `tag_names[i]`).
    pub tag_names: Vec<String>,
    pub site_tags: Vec<u64>,
    /// The owner of each site, resolved to a player.
    pub site_owner: Vec<Option<PlayerId>>,
    /// The first track owned by each player.
    pub routes: Vec<Option<u16>>,
    /// Conditions that hold in every position of a correct game (checked after every move by the corpus
    /// test and `simulate --check`).
    pub invariants: Vec<Invariant>,
    /// Some rule ranks its moves with `prefer(n)`, so a search keeps only the best ranked and `apply`
    /// must check a move against the others ([`Game::ranks_moves`]; a game built by hand must set it).
    pub prefers: bool,
    /// The rules as the executor runs them (program.rs): built by [`Game::fold_constants`], or from
    /// the rules as they are the first time they are needed (`Programs::default()` in a game built
    /// by hand).
    pub programs: Programs,
}

impl Game {
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }
    pub fn player(&self, name: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as PlayerId)
    }
    pub fn piece(&self, name: &str) -> Option<PieceId> {
        self.pieces
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as PieceId)
    }
    /// `player`'s piece of role `role` (at most one; see `PieceDef::role`).
    pub fn piece_of(&self, role: u16, player: PlayerId) -> Option<PieceId> {
        self.pieces
            .iter()
            .position(|p| p.role == Some(role) && p.owner == Some(player))
            .map(|i| i as PieceId)
    }
    pub fn var(&self, name: &str) -> Option<usize> {
        self.vars.iter().position(|v| v.name == name)
    }
    /// Slot of variable `var` for `player` in [`State::vars`].
    pub fn var_slot(&self, var: usize, player: Option<PlayerId>) -> usize {
        let mut slot = 0;
        for v in &self.vars[..var] {
            slot += if v.per_player { self.players.len() } else { 1 };
        }
        slot + player.map_or(0, |p| p as usize)
    }
    pub fn var_slots(&self) -> usize {
        self.var_slot(self.vars.len(), None)
    }
    /// The sides results are reported by, in the order of their first players: each team, and each
    /// player in no team.
    pub fn sides(&self) -> Vec<Side> {
        let mut sides: Vec<Side> = Vec::new();
        for (i, player) in self.players.iter().enumerate() {
            let p = i as PlayerId;
            match self.teams.iter().find(|t| t.players.contains(&p)) {
                Some(team) if sides.iter().any(|s| s.name == team.name) => {}
                Some(team) => sides.push(Side {
                    name: team.name.clone(),
                    players: team.players.clone(),
                }),
                None => sides.push(Side {
                    name: player.name.clone(),
                    players: vec![p],
                }),
            }
        }
        sides
    }
    /// The name of `p`'s side: its team's, or its own.
    pub fn side_name(&self, p: PlayerId) -> &str {
        match self.team_of(p) {
            Some(team) => team,
            None => self.players.get(p as usize).map_or("", |d| &d.name),
        }
    }
    /// The team `p` plays in, when the ruleset declares one with `p` in it.
    pub fn team_of(&self, p: PlayerId) -> Option<&str> {
        self.teams
            .iter()
            .find(|t| t.players.contains(&p))
            .map(|t| t.name.as_str())
    }
    /// The player who stands for `p`'s side: the first of its team, or `p` in no team (`side(p)`).
    pub fn side_of(&self, p: PlayerId) -> PlayerId {
        self.teams
            .iter()
            .find(|t| t.players.contains(&p))
            .and_then(|t| t.players.first().copied())
            .unwrap_or(p)
    }
    pub fn next_player(&self, p: PlayerId) -> PlayerId {
        let i = self.turn_order.iter().position(|&q| q == p).unwrap_or(0);
        self.turn_order[(i + 1) % self.turn_order.len()]
    }
}

#[cfg(test)]
mod tests;
