//! The game's review: the budget to review at, the button (and Cancel with the progress
//! while it runs), each side's summary, and every move with its value, the best move's,
//! the loss and the mark; a click on a move shows it on the board with the best one.

use crate::format::move_numbers;
use crate::review::{
    budget_label, describe, judged_cells, line_sentence, mark_name, marks_help, stop_sentence,
    summary_words, value_text, ReviewLevel, ReviewOrder,
};
use othello::{Color, Move};
use protocol::ReviewedMove;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ReviewProps {
    /// The game's moves, each with its review when it has one.
    pub moves: Vec<(Move, Option<ReviewedMove>)>,
    /// The review under way: moves done, moves in all.
    pub running: Option<(usize, usize)>,
    pub error: Option<String>,
    pub level: ReviewLevel,
    pub on_level: Callback<ReviewLevel>,
    /// What each level judges this game with, simulations a position, in
    /// [`ReviewLevel::ALL`]'s order: raised above the levels' own where an agent played,
    /// so the menu says what each costs here (issue 68).
    #[prop_or_default]
    pub budgets: Vec<u64>,
    /// Why the budgets are this game's, where its agent raised them (issue 68: they
    /// changed with the game's agent without a word).
    #[prop_or_default]
    pub budget_note: Option<String>,
    /// Whether the note's room is kept ([`crate::review::budget_note_room`]).
    #[prop_or_default]
    pub budget_room: bool,
    pub order: ReviewOrder,
    pub on_order: Callback<ReviewOrder>,
    /// Why there is nothing to review now, if so (the agent is to move, no network yet).
    pub unavailable: Option<String>,
    pub on_review: Callback<()>,
    pub on_cancel: Callback<()>,
    /// The move shown on the board (0-based).
    pub focus: Option<usize>,
    pub on_focus: Callback<Option<usize>>,
    /// "Black (you)", "White (the agent)": the sides as the page names them.
    pub black: String,
    pub white: String,
    /// Which moves came with a loaded game and were played by nobody here, when the
    /// summaries count them (`explain::review_names`).
    #[prop_or_default]
    pub brought: Option<String>,
    /// How the game's result adds up from the discs lost (`review::Balance::sentence`),
    /// once a finished game's every move is reviewed.
    #[prop_or_default]
    pub balance: Option<String>,
    /// What the review judges with, in words, once one has started.
    #[prop_or_default]
    pub judged: Option<String>,
}

