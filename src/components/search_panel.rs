//! What the agent's search says: its win estimate, principal variation and speed, or the
//! exact solver's verdict when it settled the position.

use crate::view::Heat;
use othello::Color;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SearchPanelProps {
    pub heat: Heat,
}

fn side_name(color: Color) -> &'static str {
    color.name()
}

#[function_component(SearchPanel)]
pub fn search_panel(props: &SearchPanelProps) -> Html {
    let h = &props.heat;
    let who = side_name(h.side);
    let merged = &h.merged;
    let pv: Vec<String> = merged.pv.iter().map(|m| m.to_string()).collect();
    let rate = merged.simulations_per_second();
    let workers = merged.per_worker_rate.len().max(1);
    let solved = merged.solved.map(|s| {
        let verdict = match s.margin {
            m if m > 0 => format!("{who} wins by {m}"),
            m if m < 0 => format!("{who} loses by {}", -m),
            _ => "a draw".to_owned(),
        };
        let seconds = s.micros as f64 / 1e6;
        html! {
            <p id="solved" data-best={s.best.to_string()} data-margin={s.margin.to_string()}
               data-nodes={s.nodes.to_string()} data-micros={s.micros.to_string()}>
                { format!("Solved exactly: {} is best, {verdict} with perfect play ", s.best) }
                <span class="small">{ format!("({} solver nodes in {seconds:.2} s)", s.nodes) }</span>
            </p>
        }
    });
    html! {
        <div id="search-info" class="search-info"
             data-simulations={merged.simulations.to_string()}
             data-rate={format!("{rate:.0}")}
             data-workers={workers.to_string()}
             data-elapsed={format!("{:.0}", merged.elapsed_ms)}>
            if let Some(solved) = solved {
                { solved }
            } else {
                <p>{ format!("Win estimate for {who}{}: {:.0}%", if h.done { "" } else { " (to move)" }, merged.win_probability() * 100.0) }</p>
                if let Some(score) = merged.score {
                    <p id="score-estimate" data-discs={format!("{score:.1}")}>{ format!("Expected result for {who}: {score:+.0} discs") }</p>
                }
                <p>{ format!("Principal variation: {}", if pv.is_empty() { "—".to_owned() } else { pv.join(" ") }) }</p>
                <p class="small">{ format!("{} simulations, {:.0}/s on {} worker{}", merged.simulations, rate, workers, if workers == 1 { "" } else { "s" }) }</p>
            }
        </div>
    }
}
