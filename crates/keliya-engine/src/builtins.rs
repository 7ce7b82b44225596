//! The language's built-ins, each declared once: its name in the rules, its signature and its meaning.
//!
//! There are three kinds, one table each:
//!
//! - **functions** ([`FUNCS`], `functions!` below): name, argument types, result type, what it reads,
//!   and its implementation, written in the table itself. The `Func` enum, the signatures the rules
//!   crate type-checks with, the evaluator's dispatch, the constant folder's and the closure compiler's
//!   (compile.rs) are all generated from that one list;
//! - **effects** ([`EFFECTS`]): name and argument types; what each does to a position is
//!   `Run::effect` (run.rs), one arm per effect, which the compiler insists on;
//! - **domains** ([`DOMAINS`]), what `choose` and `for` range over: name, argument types, the types
//!   of the values each option binds, and the `Domain` it builds; how options are listed is
//!   `Run::list` (run.rs).
//!
//! `keliya-rules` reads names and signatures from these tables; nothing else in the workspace lists
//! the built-ins. How to add one is in docs/architecture.md ("Adding a built-in").

use crate::Game;
use crate::ir::{Domain, Expr, Value};
use crate::run::Run;
use crate::state::State;

/// The types of the rules language, as the rules crate checks them. At run time a value of each is a
/// [`Value`] of the same name (a tag is a number: its index among the board's tags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    Site,
    Player,
    Piece,
    Track,
    /// A tag written on board sites (`safe`, `throne`, ...), named bare.
    Tag,
    /// A role that pieces of several players share (`role:` of a piece), named bare.
    Role,
}

impl Ty {
    /// The type as a message names it.
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "a number",
            Ty::Bool => "a condition",
            Ty::Site => "a site",
            Ty::Player => "a player",
            Ty::Piece => "a piece",
            Ty::Track => "a track",
            Ty::Tag => "a site tag",
            Ty::Role => "a piece role",
        }
    }
}

/// What a function reads besides its arguments, which decides what may be done with a call of it
/// before play: folded when its arguments are constants, kept in a memo cell when written twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The ruleset alone: a call on constants is folded to its value when the ruleset is compiled.
    Ruleset,
    /// The position too.
    Position,
    /// The position, and it records something each time it runs (`seen_before`): never folded, never
    /// worked out once for two calls.
    Records,
}

/// One signature of a built-in function (a function may have several, by number of arguments).
#[derive(Clone, Copy, Debug)]
pub struct FuncDef {
    pub name: &'static str,
    pub func: Func,
    pub args: &'static [Ty],
    pub result: Ty,
}

