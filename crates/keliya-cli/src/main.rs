//! `keliya`: run South Asian board games from data. A thin layer over the library crates: it parses the
//! command line, loads rulesets, and prints; the games live in rulesets, the logic in the libraries.

/// `println!` that never panics: a closed pipe (`keliya list | head`) ends the program quietly, and any
/// other failed write (a full disk) is an error, exit 1 (see [`stdout_failed`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            crate::stdout_failed(e);
        }
    }};
}

/// `print!` with the same care as [`outln`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            crate::stdout_failed(e);
        }
    }};
}

/// `eprintln!` that never panics: when even the error stream cannot be written, the program ends with
/// exit 1, the status of a failure it could not tell.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stderr(), $($arg)*).is_err() {
            std::process::exit(1);
        }
    }};
}

/// `eprint!` with the same care as [`errln`].
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if write!(std::io::stderr(), $($arg)*).is_err() {
            std::process::exit(1);
        }
    }};
}

mod backend;
mod bench;
mod compile;
mod diagnostics;
mod diff;
mod failure;
mod merge;
mod play;
mod progress;
mod replay;
mod show;
mod simulate;
mod validate;

// The pictures live in keliya-render; their names stay the CLI's own paths (`crate::text_board`).
pub(crate) use keliya_render::{picture, render, status, text_board};

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use keliya_engine::{Game, Successors};
use keliya_play::state_json;
use keliya_rules::{Catalog, Compiled};
use serde_json::json;

pub(crate) use failure::{GameOfRun, engine_error, engine_error_in, engine_error_with};

