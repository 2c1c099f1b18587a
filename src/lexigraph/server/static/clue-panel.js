// The Grid tab's clue panel: a clue per entry, numbered as the grid, typed by keyboard. A clue is kept by its
// entry's place (direction, first cell, length), so it stays with its entry while blocks change elsewhere and
// comes back when a change is undone; the files carry the clues by the entry's name (1A, 12D).

import { allSlots } from "./crossword.js";
import { $ } from "./dom.js";

// An entry's place: "A" or "D", its first cell, its length.
export function slotKey(slot) {
  const [r, c] = slot.cells[0];
  return `${slot.name.slice(-1)}${r},${c}:${slot.cells.length}`;
}

// The clues of the grid's entries by name, {"1A": "..."}: the entries that have one, across then down.
export function cluesByName(grid) {
  const out = {};
  for (const s of allSlots(grid)) { const t = grid.clues.get(slotKey(s)); if (t) out[s.name] = t; }
  return out;
}

// Clues by name (a file's) as the grid keeps them.
export function cluesFromNames(grid, named) {
  const clues = new Map();
  for (const s of allSlots(grid)) if (named && named[s.name]) clues.set(slotKey(s), named[s.name]);
  return clues;
}

// The panel drawn again when the entries changed (not while a clue is typed: its field keeps the focus).
// onEdit(key, text) before a clue changes; onFocus(slot) when a clue's field takes the focus.
export function drawClues(grid, onEdit, onFocus) {
  const slots = allSlots(grid);
  const shape = slots.map(slotKey).join(" ");
  if (shape === grid.clueShape) { syncClues(grid, slots); return; }
  grid.clueShape = shape;
  for (const [dir, id] of [["A", "clues-across"], ["D", "clues-down"]]) {
    const list = $(id);
    list.innerHTML = "";
    for (const s of slots.filter((x) => x.name.endsWith(dir))) {
      const li = document.createElement("li");
      const label = document.createElement("label");
      const input = document.createElement("input");
      const key = slotKey(s);
      label.htmlFor = input.id = "clue-" + s.name;
      label.textContent = s.name.slice(0, -1);
      input.type = "text"; input.maxLength = 1000; input.spellcheck = true; input.autocomplete = "off";
      input.dataset.key = key;
      input.setAttribute("aria-label", `clue ${s.name}, ${s.cells.length} letters`);
      input.value = grid.clues.get(key) || "";
      input.addEventListener("change", () => onEdit(key, input.value.trim()));
      input.addEventListener("focus", () => onFocus(s));
      li.dataset.key = key;
      li.append(label, input);
      list.appendChild(li);
    }
  }
  syncClues(grid, slots);
}

// Each field shows its clue (after an undo, a file opened) and the entry with the cursor is marked.
function syncClues(grid, slots) {
  for (const input of document.querySelectorAll("#grid-clues input")) {
    const want = grid.clues.get(input.dataset.key) || "";
    if (input.value !== want && document.activeElement !== input) input.value = want;
    input.parentElement.classList.toggle("current", input.dataset.key === grid.currentKey);
  }
  const n = slots.filter((s) => grid.clues.get(slotKey(s))).length;
  $("clues-count").textContent = `${n} of ${slots.length} entries clued`;
}
