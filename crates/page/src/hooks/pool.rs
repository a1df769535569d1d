//! The worker pool: started once, its events sent to the view and a finished move search's
//! move to the game; and the test hooks the browser tests reach it through.

use super::GameModel;
use crate::levels::worker_count;
use crate::pool::{Pool, PoolEvent, Purpose};
use crate::state::Action;
use crate::view::{View, ViewAction};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The pool once started; empty for the first render.
pub type PoolHandle = Rc<RefCell<Option<Rc<RefCell<Pool>>>>>;

/// Starts the worker pool once. Its events update the view; a finished move search plays
/// its move (the reducer drops it if the game has moved on).
#[hook]
pub fn use_pool(
    view: UseReducerDispatcher<View>,
    game: UseReducerDispatcher<GameModel>,
) -> PoolHandle {
    let pool: PoolHandle = use_mut_ref(|| None);
    {
        let pool = pool.clone();
        use_effect_with((), move |_| {
            let cores = web_sys::window()
                .map(|w| w.navigator().hardware_concurrency())
                .unwrap_or(1.0);
            let p = Pool::new(worker_count(cores), move |event| {
                if let PoolEvent::Done {
                    purpose: Purpose::Move,
                    position,
                    merged,
                } = &event
                {
                    match merged.best_move() {
                        Some(mv) => game.dispatch(Action::AgentMove {
                            position: *position,
                            mv,
                        }),
                        None => view.dispatch(ViewAction::Message(Some(
                            "The agent's search named no move; undo or start a new game".to_owned(),
                        ))),
                    }
                }
                let done = matches!(event, PoolEvent::Done { .. });
                view.dispatch(ViewAction::Pool(event));
                if done {
                    view.dispatch(ViewAction::Stopped);
                }
            });
            *pool.borrow_mut() = Some(p);
            // Test hooks: the end-to-end tests crash a worker and read the pool size.
            install_test_hooks(pool.clone());
        });
    }
    pool
}

fn install_test_hooks(pool: PoolHandle) {
    use wasm_bindgen::closure::Closure;
    let pool_for_bench = pool.clone();
    let Some(window) = web_sys::window() else {
        return;
    };
    let crash = Closure::<dyn Fn(u32)>::new(move |index: u32| {
        if let Some(p) = pool.borrow().as_ref() {
            p.borrow_mut().crash_worker(index as usize);
        }
    });
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloCrashWorker".into(),
        crash.as_ref().unchecked_ref(),
    );
    crash.forget();
    // othelloBenchNetwork(model, batch, millis, callback): the callback gets positions a
    // second through worker 0's network, or an error string.
    let bench = Closure::<dyn Fn(String, u32, u32, js_sys::Function)>::new(
        move |model: String, batch: u32, millis: u32, callback: js_sys::Function| {
            let answer = Box::new(move |result: Result<f64, String>| {
                let value = match result {
                    Ok(rate) => wasm_bindgen::JsValue::from_f64(rate),
                    Err(error) => wasm_bindgen::JsValue::from_str(&error),
                };
                let _ = callback.call1(&wasm_bindgen::JsValue::NULL, &value);
            });
            match pool_for_bench.borrow().as_ref() {
                Some(p) => p
                    .borrow_mut()
                    .bench_network(0, model, batch, millis, answer),
                None => answer(Err("the workers have not started".to_owned())),
            }
        },
    );
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloBenchNetwork".into(),
        bench.as_ref().unchecked_ref(),
    );
    bench.forget();
}
