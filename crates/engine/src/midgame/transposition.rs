//! The midgame search's transposition table: fail-soft bounds on a position's value at a
//! depth, its best move, and the search's selectivity (whether probable cuts were allowed
//! under it), as Edax's `src/hash.c` keeps them.
//!
//! It is not the exact solver's table: the solver's entries are exact margins in discs
//! that hold at any depth, these are estimates in hundredths of a disc that hold only at
//! the depth they were searched to. The search hands positions that reach the end of the
//! game to the solver, whose own table keeps what it proves between searches.

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub lower: i16,
    pub upper: i16,
    /// Plies searched below the position.
    pub depth: u8,
    /// Best move's square index + 1 (0: none).
    pub best: u8,
    /// 1 when probable cuts were allowed in the search that stored it: such bounds are
    /// only used by searches that allow them too.
    pub selective: u8,
    /// The search (counted by [`Table::new_search`]) that stored it: old entries give way.
    pub age: u8,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    player: u64,
    opponent: u64,
    entry: Entry,
}

/// Two-way set-associative: a position lives in one of two neighbouring slots.
pub(super) struct Table {
    slots: Vec<Slot>,
    shift: u32,
    age: u8,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        Table {
            slots: vec![Slot::default(); 1 << bits],
            shift: 64 - bits,
            age: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.age = 0;
    }

    /// A new search starts: what earlier searches stored stays readable, but gives way to
    /// what this one stores.
    pub(super) fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline(always)]
    fn index(&self, p: u64, o: u64) -> usize {
        let h = (p ^ o.rotate_left(23).wrapping_mul(0xff51_afd7_ed55_8ccd))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> self.shift) as usize & !1
    }

    #[inline(always)]
    pub(super) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let i = self.index(p, o);
        self.slots[i..i + 2]
            .iter()
            .find(|s| s.player == p && s.opponent == o && s.entry.best != 0)
            .map(|s| s.entry)
    }

    /// Stores `entry` for the position: over its own older entry (keeping the tighter
    /// bounds of both when they come from a search as deep and as selective), else over
    /// the slot of the older or shallower search.
    #[inline(always)]
    pub(super) fn store(&mut self, p: u64, o: u64, mut entry: Entry) {
        entry.age = self.age;
        let i = self.index(p, o);
        let age = self.age;
        let pair = &mut self.slots[i..i + 2];
        let slot = if let Some(own) = pair.iter_mut().find(|s| s.player == p && s.opponent == o) {
            let old = own.entry;
            if old.depth == entry.depth && old.selective == entry.selective && old.best != 0 {
                let (lower, upper) = (entry.lower.max(old.lower), entry.upper.min(old.upper));
                // Bounds that cross come from searches that disagree (a probable cut was
                // wrong): the newer one's alone are kept.
                if lower <= upper {
                    (entry.lower, entry.upper) = (lower, upper);
                }
            } else if old.depth > entry.depth && old.age == age {
                // A deeper search of this search keeps its slot.
                return;
            }
            own
        } else {
            let keep = |s: &Slot| (s.entry.age == age, s.entry.depth);
            let [a, b] = pair else {
                unreachable!("a pair of slots")
            };
            if keep(a) <= keep(b) {
                a
            } else {
                b
            }
        };
        *slot = Slot {
            player: p,
            opponent: o,
            entry,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lower: i16, upper: i16, depth: u8) -> Entry {
        Entry {
            lower,
            upper,
            depth,
            best: 1,
            selective: 0,
            age: 0,
        }
    }

    #[test]
    fn a_stored_position_is_found_and_others_are_not() {
        let mut table = Table::new(6);
        table.store(0x8100, 0x42, entry(-300, 200, 5));
        assert_eq!(table.probe(0x8100, 0x42).map(|e| e.upper), Some(200));
        assert_eq!(table.probe(0x8100, 0x43), None);
        table.clear();
        assert_eq!(table.probe(0x8100, 0x42), None);
    }

    #[test]
    fn bounds_of_equal_searches_meet_and_a_deeper_one_is_not_overwritten_by_a_shallower() {
        let mut table = Table::new(6);
        table.store(1, 2, entry(-300, 200, 5));
        table.store(1, 2, entry(-100, 900, 5));
        let merged = table.probe(1, 2).expect("stored");
        assert_eq!((merged.lower, merged.upper), (-100, 200));
        table.store(1, 2, entry(0, 0, 3));
        assert_eq!(table.probe(1, 2).map(|e| e.depth), Some(5));
        // A later search's shallower entry replaces it.
        table.new_search();
        table.store(1, 2, entry(0, 0, 3));
        assert_eq!(table.probe(1, 2).map(|e| e.depth), Some(3));
    }
}
