//! (module under construction)

pub mod records;
