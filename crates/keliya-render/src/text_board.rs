//! Text pictures of a position that fit an 80-column terminal.
//!
//! A board of pits owned row by row (a sowing board) is drawn as a grid of counts with each row's owner and
//! notes (reserves, say) beside it. Any other board is drawn on a character canvas: each point where its
//! coordinates put it, its edges and track steps drawn as lines, the columns squeezed or stretched so the
//! labels never overlap and the picture fits the width. Off-board places and a legend follow.

use keliya_engine::{Game, PlayerId, State};

/// The widest picture drawn.
pub const WIDTH: usize = 80;
/// The tallest canvas wanted before rows are packed closer (a board should fit a 24-line terminal with its
/// notes where it can).
const MAX_ROWS: f64 = 26.0;

/// How a picture is drawn.
#[derive(Clone, Copy)]
pub struct Style {
    /// ANSI colours for pieces and owners.
    pub color: bool,
    /// Box-drawing characters; ASCII otherwise.
    pub unicode: bool,
    /// Tracks, safe points and owners listed below the picture (`render`), or only the picture and its
    /// off-board places (`play`).
    pub detail: bool,
}

impl Style {
    /// Box-drawing characters where the locale says the terminal takes UTF-8.
    pub fn unicode_locale() -> bool {
        ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty())
            .is_some_and(|v| {
                let v = v.to_ascii_lowercase();
                v.contains("utf-8") || v.contains("utf8")
            })
    }
}

const COLOURS: [&str; 6] = ["1;31", "1;34", "1;32", "1;33", "1;35", "1;36"];

fn paint(style: Style, colour: Option<usize>, s: &str) -> String {
    match colour {
        Some(k) if style.color => format!("\x1b[{}m{s}\x1b[0m", COLOURS[k % COLOURS.len()]),
        _ => s.to_string(),
    }
}

/// The letter a piece is shown by: the first letter of its display name, upper case.
pub fn letter(game: &Game, piece: usize) -> char {
    game.pieces[piece]
        .display
        .chars()
        .find(|c| c.is_alphanumeric())
        .unwrap_or('?')
        .to_ascii_uppercase()
}

/// The colour of a piece: its owner's, or its own index for pieces nobody owns.
pub(crate) fn piece_colour(game: &Game, piece: usize) -> usize {
    game.pieces[piece].owner.map_or(piece, usize::from)
}

/// What stands on a site, by letter: pieces of the same letter (a side's pawns in their several states)
/// counted together, in the order of the pieces.
pub(crate) fn stacks(game: &Game, st: &State, site: u16) -> Vec<(char, u32, usize)> {
    let mut out: Vec<(char, u32, usize)> = Vec::new();
    for p in 0..game.piece_count() {
        let n = u32::from(st.count(game, site, p as u8));
        if n == 0 {
            continue;
        }
        let l = letter(game, p);
        match out.iter_mut().find(|(c, _, _)| *c == l) {
            Some(e) => e.1 += n,
            None => out.push((l, n, piece_colour(game, p))),
        }
    }
    out
}

/// The stacks written in at most `width` characters: `A`, `3A`, `2A1B`; then letters only (`AB`); then
/// the total (`5+`).
fn stacks_text(stacks: &[(char, u32, usize)], width: usize) -> String {
    let full: String = stacks
        .iter()
        .map(|(l, n, _)| {
            if *n == 1 {
                l.to_string()
            } else {
                format!("{n}{l}")
            }
        })
        .collect();
    if full.chars().count() <= width {
        return full;
    }
    let letters: String = stacks.iter().map(|(l, _, _)| *l).collect();
    if letters.chars().count() <= width {
        return letters;
    }
    let total: u32 = stacks.iter().map(|(_, n, _)| n).sum();
    format!("{total}+").chars().take(width.max(1)).collect()
}

