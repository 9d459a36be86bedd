//! File formats: the scrZebra endgame script and Edax's OBF test files.

pub mod obf;
pub mod script;
