//! The networks the workers hold: a load goes to every worker and is answered once all of
//! them have (`ModelLoaded`, or `ModelRejected` with the first reason), and every network
//! loaded is kept to be sent again to a worker that replaces one.

use super::{now, Pool, Slot};
use crate::pool::PoolEvent;
use othello::{BoardSize, Variant};
use protocol::Input;
use std::rc::Rc;

/// A network as the workers get it: its name, its board, the ONNX bytes and the card.
#[derive(Clone)]
pub(super) struct NetworkFiles {
    name: String,
    size: BoardSize,
    variant: Variant,
    onnx: Rc<Vec<u8>>,
    card: String,
}

impl NetworkFiles {
    fn input(&self) -> Input {
        Input::LoadModel {
            name: self.name.clone(),
            onnx: self.onnx.as_ref().clone(),
            card: self.card.clone(),
        }
    }
}

/// A load sent to every worker, with the answers so far.
pub(super) struct PendingLoad {
    files: NetworkFiles,
    answers: usize,
    error: Option<String>,
}

impl Pool {
    /// Sends a network to every worker; the answer comes as `ModelLoaded` or
    /// `ModelRejected`.
    pub fn load_model(
        &mut self,
        name: String,
        size: BoardSize,
        variant: Variant,
        onnx: Rc<Vec<u8>>,
        card: String,
    ) {
        let files = NetworkFiles {
            name,
            size,
            variant,
            onnx,
            card,
        };
        let t = now();
        for slot in &mut self.slots {
            slot.loading_since.get_or_insert(t);
            slot.bridge.send(files.input());
        }
        self.pending.retain(|p| p.files.name != files.name);
        self.pending.push(PendingLoad {
            files,
            answers: 0,
            error: None,
        });
    }

    /// Gives a fresh worker every network loaded, and the loads still in flight: its answer
    /// to those stands in for the one the old worker will never give.
    pub(super) fn send_networks(&self, fresh: &mut Slot, t: f64) {
        for files in &self.networks {
            fresh.silent_loads += 1;
            fresh.loading_since.get_or_insert(t);
            fresh.bridge.send(files.input());
        }
        for pending in &self.pending {
            fresh.loading_since.get_or_insert(t);
            fresh.bridge.send(pending.files.input());
        }
    }

    /// Worker `index` answered a load: silently for a network resent to a replacement,
    /// else counted towards the load's answer.
    pub(super) fn on_load(
        &mut self,
        index: usize,
        name: String,
        error: Option<String>,
    ) -> Vec<PoolEvent> {
        let slot = &mut self.slots[index];
        if slot.silent_loads > 0 {
            slot.silent_loads -= 1;
            if slot.silent_loads == 0 {
                slot.loading_since = None;
            }
            return vec![];
        }
        slot.loading_since = None;
        self.answer_load(name, error)
    }

    fn answer_load(&mut self, name: String, error: Option<String>) -> Vec<PoolEvent> {
        let workers = self.slots.len();
        let Some(i) = self.pending.iter().position(|p| p.files.name == name) else {
            return vec![];
        };
        let pending = &mut self.pending[i];
        pending.answers += 1;
        if pending.error.is_none() {
            pending.error = error;
        }
        if pending.answers < workers {
            return vec![];
        }
        let pending = self.pending.remove(i);
        match pending.error {
            Some(error) => vec![PoolEvent::ModelRejected { name, error }],
            None => {
                let files = pending.files;
                self.networks
                    .retain(|n| !(n.size == files.size && n.variant == files.variant));
                let event = PoolEvent::ModelLoaded {
                    name,
                    size: files.size,
                    variant: files.variant,
                };
                self.networks.push(files);
                vec![event]
            }
        }
    }
}
