//! Generators that write the regular parts of a board, so large boards stay short in a ruleset.

use crate::{BoardSpec, EdgeSpec, Origin, PathSpec, SiteSpec};

/// A board part described by a few numbers. Site names are documented in `docs/ruleset-format.md`.
#[derive(Clone, Debug, PartialEq)]
pub enum Generator {
    /// `prefix1 .. prefixN` joined in a row, with a track of the same name.
    Track { prefix: String, squares: u32 },
    /// `rows` x `holes` holes `r{row}h{hole}`; one sowing track `cycle` that runs row 1 left to right,
    /// then each next row back the other way (counter-clockwise when row 1 is drawn at the bottom).
    /// Row `i` is owned by `owners[i]` where given.
    Mancala {
        rows: u32,
        holes: u32,
        owners: Vec<String>,
    },
    /// `r{row}c{col}` with orthogonal edges; every row and column is a line.
    Grid { rows: u32, cols: u32 },
    /// Apex `A`, `rays` straight lines down from it crossed by `levels` horizontal lines: `r{level}c{ray}`.
    Triangle { rays: u32, levels: u32 },
    /// A cross-and-circle race board: four arms of three columns of `squares` squares, named
    /// `{arm}{column}{n}` with `n` from 1 next to the centre, and a track `{arm}{column}` for each column,
    /// outwards. Sites are made arm by arm, each arm's columns in the order given, after the centre.
    Cross {
        squares: u32,
        /// The arms' prefixes, drawn at the bottom, right, top and left of the picture (anticlockwise).
        arms: [String; 4],
        /// Each column's name and where it lies in its arm, in the order its sites are made.
        columns: [(String, CrossColumn); 3],
        /// The centre site, made first and joined to each middle column; none when not given.
        centre: Option<String>,
    },
}

/// Where a column of a cross's arm lies, as the player seated at the arm's end, facing the centre, sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossColumn {
    Left,
    Middle,
    Right,
}

impl CrossColumn {
    pub const NAMES: [&'static str; 3] = ["left", "middle", "right"];

    pub fn from_name(name: &str) -> Option<CrossColumn> {
        match name {
            "left" => Some(CrossColumn::Left),
            "middle" => Some(CrossColumn::Middle),
            "right" => Some(CrossColumn::Right),
            _ => None,
        }
    }
}

/// The direction each arm of a cross runs from the centre, in whole squares, `y` growing downwards: the
/// bottom, right, top and left of the picture.
const ARM_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Generators are bounded so a hostile file cannot ask for millions of sites.
pub const MAX_GENERATED: u32 = 4096;

/// The most sites one generator may make.
pub fn generate_limit() -> u32 {
    MAX_GENERATED
}

impl Generator {
    pub fn site_count(&self) -> u64 {
        match *self {
            Generator::Track { squares, .. } => squares as u64,
            Generator::Mancala { rows, holes, .. } => rows as u64 * holes as u64,
            Generator::Grid { rows, cols } => rows as u64 * cols as u64,
            Generator::Triangle { rays, levels } => 1 + rays as u64 * levels as u64,
            Generator::Cross {
                squares,
                ref centre,
                ..
            } => 12 * squares as u64 + centre.is_some() as u64,
        }
    }

