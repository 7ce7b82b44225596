//! Running rules: legal moves by exploring choice points, applying a move, and what follows a move
//! (next player, end conditions, caps).

use keliya_board::SiteId;

use crate::ir::*;
use crate::state::{CapKind, Outcome, Reason, State};
use crate::{Game, PlayerId, ThrowRow};
use smallvec::SmallVec;
use std::borrow::Cow;

/// Rule index used for the forced pass of a player with no legal move.
pub const PASS_RULE: u16 = u16::MAX;

/// One decision at a `choose`: the choice point's id and the chosen values (one or two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    pub point: u16,
    pub values: [Value; 2],
}

/// A complete move: the rule it uses and one choice per choice point it passed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub rule: u16,
    pub choices: SmallVec<[Choice; 4]>,
}

impl Move {
    pub fn pass() -> Move {
        Move {
            rule: PASS_RULE,
            choices: SmallVec::new(),
        }
    }
    pub fn is_pass(&self) -> bool {
        self.rule == PASS_RULE
    }
}

/// A problem found while running rules: a rule did something impossible (took a piece from an empty site,
/// looped without end). `at` indexes the rules crate's span table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub rule: String,
    pub at: usize,
    pub message: String,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rule `{}`: {}", self.rule, self.message)
    }
}

impl std::error::Error for EngineError {}

/// The interpreter passes errors boxed, so its many small results stay small (an error is rare).
impl From<Box<EngineError>> for EngineError {
    fn from(e: Box<EngineError>) -> Self {
        *e
    }
}

/// The position a rule runs on: the caller's, until the rule first changes it.
type Scratch<'s> = Cow<'s, State>;

/// The options at a choice point; inline up to 8, the usual case.
type Options = SmallVec<[[Value; 2]; 8]>;

enum Flow {
    Done,
    /// Stopped at a choice point whose options were not given: these are the options.
    /// The options are left in [`Run::suspended`] (moving them up the call chain would copy them at every
    /// level).
    Suspend(u16),
}

struct Run<'a> {
    game: &'a Game,
    rule: u16,
    prefix: &'a [Choice],
    next: usize,
    locals: SmallVec<[Value; 8]>,
    again: bool,
    /// The move captured, or brought a piece onto the board: something that cannot be undone, which
    /// restarts the quiet-turn count and the repetition history.
    captured: bool,
    result: Option<Outcome>,
    next_mover: Option<PlayerId>,
    /// Set by `prefer(n)`; of all legal moves only those with the highest preference are kept.
    preference: i64,
    steps: u32,
    /// Configurations met by `seen_before` in this move.
    seen: std::cell::RefCell<Vec<u64>>,
    /// The options of the choice point the run stopped at.
    suspended: Options,
}

impl Game {
    pub fn initial_state(&self) -> State {
        let mut st = State {
            counts: self.setup.iter().copied().collect(),
            vars: Default::default(),
            to_move: self.turn_order[0],
            throw: None,
            chance_due: false,
            ply: 0,
            turn: 0,
            quiet_turns: 0,
            captures: 0,
            history: Default::default(),
            result: None,
        };
        for v in &self.vars {
            let n = if v.per_player { self.players.len() } else { 1 };
            st.vars.extend(std::iter::repeat_n(v.initial, n));
        }
        // An initial position that is already decided (a test position, say) reports it at once.
        let _ = self.begin_turn(&mut st);
        st
    }

    /// Every outcome of the throw that is due, with its probability; empty when no throw is due.
    pub fn chance_outcomes(&self, st: &State) -> Vec<(u8, f64)> {
        match (&self.throws, st.chance_due && st.result.is_none()) {
            (Some(rows), true) => rows
                .iter()
                .enumerate()
                .map(|(i, r)| (i as u8, r.probability))
                .collect(),
            _ => Vec::new(),
        }
    }

    pub fn apply_chance(&self, st: &State, outcome: u8) -> State {
        let mut next = st.clone();
        next.throw = Some(outcome);
        next.chance_due = false;
        next
    }

    /// All legal moves of the player to move. A player with no move gets the single move `pass`.
    /// Empty when the game is over or a throw is due.
    pub fn legal_moves(&self, st: &State) -> Result<Vec<Move>, EngineError> {
        if st.result.is_some() || st.chance_due {
            return Ok(Vec::new());
        }
        let mut moves = self.real_moves(st)?;
        if moves.is_empty() {
            moves.push(Move::pass());
        }
        Ok(moves)
    }

