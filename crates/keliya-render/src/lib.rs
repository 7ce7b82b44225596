//! Pictures of a position: `text_board` draws it as text within 80 columns (box-drawing characters or
//! ASCII), `picture` as SVG, `render` as Graphviz DOT and the text entry points, and `status` the
//! figures a ruleset marks for display and moves in readable words. Shared by the command line and the
//! Python package, so both show the same boards.
//!
//! Architecture invariant: it only draws. It reads a `Game`, a `State` and what the ruleset marks for
//! display, and returns text; it loads nothing, prints nothing and knows no game.

pub mod picture;
pub mod render;
pub mod status;
pub mod text_board;

/// The bundled rulesets, for the tests that draw every one.
#[cfg(test)]
pub(crate) fn catalog() -> keliya_rules::Catalog {
    keliya_rules::Catalog {
        dirs: Vec::new(),
        embedded: keliya_bundled::rulesets(),
    }
}
