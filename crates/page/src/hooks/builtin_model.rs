//! The shipped networks: the board's default fetched once and sent to the workers, and
//! any other fetched on demand.

use super::fetch::{fetch_bytes, fetch_with_progress};
use super::gateway::{Command, Gateway, Network};
use crate::models::{builtin_for, strength_line, BuiltinModel};
use crate::view::{Download, ModelStatus, View, ViewAction};
use othello::{BoardSize, Variant};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

/// The shipped networks fetched so far, by name: the ONNX bytes and the card.
type Fetched = Rc<RefCell<HashMap<String, (Rc<Vec<u8>>, String)>>>;

/// Fetches the board's default shipped network once and sends it to the workers. Returns a
/// callback that loads any shipped network (another learner's, or the default again after
/// a network of one's own), fetching its files the first time.
#[hook]
pub fn use_builtin_model(
    gateway: &Gateway,
    view: UseReducerHandle<View>,
    size: BoardSize,
    variant: Variant,
) -> Callback<&'static BuiltinModel> {
    let fetched: Fetched = use_mut_ref(HashMap::new);
    let load = {
        let (gateway, view) = (gateway.clone(), view.dispatcher());
        Callback::from(move |model: &'static BuiltinModel| {
            load_builtin(model, gateway.clone(), fetched.clone(), view.clone());
        })
    };
    {
        let load = load.clone();
        use_effect_with((size, variant), move |&(size, variant)| {
            if let Some(model) = builtin_for(size, variant) {
                if view.model(size, variant).is_none() {
                    load.emit(model);
                }
            }
        });
    }
    load
}

fn load_builtin(
    model: &'static BuiltinModel,
    gateway: Gateway,
    fetched: Fetched,
    view: UseReducerDispatcher<View>,
) {
    let name = model.name().to_owned();
    let (size, variant) = (model.size, model.variant);
    let send = move |gateway: &Gateway, onnx: Rc<Vec<u8>>, card: String| {
        gateway.send(Command::LoadModel(Network {
            name: model.name().to_owned(),
            size,
            variant,
            onnx,
            card,
        }));
    };
    let cached = fetched.borrow().get(&name).cloned();
    if let Some((onnx, card)) = cached {
        view.dispatch(ViewAction::Message(None));
        send(&gateway, onnx, card);
        return;
    }
    view.dispatch(ViewAction::Model(
        size,
        variant,
        ModelStatus::Loading(name.clone()),
    ));
    spawn_local(async move {
        let files = async {
            // Served compressed, the file comes with no length to count against: the
            // shipped file's own size stands in (`BuiltinModel::onnx_bytes`).
            let progress = |received: u64, total: Option<u64>| {
                view.dispatch(ViewAction::Downloading(Download {
                    name: name.clone(),
                    received,
                    total: total.or(Some(model.onnx_bytes)),
                }));
            };
            let onnx = fetch_with_progress(&model.onnx_path(), progress).await?;
            let card = fetch_bytes(&model.card_path()).await?;
            let card =
                String::from_utf8(card).map_err(|_| "the model card is not UTF-8".to_owned())?;
            Ok::<_, String>((onnx, card))
        };
        match files.await {
            Ok((onnx, card)) => {
                if let Some(line) = strength_line(&card) {
                    view.dispatch(ViewAction::Strength(name.clone(), line));
                }
                let onnx = Rc::new(onnx);
                fetched
                    .borrow_mut()
                    .insert(name, (onnx.clone(), card.clone()));
                send(&gateway, onnx, card);
            }
            Err(error) => {
                view.dispatch(ViewAction::Model(size, variant, ModelStatus::Failed(error)));
            }
        }
    });
}
