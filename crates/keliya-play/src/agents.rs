//! Agents: who picks the move for a seat. `random`, `greedy` (one ply), `mcts` (UCT with chance nodes).
//! Every agent draws its randomness from the game's dice, so a seed fixes the whole game.

use keliya_engine::{EngineError, Game, State, Successors};

use crate::Dice;

pub trait Agent: Send {
    /// The spec that recreates this agent, e.g. `mcts:iterations=500`.
    fn spec(&self) -> String;
    /// Index into `moves` (never empty): the legal moves of `st` with the positions they lead to.
    fn choose(
        &mut self,
        game: &Game,
        st: &State,
        moves: &Successors,
        dice: &mut Dice,
    ) -> Result<usize, EngineError>;
}

/// Splits `mcts:iterations=5,c=1,random` into agent specs: a comma starts a new agent unless it continues
/// the options (`key=value`) of the one before.
pub fn split_agents(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match out.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// Parses an agent spec: `random`, `greedy`, `mcts` or `mcts:iterations=N,c=X,depth=D`.
pub fn parse_agent(spec: &str) -> Result<Box<dyn Agent>, String> {
    let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
    let mut opts = Vec::new();
    for kv in options.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("agent option `{kv}` is not key=value"))?;
        opts.push((k.trim(), v.trim()));
    }
    let reject_options = |name: &str| -> Result<(), String> {
        match opts.first() {
            Some((k, _)) => Err(format!("agent `{name}` takes no option `{k}`")),
            None => Ok(()),
        }
    };
    match name {
        "random" => {
            reject_options("random")?;
            Ok(Box::new(RandomAgent))
        }
        "greedy" => {
            reject_options("greedy")?;
            Ok(Box::new(GreedyAgent))
        }
        "mcts" => {
            let mut m = MctsAgent::default();
            for (k, v) in opts {
                match k {
                    "iterations" => {
                        m.iterations = v
                            .parse()
                            .map_err(|_| format!("iterations={v}: a whole number"))?
                    }
                    "c" => {
                        m.exploration = v
                            .parse::<f64>()
                            .ok()
                            .filter(|c| c.is_finite() && *c >= 0.0)
                            .ok_or_else(|| format!("c={v}: a finite number from 0"))?
                    }
                    "depth" => {
                        m.rollout_depth = v
                            .parse()
                            .map_err(|_| format!("depth={v}: a whole number"))?
                    }
                    other => {
                        return Err(format!(
                            "agent `mcts` has no option `{other}` (iterations, c, depth)"
                        ));
                    }
                }
            }
            if m.iterations == 0 || m.iterations > 10_000_000 {
                return Err("mcts iterations must be between 1 and 10,000,000".into());
            }
            Ok(Box::new(m))
        }
        "human" => Err("`human` seats are played in the terminal by `keliya play`".into()),
        other => Err(format!(
            "unknown agent `{other}` (random, greedy, mcts, human)"
        )),
    }
}

pub struct RandomAgent;

impl Agent for RandomAgent {
    fn spec(&self) -> String {
        "random".into()
    }
    fn choose(
        &mut self,
        _: &Game,
        _: &State,
        moves: &Successors,
        dice: &mut Dice,
    ) -> Result<usize, EngineError> {
        Ok(dice.below(moves.len()))
    }
}

/// One ply of look-ahead: a win first, then captures, then the mover's own variables (captures, stores,
/// scores), then progress along the mover's route; never a move that loses at once. Ties are broken at random.
pub struct GreedyAgent;

