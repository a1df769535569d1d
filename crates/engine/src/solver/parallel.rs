//! The parallel solve: Young Brothers Wait (Feldmann, Monien, Mysliwietz and Vornberger,
//! "Distributed game-tree search", ICCA Journal 1989), in the shape Edax gives it
//! (src/ybwc.c: `node_split`, `task_search`, `node_wait_slaves`; splitting from
//! `NWS_midgame`/`PVS_midgame` in src/midgame.c) and Egaroucid uses in its endgame
//! (src/engine/ybwc.hpp: `ybwc_split_nws`, a pool whose push fails when no thread is
//! idle, and then the move is searched where it is).
//!
//! One search, shared: a thread searches a node's elder brothers alone (most nodes are
//! settled by the first, and then nothing is wasted on their younger brothers; here two,
//! [`SPLIT_ELDERS`]); once they have failed to cut, and when some thread is free, the
//! node becomes a split point and the free threads take its other moves one at a time,
//! each with the node's current alpha, while its owner takes them too. The owner waits for its helpers at the end, and while
//! it waits it may help them, but only at split points below its own (Edax's
//! `get_helper` through `node->parent`, Stockfish's "helpful master"), so no thread ever
//! waits on work that waits on it. A move that reaches beta settles the split point: its
//! `stop` flag is set, and that of every split point below it, so every thread that works
//! under it sees the flag of its own innermost split point (one load in `out_of_nodes`)
//! and unwinds.
//!
//! Every value combined at a split point is the fail-soft value of a completed child
//! search, so the node's value is the one-thread search's (up to which equally good move
//! is named), and a stopped subtree stores nothing, as a budgeted search that runs out.

use super::Solver;
use othello::raw::flips;
use othello::Position;
use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed,
};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// From this many empties on a node may be split. Below, a younger brother's subtree is
/// too small for the handing over (a lock, often a wake-up) to pay; Edax splits from 15
/// empties (its endgame search below `DEPTH_MIDGAME_TO_ENDGAME` never splits), Egaroucid
/// from 18 (`YBWC_END_SPLIT_MIN_DEPTH`, the child's depth above 16).
pub(super) const SPLIT_EMPTIES: u32 = 14;

/// A node is split only once this many of its moves have been searched alone and failed
/// to cut. Edax and Egaroucid split after one (Egaroucid has a commented-out
/// `YBWC_N_ELDER_CHILD`); here the second move cuts often enough where the first did not
/// (a node the ordering got wrong) that waiting for it too saves more than it idles: on
/// FFO #40-#49 two threads searched 9% more nodes than one thread instead of 15% with
/// one elder (from 16 empties), and took 43.3 s against 45.3 s (docs/solver.md).
pub(super) const SPLIT_ELDERS: usize = 2;

/// How long a thread with nothing to do spins before it parks ([`Pool::wait`]).
const SPIN_BEFORE_PARKING: std::time::Duration = std::time::Duration::from_micros(200);

/// At most this many threads (a split point's helpers are a 64-bit mask).
pub(super) const MAX_THREADS: usize = 64;

/// A node whose younger brothers several threads search.
pub(super) struct SplitPoint {
    p: u64,
    o: u64,
    n: u32,
    beta: i32,
    /// The moves left when it was split, in the order the owner would have tried them.
    moves: [u8; 64],
    len: usize,
    owner: usize,
    /// The split point its owner was working under (`None`: the root of the search).
    parent: Option<Arc<SplitPoint>>,
    /// Settled (a move reached beta) or abandoned, or one above it is: nothing searched
    /// under it counts any more. Set under the pool's lock, for a split point and all
    /// those below it at once ([`Pool::stop`]), and never cleared.
    stop: AtomicBool,
    // Changed only under the pool's lock (atomics for the interior mutability; the lock
    // orders them).
    next: AtomicUsize,
    alpha: AtomicI32,
    best: AtomicI32,
    best_sq: AtomicU8,
    /// The threads other than the owner working here now.
    helpers: AtomicU64,
}

