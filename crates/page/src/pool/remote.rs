//! The search worker as the page sees it: its messages and nothing else.
//!
//! The worker's code is a crate of its own (`crates/worker`) that the page does not depend
//! on: the page starts the worker's script by URL ([`WorkerBuild::script`]). gloo-worker
//! types a bridge by a [`Worker`], but only for the messages, which both sides take from
//! the protocol, so this stand-in has the worker's `Input` and `Output` and no body: it
//! cannot be made, and gloo-worker makes one only inside a worker's own script.
//!
//! [`WorkerBuild::script`]: crate::simd::WorkerBuild::script

use gloo_worker::{HandlerId, Worker, WorkerScope};
use protocol::{Input, Output};

/// The remote search worker: uninhabited, so the page can name its messages but never run
/// a search itself.
#[derive(Debug)]
pub enum SearchWorker {}

impl Worker for SearchWorker {
    type Message = ();
    type Input = Input;
    type Output = Output;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        unreachable!("the search worker runs in its own script (crates/worker), never on the page")
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {
        match *self {}
    }

    fn received(&mut self, _scope: &WorkerScope<Self>, _msg: Input, _who: HandlerId) {
        match *self {}
    }
}