#[function_component(ReviewPanel)]
pub fn review_panel(props: &ReviewProps) -> Html {
    let reviews: Vec<Option<ReviewedMove>> = props.moves.iter().map(|(_, r)| r.clone()).collect();
    let reviewed = reviews.iter().flatten().count();
    let on_order = props.on_order.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        ReviewOrder::from_key(&value).unwrap_or_default()
    });
    let running = props.running.is_some();
    let button = review_button(props, reviewed);
    let summaries = (reviewed > 0).then(|| side_summaries(&reviews, props));
    let numbers = move_numbers(&props.moves.iter().map(|(mv, _)| *mv).collect::<Vec<_>>());
    let rows = props
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, (mv, review))| {
            Some(review_row(props, i, (numbers[i], *mv), review.as_ref()?))
        });
    html! {
        <section class="review" id="review" aria-label="Review of the game">
            <h2>{ "Review" }</h2>
            <div class="review-controls">
                { level_select(props) }
                <label>{ "Order " }
                    <select id="review-order" onchange={on_order} disabled={running}>
                        { for ReviewOrder::ALL.into_iter().map(|o| html! {
                            <option value={o.key()} selected={o == props.order}>{ o.label() }</option>
                        }) }
                    </select>
                </label>
                { button }
            </div>
            // Its room is kept where the note can come, so that its coming with the agent's
            // first move moves nothing below it; elsewhere it takes none (issue 68).
            <p class={classes!("small", props.budget_room.then_some("review-budget-slot"))}>
                if let Some(note) = props.budget_note.clone() {
                    <span id="review-budget-note">{ note }</span>
                }
            </p>
            // The line keeps its room when there is nothing to say, so that the first move
            // (which makes the game reviewable) moves nothing below it.
            <p class="small review-note-slot">
                if let Some(why) = props.unavailable.clone().filter(|_| !running) {
                    <span id="review-unavailable">{ why }</span>
                }
            </p>
            if let Some(error) = props.error.clone() {
                <p class="message" id="review-error" role="alert">{ stop_sentence(&error, reviewed) }</p>
            }
            if let Some(judged) = props.judged.clone().filter(|_| reviewed > 0 || running) {
                <p class="small" id="review-judged">{ judged }</p>
            }
            { for summaries }
            // How the result adds up from the discs lost, once the whole game is reviewed
            // (issue 68: the sums were disclaimed as not adding up to it).
            if let Some(balance) = props.balance.clone().filter(|_| reviewed > 0) {
                <p class="small" id="review-balance">{ balance }</p>
            } else if reviewed > 0 {
                <p class="small" id="review-lost-help">{ "Discs lost in all: each move's loss against the best move there, added up. Once a finished game is reviewed to its last move, the line here shows how they add up to its result." }</p>
            }
            if reviewed > 0 {
                <div class="review-table">
                    <table id="review-moves">
                        // The values are the mover's, as the GGF's are, so the sign flips from row to row
                        // (and not after a pass): the header says whose they are and each move
                        // carries its mover's disc, beside a graph drawn for Black (issue 68).
                        <thead><tr><th>{ "#" }</th><th>{ "move" }</th><th>{ "mover's value" }</th><th>{ "best" }</th>
                            <th>{ "mover's best value" }</th><th>{ "loss" }</th><th>{ "mark" }</th></tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
                if props.moves.iter().any(|(_, r)| r.as_ref().is_some_and(|r| r.loss_between_estimates && !r.is_forced())) {
                    <p class="small" id="review-between-note">{ BETWEEN_NOTE }</p>
                }
                <p class="small">{ "Click a move to see it on the board with the best move. " }{ marks_help() }</p>
            } else {
                // Folded until asked for: two paragraphs appearing with the first move pushed
                // the page about (issue 62, item 15).
                <details class="small" id="review-help">
                    <summary>{ "What a review does" }</summary>
                    <p>{ "Every move of both sides valued by the search (exact where the solver reaches), \
                          against the best move, in the workers. " }{ marks_help() }</p>
                </details>
            }
        </section>
    }
}

/// The budget's menu, each level with what it costs in this game ([`ReviewProps::budgets`]).
fn level_select(props: &ReviewProps) -> Html {
    let on_level = props.on_level.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        ReviewLevel::from_key(&value).unwrap_or_default()
    });
    let running = props.running.is_some();
    html! {
        <label>{ "Budget " }
            <select id="review-level" onchange={on_level} disabled={running}>
                { for ReviewLevel::ALL.into_iter().enumerate().map(|(i, l)| html! {
                    <option value={l.key()} selected={l == props.level}>
                        { props.budgets.get(i).map_or_else(|| l.label(), |&n| budget_label(n)) }
                    </option>
                }) }
            </select>
        </label>
    }
}

/// The review's button: "Review the game" (or again), or while it runs its progress and
/// Cancel.
fn review_button(props: &ReviewProps, reviewed: usize) -> Html {
    match props.running {
        Some((done, total)) => html! {
            <>
                <progress id="review-progress" max={total.to_string()} value={done.to_string()}></progress>
                <span id="review-status" role="status">{ format!("Reviewed {done} of {total} moves…") }</span>
                <button id="review-cancel" onclick={props.on_cancel.reform(|_| ())}>{ "Cancel" }</button>
            </>
        },
        None => html! {
            <button id="review-start" disabled={props.unavailable.is_some()} onclick={props.on_review.reform(|_| ())}>
                { if reviewed > 0 { "Review again" } else { "Review the game" } }
            </button>
        },
    }
}