impl SplitPoint {
    /// Whether this split point or one above it has stopped: a thread working under it
    /// must drop what it is searching.
    #[inline(always)]
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Whether `above` is this split point or one of its ancestors.
    fn is_below(&self, above: &SplitPoint) -> bool {
        let mut sp = self;
        loop {
            if std::ptr::eq(sp, above) {
                return true;
            }
            match &sp.parent {
                Some(parent) => sp = parent,
                None => return false,
            }
        }
    }

    /// The outermost split point of the chain: every thread that works at all works below
    /// it (the first split is the main thread's, and all others are made under it).
    fn outermost(&self) -> &SplitPoint {
        let mut sp = self;
        while let Some(parent) = &sp.parent {
            sp = parent;
        }
        sp
    }
}

enum State {
    /// Searching: takes no task.
    Busy,
    /// A helper between tasks: takes any.
    Idle,
    /// Waiting at its split point for its helpers: takes a task only from one of them.
    Waiting(Arc<SplitPoint>),
}

struct Threads {
    state: Vec<State>,
    /// A split point handed to the thread, not yet taken up.
    task: Vec<Option<Arc<SplitPoint>>>,
    /// The split points made and not yet finished: those a stop reaches below its own.
    active: Vec<Arc<SplitPoint>>,
    quit: bool,
}

/// The threads of one parallel solve and what they are doing.
pub(super) struct Pool {
    threads: Mutex<Threads>,
    wake: Box<[Condvar]>,
    /// Set under the lock for a thread whenever something it may wait for changes (a task
    /// handed to it, a helper leaving its split point, the end of the solve), and taken by
    /// that thread in [`Pool::wait`]: what it spins on before it parks.
    signal: Box<[AtomicBool]>,
    /// Threads without work now (idle or waiting, no task handed to them): read without
    /// the lock, so that a node with no thread to give its moves to costs one load.
    free: AtomicUsize,
    /// A thread panicked: the others would wait for it for ever, so they panic too.
    poisoned: AtomicBool,
    /// Split points made, for the tests and the measurements.
    splits: AtomicU64,
}

impl Pool {
    fn new(threads: usize) -> Pool {
        Pool {
            threads: Mutex::new(Threads {
                state: (0..threads).map(|_| State::Busy).collect(),
                task: (0..threads).map(|_| None).collect(),
                active: Vec::new(),
                quit: false,
            }),
            wake: (0..threads).map(|_| Condvar::new()).collect(),
            signal: (0..threads).map(|_| AtomicBool::new(false)).collect(),
            free: AtomicUsize::new(0),
            poisoned: AtomicBool::new(false),
            splits: AtomicU64::new(0),
        }
    }