    fn real_moves(&self, st: &State) -> Result<Vec<Move>, EngineError> {
        let mut moves = Vec::new();
        let mut prefix = Vec::new();
        self.moves_of(st, false, &mut moves, &mut prefix, usize::MAX)?;
        if moves.is_empty() {
            self.moves_of(st, true, &mut moves, &mut prefix, usize::MAX)?;
        }
        // `prefer(n)`: only the moves with the highest preference are legal.
        let best = moves.iter().map(|m| m.1).max().unwrap_or(0);
        Ok(moves
            .into_iter()
            .filter(|m| m.1 == best)
            .map(|m| m.0)
            .collect())
    }

    /// `stuck`: no ordinary rule gives the player to move a move (fallback rules do not count).
    fn has_ordinary_move(&self, st: &State) -> Result<bool, EngineError> {
        // One move is enough to know: stop at the first.
        let mut moves = Vec::new();
        self.moves_of(st, false, &mut moves, &mut Vec::new(), 1)?;
        Ok(!moves.is_empty())
    }

    fn moves_of(
        &self,
        st: &State,
        fallback: bool,
        moves: &mut Vec<(Move, i64)>,
        prefix: &mut Vec<Choice>,
        limit: usize,
    ) -> Result<(), EngineError> {
        for (i, rule) in self.rules.iter().enumerate() {
            if moves.len() >= limit {
                break;
            }
            if rule.fallback != fallback || rule.player.is_some_and(|p| p != st.to_move) {
                continue;
            }
            if let Some(when) = &rule.when {
                let run = Run::new(self, i as u16, &[]);
                if !run.eval(st, when)?.truthy() {
                    continue;
                }
            }
            self.explore(st, i as u16, prefix, moves, limit)?;
        }
        Ok(())
    }

    /// Depth-first over choice points: run the rule with the choices made so far; where it stops at a new
    /// choice point, try each option in turn.
    fn explore(
        &self,
        st: &State,
        rule: u16,
        prefix: &mut Vec<Choice>,
        out: &mut Vec<(Move, i64)>,
        limit: usize,
    ) -> Result<(), EngineError> {
        if out.len() >= limit {
            return Ok(());
        }
        // Borrowed until a rule changes something: most runs stop at a choice point before any effect.
        let mut scratch = Cow::Borrowed(st);
        let mut run = Run::new(self, rule, prefix);
        match run.exec_rule(&mut scratch)? {
            Flow::Done => out.push((
                Move {
                    rule,
                    choices: SmallVec::from_slice(prefix),
                },
                run.preference,
            )),
            Flow::Suspend(point) => {
                for values in std::mem::take(&mut run.suspended) {
                    prefix.push(Choice { point, values });
                    self.explore(st, rule, prefix, out, limit)?;
                    prefix.pop();
                }
            }
        }
        Ok(())
    }

    /// The position after `mv`. The move must be legal here; an illegal move is an error, not a panic.
    /// Moves come from [`Game::legal_moves`] or [`Game::parse_move`]; a move built by hand that its rule
    /// allows but that `prefer(n)` ranks below another is not detected here.
    pub fn apply(&self, st: &State, mv: &Move) -> Result<State, EngineError> {
        let mut next = st.clone();
        let illegal = |message: String| EngineError {
            rule: self.rule_name(mv.rule).to_string(),
            at: 0,
            message,
        };
        if st.result.is_some() {
            return Err(illegal("the game is over".into()));
        }
        if st.chance_due {
            return Err(illegal("a throw is due before the next move".into()));
        }
        let (again, captured, result, next_mover) = if mv.is_pass() {
            if !self.real_moves(st)?.is_empty() {
                return Err(illegal(
                    "a player may pass only when no other move is legal".into(),
                ));
            }
            // A throw that cannot be used is lost with any extra throw it would have given.
            (false, false, None, None)
        } else {
            let Some(rule) = self.rules.get(mv.rule as usize) else {
                return Err(illegal(format!("no rule number {}", mv.rule)));
            };
            if rule.player.is_some_and(|p| p != st.to_move) {
                return Err(illegal("this rule is not for the player to move".into()));
            }
            let mut run = Run::new(self, mv.rule, &mv.choices);
            if let Some(when) = &rule.when {
                if !run.eval(st, when)?.truthy() {
                    return Err(illegal("the rule's condition does not hold".into()));
                }
            }
            let mut scratch = Cow::Borrowed(st);
            match run.exec_rule(&mut scratch)? {
                Flow::Done if run.next == mv.choices.len() => {}
                _ => return Err(illegal("the move's choices do not match the rule".into())),
            }
            next = scratch.into_owned();
            let again = run.again || st.throw.is_some_and(|t| self.throw_row(t).again);
            (again, run.captured, run.result, run.next_mover)
        };
        next.ply += 1;
        next.throw = None;
        if captured {
            next.quiet_turns = 0;
            next.history = Default::default();
        }
        if let Some(outcome) = result {
            next.result = Some(outcome);
            return Ok(next);
        }
        if let Some(p) = next_mover {
            next.to_move = p;
            next.turn += 1;
            if !captured {
                next.quiet_turns += 1;
            }
        } else if !again {
            next.to_move = self.next_player(st.to_move);
            next.turn += 1;
            if !captured {
                next.quiet_turns += 1;
            }
        }
        self.begin_turn(&mut next)?;
        Ok(next)
    }

