//! The tables' checks over random tables: children read from their parent against fresh
//! readings (both outputs), one output read alone against both, the global term.

use super::global::SIDE;
use super::*;
use crate::pattern::set::PatternDef;
use crate::Rng;
use othello::{BoardSize, Move, Symmetry, Variant};

/// Tables of random entries for `patterns` (name, squares): what any network's tables
/// could hold.
pub(crate) fn random_tables(
    size: BoardSize,
    stages: u32,
    patterns: &[&str],
    seed: u64,
) -> PatternTables {
    random_tables_with(size, stages, patterns, seed, false)
}

/// [`random_tables`], with a global network's term where `global`.
pub(crate) fn random_tables_with(
    size: BoardSize,
    stages: u32,
    patterns: &[&str],
    seed: u64,
    global: bool,
) -> PatternTables {
    let defs: Vec<PatternDef> = patterns
        .iter()
        .enumerate()
        .map(|(i, squares)| PatternDef {
            name: format!("p{i}"),
            squares: squares.split(' ').map(str::to_owned).collect(),
        })
        .collect();
    let set = PatternSet::new(size, Some(stages), Some(&defs)).expect("valid set");
    let mut offsets = Vec::new();
    let mut stage_len = 0;
    for pattern in &set.patterns {
        offsets.push(stage_len);
        stage_len += pattern.configurations();
    }
    let mut rng = Rng::new(seed);
    let mut random = |count: usize| -> Vec<Entry> {
        (0..count)
            .map(|_| [rng.unit() as f32 * 2.0 - 1.0, rng.unit() as f32 * 2.0 - 1.0])
            .collect()
    };
    let entries = random(stage_len * stages as usize);
    // A global network's entries, in the same range (its one term as large as a
    // pattern entry, so a misread one moves a sum by many units).
    let global = global.then(|| random(stages as usize * 2 * SIDE * SIDE));
    let set = PatternSet {
        global: global.is_some(),
        ..set
    };
    PatternTables::with_entries(set, offsets, stage_len, entries, global)
}

/// Every position of a few random games, and each one's images under the symmetries.
pub(crate) fn positions(size: BoardSize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..6 {
        let mut pos = Position::start(size, Variant::Standard);
        while !pos.is_game_over() {
            out.extend(Symmetry::ALL.iter().map(|g| g.position(&pos)));
            let moves = pos.legal_move_list();
            pos = pos.play_unchecked(*rng.choose(&moves).expect("a move"));
        }
    }
    out
}

/// The shipped 8x8 layout: patterns with two, four and eight images, some through the
/// squares of others, the diagonals mapped onto themselves.
const PATTERNS_8X8: [&str; 12] = [
    "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2",
    "a1 b1 c1 a2 b2 c2 a3 b3 c3",
    "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2",
    "a2 b2 c2 d2 e2 f2 g2 h2",
    "a3 b3 c3 d3 e3 f3 g3 h3",
    "a4 b4 c4 d4 e4 f4 g4 h4",
    "a1 b2 c3 d4 e5 f6 g7 h8",
    "a2 b3 c4 d5 e6 f7 g8",
    "a3 b4 c5 d6 e7 f8",
    "a4 b5 c6 d7 e8",
    "e1 d2 c3 b4 a5",
    "a1 b1 a2 b2",
];

/// A 6x6 set in the same spirit.
const PATTERNS_6X6: [&str; 6] = [
    "a1 b1 c1 a2 b2 c2 a3 b3 c3",
    "a4 a3 a2 a1 b2 b1 c1 d1",
    "b2 a1 b1 c1 d1 e1 f1 e2",
    "a2 b2 c2 d2 e2 f2",
    "a1 b2 c3 d4 e5 f6",
    "c1 d2 e3 f4",
];

/// Both outputs of each child read together ([`PatternTables::read_children_pair`]), as a
/// search that values the children it reads its priors from does, are the child's
/// [`PatternTables::unit_sums`].
fn pair_equals_fresh_readings(tables: &PatternTables, pos: &Position) {
    let (own, other) = (pos.player().0, pos.opponent().0);
    let mut reading = ChildReading::new();
    tables.read_children_pair(own, other, &mut reading);
    for sq in pos.legal_moves() {
        let child = pos.play_unchecked(Move::Place(sq));
        let flipped = other & !child.player().0;
        let fresh = tables.unit_sums(child.player().0, child.opponent().0);
        let got = tables.child_unit_pair(&mut reading, u32::from(sq.index()), flipped);
        assert_eq!(
            got,
            fresh,
            "both outputs: {} after {sq}",
            pos.to_board_text()
        );
    }
}

