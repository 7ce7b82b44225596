//! Pictures of a board with a position on it: SVG, Graphviz DOT and plain text.

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

/// Ring colours of owned sites, by player.
const OWNER_COLOURS: [&str; 6] = [
    "#c0392b", "#2471a3", "#229954", "#b7950b", "#7d3c98", "#ca6f1e",
];

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

pub fn svg(game: &Game, st: &State) -> String {
    let b = &game.board;
    let sites: Vec<u16> = b.playing_sites().collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &s in &sites {
        let (x, y) = b.at[s as usize];
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if sites.is_empty() {
        (x0, y0, x1, y1) = (0.0, 0.0, 1.0, 1.0);
    }
    let scale = 80.0;
    let margin = 50.0;
    let px = |x: f64| margin + (x - x0) * scale;
    let py = |y: f64| margin + (y - y0) * scale;
    let offboard: Vec<u16> = (0..b.len() as u16)
        .filter(|&s| b.offboard[s as usize])
        .collect();
    let width = (x1 - x0) * scale + 2.0 * margin;
    let height = (y1 - y0) * scale + 2.0 * margin + 20.0 * offboard.len() as f64 + 20.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n"
    );
    out.push_str(&format!(
        "  <title>{}</title>\n  <rect width=\"100%\" height=\"100%\" fill=\"#fdf6e3\"/>\n",
        esc(&game.name)
    ));
    for &(a, c) in &b.edges {
        let (ax, ay) = b.at[a as usize];
        let (cx, cy) = b.at[c as usize];
        out.push_str(&format!(
            "  <line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#555\" stroke-width=\"2\"/>\n",
            px(ax), py(ay), px(cx), py(cy)
        ));
    }
    let palette = [
        "#b22222", "#1e5aa8", "#2e8b57", "#8b6914", "#6a3d9a", "#e07b00",
    ];
    for &s in &sites {
        let (x, y) = b.at[s as usize];
        let safe = b.has_tag(s, "safe");
        // An owned site has a ring in its owner's colour, with the owner's name as a tooltip.
        let (ring, owner) = match game.site_owner[s as usize] {
            Some(o) => (
                OWNER_COLOURS[o as usize % OWNER_COLOURS.len()],
                game.players[o as usize].name.as_str(),
            ),
            None => ("#333", ""),
        };
        out.push_str(&format!(
            "  <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"9\" fill=\"{}\" stroke=\"{ring}\" stroke-width=\"{}\"><title>{}</title></circle>\n",
            px(x),
            py(y),
            if safe { "#bbb" } else { "#fff" },
            if owner.is_empty() { 1 } else { 3 },
            esc(owner)
        ));
        if safe {
            out.push_str(&format!(
                "  <path d=\"M{:.1} {:.1} l12 12 M{:.1} {:.1} l-12 12\" stroke=\"#333\"/>\n",
                px(x) - 6.0,
                py(y) - 6.0,
                px(x) + 6.0,
                py(y) - 6.0
            ));
        }
        for (p, _) in (0..game.piece_count()).map(|p| (p, ())) {
            let c = st.count(game, s, p as u8);
            if c > 0 {
                out.push_str(&format!(
                    "  <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"15\" fill=\"{}\" opacity=\"0.9\"><title>{}</title></circle>\n",
                    px(x), py(y), palette[p % palette.len()], esc(&game.pieces[p].display)
                ));
                let label = if c > 1 {
                    c.to_string()
                } else {
                    game.pieces[p]
                        .display
                        .chars()
                        .next()
                        .unwrap_or('?')
                        .to_uppercase()
                        .to_string()
                };
                out.push_str(&format!(
                    "  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#fff\">{}</text>\n",
                    px(x), py(y) + 4.5, esc(&label)
                ));
            }
        }
        out.push_str(&format!(
            "  <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#333\">{}</text>\n",
            px(x) + 14.0,
            py(y) - 12.0,
            esc(b.name(s))
        ));
    }
    let mut ty = (y1 - y0) * scale + 2.0 * margin;
    for s in offboard {
        let what = contents_text(game, st, s);
        out.push_str(&format!(
            "  <text x=\"{margin}\" y=\"{ty:.1}\" font-size=\"12\" fill=\"#333\">{}: {}</text>\n",
            esc(b.name(s)),
            esc(if what.is_empty() { "empty" } else { &what })
        ));
        ty += 20.0;
    }
    out.push_str("</svg>\n");
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
