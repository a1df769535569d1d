//! The page: a small `App` that composes the rooms' controllers (`ctrl`: the game's and
//! Puzzle mode's, over the one gateway to the workers) and draws the room that is open, as
//! Yew's `function_memory_game` example composes its App. The game's room is laid out
//! here from its parts: the header, the game (`play`, with its board in `play_board`), the
//! search's panel and graph (`search_view`) and the side panel (`side`); Puzzle mode's is
//! `puzzle_room`. The parts get the state as values and ask for changes through the
//! controllers' callbacks; none holds a reducer's or a state's handle.

mod header;
mod play;
mod play_board;
mod puzzle_room;
mod search_view;
mod side;

use crate::components::{Notice, ReviewPanel};
use crate::ctrl::{use_game_ctrl, use_puzzle_ctrl, use_restored, GameCtrl, PuzzleCtrl};
use crate::explain::{level_note, opponent_lines};
use crate::hooks::use_gateway;
use header::Header;
use play::PlayArea;
use puzzle_room::PuzzleRoom;
use search_view::SearchView;
use side::SidePanel;
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    let restored = use_restored();
    let gateway = use_gateway(restored.game.dispatcher(), restored.view.dispatcher());
    let linked = restored.puzzle.clone();
    let puzzles = use_puzzle_ctrl(&gateway, &restored.game, &restored.view, linked);
    let game = use_game_ctrl(&restored, &gateway, !puzzles.open);
    if puzzles.open {
        return html! { <PuzzleRoom ctrl={puzzles} /> };
    }
    game_room(&game, &puzzles)
}

/// The game's room, drawn from its controller; Puzzle mode's gives the way in and the
/// notice about the puzzle record.
fn game_room(ctrl: &GameCtrl, puzzles: &PuzzleCtrl) -> Html {
    let (game, view, settings) = (&ctrl.game, &ctrl.view, &ctrl.settings);
    let pos = *game.position();
    let (opponent, strength) = opponent_lines(
        view,
        game.seats,
        pos.size(),
        pos.variant(),
        &settings.difficulty,
    );
    // The game's records name the agent without its role ("Opponent: ").
    let record_opponent = opponent
        .split_once(": ")
        .map_or(opponent.as_str(), |(_, o)| o)
        .to_owned();
    // After the records' name: the review's budget is the header's word, not the agent's.
    let opponent = crate::explain::with_review(opponent, view.review.of(game.id()).judged_at());
    let spec = ctrl
        .player
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    let (asks, work, set) = (&ctrl.asks, &ctrl.work, &ctrl.settings_asks);
    let (workers, simd) = ctrl.workers;
    let ready = ctrl.player.is_some();
    html! {
        <main data-ready={ready.to_string()} data-restarts={view.restarts.to_string()} data-workers={workers.to_string()} data-simd={simd}
              data-reviewed={view.review.len().to_string()}>
            <Header {opponent} {strength} {spec} link={crate::link::write(&game.state, &settings.difficulty)}
                    looking_back={game.browsing.is_some()}
                    link_error={ctrl.link_error.clone()} on_puzzles={puzzles.on_open.clone()} />
            <Notice id="save-error" text={ctrl.unreadable.clone()} on_ok={asks.on_dismiss.clone()} />
            <Notice id="puzzle-store-error" text={puzzles.notice.clone()} on_ok={puzzles.on_dismiss.clone()} />
            <div class="layout">
                <PlayArea game={game.clone()} view={view.clone()} heat_map={settings.heat_map} {ready}
                          opponent={record_opponent.clone()} watch={ctrl.watch} on_watch={asks.on_watch.clone()}
                          on_hint={work.on_hint.clone()} on_toggle_heat={set.on_toggle_heat.clone()}
                          on_toggle_book={set.on_toggle_book.clone()} book={settings.book}
                          on_new_game={ctrl.new_game.start.clone()} on_game={asks.on_game.clone()}
                          on_edit={asks.on_edit.clone()} on_message={asks.on_message.clone()}
                          on_review_focus={asks.on_review_focus.clone()} difficulty={settings.difficulty.clone()}
                          on_difficulty={set.on_difficulty.clone()} level_note={level_note(ctrl.player.as_ref(), ctrl.budget)}
                          level_range={crate::levels::instinct_note(ctrl.player.as_ref().and_then(|p| p.model.as_deref()))} />
                <section class="thinking" aria-label="The search and the evaluation graph">
                    <SearchView game={game.clone()} view={view.clone()} player={ctrl.player.clone()} budget={ctrl.budget}
                                on_goto={asks.on_goto.clone()} on_stop={work.on_stop.clone()} />
                    { review_panel(ctrl) }
                </section>
                <SidePanel game={game.clone()} view={view.clone()} new_game={ctrl.new_game.clone()} opponent={record_opponent} on_goto={asks.on_goto.clone()}
                           loaders={ctrl.loaders.clone()} on_open={work.on_open.clone()} on_upload={work.on_upload.clone()}
                           on_builtin={work.on_builtin.clone()} />
            </div>
        </main>
    }
}

/// The review's panel, there from the start (saying that there is nothing to review yet),
/// so that the page does not move when the first move is played (issue 68, item 6).
fn review_panel(ctrl: &GameCtrl) -> Html {
    let (game, view, settings) = (&ctrl.game, &ctrl.view, &ctrl.settings);
    let reviews = view.review.of(game.id());
    let of_game = reviews.of_game(&game.game);
    // The deepest level of the menu, named where the review was judged below it and its
    // estimates drifted (issue 68).
    let deeper = ctrl
        .work
        .review_budgets
        .last()
        .copied()
        .filter(|&deepest| reviews.judged_at().is_some_and(|at| at < deepest));
    let balance = crate::review::balance(&game.game, &of_game).map(|b| b.sentence(deeper));
    let judged = crate::review::judged_line(reviews, &game.game, view.review.running.is_some());
    let moves = of_game
        .into_iter()
        .zip(game.game.moves().iter().copied())
        .map(|(r, mv)| (mv, r))
        .collect::<Vec<_>>();
    let (set, work) = (&ctrl.settings_asks, &ctrl.work);
    let (black, white, brought) = crate::explain::review_names(game);
    html! {
        <ReviewPanel {moves} running={view.review.running.map(|(_, done, total)| (done, total))}
                     error={view.review.error_of(game.id()).map(str::to_owned)} level={work.review_level} on_level={set.on_review_level.clone()}
                     order={settings.review_order} on_order={set.on_review_order.clone()} budgets={work.review_budgets.clone()} budget_note={work.review_budget_note.clone()} budget_room={work.review_budget_room}
                     unavailable={ctrl.review_unavailable.clone()} on_review={work.on_review.clone()}
                     on_cancel={work.on_cancel_review.clone()} focus={view.review.focus.filter(|(g, _)| *g == game.id()).map(|(_, i)| i)}
                     on_focus={ctrl.asks.on_review_focus.clone()} {judged}
                     {black} {white} {brought} {balance} />
    }
}