    fn throw_row(&self, t: u8) -> &ThrowRow {
        &self
            .throws
            .as_ref()
            .expect("a throw is recorded only when the game has throws")[t as usize]
    }

    pub fn rule_name(&self, rule: u16) -> &str {
        if rule == PASS_RULE {
            "pass"
        } else {
            self.rules
                .get(rule as usize)
                .map_or("?", |r| r.name.as_str())
        }
    }

    /// The names of the ruleset's invariants that do not hold in `st`.
    pub fn broken_invariants(&self, st: &State) -> Result<Vec<String>, EngineError> {
        let run = Run::new(self, PASS_RULE, &[]);
        let mut broken = Vec::new();
        for (name, e) in &self.invariants {
            if !run.eval(st, e)?.truthy() {
                broken.push(name.clone());
            }
        }
        Ok(broken)
    }

    /// Settles a position made by hand (a state file, a test): checks end conditions and caps, and marks a
    /// throw as due where the game has throws.
    pub fn settle(&self, st: &mut State) -> Result<(), EngineError> {
        st.result = None;
        self.begin_turn(st)
    }

    /// Settles the position a player is about to move in: end conditions first, then caps, then a due throw.
    fn begin_turn(&self, st: &mut State) -> Result<(), EngineError> {
        for (i, end) in self.ends.iter().enumerate() {
            let run = Run::new(self, PASS_RULE, &[]);
            if run.eval(st, &end.when)?.truthy() {
                let winner = match &end.winner {
                    None => None,
                    Some(w) => match run.eval(st, w)? {
                        Value::Player(p) => Some(p),
                        _ => None,
                    },
                };
                st.result = Some(Outcome {
                    winner,
                    reason: Reason::End(i as u16),
                });
                return Ok(());
            }
        }
        let cap = |kind| {
            Some(Outcome {
                winner: None,
                reason: Reason::Cap(kind),
            })
        };
        if self.caps.max_turns.is_some_and(|m| st.turn >= m) {
            st.result = cap(CapKind::MaxTurns);
            return Ok(());
        }
        if self
            .caps
            .no_capture_turns
            .is_some_and(|m| st.quiet_turns >= m)
        {
            st.result = cap(CapKind::NoCapture);
            return Ok(());
        }
        if let Some(limit) = self.caps.repetition {
            let h = st.position_hash();
            let seen = st.history.count(h) as u32 + 1;
            st.history.push(h);
            if seen >= limit {
                st.result = cap(CapKind::Repetition);
                return Ok(());
            }
        }
        if self.throws.is_some() && st.throw.is_none() {
            st.chance_due = true;
        }
        Ok(())
    }

    /// How a move is written: the rule's notation template, or the rule name and the chosen values.
    pub fn notation(&self, mv: &Move) -> String {
        if mv.is_pass() {
            return "pass".into();
        }
        let rule = &self.rules[mv.rule as usize];
        let mut named: Vec<(&str, Value)> = Vec::new();
        for c in &mv.choices {
            for (name, v) in self.choice_names[c.point as usize].iter().zip(c.values) {
                named.push((name, v));
            }
        }
        match &rule.notation {
            Some(template) => {
                let mut out = template.clone();
                for (name, v) in named.iter().rev() {
                    out = out.replace(&format!("{{{name}}}"), &self.value_text(*v));
                }
                out
            }
            None => {
                let mut out = rule.name.clone();
                for (_, v) in named {
                    out.push(' ');
                    out.push_str(&self.value_text(v));
                }
                out
            }
        }
    }

