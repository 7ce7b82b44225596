//! `keliya play`: a game in the terminal. Human seats type a move (its number or its notation); computer
//! seats answer at once; a human seat with a single legal move has it played for it. The board is drawn
//! once per decision, with the figures the ruleset marks for display. `undo`, `save FILE`, `load FILE`,
//! `moves`, `board`, `rules`, `hint`, `help` and `quit` at any prompt.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use keliya_engine::{Game, Move, State, Successors};
use keliya_play::Dice;
use keliya_play::agents::{Agent, parse_agent};
use keliya_play::record::{ENGINE_VERSION, GameRecord, THROW_PREFIX, read_records, write_records};

use crate::CliError;
use crate::backend::load_game_on;
use crate::simulate::split_agents;

#[derive(clap::Args)]
pub struct PlayArgs {
    /// A ruleset name or path.
    ruleset: String,
    /// One agent per seat in player order: human, random, greedy, mcts[:iterations=N]. Default: you play the
    /// first seat against MCTS.
    #[arg(long)]
    agents: Option<String>,
    /// Seed for throws and computer moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Draw without colours even on a terminal.
    #[arg(long)]
    plain: bool,
    #[command(flatten)]
    backend: crate::backend::BackendArg,
}

enum Seat {
    Human,
    Computer(Box<dyn Agent>),
}

struct Session<'g> {
    game: &'g Game,
    info: &'g keliya_rules::RulesetInfo,
    name: String,
    hash: String,
    seed: u64,
    specs: Vec<String>,
    /// Positions so far (index 0 the start) and the steps between them.
    states: Vec<State>,
    steps: Vec<String>,
    color: bool,
    /// Which seats a person plays (undo goes back to their last decision).
    humans: Vec<bool>,
}

pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let c = load_game_on(&args.ruleset, args.backend)?;
    let game = c.game();
    let n = game.players.len();
    let specs = match &args.agents {
        Some(a) => split_agents(a),
        None => std::iter::once("human".to_string())
            .chain(std::iter::repeat_n(
                "mcts:iterations=300".to_string(),
                n - 1,
            ))
            .collect(),
    };
    let specs = crate::simulate::agents_for_seats(game, specs)?;
    let mut seats = Vec::new();
    for i in 0..n {
        let spec = &specs[i.min(specs.len() - 1)];
        seats.push(if spec == "human" {
            Seat::Human
        } else {
            Seat::Computer(parse_agent(spec).map_err(CliError::Message)?)
        });
    }
    let color =
        !args.plain && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut session = Session {
        game,
        info: &c.info,
        name: c.info.name.clone(),
        hash: c.hash.clone(),
        seed: args.seed,
        specs,
        states: vec![game.initial_state()],
        steps: Vec::new(),
        color,
        humans: seats.iter().map(|s| matches!(s, Seat::Human)).collect(),
    };
    let mut dice = Dice::new(args.seed);
    let stdin = std::io::stdin();
    let mut lines = InputLines(stdin.lock());
    outln!("{} — type `help` for commands.", c.info.title);
    let mut show_board = true;
    loop {
        let st = session.states.last().expect("never empty").clone();
        // Drawn when a person is about to decide, or after each move when nobody at the table is.
        let deciding = st.result.is_some()
            || (!st.chance_due && session.humans[st.to_move as usize])
            || !session.humans.contains(&true);
        if show_board && deciding {
            out!("{}", session.picture(&st));
            show_board = false;
        }
        if let Some(o) = st.result {
            let (reason, _) = keliya_play::simulate::reason_name(game, o.reason);
            match o.winner {
                Some(w) if game.side_name(w) != game.players[w as usize].name => outln!(
                    "Game over. Winner: {}, with {} ({reason}).",
                    game.side_name(w),
                    game.players[w as usize].display
                ),
                Some(w) => outln!(
                    "Game over. Winner: {} ({reason}).",
                    game.players[w as usize].display
                ),
                None => outln!("Game over: a draw ({reason})."),
            }
            if !seats.iter().any(|s| matches!(s, Seat::Human)) {
                return Ok(());
            }
            out!("undo, save FILE or quit> ");
            if let Err(e) = std::io::stdout().flush() {
                crate::stdout_failed(e);
            }
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line.map_err(CliError::Message)?;
            match command(&mut session, line.trim()) {
                Handled::Quit => return Ok(()),
                Handled::Changed => show_board = true,
                _ => outln!("The game is over: undo, save FILE or quit."),
            }
            continue;
        }
        let outcomes = game.chance_outcomes(&st);
        if !outcomes.is_empty() {
            let k = dice.weighted(outcomes.iter().map(|o| o.1));
            let rows = game.throws.as_ref().expect("has throws");
            let row = &rows[outcomes[k].0 as usize];
            let next = game.apply_chance(&st, outcomes[k].0);
            // What becomes of the throw: played now, or (stored throws) kept with the others.
            let then = if game.stored_throws {
                let held: Vec<&str> = next
                    .held
                    .iter()
                    .map(|&r| rows[r as usize].name.as_str())
                    .collect();
                match (next.chance_due, held.is_empty()) {
                    (true, _) => ", keeps it and throws again".to_string(),
                    (false, false) => format!("; holds {}", held.join(", ")),
                    (false, true) => String::new(),
                }
            } else if row.again && !game.throws_capped(&next) {
                ", and will throw again".to_string()
            } else if row.again {
                ", but has thrown as often as a turn allows".to_string()
            } else {
                String::new()
            };
            outln!(
                "{} throws {} ({}){then}",
                game.players[st.to_move as usize].display,
                row.name,
                row.value,
            );
            session.push(next, format!("{THROW_PREFIX}{}", row.name));
            show_board = true;
            continue;
        }
        // The moves in the engine's compact list (the same, in the same order, as `legal_moves`),
        // each made whole only when it is shown or played.
        let mut found = Successors::new();
        game.successors_into(&st, &mut found)
            .map_err(crate::engine_error)?;
        let seat = &mut seats[st.to_move as usize];
        let who = &game.players[st.to_move as usize].display;
        match seat {
            Seat::Computer(agent) => {
                let k = agent
                    .choose(game, &st, &found, &mut dice)
                    .map_err(crate::engine_error)?;
                let (text, shown) = found.mv(k).map_or_else(Default::default, |m| {
                    (game.notation(&m), session.readable(&m))
                });
                let next = game
                    .advance_found(st.clone(), &found, k)
                    .map_err(crate::engine_error)?;
                outln!("{who}: {shown}");
                session.push(next, text);
                show_board = true;
            }
            Seat::Human if found.len() == 1 => {
                // Nothing to decide: a pass, an end of round. Played, and said so.
                let m = found.mv(0).unwrap_or_else(Move::pass);
                outln!(
                    "{who}: {} (the only move, played for you)",
                    session.readable(&m)
                );
                session.push(
                    game.apply(&st, &m).map_err(crate::engine_error)?,
                    game.notation(&m),
                );
                show_board = true;
            }
            Seat::Human => {
                outln!("{who} to move:");
                for (i, m) in found.moves().enumerate() {
                    outln!("  {:>2}. {}", i + 1, session.readable(&m));
                }
                out!("{who}> ");
                if let Err(e) = std::io::stdout().flush() {
                    crate::stdout_failed(e);
                }
                let Some(line) = lines.next() else {
                    outln!();
                    return Ok(());
                };
                let line = line.map_err(CliError::Message)?;
                let input = line.trim();
                match command(&mut session, input) {
                    Handled::Quit => return Ok(()),
                    Handled::Changed => {
                        show_board = true;
                        continue;
                    }
                    Handled::Done => continue,
                    Handled::NotACommand => {}
                }
                let chosen = match input.parse::<usize>() {
                    Ok(k) if (1..=found.len()).contains(&k) => found.mv(k - 1),
                    Ok(_) => {
                        outln!("No move {input}: choose 1 to {}.", found.len());
                        continue;
                    }
                    Err(_) => match game.parse_move(&st, input).map_err(crate::engine_error)? {
                        Some(m) => Some(m),
                        // A move may be typed as it is shown, too.
                        None => found
                            .moves()
                            .find(|m| same_words(&session.readable(m), input)),
                    },
                };
                match chosen {
                    Some(m) => {
                        let text = game.notation(&m);
                        session.push(game.apply(&st, &m).map_err(crate::engine_error)?, text);
                        show_board = true;
                    }
                    None => outln!(
                        "`{input}` is not a legal move or a command; type a number from the list, or `help`."
                    ),
                }
            }
        }
    }
}

enum Handled {
    NotACommand,
    Done,
    Changed,
    Quit,
}

/// Two texts that differ only in case and spacing.
fn same_words(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    words(a) == words(b)
}

