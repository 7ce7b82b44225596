//! The one integration test binary: every module below is a group of tests.

mod architecture;
mod backends;
mod bad_input;
mod bagh_chal;
mod bagh_guti;
mod chaupar;
mod corpus;
mod demala;
mod docs;
mod gyan_chaupar;
mod hat;
mod kerala;
mod koti_keliya;
mod language;
mod ovalhu;
mod pachisi;
mod pallankuli;
mod pancha;
mod puhulmutu;
mod pulijudamu;
mod raja_pasu;
mod references;
mod robustness;
mod sat_gol;
mod standalone;
mod thaayam;
