//! The network's inner loops, each as a portable scalar kernel with an AVX2 twin beside it
//! that gives exactly the same numbers.
//!
//! All data is in [`Chunk`]s: 16 `i16` aligned to 32 bytes, one AVX2 register. Accumulator
//! arithmetic wraps (as `_mm256_add_epi16` does) and the output sum wraps in `i32` (as
//! `_mm256_add_epi32` does); wrapping addition is associative, so the order of the sums
//! does not change the result and both paths agree bit for bit even on absurd weights.
//!
//! AVX2 is detected at run time once ([`Backend::detected`]); every dispatcher checks the
//! cached detection again before entering an AVX2 function, so a [`Backend::Avx2`] value
//! made by hand on a CPU without AVX2 runs the scalar kernels instead of faulting.

use std::sync::OnceLock;

/// Values per chunk.
pub const CHUNK: usize = 16;

/// 16 accumulator values or weights, aligned for 256-bit loads and stores.
#[repr(C, align(32))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Chunk(pub [i16; CHUNK]);

/// Which kernels to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Portable Rust (the compiler may still use the SSE of the target it builds for).
    Scalar,
    /// AVX2 intrinsics, only where the CPU has AVX2.
    Avx2,
}

impl Backend {
    /// The fastest backend this CPU runs, detected on first use and cached.
    pub fn detected() -> Backend {
        if avx2_available() {
            Backend::Avx2
        } else {
            Backend::Scalar
        }
    }

    /// Whether this CPU runs `self`.
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Scalar => true,
            Backend::Avx2 => avx2_available(),
        }
    }
}

/// Whether the CPU has AVX2, detected once.
fn avx2_available() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(detect_avx2)
}

#[cfg(target_arch = "x86_64")]
fn detect_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_avx2() -> bool {
    false
}

/// Whether `backend` is AVX2 and the CPU has it.
#[inline(always)]
fn use_avx2(backend: Backend) -> bool {
    cfg!(target_arch = "x86_64") && backend == Backend::Avx2 && avx2_available()
}

// ---------------------------------------------------------------------------------------
// Fused accumulator update: dst = src + Σ adds − Σ subs.

/// `dst = src + Σ adds − Σ subs`, element-wise and wrapping; every slice has `dst.len()`
/// chunks. `A` and `S` are small (at most 2), so the loops over them unroll.
#[inline(always)]
pub fn update<const A: usize, const S: usize>(
    backend: Backend,
    dst: &mut [Chunk],
    src: &[Chunk],
    adds: [&[Chunk]; A],
    subs: [&[Chunk]; S],
) {
    check_lengths(dst.len(), src, &adds, &subs);
    #[cfg(target_arch = "x86_64")]
    if use_avx2(backend) {
        // SAFETY: `use_avx2` checked that this CPU has AVX2, and every slice has
        // `dst.len()` chunks (checked above).
        unsafe { avx2::update(dst, src, adds, subs) };
        return;
    }
    let _ = backend;
    update_scalar(dst, src, adds, subs);
}

fn check_lengths(len: usize, src: &[Chunk], adds: &[&[Chunk]], subs: &[&[Chunk]]) {
    assert!(
        src.len() == len && adds.iter().chain(subs).all(|row| row.len() == len),
        "accumulator rows of different lengths"
    );
}

/// The scalar twin of `avx2::update`.
#[inline(always)]
pub fn update_scalar<const A: usize, const S: usize>(
    dst: &mut [Chunk],
    src: &[Chunk],
    adds: [&[Chunk]; A],
    subs: [&[Chunk]; S],
) {
    for (i, out) in dst.iter_mut().enumerate() {
        let mut v = src[i].0;
        for row in adds {
            for (x, &w) in v.iter_mut().zip(&row[i].0) {
                *x = x.wrapping_add(w);
            }
        }
        for row in subs {
            for (x, &w) in v.iter_mut().zip(&row[i].0) {
                *x = x.wrapping_sub(w);
            }
        }
        out.0 = v;
    }
}

// ---------------------------------------------------------------------------------------
// Refresh: dst = bias + Σ rows.

/// `dst = bias + Σ rows`, element-wise and wrapping; every slice has `dst.len()` chunks.
pub fn refresh(backend: Backend, dst: &mut [Chunk], bias: &[Chunk], rows: &[&[Chunk]]) {
    check_lengths(dst.len(), bias, rows, &[]);
    #[cfg(target_arch = "x86_64")]
    if use_avx2(backend) {
        // SAFETY: `use_avx2` checked that this CPU has AVX2, and every slice has
        // `dst.len()` chunks (checked above).
        unsafe { avx2::refresh(dst, bias, rows) };
        return;
    }
    let _ = backend;
    refresh_scalar(dst, bias, rows);
}

