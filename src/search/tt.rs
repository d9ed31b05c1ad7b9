//! The transposition table, shared by the search threads.

/// Placeholder: sized but not yet storing anything.
pub struct TranspositionTable {
    megabytes: usize,
}

impl TranspositionTable {
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable { megabytes }
    }

    pub fn clear(&self) {}

    /// Per mille of the table in use by the current search.
    pub fn hashfull(&self) -> u32 {
        let _ = self.megabytes;
        0
    }
}
