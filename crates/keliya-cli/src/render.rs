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

fn letter(game: &Game, p: usize) -> char {
    game.pieces[p]
        .display
        .chars()
        .next()
        .unwrap_or('?')
        .to_ascii_uppercase()
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

/// The longest side of a picture, in pixels (SVG), and the widest text board, in columns.
const MAX_SIDE: f64 = 4000.0;
const MAX_COLUMNS: f64 = 400.0;

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
    // 80 pixels a unit, unless that makes a side longer than MAX_SIDE (coordinates may be any finite
    // numbers): then the longer side is MAX_SIDE. Distances are taken halved, so no sum overflows.
    let half_span = (x1 / 2.0 - x0 / 2.0).max(y1 / 2.0 - y0 / 2.0);
    let scale = if half_span * 160.0 > MAX_SIDE {
        MAX_SIDE / 2.0 / half_span
    } else {
        80.0
    };
    let margin = 50.0;
    let px = |x: f64| margin + (x / 2.0 - x0 / 2.0) * scale * 2.0;
    let py = |y: f64| margin + (y / 2.0 - y0 / 2.0) * scale * 2.0;
    let offboard: Vec<u16> = (0..b.len() as u16)
        .filter(|&s| b.offboard[s as usize])
        .collect();
    let width = px(x1) + margin;
    let height = py(y1) + margin + 20.0 * offboard.len() as f64 + 20.0;
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
    let mut ty = py(y1) + margin;
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

/// A character picture: sites placed by their coordinates, then lines, tracks and off-board places listed.
pub fn text(game: &Game, st: &State) -> String {
    text_colored(game, st, false, true)
}

/// Like [`text`], with each piece's letter coloured (ANSI) when `color` is set.
pub fn text_colored(game: &Game, st: &State, color: bool, detail: bool) -> String {
    let paint = |piece: usize, s: String| -> String {
        if color {
            let codes = ["1;31", "1;34", "1;32", "1;33", "1;35", "1;36"];
            format!("\x1b[{}m{s}\x1b[0m", codes[piece % codes.len()])
        } else {
            s
        }
    };
    let b = &game.board;
    let sites: Vec<u16> = b.playing_sites().collect();
    let mut out = String::new();
    if !sites.is_empty() {
        let xs: Vec<f64> = sites.iter().map(|&s| b.at[s as usize].0).collect();
        let ys: Vec<f64> = sites.iter().map(|&s| b.at[s as usize].1).collect();
        let (x0, y0) = (
            xs.iter().cloned().fold(f64::MAX, f64::min),
            ys.iter().cloned().fold(f64::MAX, f64::min),
        );
        // Columns per unit chosen so the closest pair of sites on a row does not overlap.
        let mut min_dx = f64::MAX;
        for (i, &a) in sites.iter().enumerate() {
            for &c in &sites[i + 1..] {
                let (ax, ay) = b.at[a as usize];
                let (cx, cy) = b.at[c as usize];
                if (ay - cy).abs() < 1e-9 && (ax - cx).abs() > 1e-9 {
                    min_dx = min_dx.min((ax - cx).abs());
                }
            }
        }
        let cell = 8.0;
        let xscale = if min_dx == f64::MAX {
            cell
        } else {
            (cell / min_dx).max(1.0)
        };
        // No wider than MAX_COLUMNS, whatever the coordinates (halved, so no difference overflows).
        let x1 = xs.iter().cloned().fold(f64::MIN, f64::max);
        let half_width = x1 / 2.0 - x0 / 2.0;
        let xscale = if half_width * 2.0 * xscale > MAX_COLUMNS {
            MAX_COLUMNS / 2.0 / half_width
        } else {
            xscale
        };
        let mut rows: Vec<(i64, Vec<(usize, (String, String))>)> = Vec::new();
        for &s in &sites {
            let (x, y) = b.at[s as usize];
            let row = ((y / 2.0 - y0 / 2.0) * 4.0).round() as i64;
            let col = ((x / 2.0 - x0 / 2.0) * xscale * 2.0).round().max(0.0) as usize;
            // (visible text, text as printed): colour codes take no columns.
            let mark: (String, String) = match pieces_on(game, st, s).as_slice() {
                [] => (b.name(s).to_string(), b.name(s).to_string()),
                [(p, c)] => {
                    let what = if *c == 1 {
                        letter(game, *p).to_string()
                    } else {
                        format!("{c}{}", letter(game, *p))
                    };
                    (
                        format!("{}:{what}", b.name(s)),
                        format!("{}:{}", b.name(s), paint(*p, what.clone())),
                    )
                }
                many => {
                    let total = many.iter().map(|(_, c)| c).sum::<u16>();
                    (
                        format!("{}:{total}", b.name(s)),
                        format!("{}:{total}", b.name(s)),
                    )
                }
            };
            match rows.iter_mut().find(|(r, _)| *r == row) {
                Some((_, items)) => items.push((col, mark)),
                None => rows.push((row, vec![(col, mark)])),
            }
        }
        rows.sort_by_key(|(r, _)| *r);
        for (_, mut items) in rows {
            items.sort_by_key(|(c, _)| *c);
            let mut line = String::new();
            let mut width = 0;
            for (col, (plain, printed)) in items {
                let at = col.max(if width == 0 { 0 } else { width + 2 });
                line.push_str(&" ".repeat(at - width));
                line.push_str(&printed);
                width = at + plain.chars().count();
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
    }
    for l in b.lines.iter().filter(|_| detail) {
        let pts: Vec<&str> = l.points.iter().map(|&p| b.name(p)).collect();
        out.push_str(&format!("line {}: {}\n", l.name, pts.join(" - ")));
    }
    for t in b.tracks.iter().filter(|_| detail) {
        let pts: Vec<&str> = t.points.iter().map(|&p| b.name(p)).collect();
        out.push_str(&format!(
            "track {} ({} squares): {}\n",
            t.name,
            pts.len(),
            pts.join(" ")
        ));
    }
    let safe: Vec<&str> = sites
        .iter()
        .filter(|&&s| b.has_tag(s, "safe"))
        .map(|&s| b.name(s))
        .collect();
    if !safe.is_empty() {
        out.push_str(&format!("safe: {}\n", safe.join(" ")));
    }
    // Who owns which sites (rows of a sowing board, a side's home stretch), one line per owner.
    for (p, player) in game.players.iter().enumerate() {
        let owned: Vec<&str> = sites
            .iter()
            .filter(|&&s| game.site_owner[s as usize] == Some(p as u8))
            .map(|&s| b.name(s))
            .collect();
        if !owned.is_empty() {
            out.push_str(&format!("owned by {}: {}\n", player.name, owned.join(" ")));
        }
    }
    for s in (0..b.len() as u16).filter(|&s| b.offboard[s as usize]) {
        let what = contents_text(game, st, s);
        out.push_str(&format!(
            "{}: {}\n",
            b.name(s),
            if what.is_empty() { "empty" } else { &what }
        ));
    }
    let legend: Vec<String> = (0..game.piece_count())
        .map(|p| {
            format!(
                "{} = {}",
                paint(p, letter(game, p).to_string()),
                game.pieces[p].display
            )
        })
        .collect();
    out.push_str(&format!("pieces: {}\n", legend.join(", ")));
    out
}
