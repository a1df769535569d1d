//! Which build of the search worker a browser runs: wasm SIMD with relaxed SIMD (fused
//! multiply-add in tract's matrix kernels, about 15% more network evaluations a second in
//! Chromium, docs/web.md), or plain wasm SIMD for a browser that lacks it (Safari), which
//! would refuse the whole relaxed module. The page checks once, as wasm-feature-detect
//! does: it asks the browser to validate a tiny module that uses a relaxed SIMD
//! instruction, then starts every worker from the matching build.

/// The two builds of the worker (`scripts/build-relaxed-worker.sh` makes the second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerBuild {
    /// `+simd128,+relaxed-simd`: `worker-relaxed.js` and its wasm.
    Relaxed,
    /// `+simd128`: `worker.js` and its wasm.
    Plain,
}

/// `(func (result v128) i32.const 1 i8x16.splat i32.const 2 i8x16.splat
/// i8x16.relaxed_swizzle)`: wasm-feature-detect's relaxed SIMD probe. Valid only where
/// relaxed SIMD is (checked in Node with and without `--experimental-wasm-relaxed-simd`).
pub const RELAXED_SIMD_PROBE: [u8; 36] = [
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253,
    15, 65, 2, 253, 15, 253, 128, 2, 11,
];

impl WorkerBuild {
    /// The build for a page whose address has `query` (`?simd=plain` forces the fallback,
    /// for tests and for comparing the two), in a browser that does or does not validate the
    /// probe.
    pub fn choose(query: &str, relaxed_supported: bool) -> WorkerBuild {
        let forced_plain = query
            .trim_start_matches('?')
            .split('&')
            .any(|pair| pair == "simd=plain");
        if relaxed_supported && !forced_plain {
            WorkerBuild::Relaxed
        } else {
            WorkerBuild::Plain
        }
    }

    /// The worker's script: our loader (www/worker-loader.js), told which build to load.
    pub fn script(self) -> &'static str {
        match self {
            WorkerBuild::Relaxed => "worker-loader.js?build=relaxed",
            WorkerBuild::Plain => "worker-loader.js",
        }
    }

    /// The build's name, as the page's `data-simd` gives it to the browser tests.
    pub fn name(self) -> &'static str {
        match self {
            WorkerBuild::Relaxed => "relaxed-simd",
            WorkerBuild::Plain => "simd",
        }
    }

    /// This browser's build, for this page's address.
    #[cfg(target_arch = "wasm32")]
    pub fn detect() -> WorkerBuild {
        let query = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let probe = js_sys::Uint8Array::from(&RELAXED_SIMD_PROBE[..]);
        let supported = js_sys::WebAssembly::validate(&probe).unwrap_or(false);
        WorkerBuild::choose(&query, supported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_simd_where_the_browser_has_it_unless_the_page_asks_for_the_fallback() {
        assert_eq!(WorkerBuild::choose("", true), WorkerBuild::Relaxed);
        assert_eq!(
            WorkerBuild::choose("?level=strong", true),
            WorkerBuild::Relaxed
        );
        assert_eq!(WorkerBuild::choose("", false), WorkerBuild::Plain);
        assert_eq!(WorkerBuild::choose("?simd=plain", true), WorkerBuild::Plain);
        assert_eq!(
            WorkerBuild::choose("?a=1&simd=plain", true),
            WorkerBuild::Plain
        );
        // Only the exact pair forces it.
        assert_eq!(
            WorkerBuild::choose("?simd=plainer", true),
            WorkerBuild::Relaxed
        );
        assert_eq!(
            WorkerBuild::Relaxed.script(),
            "worker-loader.js?build=relaxed"
        );
        assert_eq!(WorkerBuild::Plain.script(), "worker-loader.js");
    }

    #[test]
    fn the_probe_is_a_wasm_module_with_a_relaxed_swizzle() {
        assert_eq!(&RELAXED_SIMD_PROBE[..8], b"\0asm\x01\0\0\0");
        // i8x16.relaxed_swizzle: the SIMD prefix 0xfd, then 0x100 in LEB128.
        assert!(RELAXED_SIMD_PROBE
            .windows(3)
            .any(|w| w == [0xfd, 0x80, 0x02]));
        // The code section's length byte counts what follows it.
        assert_eq!(
            RELAXED_SIMD_PROBE[20] as usize,
            RELAXED_SIMD_PROBE.len() - 21
        );
    }
}
