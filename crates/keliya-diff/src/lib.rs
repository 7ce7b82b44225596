//! What changed between two rulesets, and what the change does to play.
//!
//! [`structural`] compares two resolved rulesets (after `extends`) section by section: metadata and sources,
//! players and turn order, pieces, the board, setup, parameters, variables, throws, rules, end conditions,
//! caps, invariants and limits. Items are matched by name, mappings are compared as maps (key order and
//! YAML style never matter) and rule texts are compared as parsed and printed, so layout alone is never a
//! change. Every [`Change`] carries the lines of both files it comes from.
//!
//! [`simulate`] plays both rulesets with the same agents and seeds and compares the results, with 95%
//! intervals and significance tests ([`stats`]).
//!
//! Architecture invariants: this crate never reads files (it takes what `keliya-rules` loaded) and never
//! prints (it returns values; [`text`] renders them for the CLI); it knows no game, only sections and names.

mod behaviour;
mod linediff;
pub mod stats;
mod structure;
pub mod text;

use keliya_rules::{Compiled, Loaded, Sources};
use serde_json::{Value, json};

pub use behaviour::{
    Comparison, Figure, Run, SimOptions, SimulateError, Simulation, Test, Which, compare_runs,
    run_of, simulate,
};
pub use linediff::line_diff;
pub use structure::structural;

/// One loaded ruleset: the files read and what they compiled to.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub sources: &'a Sources,
    pub compiled: &'a Compiled,
}

impl<'a> Side<'a> {
    pub fn new(sources: &'a Sources, compiled: &'a Compiled) -> Self {
        Side { sources, compiled }
    }
    /// `None` when the ruleset did not load.
    pub fn of(loaded: &'a Loaded) -> Option<Self> {
        loaded
            .result
            .as_ref()
            .ok()
            .map(|c| Side::new(&loaded.sources, c))
    }
}

/// The parts of a ruleset a change belongs to, in the order they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Metadata,
    Sources,
    Players,
    Pieces,
    Board,
    Setup,
    Params,
    Vars,
    Throws,
    Rules,
    Ends,
    Caps,
    Invariants,
    Limits,
    Other,
}

impl Section {
    pub const ALL: [Section; 15] = [
        Section::Metadata,
        Section::Sources,
        Section::Players,
        Section::Pieces,
        Section::Board,
        Section::Setup,
        Section::Params,
        Section::Vars,
        Section::Throws,
        Section::Rules,
        Section::Ends,
        Section::Caps,
        Section::Invariants,
        Section::Limits,
        Section::Other,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Section::Metadata => "metadata",
            Section::Sources => "sources",
            Section::Players => "players",
            Section::Pieces => "pieces",
            Section::Board => "board",
            Section::Setup => "setup",
            Section::Params => "params",
            Section::Vars => "vars",
            Section::Throws => "throws",
            Section::Rules => "rules",
            Section::Ends => "ends",
            Section::Caps => "caps",
            Section::Invariants => "invariants",
            Section::Limits => "limits",
            Section::Other => "other",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Added,
    Removed,
    Changed,
}

impl Kind {
    /// `+`, `-` or `~`.
    pub fn mark(self) -> char {
        match self {
            Kind::Added => '+',
            Kind::Removed => '-',
            Kind::Changed => '~',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
        }
    }
}

/// Lines of one file a change comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub file: String,
    /// 1-based, inclusive.
    pub line: usize,
    pub end_line: usize,
    /// The first line's text, trimmed (for showing).
    pub text: String,
}

impl Span {
    /// `path:12` or `path:12-15`.
    pub fn at(&self) -> String {
        if self.end_line > self.line {
            format!("{}:{}-{}", self.file, self.line, self.end_line)
        } else {
            format!("{}:{}", self.file, self.line)
        }
    }
    fn to_json(&self) -> Value {
        json!({"file": self.file, "line": self.line, "end_line": self.end_line, "text": self.text})
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub section: Section,
    pub kind: Kind,
    /// What changed, as a path into the ruleset: `params.goal`, `board.lines.left`, `rules.sow`.
    pub path: String,
    /// In words, e.g. `line left: A-L1-L2-L3 -> A-L1-L2-L3-L4`.
    pub description: String,
    /// Extra lines: a line diff of a rule's text, the sites each player owns.
    pub detail: Vec<String>,
    /// Where it comes from in the first ruleset's files (empty when added).
    pub a: Vec<Span>,
    /// Where it comes from in the second ruleset's files (empty when removed).
    pub b: Vec<Span>,
}

impl Change {
    pub fn to_json(&self) -> Value {
        json!({
            "section": self.section.name(),
            "kind": self.kind.name(),
            "mark": self.kind.mark().to_string(),
            "path": self.path,
            "description": self.description,
            "detail": self.detail,
            "a": self.a.iter().map(Span::to_json).collect::<Vec<_>>(),
            "b": self.b.iter().map(Span::to_json).collect::<Vec<_>>(),
        })
    }
}

/// A ruleset as the diff names it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct About {
    pub name: String,
    pub title: String,
    pub family: String,
    /// The files of the `extends` chain, child first.
    pub files: Vec<String>,
    pub players: Vec<String>,
    pub is_library: bool,
}

impl About {
    pub fn of(side: Side<'_>) -> About {
        let c = side.compiled;
        About {
            name: c.info.name.clone(),
            title: c.info.title.clone(),
            family: c.info.family.clone(),
            files: c.info.chain.clone(),
            players: c.game.as_ref().map_or_else(Vec::new, |g| {
                g.players.iter().map(|p| p.name.clone()).collect()
            }),
            is_library: c.info.is_library,
        }
    }
    fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "family": self.family,
            "files": self.files,
            "players": self.players,
            "library": self.is_library,
        })
    }
}

/// The structural difference of two rulesets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diff {
    pub a: About,
    pub b: About,
    /// What kind of comparison this is: different families, different players.
    pub notes: Vec<String>,
    /// In section order.
    pub changes: Vec<Change>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
    pub fn section(&self, s: Section) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(move |c| c.section == s)
    }
    /// The change at `path`, if any.
    pub fn find(&self, path: &str) -> Option<&Change> {
        self.changes.iter().find(|c| c.path == path)
    }
    /// `{"a": .., "b": .., "notes": [..], "changes": [..]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "notes": self.notes,
            "changes": self.changes.iter().map(Change::to_json).collect::<Vec<_>>(),
        })
    }
}