impl Session<'_> {
    fn readable(&self, m: &keliya_engine::Move) -> String {
        crate::status::readable_move(self.game, &self.info.move_labels, m)
    }

    /// The board with the figures that decide the game, and whose turn it is.
    fn picture(&self, st: &State) -> String {
        let figures = crate::status::figures(self.game, &self.info.display, st);
        let style = crate::text_board::Style {
            color: self.color,
            unicode: crate::text_board::Style::unicode_locale(),
            detail: false,
        };
        let mut out = crate::text_board::board(self.game, st, style, &figures.per_player);
        let mut line = format!("turn {}", st.turn + 1);
        if !figures.game.is_empty() {
            line.push_str(&format!(", {}", figures.game));
        }
        if st.result.is_none() {
            line.push_str(&format!(
                "; {} to play",
                self.game.players[st.to_move as usize].display
            ));
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    fn push(&mut self, st: State, step: String) {
        self.states.push(st);
        self.steps.push(step);
    }

    fn record(&self) -> GameRecord {
        let last = self.states.last().expect("never empty");
        let (reason, capped) = last
            .result
            .map(|o| keliya_play::simulate::reason_name(self.game, o.reason))
            .unwrap_or_default();
        GameRecord {
            game: 0,
            engine: ENGINE_VERSION.into(),
            ruleset: self.name.clone(),
            ruleset_hash: self.hash.clone(),
            seed: self.seed,
            agents: self.specs.clone(),
            moves: self.steps.clone().into(),
            winner: last
                .result
                .and_then(|o| o.winner)
                .map(|w| self.game.players[w as usize].name.clone()),
            team: last
                .result
                .and_then(|o| o.winner)
                .and_then(|w| self.game.team_of(w))
                .map(str::to_string),
            summary: keliya_play::GameSummary {
                winner: None,
                reason,
                capped,
                plies: last.ply,
                captures: last.captures,
            },
        }
    }
}

fn command(session: &mut Session<'_>, input: &str) -> Handled {
    let (word, rest) = input.split_once(char::is_whitespace).unwrap_or((input, ""));
    let rest = rest.trim();
    match word {
        "quit" | "exit" | "q" => Handled::Quit,
        "help" | "?" => {
            outln!(
                "Type a move's number or its notation. Commands: undo, save FILE, load FILE, moves, board, rules, hint, quit."
            );
            Handled::Done
        }
        "rules" => {
            outln!("{}", rules_text(session.info));
            Handled::Done
        }
        "hint" => {
            match hint(session) {
                Ok(Some(text)) => outln!("The computer would play: {text}"),
                Ok(None) => outln!("No move to suggest here."),
                Err(e) => outln!("No hint: {e}"),
            }
            Handled::Done
        }
        "board" => Handled::Changed,
        "moves" => Handled::Changed,
        "undo" => {
            // Back to the previous position where a human chose a move: the computer's replies and the
            // throws in between are undone with it.
            let mut undone = false;
            while let Some(step) = session.steps.pop() {
                session.states.pop();
                if step.starts_with(THROW_PREFIX) {
                    continue;
                }
                undone = true;
                let st = session.states.last().expect("the start stays");
                if !st.chance_due && st.result.is_none() && session.humans[st.to_move as usize] {
                    break;
                }
            }
            if undone {
                outln!("Undone.");
                Handled::Changed
            } else {
                outln!("Nothing to undo.");
                Handled::Done
            }
        }
        "save" if !rest.is_empty() => {
            match write_records(&PathBuf::from(rest), &[session.record()]) {
                Ok(()) => outln!("Saved to {rest}."),
                Err(e) => outln!("Could not save to {rest}: {e}"),
            }
            Handled::Done
        }
        "load" if !rest.is_empty() => {
            let loaded = crate::read_text(Path::new(rest), crate::MAX_RECORD_BYTES)
                .and_then(|t| read_records(&t))
                .and_then(|r| {
                    r.into_iter()
                        .next()
                        .ok_or_else(|| "no game in the file".to_string())
                });
            let record = match loaded {
                Ok(r) => r,
                Err(e) => {
                    outln!("Could not load {rest}: {e}");
                    return Handled::Done;
                }
            };
            if record.ruleset_hash != session.hash {
                outln!(
                    "Could not load {rest}: it was saved with another version of the rules (hash {}).",
                    record.ruleset_hash
                );
                return Handled::Done;
            }
            let steps = match record.moves.to_vec() {
                Ok(steps) => steps,
                Err(e) => {
                    outln!("Could not load {rest}: {e}");
                    return Handled::Done;
                }
            };
            match replay_prefix(session.game, &steps) {
                Ok(states) => {
                    session.states = states;
                    session.steps = steps;
                    outln!("Loaded {rest}: {} steps.", session.steps.len());
                    Handled::Changed
                }
                Err(e) => {
                    outln!("Could not load {rest}: {e}");
                    Handled::Done
                }
            }
        }
        "save" | "load" => {
            outln!("`{word}` needs a file name: `{word} game.jsonl`.");
            Handled::Done
        }
        _ => Handled::NotACommand,
    }
}

/// The rules in short: the description, and how the game ends.
fn rules_text(info: &keliya_rules::RulesetInfo) -> String {
    let mut out = crate::text_board::wrap_items(
        &info
            .description
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>(),
        " ",
        "",
        crate::text_board::WIDTH,
    );
    if !info.ends.is_empty() {
        out.push_str("The game ends (checked before each turn):\n");
        for e in &info.ends {
            let who = match e.player.as_deref() {
                Some("draw") | None => "a draw".to_string(),
                Some(w) => format!("{w} wins"),
            };
            out.push_str(&format!(
                "  {}: {who} when {}\n",
                e.name,
                e.when.as_deref().unwrap_or("?")
            ));
        }
    }
    out.push_str("`keliya show RULESET` prints every rule.");
    out
}

/// What the computer (MCTS, as the default opponent) would play in the current position.
fn hint(session: &Session<'_>) -> Result<Option<String>, String> {
    let st = session.states.last().expect("never empty");
    if st.result.is_some() || st.chance_due {
        return Ok(None);
    }
    let game = session.game;
    let mut found = Successors::new();
    game.successors_into(st, &mut found)
        .map_err(|e| e.to_string())?;
    if found.is_empty() {
        return Ok(None);
    }
    let mut agent = parse_agent("mcts:iterations=300")?;
    // Its own dice, so asking for a hint changes nothing in the game's throws.
    let mut dice = Dice::new(session.seed ^ u64::from(st.ply));
    let k = agent
        .choose(game, st, &found, &mut dice)
        .map_err(|e| e.to_string())?;
    Ok(found.mv(k).map(|m| session.readable(&m)))
}

/// Replays saved steps (a game that may not be finished).
pub(crate) fn replay_prefix(game: &Game, steps: &[String]) -> Result<Vec<State>, String> {
    let mut states = vec![game.initial_state()];
    for (k, step) in steps.iter().enumerate() {
        let st = states.last().expect("never empty");
        let next = if let Some(name) = step.strip_prefix(THROW_PREFIX) {
            let rows = game.throws.as_ref().ok_or("this ruleset has no throws")?;
            let i = rows
                .iter()
                .position(|r| r.name == name)
                .ok_or_else(|| format!("step {}: unknown throw {name}", k + 1))?;
            if !st.chance_due {
                return Err(format!("step {}: no throw is due", k + 1));
            }
            game.apply_chance(st, i as u8)
        } else {
            let m = game
                .parse_move(st, step)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("step {}: `{step}` is not legal", k + 1))?;
            game.apply(st, &m).map_err(|e| e.to_string())?
        };
        states.push(next);
    }
    Ok(states)
}

/// Longest line of input read at a prompt; a move or a command is a few words.
const MAX_INPUT_LINE: u64 = 4096;

/// The lines typed at the prompts, each read no further than [`MAX_INPUT_LINE`] bytes (an endless line,
/// such as `/dev/zero`'s, is an error, not a growing buffer), and a line that is not UTF-8 text is an
/// error rather than the end of the input.
struct InputLines<R>(R);

impl<R: std::io::BufRead> Iterator for InputLines<R> {
    type Item = Result<String, String>;
    fn next(&mut self) -> Option<Self::Item> {
        use std::io::Read;
        let mut bytes = Vec::new();
        match (&mut self.0)
            .take(MAX_INPUT_LINE + 1)
            .read_until(b'\n', &mut bytes)
        {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => return Some(Err(format!("reading the input: {e}"))),
        }
        if bytes.len() as u64 > MAX_INPUT_LINE {
            return Some(Err(format!(
                "a line of input longer than {MAX_INPUT_LINE} bytes"
            )));
        }
        while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            bytes.pop();
        }
        Some(String::from_utf8(bytes).map_err(|_| "a line of input that is not UTF-8 text".into()))
    }
}
