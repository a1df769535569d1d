//! What the page shows besides the game: the search running now and its latest merged
//! report (the heat map), the hint, the networks and their state, messages. One value
//! changed only by [`ViewAction`]s in a reducer, so it is tested without a browser; the
//! worker pool's events arrive as actions too.

use crate::editor::{edit, EditAction, Editor};
use crate::graph::{Estimate, GameEstimates};
use crate::merge::Merged;
use crate::models::{builtin_for, builtin_named};
use crate::pool::{PoolEvent, Purpose};
use crate::review::ReviewState;
use crate::state::GameState;
use engine::{PlayerKind, PlayerSpec};
use othello::{BoardSize, Color, Move, Variant};

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
    /// The person ended it (Stop) before its time: what it had found then.
    pub stopped: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct View {
    pub heat: Option<Heat>,
    /// The search running now: its purpose, position and side to move. The page's one
    /// record of it: the worker gateway (`hooks/gateway.rs`) alone starts and ends it
    /// (`ViewAction::Started`, `ViewAction::Stopped`), and a failed search's event ends it.
    pub searching: Option<(Purpose, u64, Color)>,
    /// The page's id of the game the search running now was made for (`GameModel::id`):
    /// its estimates are that game's alone.
    pub searching_game: u64,
    /// The search the person asked to end now (Stop), until it reports its end.
    pub finishing: Option<(Purpose, u64)>,
    pub hint: Option<(u64, Move)>,
    pub models: Vec<((BoardSize, Variant), ModelStatus)>,
    pub message: Option<String>,
    /// The message is news (a game started from an opening), not a refusal or a failure:
    /// drawn as a notice, not as an error.
    pub message_is_note: bool,
    pub restarts: u32,
    /// What each network's card says about its strength, by network name.
    pub strengths: Vec<(String, String)>,
    /// The last search of every position searched, for the evaluation graph, each game's
    /// apart.
    pub estimates: GameEstimates,
    /// The agent's moves from the opening book, by the hash of the position they were
    /// played in, for the move list's marks.
    pub book_moves: Vec<(u64, Move)>,
    /// How far the download of a network has come, while it loads.
    pub download: Option<Download>,
    /// The game's review: the reviewed moves, the review running, the move looked at.
    pub review: ReviewState,
    /// The board editor, while a position is being set up.
    pub editor: Option<Editor>,
    /// The hints' and analyses' searches asked on this page, each a position's hash and
    /// the searcher's spec, the latest last (a few dozen).
    pub asked: Vec<(u64, String)>,
    /// The position of the hint or analysis under way where the same searcher searched it
    /// before ([`ViewAction::Asked`]): it runs on the network's values kept from then.
    pub asked_again: Option<u64>,
}

/// How many hints' and analyses' searches the view remembers ([`View::asked`]).
const ASKED_REMEMBERED: usize = 32;

/// A network's download under way: its name, the bytes received, and the whole size when
/// the server said it (not for a compressed transfer, whose length is not the file's).
#[derive(Clone, Debug, PartialEq)]
pub struct Download {
    pub name: String,
    pub received: u64,
    pub total: Option<u64>,
}

#[derive(Debug)]
pub enum ViewAction {
    /// A search started: its purpose, its position's hash and side to move, and the page's
    /// id of the game it is for.
    Started(Purpose, u64, Color, u64),
    /// The search just started is a hint or an analysis of this position by this searcher
    /// (its spec).
    Asked(u64, String),
    Stopped,
    /// The person asked the search under way to end now, keeping what it found.
    Finishing,
    Pool(PoolEvent),
    Model(BoardSize, Variant, ModelStatus),
    Message(Option<String>),
    /// A message that reports news rather than a problem (see [`View::message_is_note`]).
    Note(String),
    /// A network's measured strength, from its card.
    Strength(String, String),
    /// Progress of a network's download.
    Downloading(Download),
    /// A review started in the pool with this id, of this game (its id on the page, and
    /// its moves), and what it judges with, in words and in simulations a position.
    ReviewStarted(u64, (u64, othello::Game), (String, u64)),
    ReviewCancelled,
    /// Shows this move (0-based) of the game with this id with its best move, or the game
    /// again.
    ReviewFocus(Option<(u64, usize)>),
    /// The board editor.
    Edit(EditAction),
    /// The game changed (a move, an undo, another game): a hint's marker is no longer
    /// about it, even on a position that recurs.
    ForgetHint,
}

impl View {
    pub fn model(&self, size: BoardSize, variant: Variant) -> Option<&ModelStatus> {
        self.models
            .iter()
            .find(|(key, _)| *key == (size, variant))
            .map(|(_, s)| s)
    }

