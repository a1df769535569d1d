//! Files a person opens: a GGF record to load, a network of their own to play.

use super::gateway::{Command, Gateway, Network};
use crate::models::{default_card, strength_line};
use crate::records::is_ggf;
use crate::view::{View, ViewAction};
use engine::network::ModelCard;
use othello::{BoardSize, Variant};
use std::rc::Rc;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

/// Reads a GGF file, or the page's own text record ("Download the record"), a person
/// opened and hands its text to `on_text` (the loader, which checks it); a file that is
/// neither is refused here (the twelfth look: the page's own record, opened as a file, was
/// refused as no GGF game).
pub fn open_record(
    file: web_sys::File,
    on_text: Callback<String>,
    view: UseReducerDispatcher<View>,
) {
    spawn_local(async move {
        let text = read_file(&file).await.and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| format!("{} is not a text file", file.name()))
        });
        match text {
            Ok(text) if is_ggf(&text) || crate::text_record::parts(&text).is_some() => {
                on_text.emit(text);
            }
            Ok(_) => view.dispatch(ViewAction::Message(Some(format!(
                "Cannot load the game record: {} holds no GGF game (a record starts with \"(;\") \
                 and is no record of this page's (which starts \"{}\")",
                file.name(),
                crate::text_record::HEAD
            )))),
            Err(e) => view.dispatch(ViewAction::Message(Some(format!(
                "Cannot load the game record: {e}"
            )))),
        }
    });
}

async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {e:?}", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads a person's network (an `.onnx`, perhaps with its card) and sends it to the
/// workers, which check it; the answer reaches the view as a pool event.
pub fn upload_model(
    files: Vec<web_sys::File>,
    gateway: Gateway,
    view: UseReducerDispatcher<View>,
    size: BoardSize,
    variant: Variant,
) {
    spawn_local(async move {
        let result = async {
            let onnx_file = files
                .iter()
                .find(|f| f.name().to_lowercase().ends_with(".onnx"))
                .ok_or("pick an .onnx file (and, optionally, its .json card)")?;
            let card_file = files
                .iter()
                .find(|f| f.name().to_lowercase().ends_with(".json"));
            // A player spec names the network: no commas in the name.
            let stem = onnx_file.name().trim_end_matches(".onnx").replace(',', " ");
            let name = format!("{stem} (yours)");
            let onnx = read_file(onnx_file).await?;
            let card = match card_file {
                Some(f) => String::from_utf8(read_file(f).await?)
                    .map_err(|_| "the model card is not UTF-8".to_owned())?,
                None => default_card(&name, size, variant),
            };
            let bad_card = |e: engine::network::CardError| {
                format!("its model card is not valid (details: {e})")
            };
            let parsed = ModelCard::from_json(&card).map_err(bad_card)?;
            let board = parsed.board().map_err(bad_card)?;
            let model_variant = parsed.variant().map_err(bad_card)?;
            Ok::<_, String>((name, board, model_variant, onnx, card))
        };
        match result.await {
            Ok((name, board, model_variant, onnx, card)) => {
                view.dispatch(ViewAction::Message(Some(format!("Checking {name}…"))));
                if let Some(line) = strength_line(&card) {
                    view.dispatch(ViewAction::Strength(name.clone(), line));
                }
                gateway.send(Command::LoadModel(Network {
                    name,
                    size: board,
                    variant: model_variant,
                    onnx: Rc::new(onnx),
                    card,
                }));
            }
            Err(error) => view.dispatch(ViewAction::Message(Some(format!(
                "The network was not loaded: {error}"
            )))),
        }
    });
}
