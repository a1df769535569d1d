//! The page's parts, as Yew's own examples write them: small function components that
//! take data and a callback, with the state in the `App` that owns the reducers.

mod analysis;
mod board;
mod controls;
mod editor;
mod graph;
mod moves;
mod network;
mod review;
mod search_panel;
mod settings;
mod text_box;

pub use analysis::AnalysisForm;
pub use board::Board;
pub use controls::{Controls, Counts, GameOver, WatchControls};
pub use editor::EditorPanel;
pub use graph::EvalGraph;
pub use moves::MoveList;
pub use network::NetworkPanel;
pub use review::ReviewPanel;
pub use search_panel::SearchPanel;
pub use settings::{DifficultyPicker, NewGame};