    /// The lock; a thread that panicked holding it left nothing half-done that matters
    /// (the others panic on `poisoned`), so a poisoned lock is taken as it is.
    fn lock(&self) -> MutexGuard<'_, Threads> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for a signal to `id` (or returns at once if one came since the last wait);
    /// the caller checks again what it waits for. It spins for [`SPIN_BEFORE_PARKING`]
    /// first, without the lock: a thread parked on its condition variable takes tens of
    /// microseconds to wake (on a virtual machine an idle core must be woken by the
    /// host), a large part of the work a split point hands over. Stockfish's YBWC threads
    /// spun for the whole search (`Thread::idle_loop`, `sleepWhileIdle`); spinning for a
    /// bounded time gives the core back when the wait is long (a search with fewer moves
    /// to share out than threads).
    fn wait<'a>(
        &'a self,
        id: usize,
        mut guard: MutexGuard<'a, Threads>,
    ) -> MutexGuard<'a, Threads> {
        if !self.signal[id].swap(false, Relaxed) {
            drop(guard);
            let start = std::time::Instant::now();
            while !self.signal[id].load(Relaxed) && start.elapsed() < SPIN_BEFORE_PARKING {
                for _ in 0..32 {
                    std::hint::spin_loop();
                }
            }
            guard = self.lock();
            // Signals are set under the lock, so none is lost between this check and
            // the wait, which releases the lock atomically.
            while !self.signal[id].swap(false, Relaxed) {
                guard = self.wake[id]
                    .wait(guard)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        assert!(
            !self.poisoned.load(Relaxed),
            "a thread of the parallel solve panicked"
        );
        guard
    }

    /// Wakes `t`: the caller holds the lock and has changed what `t` waits for.
    fn notify(&self, t: usize) {
        self.signal[t].store(true, Relaxed);
        self.wake[t].notify_one();
    }

    /// Wakes every thread (the solve is over, or a thread panicked); the caller holds the
    /// lock.
    fn notify_all(&self) {
        for t in 0..self.wake.len() {
            self.notify(t);
        }
    }

    /// Counts the threads that could take a task now.
    fn refresh(&self, threads: &Threads) {
        let free = (0..threads.state.len())
            .filter(|&t| threads.task[t].is_none() && !matches!(threads.state[t], State::Busy))
            .count();
        self.free.store(free, Relaxed);
    }

    /// Hands `sp` to every thread that may help `me` now, up to one per move left
    /// beyond the owner's: idle helpers, and threads waiting at a split point where `me`
    /// is one of their helpers (so `sp` lies below theirs). Whether any took it.
    fn recruit(&self, me: usize, sp: &Arc<SplitPoint>) -> bool {
        let mut threads = self.lock();
        let mut room = sp.len - 1;
        let mut helpers = 0u64;
        for t in 0..threads.state.len() {
            if room == 0 {
                break;
            }
            if t == me || threads.task[t].is_some() {
                continue;
            }
            let may_help = match &threads.state[t] {
                State::Busy => false,
                State::Idle => true,
                State::Waiting(waiting_at) => waiting_at.helpers.load(Relaxed) & (1 << me) != 0,
            };
            if may_help {
                threads.task[t] = Some(Arc::clone(sp));
                helpers |= 1 << t;
                room -= 1;
            }
        }
        if helpers == 0 {
            return false;
        }
        sp.helpers.store(helpers, Relaxed);
        // Made under a split point that has stopped since its maker last looked: it is
        // stopped too (every split point above it is active, so its parent's flag says).
        if sp.parent.as_ref().is_some_and(|parent| parent.stopped()) {
            sp.stop.store(true, Relaxed);
        }
        threads.active.push(Arc::clone(sp));
        self.splits.fetch_add(1, Relaxed);
        self.refresh(&threads);
        for t in 0..self.wake.len() {
            if helpers & (1 << t) != 0 {
                self.notify(t);
            }
        }
        true
    }

    /// `me` has no more work at `sp`, which it helped: its owner may be waiting for that.
    fn leave(&self, me: usize, sp: &SplitPoint) {
        let _threads = self.lock();
        sp.helpers.fetch_and(!(1 << me), Relaxed);
        self.notify(sp.owner);
    }

    /// Stops `sp` and every active split point below it. The caller holds the lock, so
    /// no split point is made under `sp` meanwhile without seeing its flag.
    fn stop(threads: &Threads, sp: &SplitPoint) {
        sp.stop.store(true, Relaxed);
        for below in &threads.active {
            if below.is_below(sp) {
                below.stop.store(true, Relaxed);
            }
        }
    }

    /// Split points made so far.
    #[cfg(test)]
    pub(super) fn splits(&self) -> u64 {
        self.splits.load(Relaxed)
    }
}

/// Marks the pool poisoned when a helper's stack unwinds from a panic, so that no thread
/// waits for it for ever.
struct PanicGuard<'a>(&'a Pool);

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.poisoned.store(true, Relaxed);
            let _threads = self.0.lock();
            self.0.notify_all();
        }
    }
}

