//! The browser tests' hooks on `window`: what the tests ask of the pool besides a person's
//! clicks (a worker's crash, its benchmarks, a match's moves). Only the tests call them.

use crate::pool::lone::{self, Turn};
use crate::pool::Pool;
use engine::PlayerSpec;
use othello::Move;
use protocol::{Report, SearchRequest, WireBudget};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The browser tests' hooks: `othelloCrashWorker(index)` makes a worker panic,
/// `othelloBenchNetwork(model, batch, millis, callback)` gives the callback the positions
/// a second through worker 0's network, `othelloBenchAlphaBeta(model, depth, millis,
/// callback)` worker 0's alpha-beta nodes a second over a pattern network's tables,
/// `othelloBenchTables(model, callback)` the milliseconds worker 0 takes to build the
/// stages of a pattern network's tables that no search has built (or an error string), and
/// `othelloPlayMove(spec, transcript, millis, seed, callback)` the next move of an 8x8 game
/// searched by worker 0 alone (`play_move`).
pub(super) fn install(pool: &Rc<RefCell<Pool>>) {
    use wasm_bindgen::closure::Closure;
    let Some(window) = web_sys::window() else {
        return;
    };
    let crashed = pool.clone();
    let crash = Closure::<dyn Fn(u32)>::new(move |index: u32| {
        crashed.borrow_mut().crash_worker(index as usize);
    });
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloCrashWorker".into(),
        crash.as_ref().unchecked_ref(),
    );
    crash.forget();
    install_bench(&window, pool, "othelloBenchNetwork", Pool::bench_network);
    install_bench(
        &window,
        pool,
        "othelloBenchAlphaBeta",
        Pool::bench_alphabeta,
    );
    let tables_pool = pool.clone();
    let tables = Closure::<dyn Fn(String, js_sys::Function)>::new(
        move |model: String, callback: js_sys::Function| {
            tables_pool
                .borrow_mut()
                .bench_tables(0, model, answer_to(callback));
        },
    );
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloBenchTables".into(),
        tables.as_ref().unchecked_ref(),
    );
    tables.forget();
    let lone_pool = pool.clone();
    let play = Closure::<dyn Fn(String, String, u32, u32, js_sys::Function)>::new(
        move |spec: String,
              transcript: String,
              millis: u32,
              seed: u32,
              callback: js_sys::Function| {
            play_move(&lone_pool, &spec, &transcript, millis, seed, callback);
        },
    );
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloPlayMove".into(),
        play.as_ref().unchecked_ref(),
    );
    play.forget();
}

/// The next move of the 8x8 game `transcript`, as a match between two pages plays it
/// (`tests/e2e/equal-time.measure.mjs`): `spec` (a player spec naming a network worker 0
/// holds) searches for `millis` with `seed`, and the callback gets `lone::answer`'s JSON,
/// or the error's words. A forced pass, or a game already over, is answered at once.
fn play_move(
    pool: &Rc<RefCell<Pool>>,
    spec: &str,
    transcript: &str,
    millis: u32,
    seed: u32,
    callback: js_sys::Function,
) {
    let reply = move |answer: Result<String, String>| {
        let text = answer.unwrap_or_else(|error| format!("error: {error}"));
        let _ = callback.call1(&wasm_bindgen::JsValue::NULL, &text.into());
    };
    let player = match spec.parse::<PlayerSpec>() {
        Ok(player) => player,
        Err(error) => return reply(Err(format!("the spec '{spec}': {error}"))),
    };
    let (game, turn) = match lone::next_turn(transcript) {
        Ok(next) => next,
        Err(error) => return reply(Err(error)),
    };
    let position = match turn {
        Turn::Over => return reply(lone::answer(game, None, None)),
        Turn::Pass => return reply(lone::answer(game, Some(Move::Pass), None)),
        Turn::Search(position) => position,
    };
    let request = SearchRequest {
        id: 0,
        board: position.to_board_text(),
        variant: position.variant(),
        player,
        budget: WireBudget {
            simulations: None,
            millis: Some(u64::from(millis)),
        },
        seed: u64::from(seed),
        every_move: false,
    };
    let done = Box::new(move |result: Result<Report, String>| {
        reply(result.and_then(|report| {
            let mv = lone::chosen_move(&report).ok_or("the search chose no move")?;
            lone::answer(game, Some(mv), Some(&report))
        }));
    });
    pool.borrow_mut().search_alone(0, request, done);
}

/// A bench of the pool's (network or alpha-beta: the model, one number, the milliseconds,
/// the answer) as the test hook `name(model, n, millis, callback)` on `window`, run on
/// worker 0.
fn install_bench(
    window: &web_sys::Window,
    pool: &Rc<RefCell<Pool>>,
    name: &str,
    bench: fn(&mut Pool, usize, String, u32, u32, crate::pool::BenchAnswer),
) {
    use wasm_bindgen::closure::Closure;
    let pool = pool.clone();
    let hook = Closure::<dyn Fn(String, u32, u32, js_sys::Function)>::new(
        move |model: String, n: u32, millis: u32, callback: js_sys::Function| {
            bench(
                &mut pool.borrow_mut(),
                0,
                model,
                n,
                millis,
                answer_to(callback),
            );
        },
    );
    let _ = js_sys::Reflect::set(window, &name.into(), hook.as_ref().unchecked_ref());
    hook.forget();
}

/// A bench's answer for a test's callback: the rate as a number, or the error's words.
fn answer_to(callback: js_sys::Function) -> crate::pool::BenchAnswer {
    Box::new(move |result: Result<f64, String>| {
        let value = match result {
            Ok(rate) => wasm_bindgen::JsValue::from_f64(rate),
            Err(error) => wasm_bindgen::JsValue::from_str(&error),
        };
        let _ = callback.call1(&wasm_bindgen::JsValue::NULL, &value);
    })
}