impl GreedyAgent {
    fn score(game: &Game, before: &State, after: &State) -> f64 {
        let me = before.to_move;
        if let Some(o) = after.result {
            return match o.winner {
                Some(w) if w == me => 1e9,
                Some(_) => -1e9,
                None => 0.0,
            };
        }
        let mut score = 100.0 * (after.captures as f64 - before.captures as f64);
        for (i, v) in game.vars.iter().enumerate() {
            if v.per_player {
                let slot = game.var_slot(i, Some(me));
                score += 10.0 * (after.vars[slot] - before.vars[slot]) as f64;
            }
        }
        if let Some(route) = game.routes[me as usize] {
            let points = &game.board.tracks[route as usize].points;
            let progress = |st: &State| -> f64 {
                let mut total = 0.0;
                for (i, &site) in points.iter().enumerate() {
                    for p in 0..game.piece_count() {
                        if game.pieces[p].owner == Some(me) {
                            total += (i + 1) as f64 * st.count(game, site, p as u8) as f64;
                        }
                    }
                }
                total
            };
            score += progress(after) - progress(before);
        }
        score
    }
}

impl Agent for GreedyAgent {
    fn spec(&self) -> String {
        "greedy".into()
    }
    fn choose(
        &mut self,
        game: &Game,
        st: &State,
        moves: &Successors,
        dice: &mut Dice,
    ) -> Result<usize, EngineError> {
        let mut best = Vec::new();
        let mut best_score = f64::NEG_INFINITY;
        for i in 0..moves.len() {
            let after = game.advance_found(st.clone(), moves, i)?;
            let s = Self::score(game, st, &after);
            if s > best_score + 1e-9 {
                best_score = s;
                best.clear();
                best.push(i);
            } else if (s - best_score).abs() <= 1e-9 {
                best.push(i);
            }
        }
        Ok(best[dice.below(best.len())])
    }
}

/// Monte Carlo tree search (UCT). Throws are chance nodes: each visit samples an outcome by its probability,
/// so values are expectations over throws. Rollouts are random; a rollout that reaches `rollout_depth` plies
/// scores as a draw.
pub struct MctsAgent {
    pub iterations: u32,
    pub exploration: f64,
    pub rollout_depth: u32,
}

impl Default for MctsAgent {
    fn default() -> Self {
        MctsAgent {
            iterations: 1000,
            exploration: 1.4,
            rollout_depth: 400,
        }
    }
}

struct Node {
    state: State,
    /// Chance node: the throw outcomes; decision node: none.
    outcomes: Vec<(u8, f64)>,
    /// The node's children: its legal moves, or its outcomes.
    width: usize,
    /// Chance node: the child of each outcome, once made. Decision node: the children made so far,
    /// those of the first moves in order (every move is tried once before any is tried again), so a
    /// node of millions of moves keeps only the few it tried; a move is found again when its child
    /// is made.
    children: Vec<Option<usize>>,
    visits: f64,
    /// Total reward per player.
    reward: Vec<f64>,
}

impl MctsAgent {
    /// The node of `st`; `found` is room to find its moves in.
    fn node(game: &Game, st: State, found: &mut Successors) -> Result<Node, EngineError> {
        let outcomes = game.chance_outcomes(&st);
        let width = if outcomes.is_empty() {
            // The same moves, in the same order, as `legal_moves`.
            game.successors_into(&st, found)?;
            found.len()
        } else {
            outcomes.len()
        };
        let children = if outcomes.is_empty() {
            Vec::new()
        } else {
            vec![None; width]
        };
        Ok(Node {
            state: st,
            outcomes,
            width,
            children,
            visits: 0.0,
            reward: vec![0.0; game.players.len()],
        })
    }

    fn rewards(game: &Game, st: &State) -> Vec<f64> {
        let n = game.players.len();
        match st.result.map(|o| o.winner) {
            Some(Some(w)) => (0..n)
                .map(|p| if p == w as usize { 1.0 } else { 0.0 })
                .collect(),
            _ => vec![0.5; n],
        }
    }

    fn rollout(
        &self,
        game: &Game,
        mut st: State,
        dice: &mut Dice,
    ) -> Result<Vec<f64>, EngineError> {
        let mut plies = 0;
        let mut found = Successors::new();
        while st.result.is_none() && plies < self.rollout_depth {
            let outcomes = game.chance_outcomes(&st);
            if !outcomes.is_empty() {
                let k = dice.weighted(outcomes.iter().map(|o| o.1));
                game.throw_in_place(&mut st, outcomes[k].0);
                continue;
            }
            game.successors_into(&st, &mut found)?;
            let pick = dice.below(found.len());
            game.advance_found_in_place(&mut st, &found, pick)?;
            plies += 1;
        }
        Ok(Self::rewards(game, &st))
    }
}

