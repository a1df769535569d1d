//! The page's side effects, as hooks at the edge of the view, one module a hook, which the
//! controllers (`ctrl`) compose: the one gateway to the worker pool (`gateway`), the
//! built-in networks (`builtin_model`, over `fetch`), the search that follows the game
//! (`search_driver`), the loaders of games from text (`loaders`) and of files a person
//! opens (`files`), the saved game and the address (`persistence`), the game's review
//! (`review`) and a new game, held until the person confirms it (`new_game`); `reducers`
//! holds the game's and the view's reducers as Yew holds them, `test_hooks` the browser
//! tests' hooks on `window`. These talk to the workers (through the gateway alone), the
//! network and local storage; the components only draw.

mod builtin_model;
mod fetch;
mod files;
mod gateway;
mod loaders;
mod new_game;
mod persistence;
mod reducers;
mod review;
pub mod scroll;
mod search_driver;
mod test_hooks;

pub use builtin_model::use_builtin_model;
pub use fetch::fetch_bytes;
pub use files::{open_record, upload_model};
pub use gateway::{use_gateway, Command, Gateway, SearchAsk, SolveAsk};
pub use loaders::{use_loaders, Loaders};
pub use new_game::{use_new_game, NewGameChoice, NewGameFlow};
pub use persistence::{load_linked, set_fragment, storage, use_persistence};
pub use reducers::GameModel;
pub use review::{level_budgets, review_callbacks, review_unavailable, use_review_follows_game};
pub use search_driver::{use_search_driver, SearchWanted};
