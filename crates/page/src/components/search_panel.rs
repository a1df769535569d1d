//! What a search says, as `explain::search_summary` words it: whose search it is, the
//! estimate from the person's side (or the exact solver's verdict), the principal
//! variation and the speed. The agent's past search is drawn dimmed.

use crate::explain::Summary;
use crate::format::thousands;
use protocol::SolvedStat;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SearchPanelProps {
    pub summary: Summary,
    pub solved: Option<SolvedStat>,
}

#[function_component(SearchPanel)]
pub fn search_panel(props: &SearchPanelProps) -> Html {
    let s = &props.summary;
    let solved = props.solved.map(|solved| {
        html! {
            <p id="solved" data-best={solved.best.to_string()} data-margin={solved.margin.to_string()}
               data-exact={solved.exact.to_string()}
               data-nodes={solved.nodes.to_string()} data-micros={solved.micros.to_string()}>
                { s.verdict.clone().unwrap_or_default() }
                <span class="small">{ format!(" ({} positions solved in {})", thousands(solved.nodes), crate::format::solve_time(solved.micros)) }</span>
            </p>
        }
    });
    html! {
        <div id="search-info" class={classes!("search-info", s.kind)}
             data-kind={s.kind}
             data-simulations={s.simulations.to_string()}
             data-rate={format!("{:.0}", s.rate)}
             data-workers={s.workers.to_string()}
             // To the microsecond: the rate is taken over the exact time, and a 9 ms search
             // rounded to whole milliseconds would not give it back.
             data-elapsed={format!("{:.3}", s.elapsed_ms)}>
            <p class="heading" id="search-heading">{ s.heading.clone() }</p>
            if let Some(solved) = solved {
                { solved }
            } else if let Some(verdict) = s.verdict.clone() {
                <p id="estimate">{ verdict }</p>
            }
            if let Some(note) = s.proving.clone() {
                <p class="small" id="proving">{ note }</p>
            }
            if let Some(pv) = s.pv.clone() {
                <p class="pv" title={pv.clone()}>{ pv }</p>
            }
            if let Some(speed) = s.speed.clone() {
                <p class="small" id="speed">{ speed }</p>
            }
        </div>
    }
}
