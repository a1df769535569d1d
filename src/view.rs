//! What the page shows besides the game: the search running now and its latest merged
//! report (the heat map), the hint, the networks and their state, messages. One value
//! changed only by [`ViewAction`]s in a reducer, so it is tested without a browser; the
//! worker pool's events arrive as actions too.

use crate::merge::Merged;
use crate::models::builtin_for;
use crate::state::{GameState, Seats};
use engine::{PlayerKind, PlayerSpec};
use othello::{BoardSize, Color, Move, Variant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The agent's move: played when the search ends.
    Move,
    /// A suggestion for the person.
    Hint,
    /// Analysis mode: shown, never played.
    Analysis,
}

/// What the worker pool tells the view.
#[derive(Clone, Debug, PartialEq)]
pub enum PoolEvent {
    Progress {
        purpose: Purpose,
        position: u64,
        merged: Merged,
    },
    Done {
        purpose: Purpose,
        position: u64,
        merged: Merged,
    },
    /// The search could not run; `size` and `variant` name the board, so the view can
    /// retire a network that fails.
    Failed {
        purpose: Purpose,
        position: u64,
        size: BoardSize,
        variant: Variant,
        error: String,
    },
    ModelLoaded {
        name: String,
        size: BoardSize,
        variant: Variant,
    },
    ModelRejected {
        name: String,
        error: String,
    },
    WorkerRestarted {
        index: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum ModelStatus {
    Loading(String),
    Ready(String),
    /// The network could not be used; alpha-beta plays instead.
    Failed(String),
}

/// The latest report of a search, with what it was about.
#[derive(Clone, Debug, PartialEq)]
pub struct Heat {
    pub position: u64,
    pub purpose: Purpose,
    pub side: Color,
    pub merged: Merged,
    pub done: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct View {
    pub heat: Option<Heat>,
    /// The search running now: its purpose, position and side to move.
    pub searching: Option<(Purpose, u64, Color)>,
    pub hint: Option<(u64, Move)>,
    pub models: Vec<((BoardSize, Variant), ModelStatus)>,
    pub message: Option<String>,
    pub restarts: u32,
}

pub enum ViewAction {
    Started(Purpose, u64, Color),
    Stopped,
    Pool(PoolEvent),
    Model(BoardSize, Variant, ModelStatus),
    Message(Option<String>),
}

impl View {
    pub fn model(&self, size: BoardSize, variant: Variant) -> Option<&ModelStatus> {
        self.models
            .iter()
            .find(|(key, _)| *key == (size, variant))
            .map(|(_, s)| s)
    }

    fn set_model(&mut self, size: BoardSize, variant: Variant, status: ModelStatus) {
        self.models.retain(|(key, _)| *key != (size, variant));
        self.models.push(((size, variant), status));
    }

    /// Who thinks for this board, as a player spec: the network loaded for it, or the
    /// classic alpha-beta player when there is none; `None` while its network is still
    /// loading.
    pub fn player(&self, size: BoardSize, variant: Variant) -> Option<PlayerSpec> {
        let alphabeta = PlayerSpec::new(PlayerKind::AlphaBeta);
        match self.model(size, variant) {
            Some(ModelStatus::Ready(name)) => Some(PlayerSpec {
                model: Some(name.clone()),
                ..PlayerSpec::new(PlayerKind::Mcts)
            }),
            Some(ModelStatus::Loading(_)) => None,
            Some(ModelStatus::Failed(_)) => Some(alphabeta),
            None if builtin_for(size, variant).is_some() => None,
            None => Some(alphabeta),
        }
    }

    /// Draws a report of the search running now; stale ones (from a search the page has
    /// since replaced) are dropped.
    fn show(&mut self, purpose: Purpose, position: u64, merged: Merged, done: bool) {
        let Some((_, _, side)) = self
            .searching
            .filter(|&(p, h, _)| p == purpose && h == position)
        else {
            return;
        };
        self.heat = Some(Heat {
            position,
            purpose,
            side,
            merged,
            done,
        });
    }

    /// The state after `action`.
    pub fn apply(&self, action: ViewAction) -> View {
        let mut next = self.clone();
        match action {
            ViewAction::Started(purpose, hash, side) => {
                next.searching = Some((purpose, hash, side));
                if purpose == Purpose::Hint {
                    next.hint = None;
                }
            }
            ViewAction::Stopped => next.searching = None,
            ViewAction::Pool(event) => next.hear(event),
            ViewAction::Model(size, variant, status) => next.set_model(size, variant, status),
            ViewAction::Message(message) => next.message = message,
        }
        next
    }

    fn hear(&mut self, event: PoolEvent) {
        match event {
            PoolEvent::Progress {
                purpose,
                position,
                merged,
            } => self.show(purpose, position, merged, false),
            PoolEvent::Done {
                purpose,
                position,
                merged,
            } => {
                if purpose == Purpose::Hint {
                    self.hint = merged.best_move().map(|mv| (position, mv));
                }
                self.show(purpose, position, merged, true);
            }
            PoolEvent::Failed {
                size,
                variant,
                error,
                ..
            } => {
                self.searching = None;
                // A network that fails to search is retired for its board: alpha-beta
                // takes over and the game goes on.
                if matches!(self.model(size, variant), Some(ModelStatus::Ready(_))) {
                    self.set_model(size, variant, ModelStatus::Failed(error.clone()));
                }
                self.message = Some(format!("The search failed: {error}"));
            }
            PoolEvent::ModelLoaded {
                name,
                size,
                variant,
            } => self.set_model(size, variant, ModelStatus::Ready(name)),
            PoolEvent::ModelRejected { name, error } => {
                self.message = Some(format!("The model {name} was rejected: {error}"));
                // A built-in network that fails leaves its board to alpha-beta.
                let loading: Vec<(BoardSize, Variant)> = self
                    .models
                    .iter()
                    .filter(|(_, s)| *s == ModelStatus::Loading(name.clone()))
                    .map(|(key, _)| *key)
                    .collect();
                for (size, variant) in loading {
                    self.set_model(size, variant, ModelStatus::Failed(error.clone()));
                }
            }
            PoolEvent::WorkerRestarted { .. } => self.restarts += 1,
        }
    }
}

/// The line under the board: whose turn, a pass, the result.
pub fn status_line(game: &GameState, player_ready: bool) -> String {
    let pos = game.position();
    let you = match game.seats {
        Seats::Human(c) => Some(c),
        _ => None,
    };
    if let Some(outcome) = pos.outcome() {
        let who = match (outcome.winner(), you) {
            (Some(w), Some(y)) if w == y => " You win!",
            (Some(_), Some(_)) => " The agent wins.",
            _ => "",
        };
        return format!("Game over: {outcome}.{who}");
    }
    let mover = pos.side_to_move().name();
    let pass = game
        .pass_notice()
        .map(|p| format!("{p}. "))
        .unwrap_or_default();
    if game.agent_to_move() && !player_ready {
        format!("{pass}Loading the network…")
    } else if game.agent_to_move() {
        format!("{pass}{mover} (the agent) is thinking…")
    } else if game.seats == Seats::Analysis {
        format!("{pass}Analysis: {mover} to move")
    } else {
        format!("{pass}{mover} to move: your turn")
    }
}

/// The line under the title: who the agent is on this board.
pub fn model_line(view: &View, size: BoardSize, variant: Variant) -> String {
    match view.model(size, variant) {
        Some(ModelStatus::Loading(name)) => format!("Loading network {name}…"),
        Some(ModelStatus::Ready(name)) => format!("Network: {name}"),
        Some(ModelStatus::Failed(error)) => {
            format!("Network unavailable ({error}); the classic alpha-beta player plays instead")
        }
        None => format!("No network for {size} {variant}; the classic alpha-beta player plays"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::EngineKind;

    fn merged(best: &str) -> Merged {
        let mv = Move::parse(best, BoardSize::Eight).expect("a move");
        Merged {
            engine: EngineKind::Network,
            moves: vec![crate::merge::MergedMove {
                mv,
                visits: 10,
                share: 1.0,
                q: 0.2,
                proof: None,
            }],
            pv: vec![mv],
            value: 0.2,
            score: None,
            simulations: 10,
            elapsed_ms: 5.0,
            per_worker_rate: vec![2000.0],
            solved: None,
        }
    }

    fn loaded(view: &View, name: &str) -> View {
        view.apply(ViewAction::Pool(PoolEvent::ModelLoaded {
            name: name.into(),
            size: BoardSize::Eight,
            variant: Variant::Standard,
        }))
    }

    #[test]
    fn the_player_is_the_loaded_network_or_alpha_beta_and_none_while_loading() {
        let view = View::default();
        assert_eq!(view.player(BoardSize::Eight, Variant::Standard), None);
        assert_eq!(
            view.player(BoardSize::Six, Variant::Reversed)
                .map(|p| p.to_string()),
            Some("alphabeta".to_owned())
        );
        let view = loaded(&view, "az-8x8");
        assert_eq!(
            view.player(BoardSize::Eight, Variant::Standard)
                .map(|p| p.to_string()),
            Some("mcts:model=az-8x8".to_owned())
        );
    }

    #[test]
    fn a_failed_search_retires_the_network_for_its_board() {
        let view = loaded(&View::default(), "az-8x8").apply(ViewAction::Pool(PoolEvent::Failed {
            purpose: Purpose::Move,
            position: 1,
            size: BoardSize::Eight,
            variant: Variant::Standard,
            error: "broken".into(),
        }));
        assert_eq!(
            view.player(BoardSize::Eight, Variant::Standard)
                .map(|p| p.kind),
            Some(PlayerKind::AlphaBeta)
        );
        assert_eq!(view.message.as_deref(), Some("The search failed: broken"));
    }

    #[test]
    fn reports_of_a_replaced_search_are_dropped_and_a_hint_is_kept() {
        let view = View::default().apply(ViewAction::Started(Purpose::Hint, 7, Color::Black));
        let stale = view.apply(ViewAction::Pool(PoolEvent::Progress {
            purpose: Purpose::Hint,
            position: 8,
            merged: merged("d3"),
        }));
        assert_eq!(stale.heat, None);
        let done = view.apply(ViewAction::Pool(PoolEvent::Done {
            purpose: Purpose::Hint,
            position: 7,
            merged: merged("d3"),
        }));
        assert!(done.heat.as_ref().is_some_and(|h| h.done));
        assert_eq!(
            done.hint,
            Some((7, Move::parse("d3", BoardSize::Eight).expect("a move")))
        );
    }

    #[test]
    fn the_status_says_whose_turn_and_the_result() {
        let start = othello::Position::start(BoardSize::Eight, Variant::Standard);
        let game = GameState::new(start, Seats::Human(Color::White));
        assert_eq!(status_line(&game, false), "Loading the network…");
        assert_eq!(status_line(&game, true), "Black (the agent) is thinking…");
        let game = GameState::new(start, Seats::Human(Color::Black));
        assert_eq!(status_line(&game, true), "Black to move: your turn");
        let game = GameState::new(start, Seats::Analysis);
        assert_eq!(status_line(&game, true), "Analysis: Black to move");
        let over =
            othello::Position::from_board_text(&format!("{} X", "X".repeat(64)), Variant::Standard)
                .expect("a full board");
        let game = GameState::new(over, Seats::Human(Color::Black));
        assert!(
            status_line(&game, true).ends_with("You win!"),
            "{}",
            status_line(&game, true)
        );
    }

    #[test]
    fn a_rejected_builtin_network_leaves_its_board_to_alpha_beta() {
        let view = View::default()
            .apply(ViewAction::Model(
                BoardSize::Eight,
                Variant::Standard,
                ModelStatus::Loading("az-8x8".into()),
            ))
            .apply(ViewAction::Pool(PoolEvent::ModelRejected {
                name: "az-8x8".into(),
                error: "not an ONNX file".into(),
            }));
        assert_eq!(
            view.player(BoardSize::Eight, Variant::Standard)
                .map(|p| p.kind),
            Some(PlayerKind::AlphaBeta)
        );
        assert!(view.message.is_some_and(|m| m.contains("not an ONNX file")));
    }
}
