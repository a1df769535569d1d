//! Choose which shipped learner plays, load a network of one's own, or go back to the
//! built-in one.

use crate::models::BuiltinModel;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NetworkPanelProps {
    /// The shipped networks for this board, the default first.
    pub learners: Vec<&'static BuiltinModel>,
    /// The shipped network playing now, if one is.
    pub active: Option<&'static BuiltinModel>,
    /// The picked files (an `.onnx`, perhaps its `.json` card).
    pub on_upload: Callback<Vec<web_sys::File>>,
    /// Play this shipped network.
    pub on_builtin: Callback<&'static BuiltinModel>,
}

#[function_component(NetworkPanel)]
pub fn network_panel(props: &NetworkPanelProps) -> Html {
    let onchange = {
        let on_upload = props.on_upload.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let Some(files) = input.files() else { return };
            let files: Vec<web_sys::File> =
                (0..files.length()).filter_map(|i| files.get(i)).collect();
            input.set_value("");
            on_upload.emit(files);
        })
    };
    let on_pick = {
        let (on_builtin, learners) = (props.on_builtin.clone(), props.learners.clone());
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            if let Some(model) = learners.iter().find(|m| m.name() == select.value()) {
                on_builtin.emit(model);
            }
        })
    };
    let default = props.learners.first().copied();
    let on_default = {
        let on_builtin = props.on_builtin.clone();
        Callback::from(move |_| {
            if let Some(model) = default {
                on_builtin.emit(model);
            }
        })
    };
    html! {
        <fieldset>
            <legend>{ "Network" }</legend>
            if props.learners.len() > 1 {
                <label>{ "Learned by: " }
                    <select id="learner" onchange={on_pick}>
                        if props.active.is_none() {
                            <option value="" selected=true disabled=true>{ "your own network" }</option>
                        }
                        { for props.learners.iter().map(|m| html! {
                            <option value={m.name()} selected={props.active == Some(*m)}>
                                { m.learner.label() }
                            </option>
                        }) }
                    </select>
                </label>
                if let Some(model) = props.active {
                    <p class="small" id="learner-note">{ model.learner.describe() }</p>
                }
            }
            <label>{ "Load your own (.onnx, optional .json card): " }
                <input id="model-file" type="file" accept=".onnx,.json" multiple=true {onchange} />
            </label>
            if props.active.is_none() && default.is_some() {
                <button id="use-builtin" onclick={on_default}>{ "Use the built-in network" }</button>
            }
        </fieldset>
    }
}