    pub fn value_text(&self, v: Value) -> String {
        match v {
            Value::None => "none".into(),
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Site(s) => self.board.name(s).to_string(),
            Value::Player(p) => self.players[p as usize].name.clone(),
            Value::Piece(p) => self.pieces[p as usize].name.clone(),
            Value::Track(t) => self.board.tracks[t as usize].name.clone(),
        }
    }

    /// Finds the legal move written as `text` (its notation, or `rule v1 v2`, ignoring case and spacing).
    pub fn parse_move(&self, st: &State, text: &str) -> Result<Option<Move>, EngineError> {
        let want = normalise(text);
        let moves = self.legal_moves(st)?;
        for mv in &moves {
            if normalise(&self.notation(mv)) == want || normalise(&self.long_notation(mv)) == want {
                return Ok(Some(mv.clone()));
            }
        }
        Ok(None)
    }

    fn long_notation(&self, mv: &Move) -> String {
        let mut out = self.rule_name(mv.rule).to_string();
        for c in &mv.choices {
            for (name, v) in self.choice_names[c.point as usize].iter().zip(c.values) {
                let _ = name;
                out.push(' ');
                out.push_str(&self.value_text(v));
            }
        }
        out
    }
}

fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

impl<'a> Run<'a> {
    fn new(game: &'a Game, rule: u16, prefix: &'a [Choice]) -> Self {
        let locals = game.rules.get(rule as usize).map_or(0, |r| r.locals);
        Run {
            game,
            rule,
            prefix,
            next: 0,
            locals: smallvec::smallvec![Value::None; locals],
            again: false,
            captured: false,
            result: None,
            next_mover: None,
            preference: 0,
            steps: 0,
            seen: std::cell::RefCell::new(Vec::new()),
            suspended: Options::new(),
        }
    }

    fn error(&self, at: usize, message: String) -> Box<EngineError> {
        Box::new(EngineError {
            rule: self.game.rule_name(self.rule).to_string(),
            at,
            message,
        })
    }

    fn exec_rule(&mut self, st: &mut Scratch<'_>) -> Result<Flow, Box<EngineError>> {
        let body = &self.game.rules[self.rule as usize].body;
        self.exec(st, body)
    }

    fn exec(&mut self, st: &mut Scratch<'_>, stmts: &'a [Stmt]) -> Result<Flow, Box<EngineError>> {
        for s in stmts {
            if self.result.is_some() {
                return Ok(Flow::Done);
            }
            if let Flow::Suspend(p) = self.stmt(st, s)? {
                return Ok(Flow::Suspend(p));
            }
        }
        Ok(Flow::Done)
    }

    fn stmt(&mut self, st: &mut Scratch<'_>, s: &'a Stmt) -> Result<Flow, Box<EngineError>> {
        match s {
            Stmt::Choose {
                id,
                slots,
                domain,
                filter,
                body,
                at,
            } => {
                if self.next < self.prefix.len() {
                    // Replaying a choice already made: check it belongs to the options without listing them.
                    let choice = self.prefix[self.next];
                    if choice.point != *id
                        || !self.is_option(st, slots, domain, filter.as_ref(), choice.values)?
                    {
                        return Err(self.error(
                            *at,
                            "the move's choice is not one of the options here".into(),
                        ));
                    }
                    self.next += 1;
                    self.bind(slots, choice.values);
                    self.exec(st, body)
                } else {
                    self.suspended = self.options(st, slots, domain, filter.as_ref())?;
                    Ok(Flow::Suspend(*id))
                }
            }
            Stmt::For {
                slots,
                domain,
                filter,
                body,
                at,
            } => {
                for values in self.options(st, slots, domain, filter.as_ref())? {
                    self.tick(*at)?;
                    self.bind(slots, values);
                    if let Flow::Suspend(p) = self.exec(st, body)? {
                        return Ok(Flow::Suspend(p));
                    }
                }
                Ok(Flow::Done)
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                if self.eval(st, cond)?.truthy() {
                    self.exec(st, then)
                } else {
                    self.exec(st, otherwise)
                }
            }
            Stmt::While { cond, body, at } => {
                while self.eval(st, cond)?.truthy() {
                    self.tick(*at)?;
                    if let Flow::Suspend(p) = self.exec(st, body)? {
                        return Ok(Flow::Suspend(p));
                    }
                    if self.result.is_some() {
                        break;
                    }
                }
                Ok(Flow::Done)
            }
            Stmt::SetLocal { slot, op, value } => {
                let v = self.eval(st, value)?;
                let cur = self.locals[*slot as usize];
                self.locals[*slot as usize] = combine(*op, cur, v);
                Ok(Flow::Done)
            }
            Stmt::SetVar {
                var,
                player,
                op,
                value,
                at,
            } => {
                let p = match player {
                    Some(e) => match self.eval(st, e)? {
                        Value::Player(p) => Some(p),
                        _ => {
                            return Err(
                                self.error(*at, "a per-player variable needs a player".into())
                            );
                        }
                    },
                    None => None,
                };
                let slot = self.game.var_slot(*var as usize, p);
                let v = self.eval(st, value)?;
                let new = combine(*op, Value::Int(st.vars[slot]), v).int();
                if new != st.vars[slot] {
                    st.to_mut().vars[slot] = new;
                }
                Ok(Flow::Done)
            }
            Stmt::Effect { effect, args, at } => {
                self.effect(st, *effect, args, *at)?;
                Ok(Flow::Done)
            }
        }
    }