/// Sends the helpers home when the main thread is done, or unwinds.
struct QuitGuard<'a>(&'a Pool);

impl Drop for QuitGuard<'_> {
    fn drop(&mut self) {
        let mut threads = self.0.lock();
        threads.quit = true;
        self.0.notify_all();
    }
}

impl Solver {
    /// Runs `work` (a solve, a win/loss/draw search, the scores of all moves) on `pos`
    /// with `threads` threads (at most 64): this thread runs it, and the others wait to
    /// be handed the younger brothers of its nodes (Young Brothers Wait, module docs).
    /// The values are the one-thread values; among equally good moves the one named may
    /// differ, as the table's contents do. The helpers' positions are added to
    /// [`Solver::nodes`]. A node budget (`solve_within`, `prove_within`) counts this
    /// thread's positions only.
    ///
    /// One thread (or wasm, which has none) is `work(self, pos)`.
    pub fn parallel<R>(
        &mut self,
        pos: &Position,
        threads: usize,
        work: impl Fn(&mut Solver, &Position) -> R + Sync,
    ) -> R {
        let threads = threads.min(MAX_THREADS);
        if threads <= 1 || cfg!(target_arch = "wasm32") {
            return work(self, pos);
        }
        // The helpers start from a prepared solver, sharing its table.
        self.prepare(pos);
        let pool = Arc::new(Pool::new(threads));
        self.pool = Some(Arc::clone(&pool));
        self.id = 0;
        let (result, helper_nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let mut helper = Solver {
                        table: Arc::clone(&self.table),
                        pool: Some(Arc::clone(&pool)),
                        chain: None,
                        id,
                        nodes: 0,
                        node_limit: u64::MAX,
                        ..*self
                    };
                    scope.spawn(move || {
                        helper.serve();
                        helper.nodes
                    })
                })
                .collect();
            let quit = QuitGuard(&pool);
            let result = work(self, pos);
            drop(quit);
            let helper_nodes: u64 = helpers
                .into_iter()
                .map(|helper| match helper.join() {
                    Ok(nodes) => nodes,
                    Err(panic) => std::panic::resume_unwind(panic),
                })
                .sum();
            (result, helper_nodes)
        });
        self.pool = None;
        self.nodes += helper_nodes;
        result
    }

    /// A helper's life: take the split points handed to it until the solve is over.
    fn serve(&mut self) {
        let Some(pool) = self.pool.clone() else {
            return;
        };
        let _guard = PanicGuard(&pool);
        let mut threads = pool.lock();
        threads.state[self.id] = State::Idle;
        pool.refresh(&threads);
        loop {
            if let Some(task) = threads.task[self.id].take() {
                threads.state[self.id] = State::Busy;
                drop(threads);
                self.help(&pool, &task);
                threads = pool.lock();
                threads.state[self.id] = State::Idle;
                pool.refresh(&threads);
                continue;
            }
            if threads.quit {
                return;
            }
            threads = pool.wait(self.id, threads);
        }
    }

    /// Searches moves of another thread's split point until none is left.
    fn help(&mut self, pool: &Pool, sp: &Arc<SplitPoint>) {
        let outer = self.chain.replace(Arc::clone(sp));
        self.work_at(pool, sp);
        self.chain = outer;
        pool.leave(self.id, sp);
    }

    /// Whether a node with these moves left may be split now: deep enough, at least two
    /// moves left (the owner takes one), and a thread free (one load, no lock).
    #[inline(always)]
    pub(super) fn may_split(&self, n: u32, left: usize) -> bool {
        n >= self.split_empties
            && left >= 2
            && self
                .pool
                .as_ref()
                .is_some_and(|pool| pool.free.load(Relaxed) > 0)
    }

    /// Searches the moves of `ordered` from `from` on (its eldest brother has failed to
    /// cut; `best` is its value) with whichever threads are free: the fail-soft value and
    /// square as `search_moves` returns them, or `None` when no thread could come (then
    /// the caller goes on alone).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split(
        &mut self,
        p: u64,
        o: u64,
        ordered: &super::order::Ordered,
        from: usize,
        alpha: i32,
        beta: i32,
        n: u32,
        (best, best_sq): (i32, u8),
    ) -> Option<Option<(i32, u8)>> {
        let pool = Arc::clone(self.pool.as_ref()?);
        let mut moves = [0u8; 64];
        for (slot, i) in moves.iter_mut().zip(from..ordered.len) {
            *slot = ordered.square(i);
        }
        let sp = Arc::new(SplitPoint {
            p,
            o,
            n,
            beta,
            moves,
            len: ordered.len - from,
            owner: self.id,
            parent: self.chain.clone(),
            stop: AtomicBool::new(false),
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            best: AtomicI32::new(best),
            best_sq: AtomicU8::new(best_sq),
            helpers: AtomicU64::new(0),
        });
        if !pool.recruit(self.id, &sp) {
            return None;
        }
        let outer = self.chain.replace(Arc::clone(&sp));
        self.work_at(&pool, &sp);
        self.wait_at(&pool, &sp);
        self.chain = outer;
        if self.out_of_nodes() {
            return Some(None);
        }
        // Every helper has left under the lock that `wait_at` last took: their results
        // are all in.
        Some(Some((sp.best.load(Relaxed), sp.best_sq.load(Relaxed))))
    }

    /// Takes moves of `sp` one at a time, each searched with the split point's alpha of
    /// the moment (a null window first, as in `search_moves`), until none is left or the
    /// split point is settled.
    fn work_at(&mut self, pool: &Pool, sp: &SplitPoint) {
        loop {
            let (sq, alpha) = {
                let _threads = pool.lock();
                let i = sp.next.load(Relaxed);
                if i >= sp.len || sp.stopped() {
                    return;
                }
                sp.next.store(i + 1, Relaxed);
                (sp.moves[i], sp.alpha.load(Relaxed))
            };
            let f = flips(sp.p, sp.o, sq);
            let v = self.search_child(sp.o & !f, sp.p | f | (1 << sq), false, alpha, sp.beta, sp.n);
            if self.out_of_nodes() {
                if self.nodes >= self.node_limit {
                    // Out of this thread's budget: the move taken has no value, so the
                    // split point's owner must not use its result, nor anyone above;
                    // the whole search stops (the caller's result is `None` anyway).
                    Pool::stop(&pool.lock(), sp.outermost());
                }
                return;
            }
            let threads = pool.lock();
            if v > sp.best.load(Relaxed) {
                sp.best.store(v, Relaxed);
                sp.best_sq.store(sq, Relaxed);
                if v >= sp.beta {
                    Pool::stop(&threads, sp);
                    return;
                }
                if v > sp.alpha.load(Relaxed) {
                    sp.alpha.store(v, Relaxed);
                }
            }
        }
    }

    /// Waits until every helper of `sp` (this thread's) has left, searching meanwhile the
    /// split points they hand this thread.
    fn wait_at(&mut self, pool: &Pool, sp: &Arc<SplitPoint>) {
        let mut threads = pool.lock();
        loop {
            if let Some(task) = threads.task[self.id].take() {
                threads.state[self.id] = State::Busy;
                drop(threads);
                self.help(pool, &task);
                threads = pool.lock();
            }
            if sp.helpers.load(Relaxed) == 0 {
                threads.state[self.id] = State::Busy;
                threads.active.retain(|active| !Arc::ptr_eq(active, sp));
                pool.refresh(&threads);
                return;
            }
            if !matches!(threads.state[self.id], State::Waiting(_)) {
                threads.state[self.id] = State::Waiting(Arc::clone(sp));
                pool.refresh(&threads);
            }
            threads = pool.wait(self.id, threads);
        }
    }
}
