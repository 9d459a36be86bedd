//! The search's copies: a portable one, one compiled for CPUs with POPCNT, LZCNT and
//! AVX2 (x86-64 since about 2013), where counting bits, the move generator and the flips
//! are on the hot path, and one that also has AVX-512's F, VL and CD (AMD since Zen 4,
//! Intel's servers and some desktops), whose leading-zero count finds the flips towards
//! the lower squares in one step where AVX2 needs four (FFO 40-49: 0.9 of the AVX2
//! copy's time). In the browser (wasm32) the fast copy is `Simd128`'s: wasm has no
//! run-time feature detection (a module with SIMD instructions does not load where they
//! are missing), so it is the module built with `+simd128` that has one.
//!
//! A search function is written once, generic over [`Cpu`], and [`fast_copies!`] compiles
//! it three times: [`Portable`], [`Avx2`] and [`Avx512`], the last two inside
//! `#[target_feature]` wrappers. The tokens are made only by [`Avx2::detect`], after the
//! run-time check, so holding one is the proof that its copy may run. Every `unsafe` of
//! the fast paths is in this module.

use super::moves::{flips, moves};
#[cfg(target_arch = "x86_64")]
use super::moves::{flips_avx2, flips_avx512, moves_avx2};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::moves::{flips_simd128, moves_simd128};

/// The token of this target's fast copy, which the searches hold when they may run it.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Fast = Avx2;
/// The token of this target's fast copy, which the searches hold when they may run it.
#[cfg(target_arch = "wasm32")]
pub(crate) type Fast = Simd128;

/// Proof that the module was built with wasm's 128-bit SIMD: only [`Simd128::detect`]
/// makes one.
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simd128 {
    _checked: (),
}

#[cfg(target_arch = "wasm32")]
impl Simd128 {
    /// The token, if this module was compiled with SIMD128 (checked at build time: the
    /// browser refuses the whole module where it lacks them).
    pub(crate) fn detect() -> Option<Simd128> {
        cfg!(target_feature = "simd128").then_some(Simd128 { _checked: () })
    }
}

#[cfg(target_arch = "wasm32")]
impl Cpu for Simd128 {
    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        None
    }
    #[inline(always)]
    fn simd128(self) -> Option<Simd128> {
        Some(self)
    }
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        #[cfg(target_feature = "simd128")]
        return moves_simd128(p, o);
        #[cfg(not(target_feature = "simd128"))]
        moves(p, o)
    }
    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
        #[cfg(target_feature = "simd128")]
        return flips_simd128(p, o, sq);
        #[cfg(not(target_feature = "simd128"))]
        flips(p, o, sq)
    }
}

/// Proof that this CPU has POPCNT, LZCNT and AVX2: only [`Avx2::detect`] makes one. It
/// says too whether the CPU has AVX-512 (F, VL and CD), and then the search runs the
/// [`Avx512`] copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2 {
    avx512: bool,
}

impl Avx2 {
    /// The token, if this CPU has the features the fast copies are compiled for.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            let avx512 = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512cd");
            return Some(Avx2 { avx512 });
        }
        None
    }

    /// The same token with AVX-512 left unused: the AVX2 copies run even where the CPU
    /// has more (the tests compare the copies).
    #[cfg(test)]
    pub(crate) fn without_avx512(self) -> Avx2 {
        Avx2 { avx512: false }
    }

    /// The [`Avx512`] token, if the CPU has AVX-512 too (asked on x86_64 only).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn avx512(self) -> Option<Avx512> {
        self.avx512.then_some(Avx512 { _checked: () })
    }
}

/// Proof that this CPU has AVX-512's F, VL and CD besides what [`Avx2`] proves: made only
/// from an `Avx2` that [`Avx2::detect`] found them for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512 {
    _checked: (),
}

/// No CPU feature beyond the target's baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Portable;

