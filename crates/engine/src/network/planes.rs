//! The input planes of the model contract (docs/model-contract.md#input): what each named
//! plane holds, the two input sets (v1, the four planes every network before had; v2, with
//! Othello knowledge beside them), and the one encoder. A card names its planes, and the
//! engine builds its encoder from the names, so a network trained on any list of known
//! planes plays. train/contract.py is the Python twin; train/tests/test_contract.py
//! checks that the two agree on the positions of real self-play games.

use super::features::{frontier, odd_quadrants, odd_regions, stable_discs};
use othello::{raw, Position};
use std::fmt;

/// One input plane: a set of squares of the position, from the side to move's view
/// ("own" is the side to move). Each plane is 1 on its squares and 0 elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plane {
    /// The side to move's discs.
    Own,
    /// The other side's discs.
    Opponent,
    /// The side to move's legal placements (none when it must pass).
    Legal,
    /// Every square of the board: where the board ends, for a convolution.
    Ones,
    /// The other side's legal placements, as if it were to move.
    OpponentLegal,
    /// The side to move's stable discs ([`stable_discs`]).
    OwnStable,
    /// The other side's stable discs.
    OpponentStable,
    /// The side to move's discs next to an empty square ([`frontier`]).
    OwnFrontier,
    /// The other side's discs next to an empty square.
    OpponentFrontier,
    /// The empty squares of odd-sized regions of empties ([`odd_regions`]).
    OddRegion,
    /// The empty squares of quadrants with an odd number of empties ([`odd_quadrants`]).
    OddQuadrant,
}

impl Plane {
    /// Every plane the engine knows, in the order the contract documents them.
    pub const ALL: [Plane; 11] = [
        Plane::Own,
        Plane::Opponent,
        Plane::Legal,
        Plane::Ones,
        Plane::OpponentLegal,
        Plane::OwnStable,
        Plane::OpponentStable,
        Plane::OwnFrontier,
        Plane::OpponentFrontier,
        Plane::OddRegion,
        Plane::OddQuadrant,
    ];

    /// The plane's name on a model card.
    pub const fn name(self) -> &'static str {
        match self {
            Plane::Own => "own",
            Plane::Opponent => "opponent",
            Plane::Legal => "legal",
            Plane::Ones => "ones",
            Plane::OpponentLegal => "opponent_legal",
            Plane::OwnStable => "own_stable",
            Plane::OpponentStable => "opponent_stable",
            Plane::OwnFrontier => "own_frontier",
            Plane::OpponentFrontier => "opponent_frontier",
            Plane::OddRegion => "odd_region",
            Plane::OddQuadrant => "odd_quadrant",
        }
    }

    pub fn from_name(name: &str) -> Option<Plane> {
        Plane::ALL.into_iter().find(|plane| plane.name() == name)
    }

    /// The plane's squares in `pos`, as a bitboard of the 8x8 layout.
    pub fn squares(self, pos: &Position) -> u64 {
        let size = pos.size();
        let (own, opponent) = (pos.player().0, pos.opponent().0);
        let empty = size.mask() & !(own | opponent);
        match self {
            Plane::Own => own,
            Plane::Opponent => opponent,
            Plane::Legal => pos.legal_moves().0,
            Plane::Ones => size.mask(),
            Plane::OpponentLegal => raw::legal_moves(opponent, own, size.mask()),
            Plane::OwnStable => stable_discs(own, opponent, size),
            Plane::OpponentStable => stable_discs(opponent, own, size),
            Plane::OwnFrontier => frontier(own, empty),
            Plane::OpponentFrontier => frontier(opponent, empty),
            Plane::OddRegion => odd_regions(empty),
            Plane::OddQuadrant => odd_quadrants(empty, size),
        }
    }
}

/// Input set v1: the four planes of every network before input sets had names, and of
/// every card that names none.
pub const V1: [Plane; 4] = [Plane::Own, Plane::Opponent, Plane::Legal, Plane::Ones];