    /// How far the network `name` has downloaded ("120 KB of 359 KB", or "120 KB so far"
    /// when the size is not known), while it is loading; once every byte is in, that it is
    /// being made ready (the worker builds it), not a count that has stopped at its end.
    pub fn download_progress(&self, name: &str) -> Option<String> {
        let d = self.download.as_ref().filter(|d| d.name == name)?;
        let kb = |bytes: u64| bytes.div_ceil(1024);
        Some(match d.total {
            Some(total) if d.received >= total => {
                format!("all {} KB downloaded, getting it ready", kb(total))
            }
            Some(total) => format!("{} KB of {} KB", kb(d.received), kb(total)),
            None => format!("{} KB so far", kb(d.received)),
        })
    }

    pub fn strength(&self, name: &str) -> Option<&str> {
        self.strengths
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.as_str())
    }

    fn set_model(&mut self, size: BoardSize, variant: Variant, status: ModelStatus) {
        // A download's progress matters only while its network is loading.
        if !matches!(&status, ModelStatus::Loading(_)) {
            self.download = None;
        }
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
                // A shipped pattern network searches below its leaves; a network of the
                // player's own is searched as it is.
                leaf_depth: builtin_named(name).and_then(|m| m.leaf_depth),
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
        // Every search of a position is the graph's latest word on it, the agent's, a
        // hint or analysis, and it moves live while the search runs.
        if let Some(estimate) = Estimate::of_report(&merged, side) {
            self.estimates
                .record(self.searching_game, position, estimate);
        }
        if let Some(book) = merged
            .search
            .book
            .as_ref()
            .filter(|_| purpose == Purpose::Move)
        {
            if !self.book_moves.contains(&(position, book.best)) {
                self.book_moves.push((position, book.best));
            }
        }
        let stopped = self.finishing == Some((purpose, position));
        self.heat = Some(Heat {
            position,
            purpose,
            side,
            merged,
            done,
            stopped,
        });
    }

    /// The state after `action`.
    pub fn apply(&self, action: ViewAction) -> View {
        let mut next = self.clone();
        match action {
            ViewAction::Started(purpose, hash, side, game) => {
                next.searching = Some((purpose, hash, side));
                next.searching_game = game;
                next.finishing = None;
                // An earlier search of the same position for the same purpose (the move
                // played again after an undo) is not this one: its figures would stand
                // under the new search's heading until its first report.
                if next
                    .heat
                    .as_ref()
                    .is_some_and(|h| h.purpose == purpose && h.position == hash)
                {
                    next.heat = None;
                }
                // Any new search, a hint's, the agent's move or an analysis, speaks about
                // the board from now on: an older hint's marker would contradict it.
                next.hint = None;
                next.asked_again = None;
            }
            ViewAction::Asked(hash, spec) => {
                let asked = (hash, spec);
                next.asked_again = next.asked.contains(&asked).then_some(hash);
                next.asked.retain(|a| *a != asked);
                next.asked.push(asked);
                if next.asked.len() > ASKED_REMEMBERED {
                    next.asked.remove(0);
                }
            }
            ViewAction::Stopped => next.searching = None,
            ViewAction::Finishing => {
                next.finishing = next.searching.map(|(purpose, hash, _)| (purpose, hash));
            }
            ViewAction::Pool(event) => next.hear(event),
            ViewAction::Model(size, variant, status) => next.set_model(size, variant, status),
            ViewAction::Message(message) => {
                next.message = message;
                next.message_is_note = false;
            }
            ViewAction::Note(note) => {
                next.message = Some(note);
                next.message_is_note = true;
            }
            ViewAction::Downloading(download) => next.download = Some(download),
            ViewAction::ReviewStarted(id, game, judged) => next.review.started(id, game, judged),
            ViewAction::ReviewCancelled => next.review.cancelled(),
            ViewAction::ReviewFocus(focus) => next.review.focus = focus,
            ViewAction::Edit(action) => next.editor = edit(self.editor.as_ref(), action),
            ViewAction::ForgetHint => next.hint = None,
            ViewAction::Strength(name, line) => {
                next.strengths.retain(|(n, _)| *n != name);
                next.strengths.push((name, line));
            }
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
                self.message_is_note = false;
            }
            PoolEvent::ModelLoaded {
                name,
                size,
                variant,
            } => {
                // "Checking …" or an older refusal no longer applies.
                self.message = None;
                self.message_is_note = false;
                self.set_model(size, variant, ModelStatus::Ready(name));
            }
            PoolEvent::ModelRejected { name, error } => {
                self.message = Some(format!("The network {name} was not loaded: {error}"));
                self.message_is_note = false;
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
            PoolEvent::Reviewed {
                id,
                position,
                review,
                ..
            } => self.review.reviewed(id, position, review),
            PoolEvent::ReviewEnded { id, error } => self.review.ended(id, error),
        }
    }
}

/// The estimate of the search of the position on the board while it runs, for the game
/// with the id `id`: the graph's live point.
pub fn live_estimate(view: &View, game: &GameState, id: u64) -> Option<Estimate> {
    let here = game.position().hash();
    view.searching
        .filter(|&(_, hash, _)| hash == here && view.searching_game == id)
        .and_then(|_| view.estimates.of(id).get(here))
}

#[cfg(test)]
mod tests;