#[derive(Parser)]
#[command(
    name = "keliya",
    version,
    about = "Run traditional South Asian board games from data: race, sowing and hunt games.",
    long_about = "Run traditional South Asian board games from data.\n\nA RULESET is a path to a .yaml file, or the name of a bundled ruleset (`keliya list`). A file of the same name in ./rulesets wins over the bundled copy."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the rulesets with their family, number of players and first reference.
    List {
        /// One wide line per ruleset: title, players by name, the first reference whole, the file.
        #[arg(long)]
        long: bool,
        /// Print JSON: every ruleset with its references.
        #[arg(long)]
        json: bool,
    },
    /// Check rulesets; print every problem as path:line:col with the line underlined. Exit 1 if any.
    /// Warnings (a game over before its first move, a title taken from a library) do not fail.
    #[command(
        after_help = "Examples:\n  keliya validate game.yaml variant.yaml\n  keliya validate variant.yaml --json"
    )]
    Validate {
        /// Ruleset files or names.
        #[arg(required = true)]
        rulesets: Vec<String>,
        /// Print JSON: each ruleset with `ok` and its diagnostics (severity, file, line, column, message,
        /// hint).
        #[arg(long)]
        json: bool,
    },
    /// Print the rules in words, after inheritance: each rule with its id, the choices on open questions,
    /// the references.
    Show {
        /// A ruleset name or path.
        ruleset: String,
        /// Print the rules as the engine runs them instead: each rule's source, condition and body.
        #[arg(long)]
        code: bool,
        /// Print the merged YAML tree the engine runs (parent plus deltas) instead.
        #[arg(long, conflicts_with_all = ["code", "json"])]
        resolved: bool,
        /// Print JSON: the rules in words, the choices, the references and the rules-language text.
        #[arg(long, conflicts_with = "code")]
        json: bool,
    },
    /// Draw the board with the initial position (or a given state).
    #[command(
        after_help = "Examples:\n  keliya render game.yaml\n  keliya render game.yaml --format svg -o board.svg\n  keliya render game.yaml --state s1.json --ascii"
    )]
    Render {
        /// A ruleset name or path.
        ruleset: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// A state file (JSON, see docs/cli.md) to draw instead of the initial position.
        #[arg(long)]
        state: Option<PathBuf>,
        /// Draw text with ASCII characters only (box-drawing characters otherwise, on a UTF-8 locale).
        #[arg(long)]
        ascii: bool,
    },
    /// The legal moves of a state, or every throw outcome with its probability when a throw is due.
    #[command(
        after_help = "Examples:\n  keliya moves game.yaml\n  keliya moves game.yaml --state s1.json --json"
    )]
    Moves {
        /// A ruleset name or path.
        ruleset: String,
        /// A state file (JSON); the initial position without it.
        #[arg(long)]
        state: Option<PathBuf>,
        /// Print JSON, with the state itself.
        #[arg(long)]
        json: bool,
    },
    /// The state after one move (or one throw outcome, by its name, when a throw is due).
    #[command(
        after_help = "Examples:\n  keliya apply game.yaml --move A > s1.json\n  keliya apply game.yaml --state s1.json --move A-L1 > s2.json"
    )]
    Apply {
        /// A ruleset name or path.
        ruleset: String,
        /// A state file (JSON); the initial position without it.
        #[arg(long)]
        state: Option<PathBuf>,
        /// The move in notation, as `keliya moves` prints it (e.g. `A-L1`, `M1xM3`), or a throw's name.
        #[arg(long = "move")]
        mv: String,
        /// Accepted for symmetry with `moves`: the next state is always printed as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play many games (random by default) and report win rates, lengths, captures and capped games.
    #[command(
        after_help = "Examples:\n  keliya simulate game.yaml --games 1000 --seed 1\n  keliya simulate game.yaml --games 300 --threads 2 -o games.jsonl\n  keliya simulate game.yaml --agents random,mcts:iterations=200 --json"
    )]
    Simulate(simulate::SimulateArgs),
    /// Check every move of a record file and print a game, or the position at a ply.
    #[command(
        after_help = "Examples:\n  keliya replay games.jsonl\n  keliya replay games.jsonl --game 0 --board\n  keliya replay games.jsonl --game 0 --ply 12 -o s12.json"
    )]
    Replay(replay::ReplayArgs),
    /// What changed between two rulesets, section by section; with --simulate, what it does to play.
    #[command(
        after_help = "Examples:\n  keliya diff game.yaml variant.yaml\n  keliya diff game.yaml variant.yaml --simulate 200 --json"
    )]
    Diff(diff::DiffArgs),
    /// Play a game in the terminal: hot-seat, or against computer seats.
    #[command(
        after_help = "Examples:\n  keliya play game.yaml\n  keliya play game.yaml --agents human,greedy\n  keliya play game.yaml --agents human,human"
    )]
    Play(play::PlayArgs),
    /// Measure random playouts (and moves) per second per ruleset.
    #[command(
        after_help = "Examples:\n  keliya bench game.yaml --seconds 5\n  keliya bench game.yaml variant.yaml --rounds 3 --json"
    )]
    Bench(bench::BenchArgs),
    /// Add up the shards of one run (`simulate --shard K/N`): their statistics, or their records.
    Merge(merge::MergeArgs),
    /// Generate Rust from rulesets' rules, for the next build to run them compiled
    #[command(
        after_help = "Examples:\n  keliya compile my-variant.yaml && cargo install --path crates/keliya-cli\n  keliya compile --bundled"
    )]
    Compile {
        /// Ruleset files or names, all at once (each run replaces the module of the last).
        #[arg(required_unless_present = "bundled")]
        rulesets: Vec<String>,
        /// Regenerate the bundled rulesets' module (after editing a bundled ruleset's rules).
        #[arg(long, conflicts_with = "rulesets")]
        bundled: bool,
        /// Write here instead of the engine's source (crates/keliya-engine/src/compiled/).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Examples:\n  keliya completions bash > ~/.local/share/bash-completion/completions/keliya\n  keliya completions zsh > ~/.zfunc/_keliya"
    )]
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), for `man`.
    #[command(after_help = "Examples:\n  keliya man > keliya.1 && man ./keliya.1")]
    Man,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Svg,
    Dot,
    Text,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// Already printed (diagnostics); exit 1.
    #[error("")]
    Reported,
    /// The command line asks for something impossible (three agents for two seats): exit 2, as clap's
    /// own usage errors.
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Message(String),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help`, `--version` (standard output) or a usage error (standard error, exit 2), with a
        // failed write handled as everywhere else.
        Err(e) => {
            let printed = e.print().and_then(|()| std::io::stdout().flush());
            match printed {
                Err(_) if e.use_stderr() => return ExitCode::from(1),
                Err(w) => stdout_failed(w),
                Ok(()) => return ExitCode::from(e.exit_code().clamp(0, 255) as u8),
            }
        }
    };
    let result = run(cli);
    // What is still buffered must reach its file too: a full disk found here is still a failure.
    if let Err(e) = std::io::stdout().flush() {
        stdout_failed(e);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Reported) => ExitCode::from(1),
        Err(CliError::Message(m)) => {
            errln!("error: {m}");
            ExitCode::from(1)
        }
        Err(CliError::Usage(m)) => {
            errln!("error: {m}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
    }
}

/// A write to standard output failed. A reader that went away (`keliya list | head`) wanted no more:
/// exit 0, quietly. Anything else (a full disk, a device error) means output was lost: exit 1.
pub(crate) fn stdout_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let _ = writeln!(std::io::stderr(), "error: writing to standard output: {e}");
    std::process::exit(1);
}

/// Writes `text` to standard output and flushes it, as [`outln`] does.
pub(crate) fn write_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        stdout_failed(e);
    }
}

fn catalog() -> Catalog {
    keliya_bundled::catalog(Vec::new())
}

/// The source locations and texts of the ruleset loaded last, so a rule that fails while it runs (takes a
/// piece from an empty site, breaks an `assert`) is reported at its line like a validation error.
static RUNNING: std::sync::Mutex<Option<(Vec<keliya_rules::Loc>, keliya_rules::Sources)>> =
    std::sync::Mutex::new(None);

/// Loads a ruleset, printing every diagnostic on failure.
fn load(what: &str) -> Result<Compiled, CliError> {
    let loaded = keliya_rules::load(&catalog(), what);
    match loaded.result {
        Ok(c) => {
            if let Ok(mut running) = RUNNING.lock() {
                *running = Some((c.spans.clone(), loaded.sources));
            }
            Ok(c)
        }
        Err(diags) => {
            for d in &diags {
                err!("{}", diagnostics::render(&loaded.sources, d));
            }
            errln!("{} problem(s) found", diags.len());
            Err(CliError::Reported)
        }
    }
}

pub(crate) fn load_game(what: &str) -> Result<Compiled, CliError> {
    let c = load(what)?;
    if c.info.is_library {
        return Err(CliError::Message(format!(
            "`{what}` is a library of shared rules, not a game; games extend it"
        )));
    }
    Ok(c)
}

/// Largest state file read: a position of the largest board is a few hundred kilobytes.
const MAX_STATE_BYTES: u64 = 16 << 20;
/// Largest record file read: many long games, but never an endless stream such as `/dev/zero`.
pub(crate) const MAX_RECORD_BYTES: u64 = 256 << 20;

/// A state or record file as text, read no further than `limit` bytes (a pipe is read too, but a device
/// that never ends is stopped there), without the byte-order mark an editor may put first.
pub(crate) fn read_text(path: &std::path::Path, limit: u64) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "larger than {} MiB; not a keliya file",
            limit >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

pub(crate) fn read_state(
    game: &Game,
    path: Option<&PathBuf>,
) -> Result<keliya_engine::State, CliError> {
    let Some(path) = path else {
        return Ok(game.initial_state());
    };
    let text = read_text(path, MAX_STATE_BYTES)
        .map_err(|e| CliError::Message(format!("{}: {e}", path.display())))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        CliError::Message(format!(
            "{}:{}:{}: not a valid state file: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    state_json::from_json_at(game, &value).map_err(|e| {
        // At the value at fault, as the parser's own errors are.
        let place = match state_json::locate(&text, &e.path) {
            Some((line, column)) => format!("{}:{line}:{column}", path.display()),
            None => path.display().to_string(),
        };
        CliError::Message(format!("{place}: {}", e.message))
    })
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::List { long, json } => show::list(long, json),
        Command::Compile {
            rulesets,
            bundled,
            output,
        } => compile::run(&rulesets, bundled, output),
        Command::Validate { rulesets, json } => validate::run(&rulesets, json),
        Command::Show {
            ruleset,
            code,
            resolved,
            json,
        } => show::show(&ruleset, resolved, code, json),
        Command::Render {
            ruleset,
            format,
            output,
            state,
            ascii,
        } => {
            let c = load_game(&ruleset)?;
            let game = c.game();
            let st = read_state(game, state.as_ref())?;
            let text = match format {
                Format::Svg => {
                    let figures = status::figures(game, &c.info.display, &st);
                    picture::svg(game, &st, &c.info.title, &figures.per_player)
                }
                Format::Dot => render::dot(game, &st),
                Format::Text => {
                    render::text_in(game, &st, !ascii && text_board::Style::unicode_locale())
                }
            };
            match output {
                Some(p) => std::fs::write(&p, text)
                    .map_err(|e| CliError::Message(format!("{}: {e}", p.display()))),
                None => {
                    out!("{text}");
                    Ok(())
                }
            }
        }
        Command::Moves {
            ruleset,
            state,
            json,
        } => moves(&ruleset, state.as_ref(), json),
        Command::Apply {
            ruleset,
            state,
            mv,
            json: _,
        } => apply(&ruleset, state.as_ref(), &mv),
        Command::Simulate(args) => simulate::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Play(args) => play::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            // Into memory first, so that a failed write is reported as every other output is.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "keliya", &mut script);
            out!("{}", String::from_utf8_lossy(&script));
            Ok(())
        }
        Command::Man => {
            use clap::CommandFactory;
            let page = clap_mangen::Man::new(Cli::command());
            let mut out = Vec::new();
            page.render(&mut out)
                .map_err(|e| CliError::Message(format!("the manual page: {e}")))?;
            // The subcommands' pages follow the main one, so `man` shows every option.
            for sub in Cli::command().get_subcommands() {
                clap_mangen::Man::new(sub.clone())
                    .render(&mut out)
                    .map_err(|e| CliError::Message(format!("the manual page: {e}")))?;
            }
            out!("{}", String::from_utf8_lossy(&out));
            Ok(())
        }
    }
}

/// `keliya show --code`: everything the ruleset declares, each rule with its source, condition and body.
fn code_text(c: &Compiled) -> String {
    let info = &c.info;
    let mut out = String::new();
    out.push_str(&format!("{} ({})\n", info.title, info.name));
    out.push_str(&format!("family: {}\n", info.family));
    out.push_str(&show::files_line(&info.chain));
    if !info.description.is_empty() {
        out.push_str(&format!("\n{}\n", wrap(&info.description, 100)));
    }
    if !info.sources.is_empty() {
        out.push_str("\nSources:\n");
        for s in &info.sources {
            out.push_str(&format!("  - {s}\n"));
        }
    }
    show::players_and_teams(&mut out, c);
    if let Some(g) = &c.game {
        out.push_str("\nPieces:\n");
        for p in &g.pieces {
            let owner = p
                .owner
                .map_or("nobody".to_string(), |o| g.players[o as usize].name.clone());
            out.push_str(&format!("  {} ({}), owned by {owner}\n", p.name, p.display));
        }
        let on_board = g.board.playing_sites().count();
        out.push_str(&format!(
            "\nBoard: {on_board} points, {} edges, {} lines, {} tracks, {} off-board places\n",
            g.board.edges.len(),
            g.board.lines.len(),
            g.board.tracks.len(),
            g.board.len() - on_board
        ));
    }
    if !info.params.is_empty() {
        out.push_str("\nParameters:\n");
        for (n, v) in &info.params {
            out.push_str(&format!("  {n} = {v}\n"));
        }
    }
    if !info.parts.is_empty() {
        out.push_str("\nParts (written in where `name()` stands):\n");
        for (n, text) in &info.parts {
            out.push_str(&format!("  {n}\n"));
            for l in text.lines() {
                out.push_str(&format!("    | {l}\n"));
            }
        }
    }
    out.push_str("\nRules:\n");
    for r in &info.rules {
        out.push_str(&format!(
            "  {}{}\n",
            r.name,
            r.player
                .as_ref()
                .map_or(String::new(), |p| format!(" (player {p})"))
        ));
        if let Some(s) = &r.source {
            out.push_str(&format!("    source: {s}\n"));
        }
        if let Some(w) = &r.when {
            out.push_str(&format!("    when: {w}\n"));
        }
        for l in r.body.lines() {
            out.push_str(&format!("    | {l}\n"));
        }
    }
    if !info.ends.is_empty() {
        out.push_str("\nEnds (checked before each turn, in order):\n");
        for e in &info.ends {
            out.push_str(&format!(
                "  {}: when {} -> {}\n",
                e.name,
                e.when.as_deref().unwrap_or("?"),
                e.player
                    .as_deref()
                    .map_or("?".to_string(), |w| if w == "draw" {
                        "draw".into()
                    } else {
                        format!("{w} wins")
                    })
            ));
            if let Some(s) = &e.source {
                out.push_str(&format!("    source: {s}\n"));
            }
        }
    }
    if let Some(g) = &c.game {
        let caps = &g.caps;
        let mut parts = Vec::new();
        if let Some(n) = caps.repetition {
            parts.push(format!("the same position {n} times"));
        }
        if let Some(n) = caps.no_capture_turns {
            parts.push(format!("{n} turns without a capture"));
        }
        if let Some(n) = caps.max_turns {
            parts.push(format!("{n} turns in all"));
        }
        if !parts.is_empty() {
            out.push_str(&format!(
                "\nCaps (each ends the game as a draw): {}\n",
                parts.join("; ")
            ));
        }
        if let Some(rows) = &g.throws {
            out.push_str("\nThrows:\n");
            for r in rows {
                out.push_str(&format!(
                    "  {:<12} value {:>3}  p = {:.6}{}\n",
                    r.name,
                    r.value,
                    r.probability,
                    if r.again { "  throw again" } else { "" }
                ));
            }
        }
        out.push_str(&format!("\n{}\n", backend::describe(g)));
    }
    out
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + w.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    out.push_str(&line);
    out
}

fn yaml_text(node: &keliya_rules::Node, indent: usize) -> String {
    use keliya_rules::YamlValue as V;
    let pad = "  ".repeat(indent);
    match &node.value {
        V::Map(entries) => {
            let mut s = String::new();
            for (k, v) in entries {
                match &v.value {
                    V::Map(m) if !m.is_empty() => {
                        s.push_str(&format!("{pad}{}:\n{}", k.name, yaml_text(v, indent + 1)))
                    }
                    V::Str(t) if t.contains('\n') => {
                        s.push_str(&format!("{pad}{}: |\n", k.name));
                        for l in t.lines() {
                            s.push_str(&format!("{pad}  {l}\n"));
                        }
                    }
                    _ => s.push_str(&format!("{pad}{}: {}\n", k.name, scalar(v))),
                }
            }
            s
        }
        _ => format!("{pad}{}\n", scalar(node)),
    }
}

fn scalar(node: &keliya_rules::Node) -> String {
    use keliya_rules::YamlValue as V;
    match &node.value {
        V::Null => "~".into(),
        V::Bool(b) => b.to_string(),
        V::Int(i) => i.to_string(),
        V::Float(f) => f.to_string(),
        V::Str(s) => serde_json::to_string(s).unwrap_or_default(),
        V::Seq(items) => format!(
            "[{}]",
            items.iter().map(scalar).collect::<Vec<_>>().join(", ")
        ),
        V::Map(entries) => {
            format!(
                "{{{}}}",
                entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.name, scalar(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    }
}

fn moves(what: &str, state: Option<&PathBuf>, as_json: bool) -> Result<(), CliError> {
    let c = load_game(what)?;
    let game = c.game();
    let st = read_state(game, state)?;
    let outcomes = game.chance_outcomes(&st);
    let rows = game.throws.as_deref().unwrap_or_default();
    // The moves are kept in the engine's compact list (the same moves, in the same order, as
    // `legal_moves`) and written one at a time: a position of millions of moves is listed in the
    // memory of its search.
    let mut legal = Successors::new();
    game.successors_into(&st, &mut legal)
        .map_err(engine_error)?;
    // Such a list stops a rule at its last choice, and runs the rest when the move is played: each
    // move is played once, so that a rule that fails after its last choice is reported here.
    for i in 0..legal.len() {
        game.advance_found(st.clone(), &legal, i)
            .map_err(engine_error)?;
    }
    let to_move = &game.players[st.to_move as usize].name;
    if as_json {
        let value = if !outcomes.is_empty() {
            json!({
                "to_move": to_move,
                "throw_due": true,
                "outcomes": outcomes.iter().map(|(i, p)| {
                    let r = &rows[*i as usize];
                    json!({"throw": r.name, "value": r.value, "again": r.again, "probability": p})
                }).collect::<Vec<_>>(),
                "state": state_json::to_json(game, &st),
            })
        } else {
            json!({
                "to_move": to_move,
                "throw_due": false,
                "moves": [],
                "state": state_json::to_json(game, &st),
            })
        };
        let text = serde_json::to_string_pretty(&value).expect("JSON values serialise");
        // The list of moves goes where the pretty printer put the empty one (the only `"moves": []`
        // that is not inside a string), written as it would have written it.
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let written = match text.split_once("\n  \"moves\": []") {
            Some((before, after)) if !legal.is_empty() => (|| {
                write!(out, "{before}\n  \"moves\": [")?;
                for (i, m) in legal.moves().enumerate() {
                    let one = json!({"move": game.notation(&m), "rule": game.rule_name(m.rule)});
                    let one = serde_json::to_string_pretty(&one).expect("JSON values serialise");
                    let sep = if i == 0 { "" } else { "," };
                    write!(out, "{sep}\n    {}", one.replace('\n', "\n    "))?;
                }
                writeln!(out, "\n  ]{after}")?;
                out.flush()
            })(),
            _ => writeln!(out, "{text}").and_then(|()| out.flush()),
        };
        if let Err(e) = written {
            stdout_failed(e);
        }
        return Ok(());
    }
    if let Some(r) = st.result {
        let (reason, _) = keliya_play::simulate::reason_name(game, r.reason);
        let who = r.winner.map_or("draw".to_string(), |w| {
            format!("{} wins", game.side_name(w))
        });
        outln!("game over: {who} ({reason})");
    } else if !outcomes.is_empty() {
        outln!("{to_move} throws:");
        for (i, p) in &outcomes {
            let r = &rows[*i as usize];
            outln!(
                "  {:<12} value {:>3}  p = {p:.6}{}",
                r.name,
                r.value,
                if r.again { "  throw again" } else { "" }
            );
        }
    } else {
        outln!("{to_move} to move, {} legal move(s):", legal.len());
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let written = legal
            .moves()
            .try_for_each(|m| {
                writeln!(
                    out,
                    "  {:<12} ({})",
                    game.notation(&m),
                    game.rule_name(m.rule)
                )
            })
            .and_then(|()| out.flush());
        if let Err(e) = written {
            stdout_failed(e);
        }
    }
    Ok(())
}

/// The legal moves an error names, at most.
const SHOWN_MOVES: usize = 100;

fn apply(what: &str, state: Option<&PathBuf>, mv_text: &str) -> Result<(), CliError> {
    let c = load_game(what)?;
    let game = c.game();
    let st = read_state(game, state)?;
    let next = if st.chance_due {
        let rows = game.throws.as_deref().unwrap_or_default();
        let Some(i) = rows
            .iter()
            .position(|r| r.name.eq_ignore_ascii_case(mv_text.trim()))
        else {
            let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
            return Err(CliError::Message(format!(
                "a throw is due; give one of: {}",
                names.join(", ")
            )));
        };
        game.apply_chance(&st, i as u8)
    } else {
        let Some(mv) = game.parse_move(&st, mv_text).map_err(engine_error)? else {
            let mut found = Successors::new();
            game.successors_into(&st, &mut found)
                .map_err(engine_error)?;
            // A position of very many moves names the first of them and says how many more.
            let mut legal: Vec<String> = found
                .moves()
                .take(SHOWN_MOVES)
                .map(|m| game.notation(&m))
                .collect();
            if found.len() > SHOWN_MOVES {
                legal.push(format!("and {} more", found.len() - SHOWN_MOVES));
            }
            let shown = if legal.is_empty() {
                "none (the game is over)".to_string()
            } else {
                legal.join(", ")
            };
            return Err(CliError::Message(format!(
                "`{mv_text}` is not a legal move here; legal moves: {shown}"
            )));
        };
        game.apply(&st, &mv).map_err(engine_error)?
    };
    outln!(
        "{}",
        serde_json::to_string_pretty(&state_json::to_json(game, &next))
            .expect("JSON values serialise")
    );
    Ok(())
}