/// Input set v2: v1's four planes first (so a v1 network's stem can grow into a v2 one),
/// then the opponent's mobility, both sides' stable and frontier discs, and region parity.
pub const V2: [Plane; 10] = [
    Plane::Own,
    Plane::Opponent,
    Plane::Legal,
    Plane::Ones,
    Plane::OpponentLegal,
    Plane::OwnStable,
    Plane::OpponentStable,
    Plane::OwnFrontier,
    Plane::OpponentFrontier,
    Plane::OddRegion,
];

/// A value the planes are encoded as, with the values of each byte of a bitboard row,
/// low bit (column a) first: writing the encoding a row at a time, rather than a square at
/// a time, is most of what v1's encoder costs.
pub trait PlaneValue: Copy + 'static {
    const ROWS: &'static [[Self; 8]; 256];
}

const fn row_table<T: Copy>(zero: T, one: T) -> [[T; 8]; 256] {
    let mut rows = [[zero; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut col = 0;
        while col < 8 {
            if byte >> col & 1 == 1 {
                rows[byte][col] = one;
            }
            col += 1;
        }
        byte += 1;
    }
    rows
}

const F32_ROWS: [[f32; 8]; 256] = row_table(0.0, 1.0);
const U8_ROWS: [[u8; 8]; 256] = row_table(0, 1);

impl PlaneValue for f32 {
    const ROWS: &'static [[f32; 8]; 256] = &F32_ROWS;
}

impl PlaneValue for u8 {
    const ROWS: &'static [[u8; 8]; 256] = &U8_ROWS;
}

/// Why a list of plane names is not an input set the engine can encode.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlanesError {
    #[error(
        "the model card names input plane '{0}', which this engine does not know (it knows {known})",
        known = known_names()
    )]
    Unknown(String),
    #[error("the model card names input plane '{0}' twice")]
    Repeated(String),
    #[error("the model card's plane_names is empty; a network needs at least one input plane")]
    Empty,
    #[error("'{0}' is not an input set: give v1, v2 or plane names separated by commas ({known})", known = known_names())]
    NotASet(String),
}

fn known_names() -> String {
    Plane::ALL.map(Plane::name).join(", ")
}

/// The ordered planes a network takes: its input is `[batch, len(), N, N]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputPlanes {
    planes: Vec<Plane>,
}

impl Default for InputPlanes {
    /// v1: what a card that names no planes means.
    fn default() -> Self {
        InputPlanes::v1()
    }
}

impl InputPlanes {
    pub fn v1() -> InputPlanes {
        InputPlanes {
            planes: V1.to_vec(),
        }
    }

    pub fn v2() -> InputPlanes {
        InputPlanes {
            planes: V2.to_vec(),
        }
    }

    /// The planes a card's `plane_names` lists, in its order.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<InputPlanes, PlanesError> {
        let mut planes = Vec::with_capacity(names.len());
        for name in names.iter().map(AsRef::as_ref) {
            let plane = Plane::from_name(name).ok_or_else(|| PlanesError::Unknown(name.into()))?;
            if planes.contains(&plane) {
                // Twice the same plane is not wrong for a network, but it is for a card:
                // it is a typo for another plane far more often than a design.
                return Err(PlanesError::Repeated(name.into()));
            }
            planes.push(plane);
        }
        if planes.is_empty() {
            return Err(PlanesError::Empty);
        }
        Ok(InputPlanes { planes })
    }

    /// `v1`, `v2`, or plane names separated by commas (a command line's way to say which).
    pub fn parse(text: &str) -> Result<InputPlanes, PlanesError> {
        match text.trim() {
            "v1" => Ok(InputPlanes::v1()),
            "v2" => Ok(InputPlanes::v2()),
            list => {
                let names: Vec<&str> = list.split(',').map(str::trim).collect();
                InputPlanes::from_names(&names).map_err(|e| match e {
                    PlanesError::Unknown(_) | PlanesError::Empty => {
                        PlanesError::NotASet(text.into())
                    }
                    other => other,
                })
            }
        }
    }

    pub fn planes(&self) -> &[Plane] {
        &self.planes
    }

    /// C, the input's planes.
    pub fn len(&self) -> usize {
        self.planes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.planes.is_empty()
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.planes.iter().map(|p| p.name()).collect()
    }

    /// The position's planes `[C, N, N]`, row-major from a1, appended to `out` as 0 and
    /// 1 (`f32`: the network input; `u8`: what self-play stores).
    pub fn encode<T: PlaneValue>(&self, pos: &Position, out: &mut Vec<T>) {
        let size = pos.size();
        let n = usize::from(size.n());
        out.reserve(self.len() * n * n);
        for plane in &self.planes {
            let bits = plane.squares(pos);
            for row in 0..n {
                // A row of the board is a byte of the bitboard: one copy from the table.
                let byte = (bits >> (8 * row)) as u8;
                out.extend_from_slice(&T::ROWS[usize::from(byte)][..n]);
            }
        }
    }
}

