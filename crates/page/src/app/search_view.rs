//! The search's panel and the evaluation graph: beside the board on a wide screen, under
//! the controls on a phone.

use crate::components::{EvalGraph, SearchPanel};
use crate::explain::search_summary;
use crate::graph::{points, scale};
use crate::hooks::GameModel;
use crate::overlay::{board_overlay, panel_beside, Role, Showing};
use crate::state::at_ply;
use crate::view::{live_estimate, View};
use engine::PlayerSpec;
use protocol::WireBudget;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SearchViewProps {
    pub game: Rc<GameModel>,
    pub view: Rc<View>,
    pub player: Option<PlayerSpec>,
    pub budget: WireBudget,
    /// Goes to the position after this many moves (a click on the graph's point).
    pub on_goto: Callback<usize>,
    /// Ends the analysis or hint under way now, keeping what it found.
    pub on_stop: Callback<()>,
}

#[function_component(SearchView)]
pub fn search_view(props: &SearchViewProps) -> Html {
    let (game, view) = (&*props.game, &*props.view);
    let panel = panel_beside(view, game, game.browsing);
    let summary = search_summary(view, game, panel, props.player.as_ref(), props.budget);
    let solved = panel.and_then(|(h, _)| h.merged.search.solved);
    // The whole line, the redo moves too, so that a click on a point goes back without
    // dropping (or rescaling) the points after it; the live point only at the line's end.
    let played = game.game.moves().len();
    let line = at_ply(game, played + game.undone.len()).game;
    let live = live_estimate(view, game, game.id()).filter(|_| game.undone.is_empty());
    let graph_points = points(
        &line,
        view.estimates.of(game.id()),
        view.review.of(game.id()),
        live,
    );
    let graph_scale = scale(&graph_points, game.game.start().size().squares());
    let stoppable =
        panel.is_some_and(|(heat, role)| !heat.done && matches!(role, Role::Analysis | Role::Hint));
    // On a phone, an analysis asked for from the form at the foot of the page is brought
    // into view once it runs (issue 68: its panel and Stop lay below the fold).
    use_effect_with(stoppable, |&stoppable| {
        if stoppable {
            crate::hooks::scroll::panel_shown_when_running();
        }
    });
    // On a phone, a hint's or an analysis's text is brought into view as it fills the
    // panel, when the person's action asked for it (issue 68: it lay below the fold).
    let asked = panel
        .filter(|(_, role)| matches!(role, Role::Analysis | Role::Hint))
        .map(|(heat, _)| (heat.position, heat.done, heat.merged.search.simulations));
    use_effect_with(asked, |asked| {
        if let Some((_, done, _)) = asked {
            crate::hooks::scroll::panel_text_shown(*done);
        }
    });
    // The position the board shows, by its moves, for the graph's caption to say when its
    // point is that one; none for the editor's.
    let board = match board_overlay(game, game.browsing, view, false).showing {
        Showing::Game => Some(played),
        Showing::Browsed(ply) | Showing::Reviewed(ply) => Some(ply),
        Showing::Editor => None,
    };
    html! {
        <>
            // The panel's room is there before the first search, and the graph's frame, so
            // that nothing moves when they fill with the first move (issue 68, item 6).
            if let Some(summary) = summary {
                <SearchPanel {summary} {solved} />
            } else {
                <div class="search-info placeholder" id="search-waiting">
                    <p class="small">{ "The agent's search shows here while it thinks, and so does a hint or an analysis." }</p>
                </div>
            }
            // A person's analysis or hint may run past its time (a proof no clock cuts
            // short): it can be ended at once, with what it has found.
            if stoppable {
                <button id="stop-search" onclick={props.on_stop.reform(|_| ())}
                        title="End the search now and keep what it has found">{ "Stop" }</button>
            }
            <EvalGraph points={graph_points} scale={graph_scale} on_goto={props.on_goto.clone()} {played}
                       {board} />
        </>
    }
}
