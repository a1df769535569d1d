//! The one way to the workers: the pool, started once, takes typed [`Command`]s here and
//! nowhere else, and its events come back here to the reducers. So this is the one place
//! that tells the view a search started (`ViewAction::Started`, as it is sent) and ended
//! (`ViewAction::Stopped`, when it is done, failed or stopped): the view's `searching` is
//! the page's one record of what is searched, and the pool keeps only its workers' parts.
//! The browser tests' hooks on `window` (`test_hooks`) reach the pool from here too.

use super::GameModel;
use crate::levels::{analysis, worker_count};
use crate::pool::{Pool, PoolEvent, Purpose};
use crate::review::ReviewOrder;
use crate::state::Action;
use crate::view::{View, ViewAction};
use engine::PlayerSpec;
use othello::{BoardSize, Game, Position, Variant};
use protocol::{PuzzleAsk, PuzzleReply, WireBudget};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What the page asks of the workers.
pub enum Command {
    /// The agent's move: searched, and played when the search ends (the game reducer
    /// drops it if the game has moved on).
    Move(SearchAsk),
    /// A suggestion for the person.
    Hint(SearchAsk),
    /// Analysis mode's search, with the game's player and budget (`levels::analysis`
    /// turns them into the analysis's).
    Analyse(SearchAsk),
    /// The search under way ends now and its results stand (a person's Stop).
    Finish,
    /// Nothing is wanted searched: the search under way ends and its results are dropped,
    /// unless it is a hint for the position with this hash.
    Stop {
        unless_hint_of: u64,
    },
    Review(ReviewAsk),
    CancelReview,
    /// A solve for Puzzle mode.
    Solve(SolveAsk),
    /// A network for every worker; the answer reaches the view as a pool event.
    LoadModel(Network),
}

/// A search: the position, the budget, the player (a spec the workers build), and the
/// page's id of the game it is for (`GameModel::id`), whose graph its estimates join.
pub struct SearchAsk {
    pub game_id: u64,
    pub position: Position,
    pub budget: WireBudget,
    pub player: PlayerSpec,
}

/// A game's review: its moves valued by `player` at `budget` a move in `order`, and what
/// it judges with, in words.
pub struct ReviewAsk {
    /// The page's id of the game (`GameModel::id`): the review is that game's alone.
    pub game_id: u64,
    pub game: Game,
    pub player: PlayerSpec,
    pub budget: WireBudget,
    pub order: ReviewOrder,
    pub judged: String,
}

/// A solve for Puzzle mode: the position, what to find, the node budget, and who hears it.
#[derive(Clone)]
pub struct SolveAsk {
    pub position: Position,
    pub ask: PuzzleAsk,
    pub max_nodes: u64,
    pub answer: Callback<PuzzleReply>,
}

/// A network as the workers get it: its name, its board, the ONNX bytes and the card.
pub struct Network {
    pub name: String,
    pub size: BoardSize,
    pub variant: Variant,
    pub onnx: Rc<Vec<u8>>,
    pub card: String,
}

/// The gateway: cheap to clone, one pool behind every clone.
#[derive(Clone)]
pub struct Gateway {
    pool: Rc<RefCell<Pool>>,
    view: UseReducerDispatcher<View>,
}

impl PartialEq for Gateway {
    fn eq(&self, other: &Gateway) -> bool {
        Rc::ptr_eq(&self.pool, &other.pool)
    }
}

/// Starts the worker pool with the page (one worker per core but one, at most four). Its
/// events update the view; a finished move search plays its move.
#[hook]
pub fn use_gateway(
    game: UseReducerDispatcher<GameModel>,
    view: UseReducerDispatcher<View>,
) -> Gateway {
    let pool = {
        let view = view.clone();
        use_memo((), move |()| {
            let pool = start_pool(game, view);
            super::test_hooks::install(&pool);
            pool
        })
    };
    Gateway {
        pool: (*pool).clone(),
        view,
    }
}

fn start_pool(
    game: UseReducerDispatcher<GameModel>,
    view: UseReducerDispatcher<View>,
) -> Rc<RefCell<Pool>> {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    Pool::new(worker_count(cores), move |event| {
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
        let ended = matches!(event, PoolEvent::Done { .. } | PoolEvent::Failed { .. });
        view.dispatch(ViewAction::Pool(event));
        if ended {
            view.dispatch(ViewAction::Stopped);
        }
    })
}

impl Gateway {
    /// Does what `command` asks.
    pub fn send(&self, command: Command) {
        let mut pool = self.pool.borrow_mut();
        match command {
            Command::Move(ask) => self.search(&mut pool, Purpose::Move, ask),
            Command::Hint(ask) => self.search(&mut pool, Purpose::Hint, ask),
            Command::Analyse(SearchAsk {
                game_id,
                position,
                budget,
                player,
            }) => {
                let (budget, player) = analysis(&player, budget);
                let ask = SearchAsk {
                    game_id,
                    position,
                    budget,
                    player,
                };
                self.search(&mut pool, Purpose::Analysis, ask);
            }
            Command::Finish => {
                // Before the pool's last reports arrive, so that they read as stopped.
                self.view.dispatch(ViewAction::Finishing);
                pool.finish_now();
            }
            Command::Stop { unless_hint_of } => {
                if pool.stop_unless_hint(unless_hint_of) {
                    self.view.dispatch(ViewAction::Stopped);
                }
            }
            Command::Review(ask) => {
                let moves = ask
                    .game
                    .positions()
                    .iter()
                    .copied()
                    .zip(ask.game.moves().iter().copied())
                    .collect();
                let id = pool.review(moves, ask.player, ask.budget, ask.order);
                self.view.dispatch(ViewAction::ReviewStarted(
                    id,
                    (ask.game_id, ask.game),
                    (ask.judged, ask.budget.simulations.unwrap_or_default()),
                ));
            }
            Command::CancelReview => {
                pool.cancel_review();
                self.view.dispatch(ViewAction::ReviewCancelled);
            }
            Command::Solve(ask) => {
                let answer = ask.answer;
                let done = Box::new(move |reply| answer.emit(reply));
                pool.solve_puzzle(&ask.position, ask.ask, ask.max_nodes, done);
            }
            Command::LoadModel(n) => pool.load_model(n.name, n.size, n.variant, n.onnx, n.card),
        }
    }

    /// The same as a callback, for a part that asks for one command.
    pub fn callback<T: 'static>(&self, command: impl Fn(T) -> Command + 'static) -> Callback<T> {
        let gateway = self.clone();
        Callback::from(move |value| gateway.send(command(value)))
    }

    fn search(&self, pool: &mut Pool, purpose: Purpose, ask: SearchAsk) {
        let SearchAsk {
            game_id,
            position,
            budget,
            player,
        } = ask;
        // A question's searcher, as the pool builds it, to know one asked again.
        let asked = (purpose != Purpose::Move)
            .then(|| format!("{} {budget:?}", crate::levels::question(&player)));
        pool.search(purpose, &position, budget, player);
        self.view.dispatch(ViewAction::Started(
            purpose,
            position.hash(),
            position.side_to_move(),
            game_id,
        ));
        if let Some(spec) = asked {
            self.view.dispatch(ViewAction::Asked(position.hash(), spec));
        }
    }

    /// How many workers the pool runs and which build of the worker (for the tests, on
    /// `<main>`).
    pub fn workers(&self) -> (usize, &'static str) {
        let pool = self.pool.borrow();
        (pool.worker_count(), pool.worker_build().name())
    }
}
