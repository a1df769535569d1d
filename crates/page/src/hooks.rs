//! The page's side effects, as hooks at the edge of the view, one module a hook: the
//! worker pool (`pool`), the built-in networks (`builtin_model`, over `fetch`), the search
//! that follows the game (`search_driver`), the loaders of games from text (`loaders`) and
//! of files a person opens (`files`), the saved game (`persistence`) and the game's review
//! (`review`), a new game, held until the person confirms it (`new_game`), and Puzzle
//! mode's record, files and the proving of a reviewed game's mistakes (`puzzles`); `reducers`
//! holds the reducers' state as Yew holds it. The components only draw; these talk to the
//! workers, the network and local storage.

mod builtin_model;
mod fetch;
mod files;
mod loaders;
mod new_game;
mod persistence;
mod pool;
mod puzzles;
mod reducers;
mod review;
mod search_driver;

pub use builtin_model::use_builtin_model;
pub use files::{open_record, upload_model};
pub use loaders::{use_loaders, Loaders};
pub use new_game::{use_new_game, NewGameChoice, NewGameFlow};
pub use persistence::{load_linked, set_fragment, use_persistence};
pub use pool::{use_pool, PoolHandle};
pub use puzzles::{
    solve_callback, use_mistake_finder, use_puzzle_file, use_puzzle_record, PuzzleFile,
    RecordAction, RecordModel, SolveAsk,
};
pub use reducers::GameModel;
pub use review::{review_callbacks, review_unavailable, use_review_follows_game};
pub use search_driver::{use_search_driver, SearchWanted};
