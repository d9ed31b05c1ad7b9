//! From float weights to the quantised network file, and the simple integer evaluator
//! that defines what the quantised network means (the engine's inference must agree
//! with it).

use super::model::Network;
use crate::nnue::file::{Activation, NetworkParams, Quantisation, QA, QB};

/// The quantised parameters of `net`: feature weights and biases × QA, output weights × QB
/// (as i16), output biases × QA·QB (as i32), each rounded to the nearest integer. The
/// trainer's clipping keeps every weight within ±1.98, so nothing saturates.
pub fn quantise(net: &Network) -> NetworkParams {
    let to_i16 = |values: &[f32], factor: i32| -> Vec<i16> {
        values
            .iter()
            .map(|&v| (v * factor as f32).round().clamp(-32768.0, 32767.0) as i16)
            .collect()
    };
    NetworkParams {
        hidden: net.hidden(),
        buckets: net.buckets(),
        inputs: net.inputs(),
        activation: Activation::SCReLU,
        quant: Quantisation::STANDARD,
        feature_weights: to_i16(net.feature_weights(), QA),
        feature_bias: to_i16(net.feature_bias(), QA),
        output_weights: to_i16(net.output_weights(), QB),
        output_bias: net
            .output_bias()
            .iter()
            .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
            .collect(),
    }
}

/// The bytes of `net`'s network file.
pub fn export_bytes(net: &Network) -> Vec<u8> {
    quantise(net).to_bytes()
}

/// The float network whose weights are exactly `params`' integers divided back by their
/// scales (the file's own QA and QB; so `quantise(&dequantise(p)) == p` for a net at
/// Cutoff's constants): the float net the quantised one computes, up to the integer
/// evaluator's truncations. A starting point for fine-tuning a file (an SCReLU one: the
/// float model is SCReLU).
pub fn dequantise(params: &NetworkParams) -> Network {
    let (qa, qb) = (params.quant.qa, params.quant.qb);
    let h = params.hidden;
    let mut values = Vec::with_capacity(Network::param_count(h, params.buckets));
    let scaled = |values: &[i16], factor: i32| -> Vec<f32> {
        values
            .iter()
            .map(|&v| f32::from(v) / factor as f32)
            .collect()
    };
    values.extend(scaled(&params.feature_weights, qa));
    values.extend(scaled(&params.feature_bias, qa));
    values.extend(scaled(&params.output_weights, qb));
    values.extend(
        params
            .output_bias
            .iter()
            .map(|&b| (f64::from(b) / (f64::from(qa) * f64::from(qb))) as f32),
    );
    Network::from_params(h, params.buckets, values).with_inputs(params.inputs)
}