/// The instruction set a copy of the search is compiled for, and its move generator.
pub(crate) trait Cpu: Copy {
    /// The token when this is a fast copy (asked on x86_64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn avx2(self) -> Option<Avx2>;
    /// The token when this is the SIMD128 copy (wasm32 only).
    #[cfg(target_arch = "wasm32")]
    #[inline(always)]
    fn simd128(self) -> Option<Simd128> {
        None
    }
    /// Legal moves of the player `p` against `o`.
    fn moves(self, p: u64, o: u64) -> u64;
    /// Discs of `o` that `p` flips by playing `sq`.
    fn flips(self, p: u64, o: u64, sq: u32) -> u64;
}

impl Cpu for Portable {
    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        None
    }
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        moves(p, o)
    }
    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
        flips(p, o, sq)
    }
}

impl Cpu for Avx2 {
    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        Some(self)
    }
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `self` exists only where `detect` found AVX2.
        return unsafe { moves_avx2(p, o) };
        #[cfg(not(target_arch = "x86_64"))]
        moves(p, o)
    }
    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `moves`.
        return unsafe { flips_avx2(p, o, sq) };
        #[cfg(not(target_arch = "x86_64"))]
        flips(p, o, sq)
    }
}

impl Cpu for Avx512 {
    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        Some(Avx2 { avx512: true })
    }
    /// The AVX2 generator: AVX-512 has nothing quicker for it.
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        Avx2 { avx512: true }.moves(p, o)
    }
    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `self` exists only where `detect` found AVX2 and AVX-512.
        return unsafe { flips_avx512(p, o, sq) };
        #[cfg(not(target_arch = "x86_64"))]
        flips(p, o, sq)
    }
}

