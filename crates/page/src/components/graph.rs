//! The evaluation graph: Black's chance to win (or expected discs) over the move number,
//! as plain SVG. A point is a way back to its position; hovering one says the move and
//! its estimate under the graph (and it stays there, to be read); exact results are
//! squares, estimates circles, the live point hollow.

use crate::graph::{bound_towards, cumulative_loss, describe, height, Point, Scale};
use protocol::ReviewedMove;
use yew::prelude::*;

const WIDTH: f32 = 480.0;
const HEIGHT: f32 = 130.0;
const PAD: f32 = 8.0;
/// Above and below the points: the axis labels' bands, so that no point (the live one
/// included) covers "Black wins" or "White wins".
const LABEL_BAND: f32 = 18.0;
/// The cumulative loss chart under the graph: its height, and its legend's band on top.
const LOSS_HEIGHT: f32 = 64.0;
const LEGEND_BAND: f32 = 16.0;

#[derive(Properties, PartialEq)]
pub struct GraphProps {
    pub points: Vec<Point>,
    pub scale: Scale,
    /// Show the position after this many moves (looking changes nothing).
    pub on_goto: Callback<usize>,
    /// The moves the game has played: the points after them are the redo moves', drawn
    /// faded (a move only looked at fades nothing: the game is still all there).
    pub played: usize,
    /// The moves of the position the board shows (a move looked at, or the game's), so
    /// that the caption says when the point it reads is that position.
    pub board: Option<usize>,
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
        let at = (x(p.ply), y(height(&p.estimate?, props.scale)));
        // The end's point is the position after the last move: a redo's only while that
        // move is.
        let later = if p.end.is_some() {
            p.ply - 1 > props.played
        } else {
            p.ply > props.played
        };
        Some(point_mark(p, at, later, &props.on_goto, &hovered))
    });
    let band = use_node_ref();
    let hit = hit_area(props, &x, &hovered, &band);
    let (top, bottom, axis) = axis_labels(props.scale);
    let losses = loss_chart(&props.points, props.played, &x);
    let shown = (*hovered).and_then(|ply| props.points.iter().find(|p| p.ply == ply));
    let on_board = shown.is_some_and(|p| crate::graph::caption::on_board(p.ply, props.board));
    let caption = shown
        .map(|p| crate::graph::caption::caption(describe(p), on_board))
        .unwrap_or_else(|| {
            "Each point: the position a move was played from, as its last search (or the \
         review) valued it. Point at it to read it and see that position here; click or tap \
         it to show it on the board."
                .to_owned()
        });
    // The pointer gone, its point's words go with it, unless that point's position is the
    // board's (the sixteenth look: a hovered point's words stayed after the pointer left).
    let onmouseleave = {
        let (hovered, board) = (hovered.clone(), props.board);
        Callback::from(move |_: MouseEvent| {
            if hovered.is_some_and(|ply| !crate::graph::caption::on_board(ply, board)) {
                hovered.set(None);
            }
        })
    };
    html! {
        <figure class="eval-graph" id="eval-graph">
            <svg {onmouseleave} viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label={format!("Evaluation graph: {axis} after each move")}>
                <rect class="eval-bg" x="0" y="0" width={WIDTH.to_string()} height={(HEIGHT / 2.0).to_string()} />
                <line class="eval-mid" x1={PAD.to_string()} x2={(WIDTH - PAD).to_string()} y1={(HEIGHT / 2.0).to_string()} y2={(HEIGHT / 2.0).to_string()} />
                // The scale's two ends, each with its label just beside it, so that "Black
                // +64" names the line a +64 point stands on (issue 68: the labels sat in
                // their bands with nothing to say where the scale ended).
                <line class="eval-end" id="eval-top" x1={PAD.to_string()} x2={(WIDTH - PAD).to_string()}
                      y1={y(1.0).to_string()} y2={y(1.0).to_string()} />
                <line class="eval-end" id="eval-bottom" x1={PAD.to_string()} x2={(WIDTH - PAD).to_string()}
                      y1={y(0.0).to_string()} y2={y(0.0).to_string()} />
                <text class="eval-axis" id="eval-top-label" x={PAD.to_string()} y={(y(1.0) - 3.0).to_string()}>{ top }</text>
                <text class="eval-axis" id="eval-bottom-label" x={PAD.to_string()} y={(y(0.0) + 12.0).to_string()}>{ bottom }</text>
                { hit }
                { for line }
                { for marks }
            </svg>
            <p class="small" id="graph-axes">{ axes_line(props.scale) }</p>
            { key(props.points.iter().any(|p| p.estimate.as_ref().and_then(bound_towards).is_some())) }
            { for losses }
            <figcaption class="small graph-caption">
                { for shown.map(|p| mini_board(p, on_board)) }
                <span id="graph-caption" aria-live="polite">{ caption }</span>
            </figcaption>
        </figure>
    }
}