/// What a function's implementation is given besides its arguments: the position, with the run reading
/// it, or nothing when a call is folded before play (only [`Access::Ruleset`] functions answer then).
pub(crate) type At<'r, 'g> = Option<(&'r Run<'g>, &'r State)>;

/// The function table. Each entry: `Variant "name" [argument types], ... -> result, access,
/// |game, at, args| implementation;` where the implementation returns `None` only when it needs the
/// position and `at` has none (a fold), and `args` are the argument values (`Value::None` past the last).
macro_rules! functions {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $name:literal $([$($arg:ident),*]),+ -> $result:ident, $access:ident,
        |$g:ident, $at:ident, $v:ident| $body:expr;
    )*) => {
        /// A built-in function of the rules language (see [`FUNCS`] for names and signatures).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Func {
            $($(#[doc = $doc])* $variant,)*
        }

        /// Every signature of every function, in the order the rules crate tries them.
        pub const FUNCS: &[FuncDef] = &[
            $($(FuncDef {
                name: $name,
                func: Func::$variant,
                args: &[$(Ty::$arg),*],
                result: Ty::$result,
            },)+)*
        ];

        /// The implementations, one function each.
        #[allow(non_snake_case, unused_variables)]
        mod implementation {
            use super::*;
            $(
                #[inline(always)]
                pub(super) fn $variant($g: &Game, $at: At<'_, '_>, $v: [Value; 3]) -> Option<Value> {
                    $body
                }
            )*
        }

        impl Func {
            /// Every function, in the order of the table.
            pub const ALL: &[Func] = &[$(Func::$variant),*];

            /// The function's name in the language.
            pub fn name(self) -> &'static str {
                match self {
                    $(Func::$variant => $name,)*
                }
            }
            /// The type of the function's value.
            pub fn result(self) -> Ty {
                match self {
                    $(Func::$variant => Ty::$result,)*
                }
            }
            /// What the function reads.
            pub fn access(self) -> Access {
                match self {
                    $(Func::$variant => Access::$access,)*
                }
            }
            /// The function on its argument values. Inlined, so that a call of a function known in
            /// advance keeps only that function's code.
            #[inline(always)]
            pub(crate) fn apply(self, g: &Game, at: At<'_, '_>, v: [Value; 3]) -> Option<Value> {
                match self {
                    $(Func::$variant => implementation::$variant(g, at, v),)*
                }
            }
            /// `visit.with::<F>()`, `F` being this function's index in [`Func::ALL`] as a constant:
            /// code made for one function, with no dispatch left in it (compile.rs).
            pub(crate) fn specialised<V: EachFunc>(self, visit: V) -> V::Out {
                match self {
                    $(Func::$variant => visit.with::<{ Func::$variant as u8 }>(),)*
                }
            }
        }
    };
}

/// Code made for one function at a time (see [`Func::specialised`]).
pub(crate) trait EachFunc {
    type Out;
    fn with<const F: u8>(self) -> Self::Out;
}

impl Func {
    /// The function at index `i` of [`Func::ALL`] (a constant when `i` is one).
    #[inline(always)]
    pub(crate) const fn at_index(i: u8) -> Func {
        Func::ALL[i as usize]
    }
}

