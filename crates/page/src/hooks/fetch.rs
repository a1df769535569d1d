//! The page's downloads: a file's bytes, with its progress.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Fetches `url` chunk by chunk, telling `progress` the bytes received so far and the
/// whole size when the response's length is the file's (not for a compressed transfer).
pub(super) async fn fetch_with_progress(
    url: &str,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("cannot fetch {url}: {e:?}"))?
        .dyn_into()
        .map_err(|_| format!("cannot fetch {url}"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let header = |name: &str| response.headers().get(name).ok().flatten();
    let total = header("content-length")
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|_| header("content-encoding").is_none());
    let Some(body) = response.body() else {
        return fetch_bytes(url).await;
    };
    let reader: web_sys::ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|_| format!("cannot read {url}"))?;
    let mut bytes = Vec::new();
    progress(0, total);
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("cannot read {url}: {e:?}"))?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .map(|d| d.is_truthy())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = js_sys::Reflect::get(&chunk, &"value".into())
            .map_err(|e| format!("cannot read {url}: {e:?}"))?;
        bytes.extend(js_sys::Uint8Array::new(&value).to_vec());
        progress(bytes.len() as u64, total);
    }
    Ok(bytes)
}

pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("cannot fetch {url}: {e:?}"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("cannot fetch {url}"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(
        response
            .array_buffer()
            .map_err(|e| format!("cannot read {url}: {e:?}"))?,
    )
    .await
    .map_err(|e| format!("cannot read {url}: {e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
