//! The one integration test binary: every module below is a group of tests.

mod architecture;
mod corpus;
mod hat;
mod language;
