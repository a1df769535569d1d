//! The page's parts, as Yew's own examples write them: small function components, one a
//! file, that take data and callbacks, with the state in the controllers (`ctrl`).

mod analysis;
mod board;
mod controls;
mod copy_link;
mod copy_position;
mod counts;
mod difficulty;
mod editor;
mod game_over;
mod game_picker;
mod graph;
mod moves;
mod network;
mod new_game;
mod notice;
mod puzzle_rating;
mod review;
mod search_panel;
mod text_box;
mod watch;

pub use analysis::AnalysisForm;
pub use board::Board;
pub use controls::Controls;
pub use copy_link::CopyLink;
pub use counts::Counts;
pub use difficulty::DifficultyPicker;
pub use editor::EditorPanel;
pub use game_over::{download_time, GameOver};
pub use graph::EvalGraph;
pub use moves::MoveList;
pub use network::NetworkPanel;
pub use new_game::NewGame;
pub use notice::Notice;
pub use puzzle_rating::PuzzleRating;
pub use review::ReviewPanel;
pub use search_panel::SearchPanel;
pub use watch::WatchControls;
