//! What a finished game offers: a rematch, and the record to copy or download.

use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GameOverProps {
    /// The game's record as text.
    pub record: String,
    /// The same game as a GGF record.
    pub ggf: String,
    /// A record read from a file, with the review's values in its moves
    /// ([`crate::records::ggf_with_review`]).
    #[prop_or_default]
    pub ggf_reviewed: Option<String>,
    /// The downloads' name without its extension ([`crate::records::file_stem`]).
    pub file_name: String,
    /// Offer a rematch with the colours swapped (when a person played one colour).
    pub rematch: bool,
    pub on_rematch: Callback<()>,
}

/// How long "Copied" stays on the button before it offers the copy again.
const COPIED_MS: u32 = 4000;

/// A rematch, and the record to copy or download.
#[function_component(GameOver)]
pub fn game_over(props: &GameOverProps) -> Html {
    // What the last copy did: None before any, then whether the browser took it.
    let copied = use_state(|| None::<bool>);
    let on_copy = {
        let (record, copied) = (props.record.clone(), copied.clone());
        Callback::from(move |_| {
            let Some(window) = web_sys::window() else {
                return;
            };
            // The browser may refuse (no permission, not a secure page): say so, and the
            // download is still there.
            let written = JsFuture::from(window.navigator().clipboard().write_text(&record));
            let copied = copied.clone();
            spawn_local(async move {
                copied.set(Some(written.await.is_ok()));
                // "Copied" minutes later, over another game's record, read as a copy of
                // that one (a fresh look): the label goes back after a few seconds.
                gloo_timers::callback::Timeout::new(COPIED_MS, move || copied.set(None)).forget();
            });
        })
    };
    // A new record (another game, or the game changed): no copy of it was made.
    {
        let copied = copied.clone();
        use_effect_with(props.record.clone(), move |_| copied.set(None));
    }
    let copy_label = match *copied {
        None => "Copy the record",
        Some(true) => "Copied",
        Some(false) => "Copy refused by the browser: download it",
    };
    let href = data_href(&props.record);
    html! {
        <div class="controls game-over" id="game-over">
            if props.rematch {
                <button id="rematch" onclick={props.on_rematch.reform(|_| ())}>{ "Rematch (colours swapped)" }</button>
            }
            <button id="copy-record" onclick={on_copy}>{ copy_label }</button>
            <a id="download-record" class="button" {href} download={format!("{}.txt", props.file_name)}
               title="The game as this page's plain text: its start, players, result and moves">{ "Download as text" }</a>
            <a id="download-ggf-end" class="button" href={data_href(&props.ggf)} download={format!("{}.ggf", props.file_name)}
               title="The game as a GGF record, which NBoard, NTest and Edax read">{ "Download as GGF" }</a>
            if let Some(reviewed) = props.ggf_reviewed.as_ref() {
                <a id="download-ggf-reviewed-end" class="button" href={data_href(reviewed)} download={format!("{}-reviewed.ggf", props.file_name)}
                   title="The record with this page's review: each reviewed move's value in place of the record's own evaluation">{ "Download with the review's values" }</a>
            }
        </div>
    }
}

/// A link target that downloads `text` as a file, with no server round trip.
pub fn data_href(text: &str) -> String {
    format!(
        "data:text/plain;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    )
}

/// The time of a download as its file's name gives it (`2026-11-28-1450`), in the
/// person's time zone: what tells apart the files of games that name no players.
pub fn download_time() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}-{:02}{:02}",
        now.get_full_year(),
        now.get_month() + 1,
        now.get_date(),
        now.get_hours(),
        now.get_minutes()
    )
}
