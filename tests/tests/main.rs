//! The one integration test binary: every module below is a group of tests.

mod architecture;
mod corpus;
mod demala;
mod hat;
mod language;