/// The scalar twin of `avx2::refresh`.
pub fn refresh_scalar(dst: &mut [Chunk], bias: &[Chunk], rows: &[&[Chunk]]) {
    for (i, out) in dst.iter_mut().enumerate() {
        let mut v = bias[i].0;
        for row in rows {
            for (x, &w) in v.iter_mut().zip(&row[i].0) {
                *x = x.wrapping_add(w);
            }
        }
        out.0 = v;
    }
}

// ---------------------------------------------------------------------------------------
// Output layer: Σ clamp(acc, 0, qa)² · w (SCReLU) or Σ clamp(acc, 0, qa) · w (CReLU).

/// Whether `clamp(acc, 0, qa) · w` fits in `i16` for every weight of `weights`: the
/// condition of the multiply-low trick of [`screlu_dot`] (`lizard`). With Cutoff's QA of
/// 255 it holds for weights within ±128.
pub fn products_fit_i16(qa: i32, weights: &[i16]) -> bool {
    weights
        .iter()
        .all(|&w| qa * i32::from(w.unsigned_abs()) <= i32::from(i16::MAX))
}

/// `Σ clamp(acc, 0, qa)² · w` over the chunks, wrapping in `i32`. `lizard` says that
/// every `clamp(acc) · w` fits in `i16` ([`products_fit_i16`]: the multiply-low trick of
/// the AVX2 kernel and its scalar twin); without it [`screlu_dot_wide`] runs, which is
/// exact for any weight. `qa` is within 1..=32767.
#[inline(always)]
pub fn screlu_dot(
    backend: Backend,
    lizard: bool,
    qa: i16,
    acc: &[Chunk],
    weights: &[Chunk],
) -> i32 {
    assert_eq!(acc.len(), weights.len(), "accumulator and weights differ");
    if !lizard {
        return screlu_dot_wide(qa, acc, weights);
    }
    #[cfg(target_arch = "x86_64")]
    if use_avx2(backend) {
        // SAFETY: `use_avx2` checked that this CPU has AVX2, both slices have the same
        // length (asserted above), and `lizard` promises |qa · w| <= 32767 for the i16
        // products.
        return unsafe { avx2::screlu_dot(qa, acc, weights) };
    }
    let _ = backend;
    screlu_dot_scalar(qa, acc, weights)
}

/// `Σ clamp(acc, 0, qa) · w` over the chunks, wrapping in `i32`: exact for every weight
/// (each product and each pair of products fits in `i32`).
#[inline(always)]
pub fn crelu_dot(backend: Backend, qa: i16, acc: &[Chunk], weights: &[Chunk]) -> i32 {
    assert_eq!(acc.len(), weights.len(), "accumulator and weights differ");
    #[cfg(target_arch = "x86_64")]
    if use_avx2(backend) {
        // SAFETY: `use_avx2` checked that this CPU has AVX2, and both slices have the
        // same length (asserted above).
        return unsafe { avx2::crelu_dot(qa, acc, weights) };
    }
    let _ = backend;
    crelu_dot_scalar(qa, acc, weights)
}

/// The scalar twin of `avx2::crelu_dot`.
pub fn crelu_dot_scalar(qa: i16, acc: &[Chunk], weights: &[Chunk]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in flat(acc).iter().zip(flat(weights)) {
        let v = i32::from(x.clamp(0, qa));
        sum = sum.wrapping_add(v * i32::from(w));
    }
    sum
}

/// The values of `chunks`, in order, as one flat slice.
#[inline(always)]
fn flat(chunks: &[Chunk]) -> &[i16] {
    // SAFETY: `Chunk` is `repr(C)` around exactly `[i16; 16]` (32 bytes, its alignment, so
    // no padding between chunks): `chunks` is `16 · len` initialised, contiguous `i16`s,
    // suitably aligned, borrowed for the lifetime of the result.
    unsafe { std::slice::from_raw_parts(chunks.as_ptr().cast::<i16>(), chunks.len() * CHUNK) }
}

/// The scalar twin of `avx2::screlu_dot`, for weights with `|qa · w| <= 32767` (within
/// ±128 at QA 255): `(v · w)` in `i16` (exact), times `v` in `i32`, which the compiler
/// vectorises with the SSE2 multiply-add. For larger weights the product wraps: use
/// [`screlu_dot_wide`]. (Written over flat slices: per chunk, the compiler vectorised
/// across chunks instead.)
pub fn screlu_dot_scalar(qa: i16, acc: &[Chunk], weights: &[Chunk]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in flat(acc).iter().zip(flat(weights)) {
        let v = x.clamp(0, qa);
        sum = sum.wrapping_add(i32::from(v.wrapping_mul(w)) * i32::from(v));
    }
    sum
}

