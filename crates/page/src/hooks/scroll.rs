//! Bringing what an action shows into view, once the page has drawn it: on a phone the
//! board, the search panel and the review's table lie far apart, and an action whose
//! result appears out of sight reads as one that did nothing (issue 68).

/// The game's section and the search's, as scroll targets ([`scroll_target`]).
pub const GAME_TOP: &str = "section.play";
pub const SEARCH_TOP: &str = "section.thinking";

/// What to scroll to show `element` from its top: itself, or on a phone, where the page's
/// sections lend their children to its one column (`display: contents`, style.css) and
/// have no box of their own, their first child.
pub fn scroll_target(element: web_sys::Element) -> web_sys::Element {
    // A box-less element measures 0 by 0 (`display: contents`); a section never does.
    let rect = element.get_bounding_client_rect();
    if rect.width() > 0.0 || rect.height() > 0.0 {
        return element;
    }
    element.first_element_child().unwrap_or(element)
}

/// After the render the dispatch schedules (which runs before a timer's callback), brings
/// `target` into view, its top at the top of the screen, when `shown` (what the player
/// must see) is not wholly on the screen; nothing moves when it is.
pub fn show_after_render(shown: &'static str, target: &'static str) {
    show_all_after_render(vec![shown], target);
}

/// As [`show_after_render`], for several things the player must see at once: `target` is
/// brought into view when any of `shown` is not wholly on the screen (a reviewed move's
/// board and its notice: on a laptop the notice alone was in view, the board's top rows
/// scrolled off above it, issue 68).
pub fn show_all_after_render(shown: Vec<&'static str>, target: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let find = |selector: &str| document.query_selector(selector).ok().flatten();
        if shown.iter().filter_map(|s| find(s)).all(|e| on_screen(&e)) {
            return;
        }
        if let Some(target) = find(target) {
            scroll_target(target).scroll_into_view();
        }
    })
    .forget();
}

/// Whether `element` lies wholly on the screen, top to bottom.
fn on_screen(element: &web_sys::Element) -> bool {
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let r = element.get_bounding_client_rect();
    r.top() >= 0.0 && r.bottom() <= height
}

/// After the render, brings `shown` wholly into view with as little movement as it takes
/// (the nearest edge), when it is not: a hint's or an analysis's panel on a phone lies
/// below the board's buttons, and the least scroll keeps as much of the board in view as
/// it can (issue 68: the panel's text lay at 926-1143 px of an 844 px screen).
pub fn show_nearest_after_render(shown: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(element) = document.query_selector(shown).ok().flatten() else {
            return;
        };
        if on_screen(&element) {
            return;
        }
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        element.scroll_into_view_with_scroll_into_view_options(&options);
    })
    .forget();
}

/// Whether the search panel lies below the board rather than beside it (a phone's one
/// column).
pub fn panel_below_board() -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let find = |selector: &str| document.query_selector(selector).ok().flatten();
    match (find("#board"), find(SEARCH_TOP)) {
        (Some(board), Some(search)) => {
            scroll_target(search).get_bounding_client_rect().top()
                >= board.get_bounding_client_rect().bottom() - 1.0
        }
        _ => false,
    }
}

thread_local! {
    /// Set by Analyse on a one-column screen: the next search to show its Stop button is
    /// brought into view ([`panel_shown_when_running`]).
    static PANEL_WANTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Set by a hint, or a move in analysis, on a one-column screen: the panel's text is
    /// brought into view as the search fills it ([`panel_text_shown`]).
    static TEXT_WANTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Asks that the search panel's text be brought into view as the hint or analysis the
/// person just asked for shows in it, where the panel lies below the board (a phone).
pub fn want_panel_text() {
    if panel_below_board() {
        TEXT_WANTED.with(|w| w.set(true));
    }
}

/// Called as the panel shows a hint or an analysis (and again as it grows): brings its
/// text into view if the person's action asked for it; `done`, the search over, ends the
/// wish.
pub fn panel_text_shown(done: bool) {
    let wanted = TEXT_WANTED.with(|w| {
        let wanted = w.get();
        if done {
            w.set(false);
        }
        wanted
    });
    if wanted {
        show_nearest_after_render("#search-info");
    }
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
        show_after_render("#stop-search", SEARCH_TOP);
    }
}