impl Agent for MctsAgent {
    fn spec(&self) -> String {
        format!(
            "mcts:iterations={},c={},depth={}",
            self.iterations, self.exploration, self.rollout_depth
        )
    }

    fn choose(
        &mut self,
        game: &Game,
        st: &State,
        moves: &Successors,
        dice: &mut Dice,
    ) -> Result<usize, EngineError> {
        if moves.len() == 1 {
            return Ok(0);
        }
        // Room to find a position's moves in, for every node.
        let mut found = Successors::new();
        let mut nodes = vec![Self::node(game, st.clone(), &mut found)?];
        for _ in 0..self.iterations {
            // Selection and expansion.
            let mut path = vec![0usize];
            let mut current = 0;
            loop {
                let node = &nodes[current];
                if node.state.result.is_some() || node.width == 0 {
                    break;
                }
                let pick = if !node.outcomes.is_empty() {
                    dice.weighted(node.outcomes.iter().map(|o| o.1))
                } else if node.children.len() < node.width {
                    // The first move not tried.
                    node.children.len()
                } else {
                    let mover = node.state.to_move as usize;
                    let ln = node.visits.max(1.0).ln();
                    let mut best = 0;
                    let mut best_value = f64::NEG_INFINITY;
                    for (i, c) in node.children.iter().enumerate() {
                        let child = &nodes[c.expect("all tried")];
                        let value = child.reward[mover] / child.visits.max(1e-9)
                            + self.exploration * (ln / child.visits.max(1e-9)).sqrt();
                        if value > best_value {
                            best_value = value;
                            best = i;
                        }
                    }
                    best
                };
                match nodes[current].children.get(pick).copied().flatten() {
                    Some(next) => {
                        current = next;
                        path.push(current);
                    }
                    None => {
                        let node = &nodes[current];
                        let next_state = if node.outcomes.is_empty() {
                            game.successors_into(&node.state, &mut found)?;
                            game.advance_found(node.state.clone(), &found, pick)?
                        } else {
                            game.apply_chance(&node.state, node.outcomes[pick].0)
                        };
                        let child = Self::node(game, next_state, &mut found)?;
                        nodes.push(child);
                        let id = nodes.len() - 1;
                        let children = &mut nodes[current].children;
                        match children.get_mut(pick) {
                            Some(slot) => *slot = Some(id),
                            // A decision node's next move in order.
                            None => children.push(Some(id)),
                        }
                        path.push(id);
                        current = id;
                        break;
                    }
                }
            }
            // Simulation.
            let reward = self.rollout(game, nodes[current].state.clone(), dice)?;
            // Backpropagation: each node keeps every player's total; a parent reads its mover's share.
            for &id in &path {
                let n = &mut nodes[id];
                n.visits += 1.0;
                for (r, x) in n.reward.iter_mut().zip(&reward) {
                    *r += x;
                }
            }
        }
        let root = &nodes[0];
        let mut best = 0;
        let mut best_visits = -1.0;
        for (i, c) in root.children.iter().enumerate() {
            let v = c.map_or(0.0, |id| nodes[id].visits);
            if v > best_visits {
                best_visits = v;
                best = i;
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::split_agents;

    #[test]
    fn agent_lists_split_on_commas_between_agents_only() {
        assert_eq!(split_agents("random,greedy"), ["random", "greedy"]);
        assert_eq!(
            split_agents("mcts:iterations=50,c=1.2,random"),
            ["mcts:iterations=50,c=1.2", "random"]
        );
        assert_eq!(
            split_agents("random, mcts:iterations=9"),
            ["random", "mcts:iterations=9"]
        );
    }
}