    pub(crate) fn generate(&self, origin: Origin, spec: &mut BoardSpec) {
        if self.site_count() > MAX_GENERATED as u64 {
            return; // rejected by the caller's validation, which reports it with its location
        }
        let site = |id: String, x: f64, y: f64| SiteSpec {
            id,
            at: (x, y),
            tags: vec![],
            owner: None,
            offboard: false,
            origin,
        };
        let edge = |a: &str, b: &str| EdgeSpec {
            a: a.into(),
            b: b.into(),
            origin,
        };
        let path = |name: String, points: Vec<String>| PathSpec {
            name,
            points,
            owner: None,
            cyclic: false,
            origin,
        };
        match self {
            Generator::Track { prefix, squares } => {
                let names: Vec<String> = (1..=*squares).map(|i| format!("{prefix}{i}")).collect();
                for (i, n) in names.iter().enumerate() {
                    spec.sites.push(site(n.clone(), i as f64, 0.0));
                }
                for w in names.windows(2) {
                    spec.edges.push(edge(&w[0], &w[1]));
                }
                spec.tracks.push(path(prefix.clone(), names));
            }
            Generator::Mancala {
                rows,
                holes,
                owners,
            } => {
                let mut cycle = Vec::new();
                for r in 1..=*rows {
                    let mut row: Vec<String> = (1..=*holes).map(|h| format!("r{r}h{h}")).collect();
                    for (h, n) in row.iter().enumerate() {
                        let mut hole = site(n.clone(), h as f64, -(r as f64));
                        hole.owner = owners.get(r as usize - 1).cloned();
                        spec.sites.push(hole);
                    }
                    for w in row.windows(2) {
                        spec.edges.push(edge(&w[0], &w[1]));
                    }
                    if r % 2 == 0 {
                        row.reverse();
                    }
                    cycle.extend(row);
                }
                spec.tracks.push(PathSpec {
                    cyclic: true,
                    ..path("cycle".into(), cycle)
                });
            }
            Generator::Grid { rows, cols } => {
                let name = |r: u32, c: u32| format!("r{r}c{c}");
                for r in 1..=*rows {
                    for c in 1..=*cols {
                        spec.sites.push(site(name(r, c), c as f64, r as f64));
                        if c > 1 {
                            spec.edges.push(edge(&name(r, c - 1), &name(r, c)));
                        }
                        if r > 1 {
                            spec.edges.push(edge(&name(r - 1, c), &name(r, c)));
                        }
                    }
                    spec.lines.push(path(
                        format!("row{r}"),
                        (1..=*cols).map(|c| name(r, c)).collect(),
                    ));
                }
                for c in 1..=*cols {
                    spec.lines.push(path(
                        format!("col{c}"),
                        (1..=*rows).map(|r| name(r, c)).collect(),
                    ));
                }
            }
            Generator::Triangle { rays, levels } => {
                let name = |l: u32, r: u32| format!("r{l}c{r}");
                spec.sites.push(site("A".into(), 0.0, 0.0));
                let half = (*rays as f64 - 1.0) / 2.0;
                for l in 1..=*levels {
                    for r in 0..*rays {
                        spec.sites.push(site(
                            name(l, r),
                            (r as f64 - half) * l as f64 / half.max(1.0),
                            l as f64,
                        ));
                        let above = if l == 1 {
                            "A".to_string()
                        } else {
                            name(l - 1, r)
                        };
                        spec.edges.push(edge(&above, &name(l, r)));
                        if r > 0 {
                            spec.edges.push(edge(&name(l, r - 1), &name(l, r)));
                        }
                    }
                }
                for r in 0..*rays {
                    let mut pts = vec!["A".to_string()];
                    pts.extend((1..=*levels).map(|l| name(l, r)));
                    spec.lines.push(path(format!("ray{r}"), pts));
                }
                for l in 1..=*levels {
                    spec.lines.push(path(
                        format!("level{l}"),
                        (0..*rays).map(|r| name(l, r)).collect(),
                    ));
                }
            }
            Generator::Cross {
                squares,
                arms,
                columns,
                centre,
            } => {
                if let Some(c) = centre {
                    spec.sites.push(site(c.clone(), 0.0, 0.0));
                }
                for (arm, prefix) in arms.iter().enumerate() {
                    let (dx, dy) = ARM_DIRECTIONS[arm];
                    // Left of the player at the arm's end, facing the centre.
                    let (lx, ly) = (-dy, dx);
                    for (column, side) in columns {
                        let across = match side {
                            CrossColumn::Left => 1,
                            CrossColumn::Middle => 0,
                            CrossColumn::Right => -1,
                        };
                        let names: Vec<String> = (1..=*squares)
                            .map(|n| format!("{prefix}{column}{n}"))
                            .collect();
                        for (i, name) in names.iter().enumerate() {
                            // Square 1 is two steps out: the centre is as wide as an arm.
                            let out = i as i32 + 2;
                            let (x, y) = (dx * out + lx * across, dy * out + ly * across);
                            spec.sites.push(site(name.clone(), x as f64, y as f64));
                        }
                        for w in names.windows(2) {
                            spec.edges.push(edge(&w[0], &w[1]));
                        }
                        spec.tracks.push(path(format!("{prefix}{column}"), names));
                    }
                }
                let square = |arm: usize, side: CrossColumn, n: u32| {
                    let (column, _) = columns.iter().find(|(_, s)| *s == side)?;
                    Some(format!("{}{column}{n}", arms[arm % 4]))
                };
                for arm in 0..4 {
                    // Across the arm's end, and round the corner from its right column to the next arm's
                    // left one, so that the circuit round the cross follows edges.
                    let joined = [
                        (
                            square(arm, CrossColumn::Left, *squares),
                            square(arm, CrossColumn::Middle, *squares),
                        ),
                        (
                            square(arm, CrossColumn::Middle, *squares),
                            square(arm, CrossColumn::Right, *squares),
                        ),
                        (
                            square(arm, CrossColumn::Right, 1),
                            square(arm + 1, CrossColumn::Left, 1),
                        ),
                        (centre.clone(), square(arm, CrossColumn::Middle, 1)),
                    ];
                    for (a, b) in joined {
                        if let (Some(a), Some(b)) = (a, b) {
                            spec.edges.push(edge(&a, &b));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_of_five_rays_and_four_levels_has_the_counts_of_the_21_point_board() {
        let spec = BoardSpec::with_generated(
            &[(Generator::Triangle { rays: 5, levels: 4 }, 0)],
            BoardSpec::default(),
        );
        let board = spec.compile().unwrap();
        assert_eq!(board.len(), 21);
        assert_eq!(board.edges.len(), 36);
        let leaps: usize = (0..21).map(|s| board.leaps(s).len()).sum();
        assert_eq!(leaps, 54);
    }

    #[test]
    fn mancala_cycle_visits_every_hole_once() {
        let spec = BoardSpec::with_generated(
            &[(
                Generator::Mancala {
                    rows: 2,
                    holes: 7,
                    owners: vec!["south".into()],
                },
                0,
            )],
            BoardSpec::default(),
        );
        let board = spec.compile().unwrap();
        let cycle = &board.track("cycle").unwrap().points;
        assert_eq!(cycle.len(), 14);
        assert_eq!(board.name(cycle[7]), "r2h7");
        assert_eq!(board.owner[0].as_deref(), Some("south"));
        assert_eq!(board.owner[7], None);
        // Counter-clockwise and round: after the last hole of row 2 comes the first of row 1.
        assert_eq!(board.along(0, cycle[13], 1), Some(cycle[0]));
        assert_eq!(board.along(0, cycle[0], -1), Some(cycle[13]));
        // Any number of steps from the rules, without overflow: i64::MAX is 7 and i64::MIN is 6 modulo 14.
        assert_eq!(board.along(0, cycle[1], i64::MAX), Some(cycle[8]));
        assert_eq!(board.along(0, cycle[13], i64::MAX), Some(cycle[6]));
        assert_eq!(board.along(0, cycle[0], i64::MIN), Some(cycle[6]));
        assert_eq!(board.along(0, cycle[0], 28), Some(cycle[0]));
    }

    #[test]
    fn grid_and_track_sizes() {
        let spec = BoardSpec::with_generated(
            &[
                (Generator::Grid { rows: 3, cols: 4 }, 0),
                (
                    Generator::Track {
                        prefix: "t".into(),
                        squares: 5,
                    },
                    0,
                ),
            ],
            BoardSpec::default(),
        );
        let board = spec.compile().unwrap();
        assert_eq!(board.len(), 17);
        assert_eq!(board.edges.len(), 3 * 3 + 2 * 4 + 4);
        assert_eq!(board.track("t").unwrap().points.len(), 5);
    }

    fn cross(squares: u32, centre: Option<&str>) -> Generator {
        Generator::Cross {
            squares,
            arms: ["S", "E", "N", "W"].map(String::from),
            columns: [
                ("mid".into(), CrossColumn::Middle),
                ("in".into(), CrossColumn::Right),
                ("out".into(), CrossColumn::Left),
            ],
            centre: centre.map(String::from),
        }
    }

    #[test]
    fn cross_sites_come_arm_by_arm_in_the_columns_order_drawn_as_a_cross() {
        let spec = BoardSpec::with_generated(&[(cross(8, Some("CH")), 0)], BoardSpec::default());
        let board = spec.compile().unwrap();
        assert_eq!(board.len(), 97);
        let names = board.names();
        assert_eq!(&names[..4], ["CH", "Smid1", "Smid2", "Smid3"]);
        assert_eq!(&names[8..11], ["Smid8", "Sin1", "Sin2"]);
        assert_eq!(&names[24..26], ["Sout8", "Emid1"]);
        assert_eq!(names[96], "Wout8");
        let at = |name: &str| board.at[board.site(name).unwrap() as usize];
        // South at the bottom (y grows downwards), then east, north and west, anticlockwise; square 1
        // two steps out; `in` on the right of the player at the arm's end, `out` on his left.
        assert_eq!(at("CH"), (0.0, 0.0));
        assert_eq!(at("Smid1"), (0.0, 2.0));
        assert_eq!(at("Smid8"), (0.0, 9.0));
        assert_eq!(at("Sin5"), (1.0, 6.0));
        assert_eq!(at("Sout5"), (-1.0, 6.0));
        assert_eq!(at("Emid4"), (5.0, 0.0));
        assert_eq!(at("Ein1"), (2.0, -1.0));
        assert_eq!(at("Eout1"), (2.0, 1.0));
        assert_eq!(at("Nin3"), (-1.0, -4.0));
        assert_eq!(at("Nout3"), (1.0, -4.0));
        assert_eq!(at("Win8"), (-9.0, 1.0));
        assert_eq!(at("Wout8"), (-9.0, -1.0));
        // Every site in its own place.
        let mut places: Vec<(i64, i64)> = board
            .at
            .iter()
            .map(|&(x, y)| (x as i64, y as i64))
            .collect();
        places.sort();
        places.dedup();
        assert_eq!(places.len(), 97);
    }

    #[test]
    fn cross_columns_are_tracks_outwards_and_the_circuit_round_it_follows_edges() {
        let board = BoardSpec::with_generated(&[(cross(8, Some("CH")), 0)], BoardSpec::default())
            .compile()
            .unwrap();
        let names = |track: &str| -> Vec<&str> {
            let t = board.track(track).unwrap();
            assert!(!t.cyclic && t.owner.is_none());
            t.points.iter().map(|&p| board.name(p)).collect()
        };
        assert_eq!(board.tracks.len(), 12);
        assert_eq!(
            names("Emid"),
            [
                "Emid1", "Emid2", "Emid3", "Emid4", "Emid5", "Emid6", "Emid7", "Emid8"
            ]
        );
        assert_eq!(names("Wout")[7], "Wout8");
        // Along each column (12 x 7), across each arm's end (4 x 2), round each corner (4), and from the
        // centre to each middle column (4).
        assert_eq!(board.edges.len(), 84 + 8 + 4 + 4);
        let joined = |a: &str, b: &str| {
            let (a, b) = (board.site(a).unwrap(), board.site(b).unwrap());
            board.neighbours(a).contains(&b)
        };
        // The circuit: out along each arm's left column, across its end, back along its right column,
        // and round the corner into the next arm's left column.
        let mut circuit = Vec::new();
        for arm in ["S", "E", "N", "W"] {
            circuit.extend((1..=8).map(|n| format!("{arm}out{n}")));
            circuit.push(format!("{arm}mid8"));
            circuit.extend((1..=8).rev().map(|n| format!("{arm}in{n}")));
        }
        circuit.push("Sout1".into());
        for w in circuit.windows(2) {
            assert!(joined(&w[0], &w[1]), "{} to {}", w[0], w[1]);
        }
        assert!(joined("CH", "Nmid1"));
        assert!(!joined("CH", "Nin1"));
        assert!(!joined("Sin1", "Sout1"));
    }

    #[test]
    fn cross_without_a_centre_makes_only_the_arms() {
        let board = BoardSpec::with_generated(&[(cross(2, None), 0)], BoardSpec::default())
            .compile()
            .unwrap();
        assert_eq!(board.len(), 24);
        assert_eq!(board.name(0), "Smid1");
        assert_eq!(board.edges.len(), 12 + 8 + 4);
        assert_eq!(cross(2, None).site_count(), 24);
        assert_eq!(cross(2, Some("C")).site_count(), 25);
    }
}
