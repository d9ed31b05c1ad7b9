//! The network built into the binary, so that `cargo build --release` alone gives the
//! full-strength engine. `EvalFile` replaces it at run time.

use std::sync::{Arc, OnceLock};

use super::Network;

/// The accepted network's file, or `None` while the hand-crafted evaluation is the
/// engine's default (see docs/NNUE.md for the record of nets).
const EMBEDDED: Option<&[u8]> = None;

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