/// The children read from their parent's indices are the children read afresh.
fn children_equal_fresh_readings(tables: &PatternTables, size: BoardSize, seed: u64) {
    let mut checked = 0;
    for pos in positions(size, seed) {
        let (own, other) = (pos.player().0, pos.opponent().0);
        if pos.legal_moves().is_empty() {
            continue;
        }
        tables.with_children(own, other, |children| {
            assert_eq!(children.parent_units(), tables.unit_sums(own, other));
            // One output read alone is that output of both read together.
            for output in 0..2 {
                let alone = tables.unit_sum(own, other, output);
                assert_eq!(alone, tables.unit_sums(own, other)[output]);
            }
            for sq in pos.legal_moves() {
                let child = pos.play_unchecked(Move::Place(sq));
                let flipped = other & !child.player().0;
                let fresh = tables.unit_sums(child.player().0, child.opponent().0)[1];
                let got = children.value_units(u32::from(sq.index()), flipped);
                assert_eq!(got, fresh, "{} after {sq}", pos.to_board_text());
                checked += 1;
            }
        });
        // A reading of one output alone, as the midgame search reads its leaves.
        for output in 0..2 {
            let mut reading = ChildReading::new();
            tables.read_children(own, other, output, &mut reading);
            for sq in pos.legal_moves() {
                let child = pos.play_unchecked(Move::Place(sq));
                let flipped = other & !child.player().0;
                let fresh = tables.unit_sum(child.player().0, child.opponent().0, output);
                let got = tables.child_units(&mut reading, u32::from(sq.index()), flipped);
                assert_eq!(
                    got,
                    fresh,
                    "output {output}: {} after {sq}",
                    pos.to_board_text()
                );
            }
        }
        pair_equals_fresh_readings(tables, &pos);
        // A child read for its children from the position's own indices, as the search
        // reads the nodes one ply above its leaves.
        let mut indices = PositionIndices::new();
        tables.read_indices(own, other, &mut indices);
        for sq in pos.legal_moves() {
            let child = pos.play_unchecked(Move::Place(sq));
            let (child_own, child_other) = (child.player().0, child.opponent().0);
            if child.legal_moves().is_empty() {
                continue;
            }
            let flipped = other & !child_own;
            let output = usize::from(sq.index()) % 2;
            let mut reading = ChildReading::new();
            let square = u32::from(sq.index());
            tables.read_children_of_child(
                &indices,
                square,
                flipped,
                child_own,
                child_other,
                output,
                &mut reading,
            );
            for reply in child.legal_moves() {
                let grandchild = child.play_unchecked(Move::Place(reply));
                let flipped = child_other & !grandchild.player().0;
                let (g_own, g_other) = (grandchild.player().0, grandchild.opponent().0);
                let got = tables.child_units(&mut reading, u32::from(reply.index()), flipped);
                assert_eq!(got, tables.unit_sum(g_own, g_other, output), "{sq} {reply}");
            }
        }
    }
    assert!(checked > 1000, "only {checked} children");
}

#[test]
fn children_read_from_their_parent_equal_children_read_afresh_on_8x8() {
    let tables = random_tables(BoardSize::Eight, 10, &PATTERNS_8X8, 1);
    // Instances whose squares take their digits in the same order share one block
    // of `ternary` (50 instances, 27 distinct orders), and still read as above.
    let orders = tables.ternary.len() / 1024;
    assert_eq!((tables.readers.len(), orders), (50, 27));
    children_equal_fresh_readings(&tables, BoardSize::Eight, 2);
}

#[test]
fn children_read_from_their_parent_equal_children_read_afresh_on_6x6() {
    let tables = random_tables(BoardSize::Six, 8, &PATTERNS_6X6, 3);
    children_equal_fresh_readings(&tables, BoardSize::Six, 4);
}

