// record.js is the field that takes a game record: pasted, chosen as a
// file (what "Export the record" saves), or a file dropped on it.

import { h } from "./dom.js";

// maxRecord bounds a record read from a file, as the server bounds its
// bodies.
const maxRecord = 512 * 1024;

// recordField returns {el, text(), error} for the record's id: el holds
// a text area, a file input and the drop zone; errors go to the error
// element, which the caller puts beside its button.
export function recordField(id) {
  const error = h("p", { class: "error", id: id + "-error", role: "alert" });
  const area = h("textarea", { id, rows: 5, placeholder: "Paste a Muster or OpenTafl record, choose its file, or drop the file here", "aria-label": "game record" });
  const read = async (file) => {
    error.textContent = "";
    if (!file) return;
    if (file.size > maxRecord) { error.textContent = `${file.name} is ${Math.round(file.size / 1024)} KiB: a record is at most ${maxRecord / 1024} KiB.`; return; }
    try { area.value = await file.text(); } catch (e) { error.textContent = `${file.name} could not be read: ${e.message}`; }
  };
  const file = h("input", { type: "file", id: id + "-file", accept: ".txt,.pgn,.otr,.record,text/plain", onchange: (e) => read(e.target.files[0]) });
  const el = h("div", { class: "drop", id: id + "-drop" }, area,
    h("label", {}, "Or open a file: ", file));
  el.addEventListener("dragover", (e) => { e.preventDefault(); el.classList.add("over"); });
  el.addEventListener("dragleave", () => el.classList.remove("over"));
  el.addEventListener("drop", (e) => {
    e.preventDefault();
    el.classList.remove("over");
    read(e.dataTransfer && e.dataTransfer.files[0]);
  });
  return { el, error, text: () => area.value };
}