/// Asks the CPU to fetch the cache line at `p` ahead of its use (a no-op off x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it reads nothing the program sees and cannot fault,
    // whatever the address (SSE, which every x86-64 CPU has).
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch(p as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Writes the three copies of search methods from their bodies, in an `impl` block: for
/// `vis fn name(args) -> R = body, portable, fast, wide;` it makes
/// - `vis name::<K: Cpu>(&mut self, cpu: K, args)`: what callers (and the bodies, for their
///   recursion) call; with an [`Avx2`] it enters a fast copy (the AVX-512 one if the token
///   says the CPU has it), so a body compiled as a fast copy only ever calls the same
///   copies (the tests count the entries);
/// - `portable(&mut self, args)`: `body(Portable, args)`;
/// - `fast(&mut self, Avx2, args)`: `body(cpu, args)` compiled with POPCNT, LZCNT and AVX2;
/// - `wide(&mut self, Avx512, args)`: `body(cpu, args)` compiled with AVX-512 F, VL and CD
///   besides;
/// - on wasm32, `fast(&mut self, Simd128, args)` instead of the last two: `body(cpu, args)`
///   (the whole module is compiled with or without SIMD128), entered with a `Simd128`.
///
/// The body, `#[inline(always)]`, is inlined into each copy; attributes given before `fn`
/// go on every copy.
macro_rules! fast_copies {
    ($(
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $body:ident, $portable:ident, $fast:ident, $wide:ident;
    )*) => {$(
        #[doc = concat!("[`", stringify!($body), "`](Self::", stringify!($body), ") in the copy of `cpu`.")]
        #[inline(always)]
        $vis fn $name<K: $crate::board::cpu::Cpu>(&mut self, cpu: K, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = $crate::board::cpu::Cpu::avx2(cpu) {
                // SAFETY: an `Avx2` exists only where `Avx2::detect` found the features the
                // fast copy is compiled with, and an `Avx512` only where it found AVX-512's
                // too.
                return match avx2.avx512() {
                    Some(avx512) => unsafe { self.$wide(avx512, $($arg),*) },
                    None => unsafe { self.$fast(avx2, $($arg),*) },
                };
            }
            #[cfg(target_arch = "wasm32")]
            if let Some(simd128) = $crate::board::cpu::Cpu::simd128(cpu) {
                return self.$fast(simd128, $($arg),*);
            }
            // Elsewhere there is no fast copy: the token is never looked at.
            #[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
            let _ = cpu;
            #[cfg(test)]
            $crate::board::cpu::probe::entered_portable();
            self.$portable($($arg),*)
        }

        $(#[$attr])*
        fn $portable(&mut self, $($arg: $ty),*) -> $ret {
            self.$body($crate::board::cpu::Portable, $($arg),*)
        }

        $(#[$attr])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,lzcnt,avx2")]
        fn $fast(&mut self, cpu: $crate::board::cpu::Avx2, $($arg: $ty),*) -> $ret {
            #[cfg(test)]
            $crate::board::cpu::probe::entered_fast();
            self.$body(cpu, $($arg),*)
        }

        $(#[$attr])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,lzcnt,avx2,avx512f,avx512vl,avx512cd")]
        fn $wide(&mut self, cpu: $crate::board::cpu::Avx512, $($arg: $ty),*) -> $ret {
            #[cfg(test)]
            $crate::board::cpu::probe::entered_wide();
            self.$body(cpu, $($arg),*)
        }

        $(#[$attr])*
        #[cfg(target_arch = "wasm32")]
        fn $fast(&mut self, cpu: $crate::board::cpu::Simd128, $($arg: $ty),*) -> $ret {
            self.$body(cpu, $($arg),*)
        }
    )*};
}
pub(crate) use fast_copies;

/// The token for a test that compares the fast copies with the portable ones: the AVX2
/// copies (`avx512: false`) or every copy this CPU runs (`avx512: true`). Where the CPU
/// lacks a copy's features the test checks less, and says so on standard error, past the
/// test harness's capture and once per test, so that a green run on such a CPU is not
/// read as a check of that copy. `OKAPI_TEST_CPU=portable` (or `avx2`) takes the CPU
/// for one without AVX2 (or without AVX-512), to see the tests skip.
#[cfg(test)]
pub(crate) fn detect_for_test(test: &str, avx512: bool) -> Option<Avx2> {
    use std::io::Write as _;
    use std::sync::Mutex;
    static TOLD: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let found = match std::env::var("OKAPI_TEST_CPU").as_deref() {
        Ok("portable") => None,
        Ok("avx2") => Avx2::detect().map(Avx2::without_avx512),
        _ => Avx2::detect(),
    };
    let missing = match found {
        None if avx512 => Some("AVX2 and AVX-512 copies: this CPU has no AVX2"),
        None => Some("AVX2 copies: this CPU has no AVX2"),
        Some(t) if avx512 && !t.avx512 => Some("AVX-512 copies: this CPU has no AVX-512"),
        Some(_) => None,
    };
    if let Some(missing) = missing {
        let mut told = TOLD.lock().unwrap_or_else(|e| e.into_inner());
        if !told.iter().any(|t| t == test) {
            told.push(test.to_string());
            let _ = writeln!(std::io::stderr(), "{test}: skipped the {missing}");
        }
    }
    found
}

/// Which copies of the search functions ran, counted per thread in the tests: proof that
/// a search with the token stays in the fast copies (the AVX-512 ones where the token
/// says so) and one without stays out of them.
#[cfg(test)]
pub(crate) mod probe {
    use std::cell::Cell;
    thread_local! {
        static COUNTS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
        static WIDE: Cell<u64> = const { Cell::new(0) };
    }
    pub(crate) fn entered_fast() {
        COUNTS.with(|c| c.set((c.get().0 + 1, c.get().1)));
    }
    /// An AVX-512 copy: a fast one too.
    pub(crate) fn entered_wide() {
        entered_fast();
        WIDE.with(|c| c.set(c.get() + 1));
    }
    pub(crate) fn entered_portable() {
        COUNTS.with(|c| c.set((c.get().0, c.get().1 + 1)));
    }
    /// (fast, portable) entries on this thread since the last call, then reset.
    pub(crate) fn take() -> (u64, u64) {
        COUNTS.with(|c| c.replace((0, 0)))
    }
    /// Entries of the AVX-512 copies on this thread since the last call, then reset.
    pub(crate) fn take_wide() -> u64 {
        WIDE.with(|c| c.replace(0))
    }
}