    fn tick(&mut self, at: usize) -> Result<(), Box<EngineError>> {
        self.steps += 1;
        if self.steps > self.game.max_steps_per_move {
            return Err(self.error(
                at,
                format!(
                    "a move took more than {} loop steps",
                    self.game.max_steps_per_move
                ),
            ));
        }
        Ok(())
    }

    fn bind(&mut self, slots: &[u16], values: [Value; 2]) {
        for (slot, v) in slots.iter().zip(values) {
            self.locals[*slot as usize] = v;
        }
    }

    /// Whether `values` is one of the options `options` would list, computed directly.
    fn is_option(
        &mut self,
        st: &State,
        slots: &[u16],
        domain: &Domain,
        filter: Option<&Expr>,
        values: [Value; 2],
    ) -> Result<bool, Box<EngineError>> {
        let g = self.game;
        let on_board = |v: Value| matches!(v, Value::Site(s) if (s as usize) < g.board.len() && !g.board.offboard[s as usize]);
        let in_domain = match domain {
            Domain::Sites => on_board(values[0]),
            Domain::SitesWith(piece) => match (self.eval(st, piece)?, values[0]) {
                (Value::Piece(p), Value::Site(s)) => on_board(values[0]) && st.count(g, s, p) > 0,
                _ => false,
            },
            Domain::Neighbours(e) => match (self.eval(st, e)?, values[0]) {
                (Value::Site(from), Value::Site(to)) => g.board.neighbours(from).contains(&to),
                _ => false,
            },
            Domain::Leaps(e) => match (self.eval(st, e)?, values) {
                (Value::Site(from), [Value::Site(o), Value::Site(l)]) => {
                    g.board.leaps(from).contains(&(o, l))
                }
                _ => false,
            },
            Domain::Range(a, b) => {
                let (a, b) = (self.eval(st, a)?.int(), self.eval(st, b)?.int());
                matches!(values[0], Value::Int(v) if a <= v && v <= b.min(a.saturating_add(10_000)))
            }
            Domain::Track(t) => match (self.eval(st, t)?, values[0]) {
                (Value::Track(t), Value::Site(s)) => g.board.tracks[t as usize].points.contains(&s),
                _ => false,
            },
            Domain::Players => matches!(values[0], Value::Player(p) if g.turn_order.contains(&p)),
        };
        if !in_domain {
            return Ok(false);
        }
        self.bind(slots, values);
        match filter {
            Some(f) => Ok(self.eval(st, f)?.truthy()),
            None => Ok(true),
        }
    }

