//! Pictures of a board with a position on it: Graphviz DOT, and the entry points of text (see
//! `text_board.rs`); SVG is drawn by `picture.rs`.

use keliya_engine::{Game, State};

fn contents(game: &Game, st: &State, site: u16) -> Vec<(String, u16)> {
    pieces_on(game, st, site)
        .into_iter()
        .map(|(p, c)| (game.pieces[p].display.clone(), c))
        .collect()
}

/// (piece index, count) for every kind present on a site.
fn pieces_on(game: &Game, st: &State, site: u16) -> Vec<(usize, u16)> {
    (0..game.piece_count())
        .filter_map(|p| {
            let c = st.count(game, site, p as u8);
            (c > 0).then_some((p, c))
        })
        .collect()
}

fn contents_text(game: &Game, st: &State, site: u16) -> String {
    contents(game, st, site)
        .into_iter()
        .map(|(name, c)| if c == 1 { name } else { format!("{c} {name}") })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn dot(game: &Game, st: &State) -> String {
    let b = &game.board;
    let mut out = format!(
        "graph {:?} {{\n  node [shape=circle, fontsize=10];\n",
        game.name
    );
    for s in b.playing_sites() {
        let (x, y) = b.at[s as usize];
        let what = contents_text(game, st, s);
        let label = if what.is_empty() {
            b.name(s).to_string()
        } else {
            format!("{}\\n{what}", b.name(s))
        };
        let mut style = if b.has_tag(s, "safe") {
            ", style=filled, fillcolor=lightgrey".to_string()
        } else {
            String::new()
        };
        if let Some(o) = game.site_owner[s as usize] {
            style.push_str(&format!(", xlabel=\"{}\"", game.players[o as usize].name));
        }
        out.push_str(&format!(
            "  {:?} [label=\"{label}\", pos=\"{},{}!\"{style}];\n",
            b.name(s),
            x,
            -y
        ));
    }
    for &(a, c) in &b.edges {
        out.push_str(&format!("  {:?} -- {:?};\n", b.name(a), b.name(c)));
    }
    out.push_str("}\n");
    out
}

/// A character picture that fits 80 columns (see [`crate::text_board`]), with the board's tracks, safe
/// points and owners listed.
pub fn text(game: &Game, st: &State) -> String {
    text_in(game, st, crate::text_board::Style::unicode_locale())
}

/// [`text`] with box-drawing characters or ASCII only.
pub fn text_in(game: &Game, st: &State, unicode: bool) -> String {
    let style = crate::text_board::Style {
        color: false,
        unicode,
        detail: true,
    };
    crate::text_board::board(game, st, style, &[])
}