functions! {
    /// count(site): the pieces on a site; count(site, piece): those of one kind.
    Count "count" [Site], [Site, Piece] -> Int, Position, |g, at, v| {
        let (_, st) = at?;
        Some(match (v[0], v[1]) {
            (Value::Site(s), Value::Piece(p)) => Value::Int(st.count(g, s, p) as i64),
            (Value::Site(s), _) => Value::Int(st.site_total(g, s) as i64),
            _ => Value::Int(0),
        })
    };
    /// empty(site): no piece on the site.
    Empty "empty" [Site] -> Bool, Position, |g, at, v| {
        let (_, st) = at?;
        Some(Value::Bool(match v[0] {
            Value::Site(s) => st.site_is_empty(g, s),
            _ => false,
        }))
    };
    /// has(site, piece): at least one piece of the kind on the site.
    Has "has" [Site, Piece] -> Bool, Position, |g, at, v| {
        let (_, st) = at?;
        Some(Value::Bool(match (v[0], v[1]) {
            (Value::Site(s), Value::Piece(p)) => st.count(g, s, p) > 0,
            _ => false,
        }))
    };
    /// hand(player): the player's off-board place for pieces not yet entered, or none.
    Hand "hand" [Player] -> Site, Ruleset, |g, at, v| Some(match v[0] {
        Value::Player(p) => g.hands[p as usize].map_or(Value::None, Value::Site),
        _ => Value::None,
    });
    /// next(player): the player after this one in the turn order.
    NextPlayer "next" [Player] -> Player, Ruleset, |g, at, v| Some(match v[0] {
        Value::Player(p) => Value::Player(g.next_player(p)),
        _ => Value::None,
    });
    /// side(player): the player who stands for the player's side: the first of its team in `teams:`,
    /// or the player itself when it is in no team.
    Side "side" [Player] -> Player, Ruleset, |g, at, v| Some(match v[0] {
        Value::Player(p) => Value::Player(g.side_of(p)),
        _ => Value::None,
    });
    /// owner(piece): the player a piece kind belongs to, or none.
    PieceOwner "owner" [Piece] -> Player, Ruleset, |g, at, v| Some(match v[0] {
        Value::Piece(p) => g.pieces[p as usize].owner.map_or(Value::None, Value::Player),
        _ => Value::None,
    });
    /// site_owner(site): the player a site belongs to, or none.
    SiteOwner "site_owner" [Site] -> Player, Ruleset, |g, at, v| Some(match v[0] {
        Value::Site(s) => g.site_owner[s as usize].map_or(Value::None, Value::Player),
        _ => Value::None,
    });
    /// min(a, b): the smaller number.
    Min "min" [Int, Int] -> Int, Ruleset, |g, at, v| Some(Value::Int(v[0].int().min(v[1].int())));
    /// max(a, b): the larger number.
    Max "max" [Int, Int] -> Int, Ruleset, |g, at, v| Some(Value::Int(v[0].int().max(v[1].int())));
    /// abs(n): the number without its sign.
    Abs "abs" [Int] -> Int, Ruleset, |g, at, v| Some(Value::Int(v[0].int().wrapping_abs()));
    /// total(piece): pieces of a kind on every site, off-board places included.
    Total "total" [Piece] -> Int, Position, |g, at, v| {
        let (_, st) = at?;
        Some(match v[0] {
            Value::Piece(p) => Value::Int(st.total(g, p)),
            _ => Value::Int(0),
        })
    };
    /// most_on_a_point(): the largest number of pieces on any one on-board site.
    MostOnAPoint "most_on_a_point" [] -> Int, Position, |g, at, v| {
        let (_, st) = at?;
        Some(Value::Int(
            g.board.playing_sites().map(|s| st.site_total(g, s) as i64).max().unwrap_or(0),
        ))
    };
    /// along(track, site, n): the site n steps further on the track (wrapping on a cyclic track), or
    /// none.
    Along "along" [Track, Site, Int] -> Site, Ruleset, |g, at, v| Some(match (v[0], v[1]) {
        (Value::Track(t), Value::Site(s)) => {
            g.board.along(t as usize, s, v[2].int()).map_or(Value::None, Value::Site)
        }
        _ => Value::None,
    });
    /// index_on(track, site): the position of a site on a track, from 0; -1 when it is not on it.
    IndexOn "index_on" [Track, Site] -> Int, Ruleset, |g, at, v| Some(match (v[0], v[1]) {
        (Value::Track(t), Value::Site(s)) => {
            Value::Int(g.board.index_on(t as usize, s).map_or(-1, |i| i as i64))
        }
        _ => Value::Int(-1),
    });
    /// length(track): the number of points on a track.
    Length "length" [Track] -> Int, Ruleset, |g, at, v| Some(match v[0] {
        Value::Track(t) => Value::Int(g.board.tracks[t as usize].points.len() as i64),
        _ => Value::Int(0),
    });
    /// point_on(track, i): the track's point at place i, from 0 (the inverse of `index_on`); none
    /// outside the track.
    PointOn "point_on" [Track, Int] -> Site, Ruleset, |g, at, v| Some(match v[0] {
        Value::Track(t) => usize::try_from(v[1].int())
            .ok()
            .and_then(|i| g.board.tracks[t as usize].points.get(i))
            .map_or(Value::None, |&s| Value::Site(s)),
        _ => Value::None,
    });
    /// beyond(a, b): the point after b on a straight line from a through b, or none: a slide along a
    /// line is `beyond` step by step.
    Beyond "beyond" [Site, Site] -> Site, Ruleset, |g, at, v| Some(match (v[0], v[1]) {
        (Value::Site(a), Value::Site(b)) => g.board.beyond(a, b).map_or(Value::None, Value::Site),
        _ => Value::None,
    });
    /// route(player): the first track owned by the player, or none.
    Route "route" [Player] -> Track, Ruleset, |g, at, v| Some(match v[0] {
        Value::Player(p) => g.routes[p as usize].map_or(Value::None, Value::Track),
        _ => Value::None,
    });
    /// tagged(site, tag): the site carries the tag (the tag is a constant index into
    /// `Game::tag_names`).
    Tagged "tagged" [Site, Tag] -> Bool, Ruleset, |g, at, v| Some(match (v[0], v[1]) {
        (Value::Site(s), Value::Int(bit)) => Value::Bool(g.site_tags[s as usize] >> bit & 1 == 1),
        _ => Value::Bool(false),
    });
    /// piece_of(role, player): the player's piece of the role, or none (the role is a constant index
    /// into `Game::roles`; `role[player]` is the same call).
    PieceOf "piece_of" [Role, Player] -> Piece, Ruleset, |g, at, v| Some(match (v[0], v[1]) {
        (Value::Int(role), Value::Player(p)) => {
            g.piece_of(role as u16, p).map_or(Value::None, Value::Piece)
        }
        _ => Value::None,
    });
    /// seen_before(site): this board configuration with this site has already occurred in the current
    /// move; records it otherwise. The loop guard of relay sowing.
    SeenBefore "seen_before" [Site] -> Bool, Records, |g, at, v| {
        let (run, st) = at?;
        let key = st.position_hash() ^ site_key(v[0]);
        let mut seen = run.scope().seen.borrow_mut();
        let before = seen.contains(&key);
        if !before {
            seen.push(key);
        }
        Some(Value::Bool(before))
    };
    /// repeats(player): the position as it stands, with the player to move, has occurred since the last
    /// capture, in the history kept for `caps: repetition` (never, without that cap). With `reject()`,
    /// "a move may not bring back an earlier position".
    Repeats "repeats" [Player] -> Bool, Position, |g, at, v| {
        let (_, st) = at?;
        Some(Value::Bool(match v[0] {
            Value::Player(p) => st.history.count(st.position_hash_with_mover(p)) > 0,
            _ => false,
        }))
    };
    /// held(v): how many of the throws made and not yet played (held, with stored throws) are worth v;
    /// the throw being played is not among them. With `throw`, it tells a double: `held(throw) > 0`.
    HeldWorth "held" [Int] -> Int, Position, |g, at, v| {
        let (_, st) = at?;
        let want = v[0].int();
        Some(Value::Int(
            st.held.iter().filter(|&&row| g.throw_row(row).value == want).count() as i64,
        ))
    };
    /// repetitions(): how many times the current position (pieces, variables, player to move) has
    /// occurred since the last capture, this time included; read from the history kept for
    /// `caps: repetition` (0 when the ruleset declares no such cap). Meaningful in `when` conditions
    /// and end conditions.
    Repetitions "repetitions" [] -> Int, Position, |g, at, v| {
        let (_, st) = at?;
        // Occurrences so far, this one included whether or not the turn has recorded it yet (end
        // conditions are checked before it is recorded, rules after).
        let h = st.position_hash();
        let seen = st.history.count(h) as i64;
        Some(Value::Int(seen + i64::from(st.history.last() != Some(h))))
    };
}