/// A point of the graph at `(cx, cy)` (it has an estimate): a square for an exact result,
/// a circle for an estimate, hollow for the live search, faded when `later` than the move
/// on the board (a redo move's); a click goes to its position and hovering puts its
/// description under the graph.
fn point_mark(
    p: &Point,
    (cx, cy): (f32, f32),
    later: bool,
    on_goto: &Callback<usize>,
    hovered: &UseStateHandle<Option<usize>>,
) -> Html {
    let exact = p.estimate.is_some_and(|e| e.exact);
    let ply = p.ply;
    let live = p.is_live();
    // A reviewed move's point carries its mark, so mistakes stand out on the line.
    let mark = p
        .review
        .as_ref()
        .and_then(ReviewedMove::mark)
        .map(engine::review::Mark::name);
    let class = classes!(
        "pt",
        exact.then_some("exact"),
        p.end.is_some().then_some("end"),
        live.then_some("live"),
        (later && !live).then_some("redo"),
        mark
    );
    // A point values the position its move was played from, and shows that one (issue
    // 68: the board showed the position after the move the caption spoke of); the live
    // point's is the position on the board.
    let target = ply - 1;
    // A tap (a phone has no hover) both shows the position and reads the point out.
    let onclick = {
        let (on_goto, hovered) = (on_goto.clone(), hovered.clone());
        Callback::from(move |_| {
            hovered.set(Some(ply));
            on_goto.emit(target);
        })
    };
    let onmouseenter = {
        let hovered = hovered.clone();
        Callback::from(move |_| hovered.set(Some(ply)))
    };
    let title = describe(p);
    // A proven result whose margin is a bound: an arrow pointing past where it stands,
    // not a square that reads as an exact margin at the scale's end.
    if let Some(up) = p.estimate.as_ref().and_then(bound_towards) {
        let (tip, base) = (cy - 5.5 * up, cy + 3.5 * up);
        let points = format!(
            "{cx:.1},{tip:.1} {:.1},{base:.1} {:.1},{base:.1}",
            cx - 4.5,
            cx + 4.5
        );
        return html! {
            <polygon class={classes!(class, "bound")} {points}
                     data-ply={ply.to_string()} {onclick} {onmouseenter}><title>{ title }</title></polygon>
        };
    }
    if exact {
        html! {
            <rect {class} x={format!("{:.1}", cx - 4.0)} y={format!("{:.1}", cy - 4.0)} width="8" height="8"
                  data-ply={ply.to_string()} {onclick} {onmouseenter}><title>{ title }</title></rect>
        }
    } else {
        html! {
            <circle {class} cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r="4"
                    data-ply={ply.to_string()} {onclick} {onmouseenter}><title>{ title }</title></circle>
        }
    }
}

/// The points' tap target: an invisible band over the whole plot, under the points, that
/// takes a tap (or a pointer) anywhere in it to the point nearest across. A point is drawn
/// 6 px wide and a game's points lie 6 px apart on a phone, too close for a finger each;
/// the band is the graph's full height and width (issue 68: the points were the only
/// targets, 6x6 px; 44 px is the least a finger hits without a second try).
fn hit_area(
    props: &GraphProps,
    x: &dyn Fn(usize) -> f32,
    hovered: &UseStateHandle<Option<usize>>,
    band: &NodeRef,
) -> Html {
    // The points that are drawn, with their places across.
    let places: Vec<(usize, f32)> = props
        .points
        .iter()
        .filter(|p| p.estimate.is_some())
        .map(|p| (p.ply, x(p.ply)))
        .collect();
    // Measured on the band itself, through its ref: Yew delegates events to the app's
    // root, so an event's current target is that root, and the band's places were read
    // across the whole page (issue 68: a hover at ply 7's x read "37. e1").
    let band_ref = band.clone();
    let nearest = move |e: &MouseEvent| -> Option<usize> {
        let band = band_ref.cast::<web_sys::Element>()?;
        let r = band.get_bounding_client_rect();
        if r.width() <= 0.0 {
            return None;
        }
        let at =
            PAD + ((f64::from(e.client_x()) - r.left()) / r.width()) as f32 * (WIDTH - 2.0 * PAD);
        places
            .iter()
            .min_by(|a, b| (a.1 - at).abs().total_cmp(&(b.1 - at).abs()))
            .map(|&(ply, _)| ply)
    };
    let onclick = {
        let (nearest, on_goto, hovered) = (nearest.clone(), props.on_goto.clone(), hovered.clone());
        Callback::from(move |e: MouseEvent| {
            if let Some(ply) = nearest(&e) {
                hovered.set(Some(ply));
                on_goto.emit(ply - 1);
            }
        })
    };
    let onmousemove = {
        let hovered = hovered.clone();
        Callback::from(move |e: MouseEvent| {
            let ply = nearest(&e);
            if ply.is_some() && *hovered != ply {
                hovered.set(ply);
            }
        })
    };
    html! {
        <rect class="eval-hit" id="eval-hit" ref={band.clone()} x={PAD.to_string()} y="0" width={(WIDTH - 2.0 * PAD).to_string()}
              height={HEIGHT.to_string()} {onclick} {onmousemove} />
    }
}