impl fmt::Display for InputPlanes {
    /// `v1` or `v2` for those sets, else the names joined by commas (what
    /// [`InputPlanes::parse`] reads).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.planes == V1 {
            f.write_str("v1")
        } else if self.planes == V2 {
            f.write_str("v2")
        } else {
            f.write_str(&self.names().join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{BoardSize, Square, Variant};

    #[test]
    fn names_read_back_as_their_planes() {
        for plane in Plane::ALL {
            assert_eq!(Plane::from_name(plane.name()), Some(plane));
        }
        let v2 = InputPlanes::from_names(&InputPlanes::v2().names()).expect("known");
        assert_eq!(v2, InputPlanes::v2());
        assert_eq!(v2.to_string(), "v2");
        assert_eq!(InputPlanes::parse("v1"), Ok(InputPlanes::v1()));
        let custom = InputPlanes::parse("own, opponent,own_stable").expect("known");
        assert_eq!(custom.to_string(), "own,opponent,own_stable");
        assert_eq!(InputPlanes::parse(&custom.to_string()), Ok(custom));
    }

    #[test]
    fn an_unknown_or_repeated_plane_is_refused_by_name() {
        let err = InputPlanes::from_names(&["own", "mobility"]).unwrap_err();
        assert_eq!(err, PlanesError::Unknown("mobility".into()));
        assert!(
            err.to_string().starts_with(
                "the model card names input plane 'mobility', which this engine does not know \
                 (it knows own, opponent, legal, ones, opponent_legal,"
            ),
            "{err}"
        );
        assert_eq!(
            InputPlanes::from_names(&["own", "own"]),
            Err(PlanesError::Repeated("own".into()))
        );
        assert_eq!(
            InputPlanes::from_names::<&str>(&[]),
            Err(PlanesError::Empty)
        );
        assert_eq!(
            InputPlanes::parse("v3"),
            Err(PlanesError::NotASet("v3".into()))
        );
    }

    /// The encoder against the planes' squares read one square at a time.
    #[test]
    fn the_encoder_lays_each_plane_out_row_major_from_a1() {
        let start = Position::start(BoardSize::Six, Variant::Standard);
        let pos = start.play(start.legal_move_list()[0]).expect("legal");
        let inputs = InputPlanes::parse(&known_names().replace(' ', "")).expect("all planes");
        let mut out: Vec<f32> = Vec::new();
        inputs.encode(&pos, &mut out);
        assert_eq!(out.len(), Plane::ALL.len() * 36);
        for (plane, values) in Plane::ALL.iter().zip(out.chunks(36)) {
            let bits = plane.squares(&pos);
            for (sq, &value) in Square::all(BoardSize::Six).zip(values) {
                assert_eq!(value, ((bits >> sq.index()) & 1) as f32, "{plane:?} {sq}");
            }
        }
        let mut bytes: Vec<u8> = Vec::new();
        inputs.encode(&pos, &mut bytes);
        assert!(bytes.iter().zip(&out).all(|(&b, &f)| f32::from(b) == f));
    }
}
