//! SVG pictures a player recognises: a sowing board as a board of pits with their counts, each row in
//! its owner's colour, with a store at each row's end; any other board with its lines and track steps
//! drawn (so a throne is joined to the squares that lead to it), each side's entry and direction marked,
//! and the pieces as discs in their owner's colour. Every picture carries its title. Coordinates of any
//! size are scaled from their bounding box.

use keliya_engine::{Game, State};

use crate::text_board::{counter_piece, pit_rows, segments, stacks};

/// Fills and strokes by player (or by piece, for pieces nobody owns).
const COLOURS: [&str; 6] = [
    "#b22222", "#1e5aa8", "#2e8b57", "#b8860b", "#6a3d9a", "#d2691e",
];
/// The same colours, light, for the rows of a sowing board.
const TINTS: [&str; 6] = [
    "#f6d5d0", "#d3e0f3", "#d4ecdc", "#f3e6c4", "#e4d8ef", "#f7dfcb",
];

fn colour(k: usize) -> &'static str {
    COLOURS[k % COLOURS.len()]
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture of `st` with `title` on top; `notes[p]` (reserves, say) is written in player `p`'s store
/// on a sowing board, or under the picture otherwise.
pub fn svg(game: &Game, st: &State, title: &str, notes: &[String]) -> String {
    let mut body = Body::default();
    let (width, height) = if pit_rows(game).is_some() {
        pits(game, st, notes, &mut body)
    } else {
        graph(game, st, notes, &mut body)
    };
    let width = width.max(12.0 * title.chars().count() as f64 + 40.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n"
    );
    out.push_str(&format!(
        "  <title>{t}</title>\n  <rect width=\"100%\" height=\"100%\" fill=\"#fdf6e3\"/>\n  <text x=\"{:.1}\" y=\"30\" text-anchor=\"middle\" font-size=\"20\" font-weight=\"bold\" fill=\"#333\">{t}</text>\n",
        width / 2.0,
        t = esc(title)
    ));
    out.push_str(&body.0);
    out.push_str("</svg>\n");
    out
}

#[derive(Default)]
struct Body(String);

impl Body {
    fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str, width: f64) {
        self.0.push_str(&format!(
            "  <line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-linecap=\"round\"/>\n",
            a.0, a.1, b.0, b.1
        ));
    }
    fn circle(&mut self, c: (f64, f64), r: f64, fill: &str, stroke: &str, width: f64, tip: &str) {
        self.0.push_str(&format!(
            "  <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"><title>{}</title></circle>\n",
            c.0,
            c.1,
            esc(tip)
        ));
    }
    fn text(&mut self, at: (f64, f64), size: f64, fill: &str, anchor: &str, text: &str) {
        self.0.push_str(&format!(
            "  <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{size}\" fill=\"{fill}\" text-anchor=\"{anchor}\">{}</text>\n",
            at.0,
            at.1,
            esc(text)
        ));
    }
}

/// Text lines under a picture from `top` down: off-board places, then notes; the height they end at.
fn places_below(game: &Game, st: &State, notes: &[String], top: f64, body: &mut Body) -> f64 {
    let b = &game.board;
    let mut y = top;
    for s in (0..b.len() as u16).filter(|&s| b.offboard[s as usize]) {
        let what: Vec<String> = (0..game.piece_count())
            .filter_map(|p| {
                let n = st.count(game, s, p as u8);
                (n > 0).then(|| format!("{n} {}", game.pieces[p].display))
            })
            .collect();
        let what = if what.is_empty() {
            "empty".to_string()
        } else {
            what.join(", ")
        };
        body.text(
            (30.0, y),
            14.0,
            "#333",
            "start",
            &format!("{}: {what}", b.name(s)),
        );
        y += 20.0;
    }
    for (p, note) in notes.iter().enumerate().filter(|(_, n)| !n.is_empty()) {
        body.text(
            (30.0, y),
            14.0,
            colour(p),
            "start",
            &format!("{}: {note}", game.players[p].display),
        );
        y += 20.0;
    }
    y
}