/// What the points' shapes and colours mean, drawn with the points' own styles: the review's
/// marks are the table's, but the graph had no word for them (issue 68). Always there, so
/// that a review's coming moves nothing; the proven bound's arrow is named where the graph
/// draws one (`bounds`: the tenth look found it with no word; always there, the key took
/// two lines at 1,100 px and New game fell below the fold).
fn key(bounds: bool) -> Html {
    let swatch = |class: &'static str, square: bool| {
        html! {
            <svg class="graph-key" viewBox="0 0 10 10" aria-hidden="true">
                if square {
                    <rect class={classes!("key-pt", class)} x="1.5" y="1.5" width="7" height="7" />
                } else {
                    <circle class={classes!("key-pt", class)} cx="5" cy="5" r="3.5" />
                }
            </svg>
        }
    };
    html! {
        // One line beside the board: a longer key took the move list below a laptop's fold.
        <p class="small" id="graph-legend">
            { swatch("", false) }{ "estimate " }{ swatch("exact", true) }{ "exact" }
            if bounds {
                { " " }<svg class="graph-key" viewBox="0 0 10 10" aria-hidden="true">
                    <polygon class="key-pt exact" points="5,0.5 9.5,9 0.5,9" />
                </svg>{ "bound" }
            }
            // With the bound's word, "reviewed:" gives it room: the key took two lines at
            // 1,280 px with both (the review's three words are its own anyway).
            { if bounds { "; " } else { "; reviewed: " } }
            { swatch("inaccuracy", false) }{ "inaccuracy " }{ swatch("mistake", false) }{ "mistake " }
            { swatch("blunder", false) }{ "blunder" }
        </p>
    }
}

/// What the graph's two axes are, said under it: the unit changes from game to game (a
/// network with a score output draws discs, one without a chance), so it is never left to
/// be guessed.
fn axes_line(scale: Scale) -> String {
    let Scale::Discs(r) = scale;
    let up = format!(
        "Up: Black's expected final disc margin, on an even scale from White +{r:.0} at the foot to Black +{r:.0} at the top (0 on the middle line)"
    );
    // A book move has its point too, the book's value (the eleventh look: "each move
    // searched" beside a book move's point).
    // No longer than the caption was before it named the book: a line more took New game
    // past its place on a 1280x900 screen.
    format!("{up}; across: the moves, one point for each searched or from the book.")
}

/// The labels at the top and the bottom of the graph, and what its axis measures.
fn axis_labels(scale: Scale) -> (String, String, &'static str) {
    let Scale::Discs(r) = scale;
    (
        format!("Black +{r:.0}"),
        format!("White +{r:.0}"),
        "Black's expected disc margin",
    )
}

