//! The evaluation graph: Black's chance to win (or expected discs) over the move number,
//! as plain SVG. A point is a way back to its position; hovering one says the move and
//! its estimate under the graph (and it stays there, to be read); exact results are
//! squares, estimates circles, the live point hollow.

use crate::graph::{describe, height, Point, Scale};
use yew::prelude::*;

const WIDTH: f32 = 480.0;
const HEIGHT: f32 = 130.0;
const PAD: f32 = 8.0;
/// Above and below the points: the axis labels' bands, so that no point (the live one
/// included) covers "Black wins" or "White wins".
const LABEL_BAND: f32 = 18.0;

#[derive(Properties, PartialEq)]
pub struct GraphProps {
    pub points: Vec<Point>,
    pub scale: Scale,
    /// Go to the position after this many moves.
    pub on_goto: Callback<usize>,
}

#[function_component(EvalGraph)]
pub fn eval_graph(props: &GraphProps) -> Html {
    let hovered = use_state(|| None::<usize>);
    // Early in a game the points spread over the width; a longer game squeezes them.
    let span = props.points.len().max(20) as f32;
    let x = |ply: usize| PAD + (ply as f32 - 0.5) / span * (WIDTH - 2.0 * PAD);
    let y = |h: f32| HEIGHT - LABEL_BAND - h * (HEIGHT - 2.0 * LABEL_BAND);
    // The line joins the points that have an estimate; a move without one (the person's,
    // with no hint) has no point of its own, so the line runs past it.
    let line: Vec<String> = props
        .points
        .iter()
        .filter_map(|p| p.estimate.map(|e| (x(p.ply), y(height(&e, props.scale)))))
        .map(|(a, b)| format!("{a:.1},{b:.1}"))
        .collect();
    let line = (line.len() > 1).then(|| {
        html! { <polyline class="eval-line" points={line.join(" ")} /> }
    });
    let marks = props.points.iter().filter_map(|p| {
        let e = p.estimate?;
        let (cx, cy) = (x(p.ply), y(height(&e, props.scale)));
        let ply = p.ply;
        let live = p.mv.is_none();
        // A reviewed move's point carries its mark, so mistakes stand out on the line.
        let mark = p.review.and_then(|r| r.mark()).map(engine::review::Mark::name);
        let class = classes!(
            "pt",
            e.exact.then_some("exact"),
            live.then_some("live"),
            mark
        );
        // The live point's move is not played yet: it goes to the position on the board.
        let target = if live { ply - 1 } else { ply };
        let onclick = props.on_goto.reform(move |_| target);
        let onmouseenter = {
            let hovered = hovered.clone();
            Callback::from(move |_| hovered.set(Some(ply)))
        };
        let title = describe(p);
        Some(if e.exact {
            html! {
                <rect {class} x={format!("{:.1}", cx - 4.0)} y={format!("{:.1}", cy - 4.0)} width="8" height="8"
                      data-ply={ply.to_string()} {onclick} {onmouseenter}><title>{ title }</title></rect>
            }
        } else {
            html! {
                <circle {class} cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r="4"
                        data-ply={ply.to_string()} {onclick} {onmouseenter}><title>{ title }</title></circle>
            }
        })
    });
    let (top, bottom, axis) = match props.scale {
        Scale::Percent => (
            "Black wins".to_owned(),
            "White wins".to_owned(),
            "Black's chance to win",
        ),
        Scale::Discs(r) => (
            format!("Black +{r:.0}"),
            format!("White +{r:.0}"),
            "Black's expected disc margin",
        ),
    };
    let caption = (*hovered)
        .and_then(|ply| props.points.iter().find(|p| p.ply == ply))
        .map(describe)
        .unwrap_or_else(|| {
            "Each point: the search before that move. Hover to read it, click to go there."
                .to_owned()
        });
    html! {
        <figure class="eval-graph" id="eval-graph">
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label={format!("Evaluation graph: {axis} after each move")}>
                <rect class="eval-bg" x="0" y="0" width={WIDTH.to_string()} height={(HEIGHT / 2.0).to_string()} />
                <line class="eval-mid" x1={PAD.to_string()} x2={(WIDTH - PAD).to_string()} y1={(HEIGHT / 2.0).to_string()} y2={(HEIGHT / 2.0).to_string()} />
                <text class="eval-axis" x={PAD.to_string()} y="12">{ top }</text>
                <text class="eval-axis" x={PAD.to_string()} y={(HEIGHT - 3.0).to_string()}>{ bottom }</text>
                { for line }
                { for marks }
            </svg>
            <figcaption class="small" id="graph-caption" aria-live="polite">{ caption }</figcaption>
        </figure>
    }
}
