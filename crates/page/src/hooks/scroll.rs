//! Bringing what an action shows into view, once the page has drawn it: on a phone the
//! board, the search panel and the review's table lie far apart, and an action whose
//! result appears out of sight reads as one that did nothing (issue 68).

/// After the render the dispatch schedules (which runs before a timer's callback), brings
/// `target` into view, its top at the top of the screen, when `shown` (what the player
/// must see) is not wholly on the screen; nothing moves when it is.
pub fn show_after_render(shown: &'static str, target: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(window) = web_sys::window() else {
            return;
        };
        let Some(document) = window.document() else {
            return;
        };
        let find = |selector: &str| document.query_selector(selector).ok().flatten();
        let Some(seen) = find(shown) else {
            return;
        };
        let height = window
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        let r = seen.get_bounding_client_rect();
        if r.top() >= 0.0 && r.bottom() <= height {
            return;
        }
        if let Some(target) = find(target) {
            target.scroll_into_view();
        }
    })
    .forget();
}

/// Whether the search panel lies below the game's section rather than beside it (a
/// phone's one column).
pub fn panel_below_board() -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let find = |selector: &str| document.query_selector(selector).ok().flatten();
    match (find("section.play"), find("section.thinking")) {
        (Some(play), Some(thinking)) => {
            thinking.get_bounding_client_rect().top()
                >= play.get_bounding_client_rect().bottom() - 1.0
        }
        _ => false,
    }
}

thread_local! {
    /// Set by Analyse on a one-column screen: the next search to show its Stop button is
    /// brought into view ([`panel_shown_when_running`]).
    static PANEL_WANTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Asks that the search panel be brought into view once the search it waits for is under
/// way (its Stop button shown): brought into view at once, the panel still held the
/// placeholder, and the page above it changed height as the analysis began, leaving it
/// out of view again.
pub fn want_panel_when_running() {
    PANEL_WANTED.with(|w| w.set(true));
}

/// Called when a search that can be stopped is shown: brings the search's section into
/// view, its top at the top of the screen, if Analyse asked for it.
pub fn panel_shown_when_running() {
    if PANEL_WANTED.with(|w| w.replace(false)) {
        show_after_render("#stop-search", "section.thinking");
    }
}