#[test]
fn children_read_from_their_parent_equal_children_read_afresh_with_a_global_network() {
    let patterns = [
        "a1 b1 c1 a2 b2 c2 a3 b3 c3",
        "a2 b2 c2 d2 e2 f2 g2 h2",
        "a1 b2 c3 d4 e5 f6 g7 h8",
    ];
    let tables = random_tables_with(BoardSize::Eight, 10, &patterns, 7, true);
    children_equal_fresh_readings(&tables, BoardSize::Eight, 8);
    let six = random_tables_with(BoardSize::Six, 8, &patterns[..1], 9, true);
    children_equal_fresh_readings(&six, BoardSize::Six, 10);
}

#[test]
fn the_global_term_is_the_entry_of_the_position_s_mobilities_parity_and_stage() {
    let patterns = ["a1 b1 c1 a2 b2 c2 a3 b3 c3", "a4 b4 c4 d4 e4 f4 g4 h4"];
    let with = random_tables_with(BoardSize::Eight, 10, &patterns, 11, true);
    // The same tables without the term: the patterns' units are the same.
    let without = PatternTables {
        global: None,
        ..with.clone()
    };
    let global = with.global.as_ref().expect("a global term");
    let mut terms = std::collections::BTreeSet::new();
    let mut mobilities = std::collections::BTreeSet::new();
    for pos in positions(BoardSize::Eight, 12) {
        let (own, other) = (pos.player().0, pos.opponent().0);
        // The plain reading: the position's and its opponent's moves, by Position.
        let mobility = pos.legal_moves().count() as usize;
        let opponent = Position::from_bitboards(
            othello::Bitboard(other),
            othello::Bitboard(own),
            othello::Color::Black,
            BoardSize::Eight,
            Variant::Standard,
        )
        .expect("a position")
        .legal_moves()
        .count() as usize;
        let stage = with.set().stage(&pos);
        let parity = pos.empty_count() as usize % 2;
        let want = global.entries[((stage * 2 + parity) * SIDE + mobility) * SIDE + opponent];
        let [s, v] = without.unit_sums(own, other);
        assert_eq!(with.unit_sums(own, other), [s + want[0], v + want[1]]);
        terms.insert(want);
        mobilities.insert((mobility, opponent));
    }
    assert!(mobilities.len() > 100 && terms.len() > 100);
}

/// `x`'s bits under `mask`, packed from bit 0 up, one bit at a time: what `pext` does.
fn gather_bit_by_bit(x: u64, mask: u64) -> usize {
    let (mut m, mut out, mut bit) = (mask, 0usize, 1usize);
    while m != 0 {
        if x & m & m.wrapping_neg() != 0 {
            out |= bit;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

/// The digits added up disc by disc (the path of targets without `pext`, the browser's
/// wasm) are the instances' squares gathered and turned by their ternary tables, on
/// every position and image of seeded games, both sides, on 8x8 and 6x6; and the sums
/// read them so on this target's own path.
#[test]
fn digits_added_disc_by_disc_equal_the_gathered_ones() {
    let cases = [
        (
            BoardSize::Eight,
            random_tables(BoardSize::Eight, 3, &PATTERNS_8X8, 41),
        ),
        (
            BoardSize::Six,
            random_tables(BoardSize::Six, 2, &PATTERNS_6X6, 42),
        ),
    ];
    for (size, tables) in cases {
        let instances = tables.readers.len();
        for pos in positions(size, 43) {
            let sides = [pos.player().0, pos.opponent().0];
            let digits = sides.map(|x| {
                let mut digits = [0u16; MAX_INSTANCES];
                tables.add_digits(x, &mut digits);
                for (i, reader) in tables.readers.iter().enumerate() {
                    let gathered = gather_bit_by_bit(x, reader.mask);
                    let expected = tables.ternary[reader.ternary + gathered];
                    assert_eq!(digits[i], expected, "instance {i} of {pos:?}");
                }
                assert!(digits[instances..].iter().all(|&d| d == 0));
                digits
            });
            let read: Vec<_> = {
                let on_this_target = tables.digits(sides[0], sides[1]);
                let readers = tables.readers.iter().enumerate();
                readers
                    .map(|(i, r)| on_this_target.get(&tables, r, i))
                    .collect()
            };
            let expected: Vec<_> = (0..instances)
                .map(|i| (digits[0][i], digits[1][i]))
                .collect();
            assert_eq!(read, expected, "{pos:?}");
        }
    }
}