/// `Σ clamp(acc, 0, qa)² · w` in `i32`, each term and the sum wrapping as an engine's
/// `i32` arithmetic does: exact for every `i16` weight while `qa² · |w| < 2³¹` (always
/// at QA 255, since `255² · 32768 < 2³¹`).
pub fn screlu_dot_wide(qa: i16, acc: &[Chunk], weights: &[Chunk]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in flat(acc).iter().zip(flat(weights)) {
        let v = i32::from(x.clamp(0, qa));
        sum = sum.wrapping_add((v * v).wrapping_mul(i32::from(w)));
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The AVX2 kernels. Each is `unsafe` only because it needs AVX2: callers check the CPU
    //! and the slice lengths first.

    use std::arch::x86_64::*;

    use super::Chunk;

    /// Loads a chunk (aligned: `Chunk` is `align(32)`).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    unsafe fn load(chunk: &Chunk) -> __m256i {
        // SAFETY: `chunk` is a valid reference to 32 bytes aligned to 32 (`Chunk` is
        // `repr(C, align(32))`), and the caller has AVX2.
        unsafe { _mm256_load_si256(chunk.0.as_ptr().cast()) }
    }

    /// Stores a chunk (aligned: `Chunk` is `align(32)`).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    unsafe fn store(chunk: &mut Chunk, v: __m256i) {
        // SAFETY: `chunk` is a valid, exclusive reference to 32 bytes aligned to 32, and
        // the caller has AVX2.
        unsafe { _mm256_store_si256(chunk.0.as_mut_ptr().cast(), v) }
    }

    /// See `super::update`.
    ///
    /// # Safety
    /// The CPU must have AVX2; every slice has `dst.len()` chunks (or indexing panics).
    #[target_feature(enable = "avx2")]
    pub unsafe fn update<const A: usize, const S: usize>(
        dst: &mut [Chunk],
        src: &[Chunk],
        adds: [&[Chunk]; A],
        subs: [&[Chunk]; S],
    ) {
        for (i, out) in dst.iter_mut().enumerate() {
            // SAFETY: AVX2 is enabled in this function; indexing is bounds-checked.
            unsafe {
                let mut v = load(&src[i]);
                for row in adds {
                    v = _mm256_add_epi16(v, load(&row[i]));
                }
                for row in subs {
                    v = _mm256_sub_epi16(v, load(&row[i]));
                }
                store(out, v);
            }
        }
    }

    /// See `super::refresh`.
    ///
    /// # Safety
    /// The CPU must have AVX2; `bias` and every row have `dst.len()` chunks (or indexing
    /// panics).
    #[target_feature(enable = "avx2")]
    pub unsafe fn refresh(dst: &mut [Chunk], bias: &[Chunk], rows: &[&[Chunk]]) {
        for (i, out) in dst.iter_mut().enumerate() {
            // SAFETY: AVX2 is enabled in this function; indexing is bounds-checked.
            unsafe {
                let mut v = load(&bias[i]);
                for row in rows {
                    v = _mm256_add_epi16(v, load(&row[i]));
                }
                store(out, v);
            }
        }
    }

    /// See `super::screlu_dot`. Per chunk: `v = clamp(acc)`, `vw = mullo(v, w)` (fits in
    /// i16), then `madd(vw, v)` sums pairs of `v² · w` into i32 lanes.
    ///
    /// # Safety
    /// The CPU must have AVX2. The result is right only if `acc` and `weights` have
    /// equal lengths and |qa · w| <= 32767 for every weight.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(qa: i16, acc: &[Chunk], weights: &[Chunk]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(qa);
        let mut sum = zero;
        for (a, w) in acc.iter().zip(weights) {
            // SAFETY: AVX2 is enabled in this function.
            unsafe {
                let v = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), qa);
                let vw = _mm256_mullo_epi16(v, load(w));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
            }
        }
        horizontal_sum(sum)
    }

    /// See `super::crelu_dot`. Per chunk: `v = clamp(acc)`, then `madd(v, w)` sums pairs
    /// of `v · w` into i32 lanes (exact: `0 <= v <= 32767`).
    ///
    /// # Safety
    /// The CPU must have AVX2. The result is right only if `acc` and `weights` have
    /// equal lengths.
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_dot(qa: i16, acc: &[Chunk], weights: &[Chunk]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(qa);
        let mut sum = zero;
        for (a, w) in acc.iter().zip(weights) {
            // SAFETY: AVX2 is enabled in this function.
            unsafe {
                let v = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), qa);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, load(w)));
            }
        }
        horizontal_sum(sum)
    }

    /// The wrapping sum of the eight i32 lanes.
    #[target_feature(enable = "avx2")]
    fn horizontal_sum(v: __m256i) -> i32 {
        let halves = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(total)
    }
}