/// A one-colour stack is painted in its colour; a mixed one is left plain.
fn stacks_colour(stacks: &[(char, u32, usize)]) -> Option<usize> {
    match stacks {
        [(_, _, c)] => Some(*c),
        [(_, _, c), rest @ ..] if rest.iter().all(|(_, _, d)| d == c) => Some(*c),
        _ => None,
    }
}

/// The picture of `st`; `notes[p]`, when given, is shown beside player `p`'s row of a sowing board or
/// under the picture.
pub fn board(game: &Game, st: &State, style: Style, notes: &[String]) -> String {
    let mut out = if pit_rows(game).is_some() {
        pits(game, st, style, notes)
    } else {
        let mut s = canvas(game, st, style);
        for (p, note) in notes.iter().enumerate() {
            if !note.is_empty() {
                s.push_str(&format!("{}: {note}\n", game.players[p].display));
            }
        }
        s
    };
    out.push_str(&below(game, st, style));
    out
}

/// The rows of a sowing board, top to bottom, each with its owner when a single player owns all of it:
/// `Some` when the board has no lines, no piece belongs to a player (counters, not pawns) and every point
/// holds counters at the start.
pub(crate) fn pit_rows(game: &Game) -> Option<Vec<(f64, Option<PlayerId>)>> {
    let b = &game.board;
    if !b.lines.is_empty() || game.pieces.iter().any(|p| p.owner.is_some()) {
        return None;
    }
    let kinds = game.piece_count();
    let mut rows: Vec<(f64, Option<PlayerId>)> = Vec::new();
    for s in b.playing_sites() {
        let start = &game.setup[s as usize * kinds..(s as usize + 1) * kinds];
        if start.iter().all(|&n| n == 0) {
            return None;
        }
        let owner = game.site_owner[s as usize];
        let y = b.at[s as usize].1;
        match rows.iter_mut().find(|(ry, _)| (*ry - y).abs() < 1e-6) {
            Some((_, o)) if *o != owner => *o = None,
            Some(_) => {}
            None => rows.push((y, owner)),
        }
    }
    if rows.is_empty() || rows.len() > 8 {
        return None;
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    Some(rows)
}

/// The piece most counted at the start: a sowing board's counters, shown as numbers; any other piece in a
/// pit is shown by its letter.
pub(crate) fn counter_piece(game: &Game) -> usize {
    let kinds = game.piece_count().max(1);
    let mut totals = vec![0u64; kinds];
    for (i, &n) in game.setup.iter().enumerate() {
        totals[i % kinds] += u64::from(n);
    }
    (0..kinds)
        .max_by_key(|&p| (totals[p], usize::MAX - p))
        .unwrap_or(0)
}

fn pits(game: &Game, st: &State, style: Style, notes: &[String]) -> String {
    let b = &game.board;
    let rows = pit_rows(game).unwrap_or_default();
    let mut xs: Vec<f64> = b.playing_sites().map(|s| b.at[s as usize].0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    let site_at = |x: f64, y: f64| {
        b.playing_sites().find(|&s| {
            let (sx, sy) = b.at[s as usize];
            (sx - x).abs() < 1e-6 && (sy - y).abs() < 1e-6
        })
    };
    let counter = counter_piece(game);
    let pit_text = |s: u16| -> String {
        let mut t = String::new();
        for p in 0..game.piece_count() {
            let n = st.count(game, s, p as u8);
            if p == counter {
                continue;
            }
            if n > 0 {
                t.push(game.pieces[p].display.chars().next().unwrap_or('?'));
            }
        }
        let n = st.count(game, s, counter as u8);
        if t.is_empty() || n > 0 {
            t.insert_str(0, &n.to_string());
        }
        t
    };
    let name_width = b
        .playing_sites()
        .map(|s| b.name(s).chars().count())
        .max()
        .unwrap_or(1);
    let cell = name_width.max(3);
    let owner_width = rows
        .iter()
        .filter_map(|(_, o)| o.map(|o| game.players[o as usize].display.chars().count()))
        .max()
        .unwrap_or(0);
    let (h, v, corners) = if style.unicode {
        ('─', '│', ["┌", "┬", "┐", "├", "┼", "┤", "└", "┴", "┘"])
    } else {
        ('-', '|', ["+", "+", "+", "+", "+", "+", "+", "+", "+"])
    };
    let rule = |k: usize| -> String {
        let seg: String = std::iter::repeat_n(h, cell + 2).collect();
        let mut s = format!("{:owner_width$} {}", "", corners[k]);
        for i in 0..xs.len() {
            s.push_str(&seg);
            s.push_str(if i + 1 == xs.len() {
                corners[k + 2]
            } else {
                corners[k + 1]
            });
        }
        s
    };
    let names = |y: f64| -> String {
        let mut s = format!("{:owner_width$}  ", "");
        for &x in &xs {
            let name = site_at(x, y).map_or("", |p| b.name(p));
            s.push_str(&format!(" {name:^cell$}  "));
        }
        s.trim_end().to_string()
    };
    let mut out = String::new();
    // Notes stand beside the rows only if every row's note fits there, so that they line up.
    let row_width = owner_width + 2 + xs.len() * (cell + 3);
    let all_beside = rows
        .iter()
        .filter_map(|(_, o)| o.and_then(|o| notes.get(o as usize)))
        .all(|n| row_width + 1 + visible_len(n) <= WIDTH);
    // The players whose notes are written beside their row.
    let mut beside: Vec<Option<PlayerId>> = Vec::new();
    for (i, &(y, owner)) in rows.iter().enumerate() {
        // Names above the first row and below the last; a middle row has its names above it.
        if i == 0 || (i + 1 < rows.len() && rows.len() > 2) {
            out.push_str(&names(y));
            out.push('\n');
        }
        out.push_str(&rule(if i == 0 { 0 } else { 3 }));
        out.push('\n');
        let who = owner.map_or("", |o| game.players[o as usize].display.as_str());
        let mut line = format!(
            "{} {v}",
            paint(
                style,
                owner.map(usize::from),
                &format!("{who:>owner_width$}")
            )
        );
        for &x in &xs {
            let (text, colour) = site_at(x, y).map_or((String::new(), None), |s| {
                (pit_text(s), game.site_owner[s as usize].map(usize::from))
            });
            let text = format!("{text:>cell$}");
            line.push_str(&format!(" {} {v}", paint(style, colour, &text)));
        }
        if let Some(note) = owner
            .and_then(|o| notes.get(o as usize))
            .filter(|n| !n.is_empty())
            && all_beside
        {
            line.push_str(&format!(" {note}"));
            beside.push(owner);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&rule(6));
    out.push('\n');
    if let Some(&(y, _)) = rows.last() {
        out.push_str(&names(y));
        out.push('\n');
    }
    // Notes of players who own no row of their own (holes shared out among three, say), or too long to
    // stand beside it.
    for (p, note) in notes.iter().enumerate() {
        if !note.is_empty() && !beside.contains(&Some(p as PlayerId)) {
            let who = &game.players[p].display;
            out.push_str(&format!("{}: {note}\n", paint(style, Some(p), who)));
        }
    }
    out
}

/// A grid of characters with a colour per cell.
struct Canvas {
    cells: Vec<Vec<(char, Option<usize>)>>,
    unicode: bool,
}

impl Canvas {
    fn new(rows: usize, cols: usize, unicode: bool) -> Canvas {
        Canvas {
            cells: vec![vec![(' ', None); cols]; rows],
            unicode,
        }
    }

    fn put(&mut self, r: usize, c: usize, ch: char, colour: Option<usize>) {
        if let Some(cell) = self.cells.get_mut(r).and_then(|row| row.get_mut(c)) {
            *cell = (ch, colour);
        }
    }

    /// A line from one cell to another, each step drawn by its direction; where two lines cross, a cross.
    /// Between points on different rows the line runs in the rows between them only, leaving each point
    /// by a slant, so that it does not look like a line along the point's own row.
    fn line(&mut self, from: (usize, usize), to: (usize, usize)) {
        let (mut r0, mut c0) = (from.0 as i64, from.1 as i64);
        let (mut r1, mut c1) = (to.0 as i64, to.1 as i64);
        // The way the line goes, kept for its two slanted ends.
        let (vr, vc) = ((r1 - r0).signum(), (c1 - c0).signum());
        let between = (r1 - r0).abs() >= 2;
        if between {
            r0 += vr;
            c0 += vc;
            r1 -= vr;
            c1 -= vc;
            if (c1 - c0).signum() == -vc {
                c1 = c0;
            }
            let first = self.stroke(vr, vc);
            self.mark(r0, c0, first);
            if (r0, c0) == (r1, c1) {
                return;
            }
        }
        let (dr, dc) = ((r1 - r0).abs(), (c1 - c0).abs());
        let (sr, sc) = (if r1 > r0 { 1 } else { -1 }, if c1 > c0 { 1 } else { -1 });
        let (mut r, mut c) = (r0, c0);
        let mut err = dc - dr;
        while (r, c) != (r1, c1) {
            let (pr, pc) = (r, c);
            let e2 = 2 * err;
            if e2 > -dr {
                err -= dr;
                c += sc;
            }
            if e2 < dc {
                err += dc;
                r += sr;
            }
            let mut ch = self.stroke(r - pr, c - pc);
            // The last cell before the far point leaves it by a slant, as the first did.
            if between && (r, c) == (r1, c1) && vc != 0 {
                ch = self.stroke(vr, vc);
            }
            self.mark(r, c, ch);
        }
    }

    fn mark(&mut self, r: i64, c: i64, ch: char) {
        let (ru, cu) = (r as usize, c as usize);
        let old = self.cells.get(ru).and_then(|row| row.get(cu)).map(|x| x.0);
        let ch = match old {
            Some(o) if o != ' ' && o != ch => self.crossing(o, ch),
            _ => ch,
        };
        self.put(ru, cu, ch, None);
    }

    fn stroke(&self, dr: i64, dc: i64) -> char {
        match (dr, dc, self.unicode) {
            (0, _, true) => '─',
            (0, _, false) => '-',
            (_, 0, true) => '│',
            (_, 0, false) => '|',
            (a, b, true) if a == b => '╲',
            (a, b, false) if a == b => '\\',
            (_, _, true) => '╱',
            (_, _, false) => '/',
        }
    }

    fn crossing(&self, a: char, b: char) -> char {
        let straight = |c: char| matches!(c, '─' | '│' | '-' | '|');
        let slanted = |c: char| matches!(c, '╱' | '╲' | '/' | '\\');
        match (
            self.unicode,
            straight(a) && straight(b),
            slanted(a) && slanted(b),
        ) {
            (true, true, _) => '┼',
            (false, true, _) => '+',
            (true, _, true) => '╳',
            (false, _, true) => 'X',
            _ => b,
        }
    }

    fn text(&self, style: Style) -> String {
        let mut out = String::new();
        for row in &self.cells {
            let mut line = String::new();
            for &(ch, colour) in row {
                line.push_str(&paint(style, colour, &ch.to_string()));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// What a point of the board shows in the picture, and how wide a place it is given.
#[derive(Clone, Copy, PartialEq)]
enum Labels {
    /// `M2:T`: the name, and what stands there after it.
    NameAndStack,
    /// `M2` when empty, `T` when occupied.
    NameOrStack,
    /// A dot when empty, `T` or `2T` when occupied: for boards with too many points to name (a cross
    /// of 97 squares); a stack too tall for two characters is spelt out under the picture.
    Stack,
}

/// Room for what stands on a point drawn as [`Labels::Stack`].
const STACK_ONLY: usize = 2;

/// Room kept after a name for what stands on it (`:2A`).
const STACK_ROOM: usize = 3;

fn canvas(game: &Game, st: &State, style: Style) -> String {
    let b = &game.board;
    let sites: Vec<u16> = b.playing_sites().collect();
    if sites.is_empty() {
        return String::new();
    }
    let segments = segments(game);
    let (mut y0, mut y1) = (f64::MAX, f64::MIN);
    for &s in &sites {
        let y = b.at[s as usize].1;
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    // Two rows to a unit leave a row for the lines between points; one when the board is tall.
    // Coordinates may be any finite numbers: differences are taken halved, so none overflows, and a
    // board taller than the steps allow is squeezed into MAX_ROWS.
    let half_height = y1 / 2.0 - y0 / 2.0;
    let sy = [2.0, 1.0, 0.5, 0.25]
        .into_iter()
        .find(|k| half_height * 2.0 * k <= MAX_ROWS)
        .unwrap_or(MAX_ROWS / 2.0 / half_height);
    let row_of = |s: u16| {
        let rows = (b.at[s as usize].1 / 2.0 - y0 / 2.0) * (2.0 * sy);
        rows.round().min(4.0 * MAX_ROWS) as usize
    };
    let sep = if segments.is_empty() { 1 } else { 2 };
    let name_len = |s: u16| b.name(s).chars().count();
    for labels in [Labels::NameAndStack, Labels::NameOrStack, Labels::Stack] {
        let width_of = |s: u16| match labels {
            Labels::NameAndStack => name_len(s) + 1 + STACK_ROOM,
            Labels::NameOrStack => name_len(s).max(2),
            Labels::Stack => STACK_ONLY,
        };
        let Some(cols) = columns(game, &sites, &row_of, &width_of, sep, sy) else {
            continue;
        };
        let rows = sites.iter().map(|&s| row_of(s)).max().unwrap_or(0) + 1;
        let wide = sites
            .iter()
            .map(|&s| cols[s as usize] + width_of(s))
            .max()
            .unwrap_or(0);
        let mut cv = Canvas::new(rows, wide + 1, style.unicode);
        // A point's anchor is the middle of its place.
        let anchor = |s: u16| (row_of(s), cols[s as usize] + (width_of(s) - 1) / 2);
        for &(a, c) in &segments {
            cv.line(anchor(a), anchor(c));
        }
        let mut spelt_out = Vec::new();
        for &s in &sites {
            let here = stacks(game, st, s);
            let room = width_of(s);
            let (text, colour) = match (labels, here.is_empty()) {
                (Labels::Stack, true) => {
                    ((if style.unicode { "·" } else { "." }).to_string(), None)
                }
                (Labels::Stack, false) => {
                    let text = stacks_text(&here, room);
                    let full = stacks_text(&here, usize::MAX);
                    if text != full {
                        spelt_out.push(format!("{}: {full}", b.name(s)));
                    }
                    (text, stacks_colour(&here))
                }
                (_, true) => (b.name(s).to_string(), None),
                (Labels::NameAndStack, false) => (
                    format!("{}:{}", b.name(s), stacks_text(&here, STACK_ROOM)),
                    stacks_colour(&here),
                ),
                (Labels::NameOrStack, false) => (stacks_text(&here, room), stacks_colour(&here)),
            };
            let len = text.chars().count();
            let start = cols[s as usize] + (room - len.min(room)) / 2;
            let r = row_of(s);
            // A name is written plain, what stands there in its colour; the ':' between them too.
            let name_part = match labels {
                Labels::NameAndStack if !here.is_empty() => name_len(s) + 1,
                Labels::Stack => 0,
                _ if here.is_empty() => len,
                _ => 0,
            };
            for (i, ch) in text.chars().enumerate() {
                let col = if i < name_part { None } else { colour };
                cv.put(r, start + i, ch, col);
            }
        }
        let mut text = cv.text(style);
        if !spelt_out.is_empty() {
            text.push_str(&wrap_items(&spelt_out, "  ", "", WIDTH));
        }
        return text;
    }
    // Nothing fits: the points listed by row, which any width can hold.
    let mut by_row: Vec<(usize, Vec<u16>)> = Vec::new();
    for &s in &sites {
        match by_row.iter_mut().find(|(r, _)| *r == row_of(s)) {
            Some((_, v)) => v.push(s),
            None => by_row.push((row_of(s), vec![s])),
        }
    }
    by_row.sort_by_key(|(r, _)| *r);
    let mut out = String::new();
    for (_, mut row) in by_row {
        // Left to right, as the picture has them.
        row.sort_by(|&a, &c| b.at[a as usize].0.total_cmp(&b.at[c as usize].0));
        let items: Vec<String> = row
            .iter()
            .map(|&s| {
                let here = stacks(game, st, s);
                if here.is_empty() {
                    b.name(s).to_string()
                } else {
                    format!("{}:{}", b.name(s), stacks_text(&here, 8))
                }
            })
            .collect();
        out.push_str(&wrap_items(&items, "  ", "", WIDTH));
    }
    out
}

/// The pairs of points joined in the picture: the board's edges, and each step of a track (a track may
/// lead where no edge goes, as to a finishing square), each pair once.
pub(crate) fn segments(game: &Game) -> Vec<(u16, u16)> {
    let b = &game.board;
    let mut out: Vec<(u16, u16)> = Vec::new();
    let mut add = |a: u16, c: u16| {
        if a == c || b.offboard[a as usize] || b.offboard[c as usize] {
            return;
        }
        let key = (a.min(c), a.max(c));
        if !out.contains(&key) {
            out.push(key);
        }
    };
    for &(a, c) in &b.edges {
        add(a, c);
    }
    for t in &b.tracks {
        for w in t.points.windows(2) {
            add(w[0], w[1]);
        }
    }
    out
}

/// The first column of each point's place (indexed by site), or `None` when the labels cannot be placed
/// in [`WIDTH`] columns. Columns follow the points' x order; each gap is the larger of its share of the
/// width and what keeps the labels on a row apart, and the share is made as large as the width allows.
fn columns(
    game: &Game,
    sites: &[u16],
    row_of: &dyn Fn(u16) -> usize,
    width_of: &dyn Fn(u16) -> usize,
    sep: usize,
    sy: f64,
) -> Option<Vec<usize>> {
    let b = &game.board;
    let mut order: Vec<u16> = sites.to_vec();
    order.sort_by(|&a, &c| b.at[a as usize].0.total_cmp(&b.at[c as usize].0));
    let place = |sx: f64| -> (Vec<usize>, usize) {
        let mut cols = vec![0usize; b.len()];
        // Per row, the first free column after the last label placed on it.
        let mut free: Vec<(usize, usize)> = Vec::new();
        let mut last: Option<(f64, usize)> = None;
        let mut wide = 0;
        let mut i = 0;
        while i < order.len() {
            let x = b.at[order[i] as usize].0;
            let mut j = i;
            while j < order.len() && (b.at[order[j] as usize].0 - x).abs() < 1e-6 {
                j += 1;
            }
            // The middle of the points at this x, so points of different widths stay centred.
            let mut centre = match last {
                // (Halved, so no difference of finite coordinates overflows.)
                Some((lx, lc)) => lc as f64 + (x / 2.0 - lx / 2.0) * (2.0 * sx),
                None => 0.0,
            };
            for &s in &order[i..j] {
                let half = (width_of(s) - 1) / 2;
                if let Some(&(_, f)) = free.iter().find(|(r, _)| *r == row_of(s)) {
                    centre = centre.max((f + half) as f64);
                }
                centre = centre.max(half as f64);
            }
            // Past the width the layout is refused anyway; the bound keeps the sums below from overflowing.
            let centre = centre.ceil().min(4.0 * WIDTH as f64) as usize;
            for &s in &order[i..j] {
                let half = (width_of(s) - 1) / 2;
                let start = centre - half;
                cols[s as usize] = start;
                let end = start + width_of(s) + sep;
                match free.iter_mut().find(|(r, _)| *r == row_of(s)) {
                    Some(e) => e.1 = end,
                    None => free.push((row_of(s), end)),
                }
                wide = wide.max(start + width_of(s));
            }
            last = Some((x, centre));
            i = j;
        }
        (cols, wide)
    };
    let (cols, wide) = place(0.0);
    if wide > WIDTH {
        return None;
    }
    // Columns per unit: at most what keeps a unit square square (a character is about twice as tall as
    // it is wide), and as many as fit.
    let (mut lo, mut hi) = (0.0, (2.2 * sy).max(1.0) * 4.0);
    let mut best = cols;
    for _ in 0..30 {
        let mid = (lo + hi) / 2.0;
        let (c, w) = place(mid);
        if w <= WIDTH {
            lo = mid;
            best = c;
        } else {
            hi = mid;
        }
    }
    Some(best)
}

/// Items joined by `sep` into lines of at most `width` columns (colour codes aside), later lines indented.
pub fn wrap_items(items: &[String], sep: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for item in items {
        let len = visible_len(&line);
        if len > 0 && len + sep.len() + visible_len(item) > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
        } else if len > 0 && line != indent {
            line.push_str(sep);
        }
        line.push_str(item);
    }
    if !line.trim().is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Columns a text takes on a terminal: its characters less ANSI colour codes.
pub fn visible_len(s: &str) -> usize {
    let mut n = 0;
    let mut in_code = false;
    for c in s.chars() {
        match (in_code, c) {
            (false, '\x1b') => in_code = true,
            (true, 'm') => in_code = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// What follows the picture: off-board places, then (with detail) tracks, safe points and owners, then the
/// legend of letters.
fn below(game: &Game, st: &State, style: Style) -> String {
    let b = &game.board;
    let mut out = String::new();
    let places: Vec<String> = (0..b.len() as u16)
        .filter(|&s| b.offboard[s as usize])
        .map(|s| {
            let what: Vec<String> = (0..game.piece_count())
                .filter_map(|p| {
                    let n = st.count(game, s, p as u8);
                    (n > 0).then(|| {
                        let text = if n == 1 {
                            game.pieces[p].display.clone()
                        } else {
                            format!("{n} {}", game.pieces[p].display)
                        };
                        paint(style, Some(piece_colour(game, p)), &text)
                    })
                })
                .collect();
            let what = if what.is_empty() {
                "empty".to_string()
            } else {
                what.join(", ")
            };
            format!("{}: {what}", b.name(s))
        })
        .collect();
    if !places.is_empty() {
        out.push_str(&wrap_items(&places, "  ", "", WIDTH));
    }
    if style.detail {
        for t in &b.tracks {
            let pts: Vec<String> = t.points.iter().map(|&p| b.name(p).to_string()).collect();
            let mut items = vec![format!("track {} ({} squares):", t.name, pts.len())];
            items.extend(pts);
            out.push_str(&wrap_items(&items, " ", "    ", WIDTH));
        }
        let safe: Vec<String> = b
            .playing_sites()
            .filter(|&s| b.has_tag(s, "safe"))
            .map(|s| b.name(s).to_string())
            .collect();
        if !safe.is_empty() {
            let mut items = vec!["safe:".to_string()];
            items.extend(safe);
            out.push_str(&wrap_items(&items, " ", "    ", WIDTH));
        }
        if pit_rows(game).is_none() {
            for (p, player) in game.players.iter().enumerate() {
                let mut items = vec![format!("owned by {}:", player.name)];
                items.extend(
                    b.playing_sites()
                        .filter(|&s| game.site_owner[s as usize] == Some(p as u8))
                        .map(|s| b.name(s).to_string()),
                );
                if items.len() > 1 {
                    out.push_str(&wrap_items(&items, " ", "    ", WIDTH));
                }
            }
        }
    }
    let mut legend: Vec<String> = Vec::new();
    let counter = pit_rows(game).map(|_| counter_piece(game));
    for p in 0..game.piece_count() {
        let entry = if Some(p) == counter {
            format!("numbers = {}s", game.pieces[p].display)
        } else if counter.is_some() {
            let l = game.pieces[p].display.chars().next().unwrap_or('?');
            format!("{l} = {}", game.pieces[p].display)
        } else {
            format!(
                "{} = {}",
                paint(
                    style,
                    Some(piece_colour(game, p)),
                    &letter(game, p).to_string()
                ),
                game.pieces[p].display
            )
        };
        if !legend.contains(&entry) {
            legend.push(entry);
        }
    }
    if let Some(first) = legend.first_mut() {
        first.insert_str(0, "pieces: ");
    }
    out.push_str(&wrap_items(&legend, ", ", "    ", WIDTH));
    out
}

#[cfg(test)]
mod tests {
    use super::{Style, WIDTH, board, visible_len};

    /// Every bundled game, at its start and along a game played by the last legal move each turn (so
    /// pieces stack and travel), drawn in both character sets.
    #[test]
    fn every_bundled_board_fits_80_columns() {
        let catalog = crate::catalog();
        let mut drawn = 0;
        for (name, _) in keliya_bundled::rulesets() {
            let loaded = keliya_rules::load(&catalog, &name);
            let Ok(c) = loaded.result else {
                panic!("bundled ruleset {name} does not load");
            };
            let Some(game) = &c.game else { continue };
            let mut st = game.initial_state();
            for step in 0..120 {
                for unicode in [true, false] {
                    let style = Style {
                        color: step % 2 == 0,
                        unicode,
                        detail: true,
                    };
                    let notes = vec!["reserve 12, rounds won 3".to_string(); game.players.len()];
                    let text = board(game, &st, style, &notes);
                    for line in text.lines() {
                        assert!(
                            visible_len(line) <= WIDTH,
                            "{name} at step {step}: {} columns:\n{text}",
                            visible_len(line)
                        );
                    }
                }
                drawn += 1;
                if st.result.is_some() {
                    break;
                }
                let outcomes = game.chance_outcomes(&st);
                st = if let Some(&(row, _)) = outcomes.last() {
                    game.apply_chance(&st, row)
                } else {
                    let moves = game.legal_moves(&st).expect("bundled rules run");
                    let Some(m) = moves.last() else { break };
                    game.apply(&st, m).expect("a legal move applies")
                };
            }
        }
        assert!(drawn > 100, "only {drawn} positions drawn");
    }

    /// A cross of 97 squares has no room for its names: each square is a dot or what stands on it, in
    /// the cross's shape, and the crowded centre is spelt out under the picture.
    #[test]
    fn a_board_too_big_to_name_is_drawn_with_its_stacks() {
        let loaded = keliya_rules::load(&crate::catalog(), "pachisi");
        let game = loaded.result.expect("pachisi loads").game.expect("a game");
        let style = Style {
            color: false,
            unicode: false,
            detail: false,
        };
        let text = board(&game, &game.initial_state(), style, &[]);
        let lines: Vec<&str> = text.lines().collect();
        // The arm above the centre: three dots a row, eight rows, the middle column in the middle.
        let top: Vec<&str> = lines[..8].iter().map(|l| l.trim()).collect();
        assert!(top[1..7].iter().all(|l| *l == ".   .   ."), "{text}");
        // The centre's row: the arms left and right, 16 pieces in the middle, spelt out below.
        let centre = lines[9];
        assert_eq!(centre.matches('.').count(), 16, "{text}");
        assert!(centre.contains("16"), "{text}");
        assert!(lines.contains(&"CH: 4S4E4N4W"), "{text}");
        assert!(!text.contains("S.mid1"), "no names in the picture:\n{text}");
    }

    #[test]
    fn colour_codes_take_no_columns() {
        assert_eq!(visible_len("\x1b[1;31mA\x1b[0m:2"), 3);
    }
}
