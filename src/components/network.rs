//! Load a network of one's own, or go back to the built-in one.

use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NetworkPanelProps {
    /// Whether to offer going back to the built-in network.
    pub offer_builtin: bool,
    /// The picked files (an `.onnx`, perhaps its `.json` card).
    pub on_upload: Callback<Vec<web_sys::File>>,
    pub on_builtin: Callback<()>,
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
    let on_builtin = props.on_builtin.reform(|_| ());
    html! {
        <fieldset>
            <legend>{ "Network" }</legend>
            <label>{ "Load your own (.onnx, optional .json card): " }
                <input id="model-file" type="file" accept=".onnx,.json" multiple=true {onchange} />
            </label>
            if props.offer_builtin {
                <button id="use-builtin" onclick={on_builtin}>{ "Use the built-in network" }</button>
            }
        </fieldset>
    }
}
