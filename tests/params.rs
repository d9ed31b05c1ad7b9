//! The search's parameters as UCI options, in a `tune` build (`cargo test --features tune`;
//! without the feature this file is empty). A process of its own: setting a parameter
//! changes every search in the process, which the library's tests must not see.

#![cfg(feature = "tune")]

use cutoff::options::{Change, OptionError, Options};
use cutoff::search::bench;
use cutoff::search::params::{self, PARAMS};
use protocol::OptionKind;

/// The bench's node count at a small depth, for the parameters as they are now.
fn bench_nodes() -> u64 {
    bench::measure(6, None, |_, _, _| {}).nodes
}

#[test]
fn every_parameter_is_a_spin_option() {
    let specs = cutoff::engine::Engine::option_specs();
    for p in PARAMS {
        let spec = specs
            .iter()
            .find(|s| s.name == p.name)
            .unwrap_or_else(|| panic!("{} is no option", p.name));
        assert_eq!(
            spec.kind,
            OptionKind::Spin {
                default: p.default.into(),
                min: p.min.into(),
                max: p.max.into(),
            }
        );
    }
}

/// One test, so that no other test searches while the parameters move.
#[test]
fn setoption_sets_parameters_and_rebuilds_the_reduction_table() {
    let mut options = Options::default();
    let before = bench_nodes();
    let default_of = |name: &str| {
        let param = PARAMS.iter().find(|p| p.name == name).expect("a parameter");
        param.default.to_string()
    };

    assert_eq!(params::rfp_margin().to_string(), default_of("rfp_margin"));
    assert_eq!(options.set("RFP_Margin", Some("95")), Ok(Change::Stored));
    assert_eq!(params::rfp_margin(), 95);
    assert!(params::spsa_input().contains("rfp_margin, int, 95, 30, 150, 6, 0.002\n"));
    assert!(matches!(
        options.set("rfp_margin", Some("151")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        options.set("rfp_margin", None),
        Err(OptionError::MissingValue(_))
    ));
    assert_eq!(params::rfp_margin(), 95);
    assert_eq!(
        options.set("rfp_margin", Some(&default_of("rfp_margin"))),
        Ok(Change::Stored)
    );
    assert_eq!(bench_nodes(), before);

    // The reduction table follows its parameters, both ways.
    assert_eq!(
        options.set("lmr_quiet_base", Some("150")),
        Ok(Change::Stored)
    );
    let changed = bench_nodes();
    assert_ne!(changed, before);
    assert_eq!(
        options.set("lmr_quiet_base", Some(&default_of("lmr_quiet_base"))),
        Ok(Change::Stored)
    );
    assert_eq!(bench_nodes(), before);

    // The other options are untouched by it all.
    assert_eq!(options, Options::default());
}
