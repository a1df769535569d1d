//! Positions the search explored heavily without playing them, as training samples with the
//! search's own targets: OLIVAW's way of getting more positions out of each self-play game
//! (Norelli and Panconesi 2022, "OLIVAW: Mastering Othello without Human Knowledge, nor a
//! Fortune", which doubled the positions per game this way). The game's result says
//! nothing about a line that was not played, so the value target is the search's mean value
//! of the position and the margin target its expected margin.

use super::tree::SearchTree;
use othello::{Move, Position};

/// One explored root move's position, with the search's targets from the view of the side
/// to move there.
#[derive(Clone, Debug, PartialEq)]
pub struct ExploredPosition {
    pub position: Position,
    /// The visit share of each of its moves.
    pub policy: Vec<(Move, f32)>,
    /// The search's mean value, in [-1, 1] (exact where the bounds prove the result).
    pub value: f32,
    /// The expected final disc margin, where the search has one (a score head, or bounds
    /// that meet).
    pub margin: Option<f32>,
}

impl SearchTree {
    /// The root moves other than `played` whose subtrees took at least `min_share` of the
    /// root's visits and have visited children, with their targets.
    pub fn explored_positions(&self, played: Move, min_share: f32) -> Vec<ExploredPosition> {
        let (Some(root), Some(root_pos)) = (self.nodes.first(), self.root_pos) else {
            return Vec::new();
        };
        let total: u32 = root.children().map(|c| self.nodes[c].visits).sum();
        if total == 0 {
            return Vec::new();
        }
        root.children()
            .map(|c| &self.nodes[c])
            .filter(|child| child.mv != played)
            .filter(|child| child.visits as f32 >= min_share * total as f32)
            .filter_map(|child| {
                let visited: u32 = child.children().map(|g| self.nodes[g].visits).sum();
                if visited == 0 {
                    return None;
                }
                let policy = child
                    .children()
                    .map(|g| {
                        let grandchild = &self.nodes[g];
                        (grandchild.mv, grandchild.visits as f32 / visited as f32)
                    })
                    .collect();
                // The child's statistics are from the view of the root's side, which made
                // its move; the sample's are from the view of the side to move there.
                Some(ExploredPosition {
                    position: root_pos.play_unchecked(child.mv),
                    policy,
                    value: -child.q(),
                    margin: child
                        .expected_margin(root_pos.size().squares() as u8)
                        .map(|m| -m),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::PlayoutEvaluator;
    use crate::mcts::{Mcts, MctsConfig};
    use crate::Budget;
    use othello::{BoardSize, Game, Variant};

    #[test]
    fn explored_moves_come_with_their_subtrees_visit_shares_and_their_side_s_value() {
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let root = *Game::from_transcript("c2b4c5d2", start)
            .expect("a legal opening")
            .position();
        let mut mcts = Mcts::new(
            PlayoutEvaluator::new(3, 2),
            MctsConfig {
                seed: 3,
                ..MctsConfig::default()
            },
        );
        let info = mcts
            .search(&root, &Budget::simulations(400), &mut |_| true)
            .expect("searches");
        let played = info
            .moves
            .iter()
            .max_by_key(|m| m.visits)
            .expect("moves")
            .mv;
        let total: u32 = info.moves.iter().map(|m| m.visits).sum();
        let share = 0.1;
        let explored = mcts.driver().tree().explored_positions(played, share);
        // The reference: every root move but the played one with its share of the visits.
        let wanted: Vec<Move> = info
            .moves
            .iter()
            .filter(|m| m.mv != played && m.visits as f32 >= share * total as f32)
            .map(|m| m.mv)
            .collect();
        assert!(!wanted.is_empty(), "the test needs an explored move");
        assert_eq!(explored.len(), wanted.len());
        for sample in &explored {
            let mv = wanted
                .iter()
                .find(|mv| root.play(**mv).ok() == Some(sample.position))
                .expect("each sample is the position after a wanted move");
            let info_move = info
                .moves
                .iter()
                .find(|m| m.mv == *mv)
                .expect("a root move");
            let mut moves: Vec<Move> = sample.policy.iter().map(|(m, _)| *m).collect();
            let mut legal = sample.position.legal_move_list();
            moves.sort_by_key(std::string::ToString::to_string);
            legal.sort_by_key(std::string::ToString::to_string);
            assert_eq!(moves, legal);
            let sum: f32 = sample.policy.iter().map(|(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-5, "{sum}");
            // From the view of the side to move there: the root's q for the move, negated.
            assert!((sample.value + info_move.q).abs() < 1e-5);
            // Its subtree's most visited reply is where most of its visits went.
            let (best, _) = sample
                .policy
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("a reply");
            let line = mcts.driver().tree().line_from(*mv);
            assert_eq!(line.get(1), Some(best), "{line:?}");
        }
        assert!(mcts
            .driver()
            .tree()
            .explored_positions(played, 1.01)
            .is_empty());
    }
}