    fn options(
        &mut self,
        st: &State,
        slots: &[u16],
        domain: &Domain,
        filter: Option<&Expr>,
    ) -> Result<Options, Box<EngineError>> {
        let g = self.game;
        let site_arg = |run: &Self, e: &Expr| -> Result<Option<SiteId>, Box<EngineError>> {
            Ok(match run.eval(st, e)? {
                Value::Site(s) => Some(s),
                _ => None,
            })
        };
        let mut items = Options::new();
        match domain {
            Domain::Sites => items.extend(
                g.board
                    .playing_sites()
                    .map(|s| [Value::Site(s), Value::None]),
            ),
            Domain::SitesWith(piece) => {
                if let Value::Piece(p) = self.eval(st, piece)? {
                    items.extend(
                        g.board
                            .playing_sites()
                            .filter(|&s| st.count(g, s, p) > 0)
                            .map(|s| [Value::Site(s), Value::None]),
                    );
                }
            }
            Domain::Neighbours(e) => {
                if let Some(s) = site_arg(self, e)? {
                    items.extend(
                        g.board
                            .neighbours(s)
                            .iter()
                            .map(|&n| [Value::Site(n), Value::None]),
                    );
                }
            }
            Domain::Leaps(e) => {
                if let Some(s) = site_arg(self, e)? {
                    items.extend(
                        g.board
                            .leaps(s)
                            .iter()
                            .map(|&(o, l)| [Value::Site(o), Value::Site(l)]),
                    );
                }
            }
            Domain::Range(a, b) => {
                let (a, b) = (self.eval(st, a)?.int(), self.eval(st, b)?.int());
                // Bounded so a careless range cannot exhaust memory.
                let b = b.min(a.saturating_add(10_000));
                items.extend((a..=b).map(|i| [Value::Int(i), Value::None]));
            }
            Domain::Track(t) => {
                if let Value::Track(t) = self.eval(st, t)? {
                    items.extend(
                        g.board.tracks[t as usize]
                            .points
                            .iter()
                            .map(|&s| [Value::Site(s), Value::None]),
                    )
                }
            }
            Domain::Players => items.extend(
                g.turn_order
                    .iter()
                    .map(|&p| [Value::Player(p), Value::None]),
            ),
        }
        if let Some(f) = filter {
            let mut kept = Options::new();
            for values in items {
                self.bind(slots, values);
                if self.eval(st, f)?.truthy() {
                    kept.push(values);
                }
            }
            items = kept;
        }
        Ok(items)
    }

