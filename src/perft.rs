//! perft: counts the leaf nodes of the legal move tree, to prove move generation.