fn site_key(v: Value) -> u64 {
    match v {
        Value::Site(s) => (s as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd),
        _ => 0,
    }
}

/// The effect table. Each entry: `Variant "name" [argument types];`.
macro_rules! effects {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $name:literal [$($arg:ident),*];
    )*) => {
        /// A built-in effect: a statement that changes the position or the move (see [`EFFECTS`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Effect {
            $($(#[doc = $doc])* $variant,)*
        }

        /// Every effect with its name and argument types.
        pub const EFFECTS: &[EffectDef] = &[
            $(EffectDef { name: $name, effect: Effect::$variant, args: &[$(Ty::$arg),*] },)*
        ];
    };
}

/// A built-in effect's entry in [`EFFECTS`].
#[derive(Clone, Copy, Debug)]
pub struct EffectDef {
    pub name: &'static str,
    pub effect: Effect,
    pub args: &'static [Ty],
}

effects! {
    /// place(piece, site): one more piece of the kind on the site.
    Place "place" [Piece, Site];
    /// remove(piece, site): one piece of the kind fewer on the site (an error if there is none).
    Remove "remove" [Piece, Site];
    /// capture(piece, site): a remove that counts as a capture (for the caps and the statistics).
    Capture "capture" [Piece, Site];
    /// move(piece, from, to): a piece from one site to another.
    Move "move" [Piece, Site, Site];
    /// set_count(piece, site, n): the number of pieces of the kind on the site.
    SetCount "set_count" [Piece, Site, Int];
    /// again(): the same player moves again.
    Again "again" [];
    /// win(player): the game ends, the player (or the player's team) winning.
    Win "win" [Player];
    /// draw(): the game ends in a draw.
    Draw "draw" [];
    /// set_mover(player): who moves after this move, instead of the turn order.
    SetMover "set_mover" [Player];
    /// prefer(n): the move's preference (0 unless given; the last call counts). Of all the legal moves
    /// of a position only those with the highest preference are legal: "use as many points as
    /// possible", "capture the most".
    Prefer "prefer" [Int];
    /// assert(condition): the move is an error when the condition does not hold (a check written in
    /// the rules, e.g. that counters are conserved after every drop of a sowing).
    Assert "assert" [Bool];
    /// reject(): the path the rule has taken is no move at all; nothing after it runs. The executor
    /// abandons the path (exec.rs), so a rule with a `reject` after a choice never pauses there.
    Reject "reject" [];
    /// spend(v): the move also uses up one of the throws held (with stored throws) worth v, the oldest
    /// such; an error when none is. Dice spent together: a double or triple played as one move.
    Spend "spend" [Int];
}