    fn effect(
        &mut self,
        st: &mut Scratch<'_>,
        effect: Effect,
        args: &[Expr],
        at: usize,
    ) -> Result<(), Box<EngineError>> {
        let g = self.game;
        let mut vals = [Value::None; 3];
        for (slot, a) in vals.iter_mut().zip(args) {
            *slot = self.eval(st, a)?;
        }
        let k = g.piece_count();
        let cell = |piece: Value, site: Value| -> Option<usize> {
            match (piece, site) {
                (Value::Piece(p), Value::Site(s)) => Some(s as usize * k + p as usize),
                _ => None,
            }
        };
        let name = |v: Value| g.value_text(v);
        match effect {
            Effect::Place => {
                let c = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "place needs a piece and a site".into()))?;
                let n = st.counts[c]
                    .checked_add(1)
                    .ok_or_else(|| self.error(at, "too many pieces".into()))?;
                st.to_mut().counts[c] = n;
            }
            Effect::Remove | Effect::Capture => {
                let c = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "needs a piece and a site".into()))?;
                if st.counts[c] == 0 {
                    return Err(self.error(
                        at,
                        format!("no {} on {} to remove", name(vals[0]), name(vals[1])),
                    ));
                }
                let st = st.to_mut();
                st.counts[c] -= 1;
                if effect == Effect::Capture {
                    self.captured = true;
                    st.captures += 1;
                }
            }
            Effect::Move => {
                let from = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "move needs piece, from, to".into()))?;
                let to = cell(vals[0], vals[2])
                    .ok_or_else(|| self.error(at, "move needs piece, from, to".into()))?;
                if st.counts[from] == 0 {
                    return Err(self.error(
                        at,
                        format!("no {} on {} to move", name(vals[0]), name(vals[1])),
                    ));
                }
                let n = st.counts[to]
                    .checked_add(1)
                    .ok_or_else(|| self.error(at, "too many pieces".into()))?;
                if let (Value::Site(a), Value::Site(b)) = (vals[1], vals[2]) {
                    // Entering from an off-board place (a drop, an entry) is progress, like a capture.
                    if g.board.offboard[a as usize] && !g.board.offboard[b as usize] {
                        self.captured = true;
                    }
                }
                let st = st.to_mut();
                st.counts[from] -= 1;
                st.counts[to] = n;
            }
            Effect::SetCount => {
                let c = cell(vals[0], vals[1])
                    .ok_or_else(|| self.error(at, "set_count needs piece, site, n".into()))?;
                let n = vals[2].int();
                let n = u16::try_from(n)
                    .map_err(|_| self.error(at, format!("{n} pieces cannot stand on one site")))?;
                if st.counts[c] != n {
                    st.to_mut().counts[c] = n;
                }
            }
            Effect::Again => self.again = true,
            Effect::Prefer => self.preference = vals[0].int(),
            Effect::Win => {
                let winner = match vals[0] {
                    Value::Player(p) => Some(p),
                    _ => return Err(self.error(at, "win needs a player".into())),
                };
                self.result = Some(Outcome {
                    winner,
                    reason: Reason::Rule(self.rule),
                });
            }
            Effect::SetMover => match vals[0] {
                Value::Player(p) => self.next_mover = Some(p),
                _ => return Err(self.error(at, "set_mover needs a player".into())),
            },
            Effect::Assert => {
                if !vals[0].truthy() {
                    return Err(self.error(at, "an `assert` of the rules does not hold".into()));
                }
            }
            Effect::Draw => {
                self.result = Some(Outcome {
                    winner: None,
                    reason: Reason::Rule(self.rule),
                })
            }
        }
        Ok(())
    }

    fn eval(&self, st: &State, e: &Expr) -> Result<Value, Box<EngineError>> {
        let g = self.game;
        Ok(match e {
            Expr::Const(v) => *v,
            Expr::Local(slot) => self.locals[*slot as usize],
            Expr::Var { slot } => Value::Int(st.vars[*slot as usize]),
            Expr::VarOf { var, player } => match self.eval(st, player)? {
                Value::Player(p) => Value::Int(st.vars[g.var_slot(*var as usize, Some(p))]),
                _ => Value::None,
            },
            Expr::Ambient(a) => match a {
                Ambient::Mover => Value::Player(st.to_move),
                Ambient::Throw => st
                    .throw
                    .map_or(Value::Int(0), |t| Value::Int(g.throw_row(t).value)),
                Ambient::Stuck => Value::Bool(!st.chance_due && !g.has_ordinary_move(st)?),
                Ambient::Ply => Value::Int(st.ply as i64),
                Ambient::Turn => Value::Int(st.turn as i64),
            },
            Expr::Not(x) => Value::Bool(!self.eval(st, x)?.truthy()),
            Expr::Neg(x) => Value::Int(self.eval(st, x)?.int().wrapping_neg()),
            Expr::Bin(op, a, b) => {
                // `and` / `or` short-circuit: a later operand may be costly (`stuck`).
                match op {
                    BinOp::And => {
                        return Ok(Value::Bool(
                            self.eval(st, a)?.truthy() && self.eval(st, b)?.truthy(),
                        ));
                    }
                    BinOp::Or => {
                        return Ok(Value::Bool(
                            self.eval(st, a)?.truthy() || self.eval(st, b)?.truthy(),
                        ));
                    }
                    _ => {}
                }
                let (x, y) = (self.eval(st, a)?, self.eval(st, b)?);
                let (i, j) = (x.int(), y.int());
                match op {
                    BinOp::Eq => Value::Bool(x == y),
                    BinOp::Ne => Value::Bool(x != y),
                    BinOp::Le => Value::Bool(i <= j),
                    BinOp::Ge => Value::Bool(i >= j),
                    BinOp::Lt => Value::Bool(i < j),
                    BinOp::Gt => Value::Bool(i > j),
                    BinOp::Add => Value::Int(i.saturating_add(j)),
                    BinOp::Sub => Value::Int(i.saturating_sub(j)),
                    BinOp::Mul => Value::Int(i.saturating_mul(j)),
                    // Division by zero gives 0 rather than a crash; documented in docs/dsl.md.
                    BinOp::Div => Value::Int(i.checked_div(j).unwrap_or(0)),
                    BinOp::Rem => Value::Int(i.checked_rem(j).unwrap_or(0)),
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                }
            }
            Expr::Call(f, args) => {
                let mut v = [Value::None; 3];
                for (slot, a) in v.iter_mut().zip(args) {
                    *slot = self.eval(st, a)?;
                }
                match f {
                    Func::Count => match (v[0], v[1]) {
                        (Value::Site(s), Value::Piece(p)) => Value::Int(st.count(g, s, p) as i64),
                        (Value::Site(s), _) => Value::Int(st.site_total(g, s) as i64),
                        _ => Value::Int(0),
                    },
                    Func::Empty => match v[0] {
                        Value::Site(s) => Value::Bool(st.site_total(g, s) == 0),
                        _ => Value::Bool(false),
                    },
                    Func::Has => match (v[0], v[1]) {
                        (Value::Site(s), Value::Piece(p)) => Value::Bool(st.count(g, s, p) > 0),
                        _ => Value::Bool(false),
                    },
                    Func::Hand => match v[0] {
                        Value::Player(p) => g.hands[p as usize].map_or(Value::None, Value::Site),
                        _ => Value::None,
                    },
                    Func::NextPlayer => match v[0] {
                        Value::Player(p) => Value::Player(g.next_player(p)),
                        _ => Value::None,
                    },
                    Func::PieceOwner => match v[0] {
                        Value::Piece(p) => g.pieces[p as usize]
                            .owner
                            .map_or(Value::None, Value::Player),
                        _ => Value::None,
                    },
                    Func::Total => match v[0] {
                        Value::Piece(p) => Value::Int(
                            (0..g.board.len())
                                .map(|s| st.count(g, s as SiteId, p) as i64)
                                .sum(),
                        ),
                        _ => Value::Int(0),
                    },
                    Func::Along => match (v[0], v[1]) {
                        (Value::Track(t), Value::Site(s)) => g
                            .board
                            .along(t as usize, s, v[2].int())
                            .map_or(Value::None, Value::Site),
                        _ => Value::None,
                    },
                    Func::IndexOn => match (v[0], v[1]) {
                        (Value::Track(t), Value::Site(s)) => Value::Int(
                            g.board.tracks[t as usize]
                                .points
                                .iter()
                                .position(|&p| p == s)
                                .map_or(-1, |i| i as i64),
                        ),
                        _ => Value::Int(-1),
                    },
                    Func::Repetitions => {
                        // Occurrences so far, this one included whether or not the turn has recorded it yet
                        // (end conditions are checked before it is recorded, rules after).
                        let h = st.position_hash();
                        let seen = st.history.count(h) as i64;
                        Value::Int(seen + i64::from(st.history.last() != Some(h)))
                    }
                    Func::Length => match v[0] {
                        Value::Track(t) => {
                            Value::Int(g.board.tracks[t as usize].points.len() as i64)
                        }
                        _ => Value::Int(0),
                    },
                    Func::SiteOwner => match v[0] {
                        Value::Site(s) => {
                            g.site_owner[s as usize].map_or(Value::None, Value::Player)
                        }
                        _ => Value::None,
                    },
                    Func::Route => match v[0] {
                        Value::Player(p) => g.routes[p as usize].map_or(Value::None, Value::Track),
                        _ => Value::None,
                    },
                    Func::Tagged => match (v[0], v[1]) {
                        (Value::Site(s), Value::Int(bit)) => {
                            Value::Bool(g.site_tags[s as usize] >> bit & 1 == 1)
                        }
                        _ => Value::Bool(false),
                    },
                    Func::SeenBefore => {
                        let key = st.position_hash() ^ site_key(v[0]);
                        let mut seen = self.seen.borrow_mut();
                        let before = seen.contains(&key);
                        if !before {
                            seen.push(key);
                        }
                        Value::Bool(before)
                    }
                    Func::MostOnAPoint => Value::Int(
                        g.board
                            .playing_sites()
                            .map(|s| st.site_total(g, s) as i64)
                            .max()
                            .unwrap_or(0),
                    ),
                    Func::Min => Value::Int(v[0].int().min(v[1].int())),
                    Func::Max => Value::Int(v[0].int().max(v[1].int())),
                    Func::Abs => Value::Int(v[0].int().wrapping_abs()),
                }
            }
        })
    }
}

fn site_key(v: Value) -> u64 {
    match v {
        Value::Site(s) => (s as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd),
        _ => 0,
    }
}

fn combine(op: AssignOp, cur: Value, v: Value) -> Value {
    match op {
        AssignOp::Set => v,
        AssignOp::Add => Value::Int(cur.int().saturating_add(v.int())),
        AssignOp::Sub => Value::Int(cur.int().saturating_sub(v.int())),
    }
}
