//! The network built into the binary, so that `cargo build --release` alone gives the
//! full-strength engine. `EvalFile` replaces it at run time.

use std::sync::{Arc, OnceLock};

use super::Network;

/// The accepted network's file (`nets/`; docs/NNUE.md records how each net was made and
/// the match that accepted it). `None` would make the hand-crafted evaluation the default.
pub(crate) const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../nets/n14e-h256b8m.nnue"));

/// The built-in network, parsed once; `None` when the build has none.
pub fn embedded() -> Option<Arc<Network>> {
    static NETWORK: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NETWORK
        .get_or_init(|| {
            EMBEDDED.and_then(|bytes| match Network::from_bytes(bytes) {
                Ok(network) => Some(Arc::new(network)),
                Err(error) => {
                    log::error!("the built-in network is damaged: {error}");
                    None
                }
            })
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_loads() {
        let bytes = EMBEDDED.expect("a network is built in");
        let network = Network::from_bytes(bytes).expect("the built-in network is valid");
        assert_eq!(network.hidden(), 256);
        assert!(embedded().is_some());
    }
}
