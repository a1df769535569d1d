//! "Copy link": the page's address with the game in its fragment.

use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CopyLinkProps {
    pub fragment: String,
    /// What the link opens, for its tooltip (the game, by default).
    #[prop_or(AttrValue::Static(
        "A link that opens this game, its side and level: paste it into a chat"
    ))]
    pub title: AttrValue,
    /// What is said once the clipboard took the link.
    #[prop_or(AttrValue::Static("Link copied"))]
    pub copied: AttrValue,
}

/// "Copy link": the page's address with the game in its fragment. Where the browser
/// refuses the clipboard (no permission, a page that is not https), the link shows in a
/// field to copy by hand.
#[function_component(CopyLink)]
pub fn copy_link(props: &CopyLinkProps) -> Html {
    // The last copy: its link, and whether the clipboard took it (None while asked).
    let copied = use_state(|| None::<(String, Option<bool>)>);
    let address = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or_default().to_owned())
        .unwrap_or_default();
    let link = format!("{address}{}", props.fragment);
    let on_copy = {
        let (copied, link) = (copied.clone(), link.clone());
        Callback::from(move |_: MouseEvent| {
            copied.set(Some((link.clone(), None)));
            let Some(window) = web_sys::window() else {
                return;
            };
            let written = JsFuture::from(window.navigator().clipboard().write_text(&link));
            let (copied, link) = (copied.clone(), link.clone());
            spawn_local(async move { copied.set(Some((link, Some(written.await.is_ok())))) });
        })
    };
    let note = match &*copied {
        Some((_, Some(true))) => props.copied.clone(),
        Some((_, Some(false))) => {
            AttrValue::Static("The browser refused the clipboard: copy the link here")
        }
        _ => AttrValue::Static(""),
    };
    html! {
        <span class="copy-link">
            // The header's buttons in one size (issue 68: "Copy link" was smaller than
            // "Puzzles" beside it).
            <button id="copy-link" data-link={link} onclick={on_copy}
                    title={props.title.clone()}>{ "Copy link" }</button>
            <span id="copy-link-note" class="small" aria-live="polite">{ note }</span>
            if let Some((link, Some(false))) = &*copied {
                <input id="copy-link-text" readonly=true value={link.clone()} aria-label={props.title.clone()} />
            }
        </span>
    }
}