fn pits(game: &Game, st: &State, notes: &[String], body: &mut Body) -> (f64, f64) {
    let b = &game.board;
    let rows = pit_rows(game).unwrap_or_default();
    let mut xs: Vec<f64> = b.playing_sites().map(|s| b.at[s as usize].0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, c| (*a - *c).abs() < 1e-6);
    let (pit, gap) = (30.0, 12.0);
    let step = 2.0 * pit + gap;
    let store_w = 110.0;
    // Room for the owners' names left of the board.
    let label_w = rows
        .iter()
        .filter_map(|r| r.1)
        .map(|o| 9.0 * game.players[o as usize].display.chars().count() as f64)
        .fold(0.0, f64::max);
    let (left, top) = (30.0 + label_w + store_w, 60.0);
    let board_w = xs.len() as f64 * step + gap;
    let board_h = rows.len() as f64 * step + gap;
    let width = left + board_w + store_w + 40.0;
    // The board, with a store at each end (as a mancala board has), its owner's notes in it.
    body.0.push_str(&format!(
        "  <rect x=\"{:.1}\" y=\"{top}\" width=\"{:.1}\" height=\"{board_h:.1}\" rx=\"40\" fill=\"#c8955c\" stroke=\"#6b4423\" stroke-width=\"3\"/>\n",
        left - store_w,
        board_w + 2.0 * store_w
    ));
    let counter = counter_piece(game);
    let owners: Vec<Option<u8>> = rows.iter().map(|r| r.1).collect();
    for (i, &(y, owner)) in rows.iter().enumerate() {
        let cy = top + gap + pit + i as f64 * step;
        if let Some(o) = owner {
            body.text(
                (left - store_w - 10.0, cy + 5.0),
                15.0,
                colour(o as usize),
                "end",
                &game.players[o as usize].display,
            );
        }
        for (j, &x) in xs.iter().enumerate() {
            let Some(s) = b.playing_sites().find(|&s| {
                let (sx, sy) = b.at[s as usize];
                (sx - x).abs() < 1e-6 && (sy - y).abs() < 1e-6
            }) else {
                continue;
            };
            let cx = left + gap + pit + j as f64 * step;
            let owner = game.site_owner[s as usize].map(usize::from);
            let fill = owner.map_or("#f3e3c3", |o| TINTS[o % TINTS.len()]);
            let stroke = owner.map_or("#6b4423", colour);
            let n = st.count(game, s, counter as u8);
            let others: String = (0..game.piece_count())
                .filter(|&p| p != counter && st.count(game, s, p as u8) > 0)
                .filter_map(|p| game.pieces[p].display.chars().next())
                .collect();
            body.circle((cx, cy), pit, fill, stroke, 3.0, b.name(s));
            let label = if others.is_empty() {
                n.to_string()
            } else if n == 0 {
                others
            } else {
                format!("{n}{others}")
            };
            body.text((cx, cy + 8.0), 22.0, "#222", "middle", &label);
            body.text((cx, cy + pit + 10.0), 10.0, "#5a3a1a", "middle", b.name(s));
        }
    }
    // Stores: the first row's owner keeps his at the left end, the last row's at the right.
    let mut stores = Vec::new();
    if let Some(Some(o)) = owners.first() {
        stores.push((*o, left - store_w / 2.0));
    }
    if let Some(Some(o)) = owners.last()
        && owners.len() > 1
    {
        stores.push((*o, left + board_w + store_w / 2.0));
    }
    let mut stored = Vec::new();
    for (o, cx) in stores {
        let cy = top + board_h / 2.0;
        body.0.push_str(&format!(
            "  <ellipse cx=\"{cx:.1}\" cy=\"{cy:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"3\"/>\n",
            store_w / 2.0 - 8.0,
            board_h / 2.0 - 12.0,
            TINTS[o as usize % TINTS.len()],
            colour(o as usize)
        ));
        body.text((cx, cy - 6.0), 12.0, colour(o as usize), "middle", "store");
        if let Some(note) = notes.get(o as usize).filter(|n| !n.is_empty()) {
            for (k, part) in note.split(", ").enumerate() {
                body.text(
                    (cx, cy + 12.0 + 14.0 * k as f64),
                    10.0,
                    "#222",
                    "middle",
                    part,
                );
            }
        }
        stored.push(o as usize);
    }
    let rest: Vec<String> = notes
        .iter()
        .enumerate()
        .map(|(p, n)| {
            if stored.contains(&p) {
                String::new()
            } else {
                n.clone()
            }
        })
        .collect();
    let bottom = places_below(game, st, &rest, top + board_h + 40.0, body);
    (width, bottom + 10.0)
}