/// Each side's discs lost so far, once the game has a review: a step line per side (Black
/// solid, White dashed) under the graph, its moves at the graph's own x positions, and a
/// legend with each side's total, which is its summary's.
fn loss_chart(points: &[Point], played: usize, x: &dyn Fn(usize) -> f32) -> Option<Html> {
    use othello::Color;
    let sides =
        [Color::Black, Color::White].map(|side| (side, cumulative_loss(points, side, played)));
    if sides.iter().all(|(_, line)| line.is_empty()) {
        return None;
    }
    let last = |line: &[(usize, f32)]| line.last().map_or(0.0, |&(_, t)| t);
    // Whole multiples of 4 discs at the top, so the scale reads at a glance.
    let most = sides
        .iter()
        .map(|(_, line)| last(line))
        .fold(4.0f32, f32::max);
    let top = (most / 4.0).ceil() * 4.0;
    let y = |total: f32| LOSS_HEIGHT - PAD - total / top * (LOSS_HEIGHT - PAD - LEGEND_BAND);
    let lines = sides.iter().map(|(side, line)| {
        let name = side.name().to_lowercase();
        // Steps: the total holds until the side's next reviewed move changes it.
        let mut at = vec![(PAD, y(0.0))];
        let mut before = 0.0;
        for &(ply, total) in line {
            at.push((x(ply), y(before)));
            at.push((x(ply), y(total)));
            before = total;
        }
        let points: Vec<String> = at.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        html! {
            <polyline class={classes!("loss-line", name.clone())} id={format!("loss-line-{name}")}
                      points={points.join(" ")} data-final={format!("{:.2}", last(line))} />
        }
    });
    let legend = sides.iter().enumerate().map(|(i, (side, line))| {
        let name = side.name().to_lowercase();
        let x0 = PAD + 150.0 * i as f32 + 150.0;
        html! {
            <>
                <line class={classes!("loss-line", name.clone())} x1={format!("{x0:.1}")} x2={format!("{:.1}", x0 + 16.0)} y1="8" y2="8" />
                <text class="eval-axis" id={format!("loss-total-{name}")} x={format!("{:.1}", x0 + 20.0)} y="11">
                    { format!("{side} {:.2}", last(line)) }
                </text>
            </>
        }
    });
    Some(html! {
        <svg class="loss-graph" id="loss-graph" viewBox={format!("0 0 {WIDTH} {LOSS_HEIGHT}")} role="img"
             aria-label={format!("Discs lost so far by each side, up to {top:.0}")}>
            <text class="eval-axis" x={PAD.to_string()} y="11">{ format!("Discs lost (0-{top:.0})") }</text>
            { for legend }
            <line class="eval-mid" x1={PAD.to_string()} x2={(WIDTH - PAD).to_string()} y1={format!("{:.1}", y(0.0))} y2={format!("{:.1}", y(0.0))} />
            { for lines }
        </svg>
    })
}

/// The position a point values, drawn small beside its words, with the move played from it
/// ringed: what hovering a point shows (issue 68, item 7), without touching the board.
/// Outlined in gold when it is the position the board shows (`on_board`): on a phone the
/// board lies a scroll above, and a tap does not scroll there (docs/web.md).
fn mini_board(point: &Point, on_board: bool) -> Html {
    use othello::{Color, Square};
    let pos = point.before;
    let n = pos.size().n() as f32;
    let cell = 8.0;
    let side = n * cell;
    let discs = Square::all(pos.size()).filter_map(|sq| {
        let color = pos.color_at(sq)?;
        let (cx, cy) = centre(sq, cell);
        let fill = if color == Color::Black { "#111" } else { "#f7f7f7" };
        Some(html! { <circle cx={format!("{cx}")} cy={format!("{cy}")} r="3.2" fill={fill} stroke="#333" stroke-width="0.4" /> })
    });
    let played = point.mv.and_then(othello::Move::square).map(|sq| {
        let (cx, cy) = centre(sq, cell);
        html! { <circle class="mini-played" cx={format!("{cx}")} cy={format!("{cy}")} r="3.4" fill="none" stroke="#e8b923" stroke-width="1.4" /> }
    });
    html! {
        <svg class={classes!("mini-board", on_board.then_some("on-board"))} id="graph-position" viewBox={format!("0 0 {side} {side}")} role="img"
             data-board={pos.to_board_text()} data-played={point.mv.map(|m| m.to_string()).unwrap_or_default()}
             aria-label={format!("The position {} played from", point.mover)}>
            <rect x="0" y="0" width={side.to_string()} height={side.to_string()} fill="#1f7a4d" />
            { for discs }
            { for played }
        </svg>
    }
}

/// The centre of `sq` on a mini board of `cell`-wide squares.
fn centre(sq: othello::Square, cell: f32) -> (f32, f32) {
    let (file, rank) = (f32::from(sq.column()), f32::from(sq.row()));
    (file * cell + cell / 2.0, rank * cell + cell / 2.0)
}
