//! Chaupar: scenario tests follow.