/// Each side's summary, as the CLI writes it (near-best moves apart), under the names the
/// page gives the sides, and which moves came with a loaded game where they count.
fn side_summaries(reviews: &[Option<ReviewedMove>], props: &ReviewProps) -> Html {
    let line = |side: Color, name: &str| {
        html! {
            <li id={format!("review-summary-{}", side.name().to_lowercase())}>
                <strong>{ format!("{name}: ") }</strong>{ summary_words(reviews, side) }
            </li>
        }
    };
    html! {
        <>
            <ul class="review-summary" id="review-summary">
                { line(Color::Black, &props.black) }
                { line(Color::White, &props.white) }
            </ul>
            if let Some(note) = props.brought.clone() {
                <p class="small" id="review-brought">{ note }</p>
            }
        </>
    }
}

/// The table's row of move `i` (0-based), with its number (`format::move_numbers`): a click
/// shows it on the board, a second hides it.
fn review_row(
    props: &ReviewProps,
    i: usize,
    (number, mv): (Option<usize>, Move),
    r: &ReviewedMove,
) -> Html {
    let mark = mark_name(r);
    let focused = props.focus == Some(i);
    // The position goes on the board, with its notice and the status line under it: on a
    // phone all lie far above the table, and on a laptop the board's top rows scrolled off
    // above the notice, so the game's section is brought into view whenever any of them is
    // not wholly on the screen (issue 68).
    let onclick = props.on_focus.reform(move |_| {
        if focused {
            None
        } else {
            crate::hooks::scroll::show_all_after_render(
                vec!["#board", "#review-notice", "#status"],
                crate::hooks::scroll::GAME_TOP,
            );
            Some(i)
        }
    });
    let [best_move, best_value, loss, mark_text] = judged_cells(r);
    let between = r.loss_between_estimates && !loss.is_empty();
    // Two sentences, apart (issue 68: "…, the best move found Best line: …").
    let line = line_sentence(r).unwrap_or_default();
    let title = crate::format::sentences([describe(number, r).as_str(), line.as_str()]);
    html! {
        <tr class={classes!("review-row", mark, focused.then_some("focused"))} data-ply={(i + 1).to_string()}
            {onclick} title={title}>
            <td>{ number.map_or(String::new(), |n| n.to_string()) }</td>
            <td class="mover" data-side={r.side.name().to_lowercase()}>
                <span class={classes!("disc", "mini", r.side.name().to_lowercase())} title={r.side.name()} aria-label={r.side.name()}></span>
                { mv.to_string() }
            </td>
            <td class={classes!("num", r.value_exact.then_some("exact"))}>{ value_text(r.value, r.value_exact) }</td>
            <td>{ best_move }</td>
            <td class={classes!("num", best_exact(r).then_some("exact"))}>{ best_value }</td>
            <td class="num">{ loss }
                // Seen, not only hovered (a phone has no hover): the note under the table
                // says why this loss is not the difference of the two values beside it.
                if between {
                    <sup class="note-mark" aria-label="see the note under the table">{ "*" }</sup>
                }
            </td>
            <td class="mark">{ mark_text }</td>
        </tr>
    }
}

/// The note under the table for a loss marked "*" (issue 68: "~+45.63 against +34, loss
/// ~1.68" read as wrong arithmetic, its reason only in a hover title).
const BETWEEN_NOTE: &str = "* One of the row's two values is exact (a whole number, the \
     solver's) and the other an estimate (≈): the loss is measured between the search's own \
     estimates of both moves, not by subtracting the two values shown, since an exact \
     margin less an estimate is neither.";

/// Whether the best value the row shows is exact ([`best_value_text`]'s choice), drawn in
/// bold as the panel's help says.
fn best_exact(r: &ReviewedMove) -> bool {
    (r.best == r.played && r.value_exact) || (r.best_exact && !r.best_is_bound)
}
