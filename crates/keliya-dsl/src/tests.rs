use crate::*;

fn roundtrip(src: &str) {
    let ast = parse_program(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    let printed = print::program_to_string(&ast);
    let again = parse_program(&printed).unwrap_or_else(|e| panic!("{printed}: {e:?}"));
    assert!(ast.same_shape(&again), "{src}\n--\n{printed}");
    assert_eq!(printed, print::program_to_string(&again));
}

#[test]
fn statements_round_trip_through_the_printer() {
    roundtrip("choose to in sites() where empty(to) { move(hunter, hand(mover), to) }");
    roundtrip(
        "choose from in sites_with(hunter) { choose over, to in leaps(from) where has(over, prey) and empty(to) { capture(prey, over) captures[mover] += 1 } }",
    );
    roundtrip(
        "let n = 3; while n > 0 { n -= 1 } if n == 0 { again() } else if n < 0 { pass() } else { x = 2 }",
    );
    roundtrip("for s in sites() where not empty(s) or count(s) >= 4 - 1 * 2 { remove(prey, @1A) }");
}

#[test]
fn precedence_is_conventional() {
    let e = parse_expression("1 + 2 * 3 == 7 and not false or x").unwrap();
    assert_eq!(e.to_string(), "1 + 2 * 3 == 7 and not false or x");
    let e = parse_expression("(1 + 2) * 3").unwrap();
    assert_eq!(e.to_string(), "(1 + 2) * 3");
    let e = parse_expression("a - (b - c)").unwrap();
    assert_eq!(e.to_string(), "a - (b - c)");
    let e = parse_expression("not (a and b)").unwrap();
    assert_eq!(e.to_string(), "not (a and b)");
}

#[test]
fn spans_point_into_the_text() {
    let src = "count(@A) >= limit";
    let e = parse_expression(src).unwrap();
    let ExprKind::Binary { right, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(&src[right.span.start..right.span.end], "limit");
}

#[test]
fn errors_carry_offsets_and_readable_expectations() {
    let err = parse_expression("count(@A) >= ").unwrap_err();
    assert_eq!(err.span.start, 13);
    assert!(
        err.message.contains("expected an expression"),
        "{}",
        err.message
    );
    let err = parse_program("if x = 1 { pass() }").unwrap_err();
    assert_eq!(err.span.start, 5);
    assert_eq!(err.hint.as_deref(), Some("comparison is written `==`"));
    let err = parse_program("choose s sites() { }").unwrap_err();
    assert!(err.message.contains("`in`"), "{}", err.message);
}

#[test]
fn hostile_input_is_bounded() {
    let deep = "(".repeat(10_000) + "1" + &")".repeat(10_000);
    assert!(
        parse_expression(&deep)
            .unwrap_err()
            .message
            .contains("nesting")
    );
    let long = "1 + ".repeat(20_000) + "1";
    assert!(parse_expression(&long).is_err());
    assert!(
        parse_expression("99999999999999999999")
            .unwrap_err()
            .message
            .contains("too large")
    );
}

#[test]
fn keywords_are_not_names() {
    assert!(parse_expression("in").is_err());
    assert!(parse_expression("index").is_ok());
    assert!(parse_expression("notable").is_ok());
}

#[test]
fn the_embedded_grammar_is_the_one_in_grammar_folder() {
    let embedded = include_str!("keliya.pest");
    let shared = include_str!("../../../grammar/keliya.pest");
    assert_eq!(embedded, shared);
}

/// Nothing on the input path panics: thousands of token soups, seeded, must parse or fail cleanly, and
/// whatever parses must print and parse back to the same tree.
#[test]
fn random_token_soup_never_panics_and_round_trips_when_it_parses() {
    let tokens = [
        "choose",
        "for",
        "in",
        "where",
        "if",
        "else",
        "while",
        "let",
        "and",
        "or",
        "not",
        "true",
        "false",
        "x",
        "y",
        "count",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        ";",
        "=",
        "==",
        "!=",
        "<",
        "<=",
        "+",
        "-",
        "*",
        "/",
        "%",
        "+=",
        "@A",
        "@1B",
        "7",
        "99999999999",
        "//c\n",
        "\n",
        " ",
        "\"",
        "#",
        "é",
        "\t",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut parsed = 0;
    for _ in 0..20_000 {
        let len = (next() % 24) as usize;
        let text: String = (0..len)
            .map(|_| tokens[(next() % tokens.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ");
        if let Ok(ast) = parse_program(&text) {
            parsed += 1;
            let printed = print::program_to_string(&ast);
            let again = parse_program(&printed)
                .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}: {e:?}"));
            assert!(ast.same_shape(&again), "{text:?}");
        }
        if let Ok(e) = parse_expression(&text) {
            let again =
                parse_expression(&e.to_string()).unwrap_or_else(|err| panic!("{text:?}: {err:?}"));
            assert!(e.same_shape(&again), "{text:?}");
        }
    }
    assert!(
        parsed > 100,
        "the soup should sometimes be a program ({parsed})"
    );
}

/// A name and the text of a tree of that shape `n` levels deep.
type Shape = (&'static str, fn(usize) -> String);

/// Every way a tree grows deep without brackets (a chain of operators, of `not`s, of `-`s, of `else if`s)
/// is refused past the one depth limit, at the place where it goes too deep, and everything at the limit
/// parses and prints: the parser builds the chains without recursing per operator.
#[test]
fn deep_trees_are_refused_at_one_limit_wherever_they_grow() {
    let limit = parse::MAX_DEPTH;
    let chains: [Shape; 6] = [
        ("sum", |n| vec!["1"; n + 1].join(" + ")),
        ("and", |n| vec!["x"; n + 1].join(" and ")),
        ("not", |n| "not ".repeat(n) + "true"),
        ("neg", |n| "0 < ".to_string() + &"- ".repeat(n) + "1"),
        ("call", |n| "f(".repeat(n) + "1" + &")".repeat(n)),
        ("mixed", |n| {
            (0..n)
                .map(|i| if i % 2 == 0 { "not " } else { "- " })
                .collect::<String>()
                + "1"
        }),
    ];
    for (what, chain) in chains {
        // Far too deep: refused with the limit's message, at a place inside the text.
        let text = chain(8_400);
        let err = parse_expression(&text).unwrap_err();
        assert_eq!(
            err.message,
            format!("nesting deeper than {limit} levels"),
            "{what}"
        );
        assert!(
            err.span.start < err.span.end && err.span.end <= text.len(),
            "{what}"
        );
        // Comfortably within it: parsed, and printed back to the same tree.
        let text = chain(limit / 2);
        let e = parse_expression(&text).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let again = parse_expression(&e.to_string()).expect("printed text parses");
        assert!(e.same_shape(&again), "{what}");
    }
    let elses = |n: usize| "if true {} else ".repeat(n) + "{}";
    let err = parse_program(&elses(4_000)).unwrap_err();
    assert_eq!(err.message, format!("nesting deeper than {limit} levels"));
    roundtrip(&elses(limit / 2 - 2));
    // Levels add up across kinds: brackets, operators and statements share the limit.
    let nested = "if true { ".repeat(40) + &"(1 + ".repeat(50) + "1" + &")".repeat(50);
    let deep = nested.clone() + &" + 1".repeat(limit) + " > 0 { x = 1 }" + &" }".repeat(40);
    assert!(parse_program(&deep).is_err());
}