/// A built-in domain's entry in [`DOMAINS`].
#[derive(Clone, Copy, Debug)]
pub struct DomainDef {
    pub name: &'static str,
    pub args: &'static [Ty],
    /// The types of the values each option binds, one variable each (`choose (over, land) in leaps(x)`).
    pub binds: &'static [Ty],
    /// The domain on its (type-checked) arguments.
    pub make: fn(Vec<Expr>) -> Domain,
}

/// The domains `choose` and `for` range over, in the order messages list them.
pub const DOMAINS: &[DomainDef] = &[
    DomainDef {
        name: "sites",
        args: &[],
        binds: &[Ty::Site],
        make: |_| Domain::Sites,
    },
    DomainDef {
        name: "sites_with",
        args: &[Ty::Piece],
        binds: &[Ty::Site],
        make: |a| Domain::SitesWith(first(a)),
    },
    DomainDef {
        name: "neighbours",
        args: &[Ty::Site],
        binds: &[Ty::Site],
        make: |a| Domain::Neighbours(first(a)),
    },
    DomainDef {
        name: "leaps",
        args: &[Ty::Site],
        binds: &[Ty::Site, Ty::Site],
        make: |a| Domain::Leaps(first(a)),
    },
    DomainDef {
        name: "range",
        args: &[Ty::Int, Ty::Int],
        binds: &[Ty::Int],
        make: |a| {
            let mut a = a.into_iter();
            let mut next = || a.next().unwrap_or(Expr::Const(Value::None));
            let from = next();
            Domain::Range(from, next())
        },
    },
    DomainDef {
        name: "track",
        args: &[Ty::Track],
        binds: &[Ty::Site],
        make: |a| Domain::Track(first(a)),
    },
    DomainDef {
        name: "players",
        args: &[],
        binds: &[Ty::Player],
        make: |_| Domain::Players,
    },
];

/// A domain's one argument (the table's signature guarantees it; `none` otherwise rather than a panic).
fn first(args: Vec<Expr>) -> Expr {
    args.into_iter().next().unwrap_or(Expr::Const(Value::None))
}
