//! Any text as a rules-language program and as an expression: parsing returns a tree or an error
//! inside the text, never panics or overflows the stack, and a tree prints to text that parses to the
//! same tree.
#![no_main]

use keliya_dsl::{SameShape, parse_expression, parse_program, program_to_string};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_program(text) {
        Ok(program) => {
            let printed = program_to_string(&program);
            let again = parse_program(&printed).expect("printed text parses");
            assert!(program.same_shape(&again));
        }
        Err(e) => assert!(e.span.start <= e.span.end && e.span.end <= text.len()),
    }
    match parse_expression(text) {
        Ok(e) => {
            let again = parse_expression(&e.to_string()).expect("printed text parses");
            assert!(e.same_shape(&again));
        }
        Err(e) => assert!(e.span.start <= e.span.end && e.span.end <= text.len()),
    }
});