fn graph(game: &Game, st: &State, notes: &[String], body: &mut Body) -> (f64, f64) {
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
    // The closest pair of points sets the scale, within bounds the picture's size allows.
    let mut closest = f64::MAX;
    for (i, &a) in sites.iter().enumerate() {
        for &c in &sites[i + 1..] {
            let (ax, ay) = b.at[a as usize];
            let (cx, cy) = b.at[c as usize];
            let d = ((ax - cx).powi(2) + (ay - cy).powi(2)).sqrt();
            if d > 1e-9 {
                closest = closest.min(d);
            }
        }
    }
    let span = (x1 - x0).max(y1 - y0).max(1e-9);
    let mut scale = if closest == f64::MAX {
        80.0
    } else {
        44.0 / closest
    };
    scale = scale.min(900.0 / span).max(200.0 / span.max(1.0)).min(1e6);
    let (margin, top) = (90.0, 80.0);
    let at = |s: u16| {
        let (x, y) = b.at[s as usize];
        (margin + (x - x0) * scale, top + (y - y0) * scale)
    };
    let width = (x1 - x0) * scale + 2.0 * margin;
    // The lines of the board, and each track step (the throne's last steps, entries from waiting places).
    for (a, c) in segments(game) {
        body.line(at(a), at(c), "#6b5b45", 3.0);
    }
    let mut entries = false;
    // Each owned track: its direction by small arrows along it, and its entry ringed, in its owner's colour.
    for t in &b.tracks {
        let Some(owner) = t
            .owner
            .as_deref()
            .and_then(|o| game.players.iter().position(|p| p.name == o))
        else {
            continue;
        };
        let paint = colour(owner);
        for (k, w) in t.points.windows(2).enumerate() {
            if k % 4 != 1 || b.offboard[w[0] as usize] || b.offboard[w[1] as usize] {
                continue;
            }
            let (p, q) = (at(w[0]), at(w[1]));
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            // Beside the line, on the owner's side of it, so two sides' arrows on a shared stretch
            // do not cover each other.
            let side = if owner % 2 == 0 { 7.0 } else { -7.0 };
            let m = (p.0 + dx / 2.0 - uy * side, p.1 + dy / 2.0 + ux * side);
            body.0.push_str(&format!(
                "  <path d=\"M{:.1} {:.1} L{:.1} {:.1} L{:.1} {:.1} Z\" fill=\"{paint}\"/>\n",
                m.0 + ux * 6.0,
                m.1 + uy * 6.0,
                m.0 - ux * 5.0 - uy * 4.0,
                m.1 - uy * 5.0 + ux * 4.0,
                m.0 - ux * 5.0 + uy * 4.0,
                m.1 - uy * 5.0 - ux * 4.0,
            ));
        }
        if let Some(&entry) = t.points.iter().find(|&&s| !b.offboard[s as usize]) {
            let e = at(entry);
            body.circle(
                e,
                20.0,
                "none",
                paint,
                3.0,
                &format!("{} enters here", game.players[owner].display),
            );
            entries = true;
        }
    }
    for &s in &sites {
        let c = at(s);
        let safe = b.has_tag(s, "safe");
        let (ring, tip) = match game.site_owner[s as usize] {
            Some(o) => (colour(o as usize), game.players[o as usize].name.as_str()),
            None => ("#333", ""),
        };
        body.circle(c, 12.0, if safe { "#ccc" } else { "#fff" }, ring, 2.0, tip);
        if safe {
            body.0.push_str(&format!(
                "  <path d=\"M{:.1} {:.1} l12 12 M{:.1} {:.1} l-12 12\" stroke=\"#333\"/>\n",
                c.0 - 6.0,
                c.1 - 6.0,
                c.0 + 6.0,
                c.1 - 6.0
            ));
        }
        let here = stacks(game, st, s);
        let k = here.len() as f64;
        for (i, (letter, n, col)) in here.iter().enumerate() {
            let cx = c.0 + (i as f64 - (k - 1.0) / 2.0) * 16.0;
            body.circle(
                (cx, c.1),
                11.0,
                colour(*col),
                "#fff",
                1.5,
                &letter.to_string(),
            );
            let label = if *n == 1 {
                letter.to_string()
            } else {
                n.to_string()
            };
            body.text((cx, c.1 + 4.5), 12.0, "#fff", "middle", &label);
        }
        body.text((c.0 + 14.0, c.1 - 13.0), 11.0, "#333", "start", b.name(s));
    }
    let mut below = top + (y1 - y0) * scale + 50.0;
    if entries {
        body.text(
            (30.0, below),
            13.0,
            "#555",
            "start",
            "A ring in a side's colour is where it enters; its arrows show the way it goes.",
        );
        below += 22.0;
    }
    let bottom = places_below(game, st, notes, below, body);
    (width, bottom + 10.0)
}

#[cfg(test)]
mod tests {
    use super::svg;
    use crate::text_board::{pit_rows, segments};

    /// Every bundled game's picture carries its title; a sowing board shows counts as numbers; every
    /// step of every track is drawn, so a throne or a finishing square is joined to what leads there.
    #[test]
    fn every_bundled_picture_has_its_title_counts_and_track_steps() {
        let catalog = crate::catalog();
        for (name, _) in keliya_bundled::rulesets() {
            let Ok(c) = keliya_rules::load(&catalog, &name).result else {
                panic!("bundled ruleset {name} does not load");
            };
            let Some(game) = &c.game else { continue };
            let st = game.initial_state();
            let picture = svg(game, &st, &c.info.title, &[]);
            let title = super::esc(&c.info.title);
            assert!(
                picture.contains(&format!(
                    "font-weight=\"bold\" fill=\"#333\">{title}</text>"
                )),
                "{name}: no title drawn"
            );
            if pit_rows(game).is_some() {
                // The first hole's count at the start, whatever it is, is written out as a number.
                let first = game.board.playing_sites().next().expect("a hole");
                let n: u32 = (0..game.pieces.len())
                    .map(|k| u32::from(st.count(game, first, k as _)))
                    .sum();
                assert!(
                    n > 1 && picture.contains(&format!(">{n}</text>")),
                    "{name}: counts as numbers"
                );
            }
            let drawn = segments(game);
            for t in &game.board.tracks {
                for w in t.points.windows(2) {
                    let (a, b) = (w[0], w[1]);
                    if a == b || game.board.offboard[a as usize] || game.board.offboard[b as usize]
                    {
                        continue;
                    }
                    assert!(
                        drawn.contains(&(a.min(b), a.max(b))),
                        "{name}: track {} step {}-{} not drawn",
                        t.name,
                        game.board.name(a),
                        game.board.name(b)
                    );
                }
            }
        }
    }
}
