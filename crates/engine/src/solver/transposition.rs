//! The solver's transposition table, shared by the threads of a parallel solve.
//!
//! It is lock-free. A table slot is three words written one at a time, so a reader
//! may see half of one store and half of another; the key words are stored XORed with
//! the data word (Hyatt and Mann, "A lockless transposition-table implementation for
//! parallel search", ICGA Journal 2002), so a torn slot fails the key check instead of
//! pairing one position with another's bounds. Relaxed atomics compile to plain loads
//! and stores on x86 and wasm, so one thread pays nothing for this.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What the table knows of a position: fail-soft bounds, true whatever window produced
/// them, the best move and how deep the search was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub lower: i8,
    pub upper: i8,
    /// Best move's square index + 1 (0: none).
    pub best: u8,
    /// Empty squares when stored: deeper searches are worth more to keep.
    pub empties: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
        }
    }
}

#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry when this slot holds exactly `p`, `o` (an empty slot has `best` 0 and
    /// never matches).
    #[inline(always)]
    fn read(&self, p: u64, o: u64) -> Option<Entry> {
        let data = self.data.load(Relaxed);
        let matches = self.player.load(Relaxed) ^ data == p
            && self.opponent.load(Relaxed) ^ data == o
            && data != 0;
        matches.then(|| Entry::unpack(data))
    }

    #[inline(always)]
    fn write(&self, p: u64, o: u64, entry: Entry) {
        let data = entry.pack();
        self.player.store(p ^ data, Relaxed);
        self.opponent.store(o ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }

    #[inline(always)]
    fn empties(&self) -> u8 {
        Entry::unpack(self.data.load(Relaxed)).empties
    }
}

/// Two-way set-associative: a position lives in one of two neighbouring slots.
pub(super) struct Table {
    slots: Box<[Slot]>,
    shift: u32,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits).map(|_| Slot::default()).collect(),
            shift: 64 - bits,
        }
    }

    pub(super) fn clear(&self) {
        for slot in &self.slots {
            slot.write(0, 0, Entry::default());
        }
    }

    #[inline(always)]
    fn slots(&self, p: u64, o: u64) -> (&Slot, &Slot) {
        let slot = (hash(p, o) >> self.shift) as usize;
        (&self.slots[slot], &self.slots[slot ^ 1])
    }

    #[inline(always)]
    pub(super) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let (a, b) = self.slots(p, o);
        a.read(p, o).or_else(|| b.read(p, o))
    }

    /// Keeps the new bounds with any old ones for the same position (both hold, so
    /// their intersection does); otherwise evicts the slot holding the smaller search.
    pub(super) fn store(&self, p: u64, o: u64, mut entry: Entry) {
        let (a, b) = self.slots(p, o);
        let slot = if let Some(old) = a.read(p, o) {
            entry.lower = entry.lower.max(old.lower);
            entry.upper = entry.upper.min(old.upper);
            a
        } else if let Some(old) = b.read(p, o) {
            entry.lower = entry.lower.max(old.lower);
            entry.upper = entry.upper.min(old.upper);
            b
        } else if a.empties() <= b.empties() {
            a
        } else {
            b
        };
        slot.write(p, o, entry);
    }
}

#[inline(always)]
fn hash(p: u64, o: u64) -> u64 {
    (p ^ o.rotate_left(23).wrapping_mul(0xff51_afd7_ed55_8ccd)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_a_slot_and_other_positions_miss() {
        let table = Table::new(8);
        let entry = Entry {
            lower: -64,
            upper: 12,
            best: 64,
            empties: 30,
        };
        table.store(0x8100, 0x42, entry);
        assert_eq!(table.probe(0x8100, 0x42), Some(entry));
        assert_eq!(table.probe(0x8100, 0x43), None);
        assert_eq!(table.probe(0x8101, 0x42), None);
        // A second store of the same position keeps the tighter bounds of both.
        table.store(
            0x8100,
            0x42,
            Entry {
                lower: -4,
                upper: 20,
                best: 3,
                empties: 30,
            },
        );
        let merged = table.probe(0x8100, 0x42).expect("stored");
        assert_eq!((merged.lower, merged.upper, merged.best), (-4, 12, 3));
        table.clear();
        assert_eq!(table.probe(0x8100, 0x42), None);
    }

    #[test]
    fn a_torn_slot_matches_neither_position() {
        let table = Table::new(4);
        let slot = &table.slots[0];
        let a = Entry {
            lower: 2,
            upper: 2,
            best: 5,
            empties: 10,
        };
        let b = Entry {
            lower: -8,
            upper: 6,
            best: 9,
            empties: 12,
        };
        slot.write(1, 2, a);
        // The key words of `a` with the data word of `b`, as a reader may see them
        // while another thread stores `b` for the position (1, 3).
        slot.data.store(b.pack(), Relaxed);
        assert_eq!(slot.read(1, 2), None);
        assert_eq!(slot.read(1, 3), None);
    }
}
