// The Grid tab: a constructor's editor. A crossword grid edited from the keyboard and the mouse (blocks kept
// symmetric, rebus cells, undo and redo), the candidates for the selected slot, fills of the grid or a selection
// under the rules set beside it (minimum score, theme words, several fills), the hard slots, a clue per entry,
// and the grid opened from and downloaded as text, .puz or .ipuz.

import { api, firstParam, has, paramNames, spelled, wordOf } from "./api.js";
import { cluesByName, cluesFromNames, drawClues } from "./clue-panel.js";
import { allSlots, gridStats, gridText, numbering, slotCells, slotName } from "./crossword.js";
import { $, setStatus } from "./dom.js";
import { editorKeys, focusCell, makeCells, moveBy } from "./grid.js";
import { download, openFile, readText, valuesOf } from "./grid-files.js";
import { makeHistory } from "./history.js";
import { isSymmetric, partners } from "./symmetry.js";

const MAX_SIDE = 25;
const grid = { rows: 5, cols: 5, r: 0, c: 0, across: true, cells: [], v: [], filled: new Set(), anchor: null, region: null, seq: 0,
  fills: [], which: 0, base: null, heat: null, heatOn: false, heatSeq: 0, heatTimer: 0, clues: new Map(), clueShape: "",
  currentKey: "", drawing: false, history: makeHistory() };

export function setup() {
  newGrid();
  $("grid-new").addEventListener("click", () => { record(); newGrid(); });
  $("grid-clear").addEventListener("click", () => { record(); grid.v = grid.v.map((x) => (x === "#" ? "#" : "")); grid.filled.clear(); gridEdited(); drawGrid(); });
  setupEditing();
  setupFiles();
  $("grid-fill").addEventListener("click", () => fillGrid(false));
  $("grid-fill-region").addEventListener("click", () => fillGrid(true));
  $("candidates").addEventListener("keydown", (e) => {
    const items = [...$("candidates").children];
    if (!items.length) return;
    let i = items.findIndex((li) => li.getAttribute("aria-selected") === "true");
    if (e.key === "ArrowDown" || e.key === "ArrowUp") { e.preventDefault(); i = Math.max(0, Math.min(items.length - 1, i + (e.key === "ArrowDown" ? 1 : -1))); selectCandidate(i); }
    else if (e.key === "Enter" && i >= 0) { e.preventDefault(); writeSlot(items[i].dataset.word); }
  });
  $("grid-prev").addEventListener("click", () => showFill(grid.which - 1));
  $("grid-next").addEventListener("click", () => showFill(grid.which + 1));
  $("grid-heat").addEventListener("click", () => { grid.heatOn = !grid.heatOn; $("grid-heat").setAttribute("aria-pressed", grid.heatOn); refreshHeat(); });
  for (const id of ["grid-min", "grid-theme"]) $(id).addEventListener("change", () => { grid.heat = null; refreshHeat(); });
  if (!has("fill")) { for (const id of ["grid-fill", "grid-fill-region", "grid-heat"]) $(id).disabled = true; }
}

// -- editing: symmetric blocks, rebus cells, undo and redo --------------------------------------------------------

function setupEditing() {
  $("grid-symmetry").addEventListener("change", showStats);
  $("grid-draw").addEventListener("click", () => { grid.drawing = !grid.drawing; $("grid-draw").setAttribute("aria-pressed", grid.drawing); });
  $("grid-undo").addEventListener("click", () => undo(false));
  $("grid-redo").addEventListener("click", () => undo(true));
  $("view-grid").addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;  // a field's own undo
    const k = e.key.toLowerCase();
    if (k === "z" || k === "y") { e.preventDefault(); undo(k === "y" || e.shiftKey); }
  });
  $("grid-design").hidden = !has("design");
  $("grid-design").addEventListener("click", designGrid);
  $("grid-rebus").addEventListener("click", startRebus);
  $("grid-rebus-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); endRebus(true); }
    else if (e.key === "Escape") { e.preventDefault(); endRebus(false); }
  });
  $("grid-rebus-text").addEventListener("blur", () => { if (!$("grid-rebus-box").hidden) endRebus(false, true); });
}

// What undo brings back: the cells, the fill's letters, the clues, the size and the cursor.
function snapshot() {
  return { rows: grid.rows, cols: grid.cols, v: grid.v.slice(), filled: new Set(grid.filled), clues: new Map(grid.clues),
    r: grid.r, c: grid.c, title: $("grid-title").value };
}

// Called before each change: the state it changes is kept for undo.
function record() { grid.history.record(snapshot()); showHistory(); }

function showHistory() { $("grid-undo").disabled = !grid.history.canUndo; $("grid-redo").disabled = !grid.history.canRedo; }

function undo(redo) {
  const back = redo ? grid.history.redo(snapshot()) : grid.history.undo(snapshot());
  if (back) restore(back);
  showHistory();
}

function restore(s) {
  const resized = s.rows !== grid.rows || s.cols !== grid.cols;
  if (resized) { $("grid-rows").value = s.rows; $("grid-cols").value = s.cols; newGrid(); }
  grid.v = s.v.slice(); grid.filled = new Set(s.filled); grid.clues = new Map(s.clues); $("grid-title").value = s.title;
  gridEdited();
  focusCell(grid, Math.min(s.r, grid.rows - 1), Math.min(s.c, grid.cols - 1));
}

// A block placed or taken away at (r, c), and at the cells its symmetry ties to it.
function toggleBlock(r, c) {
  record();
  const block = grid.v[r * grid.cols + c] !== "#";
  for (const [rr, cc] of partners($("grid-symmetry").value, grid.rows, grid.cols, r, c)) {
    const i = rr * grid.cols + cc;
    grid.v[i] = block ? "#" : ""; grid.filled.delete(i);
  }
  gridEdited(); drawGrid();
}

// Letters written over the block at (r, c) open its partners too: the blocks stay symmetric.
function openPartners(r, c) {
  for (const [pr, pc] of partners($("grid-symmetry").value, grid.rows, grid.cols, r, c).slice(1)) grid.v[pr * grid.cols + pc] = "";
}

// Insert (or the Rebus button): several letters typed into the cell with the cursor, written on Enter.
function startRebus() {
  const v = grid.v[grid.r * grid.cols + grid.c];
  $("grid-rebus-box").hidden = false;
  $("grid-rebus-text").value = v === "#" ? "" : v.toUpperCase();
  $("grid-rebus-text").focus(); $("grid-rebus-text").select();
}

function endRebus(write, leaving) {
  const letters = $("grid-rebus-text").value.replace(/[^\p{L}·]/gu, "").toLowerCase();
  $("grid-rebus-box").hidden = true;
  const i = grid.r * grid.cols + grid.c;
  if (write && grid.v[i] !== letters && (letters || grid.v[i] !== "#")) {  // no letters leave a block as it is
    record();
    if (grid.v[i] === "#" && letters) openPartners(grid.r, grid.c);
    grid.v[i] = letters; grid.filled.delete(i); gridEdited(); drawGrid();
  }
  if (!leaving) {
    const step = grid.across ? [0, 1] : [1, 0];
    if (write && letters) moveBy(grid, step[0], step[1]); else focusCell(grid, grid.r, grid.c);
  }
}

// -- design: grids proposed around the theme words (POST /api/design) ------------------------------------------

// The first proposal for this size, symmetry and theme; pressed again, the next one.
async function designGrid() {
  const theme = $("grid-theme").value.split(/[\s,]+/).filter((w) => w);
  const rows = Math.max(2, Math.min(MAX_SIDE, +$("grid-rows").value || 15)), cols = Math.max(2, Math.min(MAX_SIDE, +$("grid-cols").value || 15));
  const body = { theme, size: `${rows}x${cols}`, symmetry: $("grid-symmetry").value, proposals: 3 };
  const min = Math.max(0, Math.min(255, +$("grid-min").value || 0));
  if (min) body.min_priority = min;
  const key = JSON.stringify(body);
  if (grid.designs && grid.designs.key === key && grid.designs.list.length) { showDesign((grid.designs.k + 1) % grid.designs.list.length); return; }
  if (!theme.length) { setStatus($("grid-status"), "Design places the theme words: write them in Theme words first", true); return; }
  setStatus($("grid-status"), "designing…");
  try {
    const doc = await api("design", body);
    if (!(doc.results || []).length) { setStatus($("grid-status"), `no grid: ${doc.reason || doc.status}`, true); return; }
    grid.designs = { key, list: doc.results, k: 0 };
    showDesign(0);
  } catch (err) { setStatus($("grid-status"), err.message, true); }
}

function showDesign(k) {
  const d = grid.designs.list[k], rows = d.grid || d.pattern;
  grid.designs.k = k;
  loadDocument({ height: rows.length, width: valuesOf(rows)[0].length, rows, clues: {}, title: $("grid-title").value }, "", true);
  const score = d.mean_priority != null ? `, mean score ${d.mean_priority}, lowest ${d.lowest_priority}` : ", not filled";
  setStatus($("grid-status"), `design ${k + 1} of ${grid.designs.list.length}: ${d.entries} entries, ${d.blocks} blocks${score}`
    + `; theme ${d.theme.map((t) => `${t.word} ${t.slot}`).join(", ")}`);
}

// -- files: open, paste, download -----------------------------------------------------------------------------

function setupFiles() {
  $("grid-open").addEventListener("change", async () => {
    const file = $("grid-open").files[0];
    if (!file) return;
    try { loadDocument(await openFile(file), file.name); } catch (err) { setStatus($("grid-status"), err.message, true); }
    $("grid-open").value = "";
  });
  $("grid-paste").addEventListener("click", () => {
    const box = $("grid-paste-box"); box.hidden = !box.hidden;
    $("grid-paste").setAttribute("aria-expanded", !box.hidden);
    if (!box.hidden) $("grid-paste-text").focus();
  });
  $("grid-paste-load").addEventListener("click", async () => {
    try {
      loadDocument(await readText($("grid-paste-text").value), "the pasted grid");
      $("grid-paste-box").hidden = true; $("grid-paste").setAttribute("aria-expanded", "false");
    } catch (err) { setStatus($("grid-status"), err.message, true); }
  });
  $("grid-save-puz").addEventListener("click", () => save("puz"));
  $("grid-save-ipuz").addEventListener("click", () => save("ipuz"));
}

// A grid document (from a file, pasted text or a design) in the editor, with its title and clues.
function loadDocument(doc, what, quiet) {
  if (doc.height > MAX_SIDE || doc.width > MAX_SIDE || doc.height < 2 || doc.width < 2) {
    setStatus($("grid-status"), `${what} is ${doc.height}×${doc.width}: the page edits grids of 2 to ${MAX_SIDE} cells a side`, true);
    return;
  }
  record();
  $("grid-rows").value = doc.height; $("grid-cols").value = doc.width;
  newGrid();
  grid.v = valuesOf(doc.rows).flat();
  grid.clues = cluesFromNames(grid, doc.clues);
  $("grid-title").value = doc.title || "";
  gridEdited(); drawGrid(); showCandidates();
  const n = Object.keys(doc.clues || {}).length;
  if (!quiet) setStatus($("grid-status"), `opened ${what}: ${doc.height}×${doc.width}, ${n} clue${n === 1 ? "" : "s"}`);
}

// The grid as written now (a fill shown included), its title and its clues.
function gridDocument() {
  return { title: $("grid-title").value.trim(), rows: gridText(grid).trim().split("\n"), clues: cluesByName(grid) };
}

async function save(format) {
  const name = ($("grid-title").value.trim() || "grid").replace(/[^A-Za-z0-9._-]+/g, "-");
  try { setStatus($("grid-status"), `downloaded ${await download(gridDocument(), format, name)}`); }
  catch (err) { setStatus($("grid-status"), err.message, true); }
}

// The grid as the user wrote it changed: earlier fills and counts no longer describe it.
function gridEdited() {
  grid.fills = []; grid.base = null; grid.heat = null;
  $("grid-pager").hidden = true;
  if (grid.heatOn) { clearTimeout(grid.heatTimer); grid.heatTimer = setTimeout(refreshHeat, 200); }
}

function rules() {
  const body = {};
  const min = Math.max(0, Math.min(255, +$("grid-min").value || 0));
  if (min) body.min_priority = min;
  const theme = $("grid-theme").value.split(/[\s,]+/).filter((w) => w);
  if (theme.length) body.theme = theme;
  return body;
}

async function refreshHeat() {
  $("grid-heat-legend").hidden = !grid.heatOn;
  if (!grid.heatOn || !has("fill")) { drawGrid(); return; }
  if (grid.heat) { drawGrid(); return; }
  const seq = ++grid.heatSeq;
  const body = Object.assign(rules(), { counts: true });
  delete body.theme;  // counts are of the grid as it is
  body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText(grid, grid.base);
  try {
    const doc = await api("fill", body);
    if (seq !== grid.heatSeq) return;
    const count = new Map((doc.results || []).map((r) => [r.slot, r.candidates]));
    const heat = new Map();
    for (const s of allSlots(grid)) {
      if (!count.has(s.name)) continue;
      for (const [r, c] of s.cells) {
        const i = r * grid.cols + c, n = count.get(s.name);
        const cell = heat.get(i) || { least: Infinity, slots: [] };
        cell.least = Math.min(cell.least, n); cell.slots.push(`${s.name}: ${n.toLocaleString()}`);
        heat.set(i, cell);
      }
    }
    grid.heat = heat;
    const hard = [...count.entries()].sort((a, b) => a[1] - b[1]).slice(0, 5).map(([k, v]) => `${k} ${v.toLocaleString()}`);
    setStatus($("grid-status"), doc.status === "no_fill" ? `no fill exists: ${doc.reason || ""}` : `hardest slots: ${hard.join(", ")}`, doc.status === "no_fill");
  } catch (err) { setStatus($("grid-status"), err.message, true); }
  drawGrid();
}

function heatClass(n) { return n === 0 ? "heat-0" : n === 1 ? "heat-1" : n < 10 ? "heat-2" : n < 100 ? "heat-3" : n < 1000 ? "heat-4" : ""; }

function newGrid() {
  grid.rows = Math.max(2, Math.min(MAX_SIDE, +$("grid-rows").value || 5));
  grid.cols = Math.max(2, Math.min(MAX_SIDE, +$("grid-cols").value || 5));
  grid.v = Array.from({ length: grid.rows * grid.cols }, () => "");
  grid.filled = new Set(); grid.region = null; grid.anchor = null; grid.r = 0; grid.c = 0; grid.clues = new Map();
  grid.fills = []; grid.base = null; grid.heat = null; $("grid-pager").hidden = true;
  grid.cells = makeCells($("grid"), grid.rows, grid.cols, gridKey);
  grid.cells.forEach((d) => d.addEventListener("mousedown", () => { grid.wasFocused = document.activeElement === d; }));
  grid.cells.forEach((d, i) => d.addEventListener("click", (e) => {
    const r = Math.floor(i / grid.cols), c = i % grid.cols;
    if (e.shiftKey) { extendRegion(r, c); return; }
    if (grid.drawing) { grid.region = null; toggleBlock(r, c); focusCell(grid, r, c); return; }
    if (r === grid.r && c === grid.c && grid.wasFocused) grid.across = !grid.across;
    grid.region = null; focusCell(grid, r, c);
  }));
  grid.onMove = () => { drawGrid(); showCandidates(); };
  grid.onExtend = (dr, dc) => extendRegion(Math.min(grid.rows - 1, Math.max(0, (grid.region ? grid.region.r2 : grid.r) + dr)), Math.min(grid.cols - 1, Math.max(0, (grid.region ? grid.region.c2 : grid.c) + dc)));
  grid.cells[0].tabIndex = 0;
  drawGrid(); showCandidates();
}

function extendRegion(r2, c2) {
  if (!grid.region) grid.region = { r1: grid.r, c1: grid.c, r2, c2 }; else { grid.region.r2 = r2; grid.region.c2 = c2; }
  drawGrid();
  grid.cells[r2 * grid.cols + c2].focus();
}
function regionBox() {
  const g = grid.region; if (!g) return null;
  return { top: Math.min(g.r1, g.r2), left: Math.min(g.c1, g.c2), bottom: Math.max(g.r1, g.r2), right: Math.max(g.c1, g.c2) };
}

function gridKey(e, r, c) {
  if (e.key === "#" || e.key === ".") {
    e.preventDefault();
    toggleBlock(r, c);
    const step = grid.across ? [0, 1] : [1, 0];
    moveBy(grid, step[0], step[1]);
    return;
  }
  if (e.key === "Insert") { e.preventDefault(); grid.r = r; grid.c = c; startRebus(); return; }
  if (!e.shiftKey && e.key.startsWith("Arrow")) grid.region = null;
  editorKeys(grid, e, r, c, (rr, cc, k) => {
    const i = rr * grid.cols + cc;
    if (grid.v[i] === (k || "").toLowerCase()) return;  // nothing changes: no step to undo
    record();
    if (grid.v[i] === "#" && k) openPartners(rr, cc);
    if (grid.v[i] !== "#" || k) grid.v[i] = k.toLowerCase();
    grid.filled.delete(i); gridEdited(); drawGrid(); showCandidates();
  });
}

function drawGrid() {
  const slot = new Set(slotCells(grid, grid.r, grid.c, grid.across).map(([r, c]) => r * grid.cols + c));
  const box = regionBox();
  const nums = numbering(grid);
  grid.cells.forEach((d, i) => {
    const r = Math.floor(i / grid.cols), c = i % grid.cols, v = grid.v[i];
    d.className = "cell";
    if (i === grid.r * grid.cols + grid.c) d.classList.add(grid.across ? "cursor-across" : "cursor-down");
    if (v === "#") d.classList.add("block"); else if (slot.has(i)) d.classList.add("inslot");
    if (grid.filled.has(i)) d.classList.add("filled");
    if (box && r >= box.top && r <= box.bottom && c >= box.left && c <= box.right) d.classList.add("region");
    const heat = grid.heatOn && grid.heat ? grid.heat.get(i) : null;
    if (heat) { const k = heatClass(heat.least); if (k) d.classList.add(k); }
    d.textContent = v === "#" ? "" : v;
    if (v.length > 1 && v !== "#") d.classList.add("rebus");
    if (nums.has(i)) { const s = document.createElement("span"); s.className = "num"; s.textContent = nums.get(i); d.appendChild(s); }
    d.title = heat ? heat.slots.join(", ") : "";
    d.setAttribute("aria-label", `row ${r + 1} column ${c + 1}: ${v === "#" ? "block" : v || "empty"}` + (heat ? `; candidates ${heat.slots.join(", ")}` : ""));
  });
  const cur = slotCells(grid, grid.r, grid.c, grid.across);
  grid.currentKey = cur.length ? `${grid.across ? "A" : "D"}${cur[0][0]},${cur[0][1]}:${cur.length}` : "";
  showStats();
  drawClues(grid, editClue, (s) => { grid.across = s.name.endsWith("A"); grid.r = s.cells[0][0]; grid.c = s.cells[0][1]; drawGrid(); showCandidates(); });
}

// The grid's entries and blocks, and what breaks the usual rules: short entries, unchecked cells, asymmetry.
function showStats() {
  const st = gridStats(grid), kind = $("grid-symmetry").value;
  const notes = [];
  if (st.short) notes.push(`${st.short} entr${st.short === 1 ? "y" : "ies"} under 3 letters`);
  if (st.unchecked) notes.push(`${st.unchecked} unchecked cell${st.unchecked === 1 ? "" : "s"}`);
  if (kind !== "none" && !isSymmetric(kind, grid.rows, grid.cols, grid.v)) notes.push(`blocks not ${kind}`);
  $("grid-stats").textContent = `${st.entries} entries, ${st.blocks} blocks` + (notes.length ? `; ${notes.join(", ")}` : "");
}

function editClue(key, text) {
  if ((grid.clues.get(key) || "") === text) return;
  record();
  if (text) grid.clues.set(key, text); else grid.clues.delete(key);
  drawGrid();
}

function showCandidates() {
  // The title at once; the list a moment later, so typing a word asks the server once, not per letter.
  const cells = slotCells(grid, grid.r, grid.c, grid.across);
  const seq = ++grid.seq;
  $("candidates").innerHTML = "";
  clearTimeout(grid.timer);
  if (!cells.length) { $("slot-title").textContent = "Candidates"; return; }
  const name = slotName(grid, cells, grid.across);
  const pattern = cells.map(([r, c]) => grid.v[r * grid.cols + c] || "?").join("");
  $("slot-title").textContent = `Candidates for ${name} (${pattern})`;
  grid.timer = setTimeout(() => loadCandidates(seq, name, pattern), 120);
}

async function loadCandidates(seq, name, pattern) {
  const list = $("candidates");
  try {
    let words;
    if (has("fill") && paramNames("fill").includes("suggest")) {
      const body = { suggest: name }; body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText(grid);
      const doc = await api("fill", body);
      words = (doc.results || []).map((r) => ({ word: wordOf(r), note: r.score }));
    } else if (has("match")) {
      const body = {}; body[firstParam("match", ["pattern", "patterns"])] = pattern;
      if (paramNames("match").includes("limit")) body.limit = 200;
      words = ((await api("match", body)).results || []).map((r) => ({ word: wordOf(r) }));
    } else {
      words = (await spelled(pattern, 200)).map((d) => ({ word: d.word }));
    }
    if (seq !== grid.seq) return;
    words.slice(0, 200).forEach((w, i) => {
      const li = document.createElement("li");
      li.textContent = w.word; li.dataset.word = w.word; li.setAttribute("role", "option"); li.id = "cand-" + i;
      li.addEventListener("click", () => writeSlot(w.word));
      list.appendChild(li);
    });
    if (!words.length) list.innerHTML = "<li>no word fits</li>";
  } catch (err) { if (seq === grid.seq) list.innerHTML = `<li class="error"></li>`, list.firstChild.textContent = err.message; }
}

function selectCandidate(i) {
  [...$("candidates").children].forEach((li, j) => li.setAttribute("aria-selected", i === j));
  const li = $("cand-" + i); if (li) { li.scrollIntoView({ block: "nearest" }); $("candidates").setAttribute("aria-activedescendant", li.id); }
}

function writeSlot(word) {
  const cells = slotCells(grid, grid.r, grid.c, grid.across);
  const tiles = [...word];
  if (tiles.length !== cells.length) return;
  record();
  cells.forEach(([r, c], k) => { grid.v[r * grid.cols + c] = tiles[k]; });
  gridEdited(); drawGrid(); showCandidates();
}

function applyFill(doc) {
  // A fill answers the grid (rows of text) and/or its entries; either is drawn.
  let rows = doc.grid || (doc.fill && doc.fill.grid);
  if (typeof rows === "string") rows = rows.split("\n").filter((x) => x.length);
  if (Array.isArray(rows) && rows.length === grid.rows) {
    rows.forEach((row, r) => {
      const toks = row.match(/\[[^\]]+\]|./gu) || [];
      toks.forEach((t, c) => { const i = r * grid.cols + c; const v = t.replace(/[[\]]/g, "").toLowerCase(); if (grid.v[i] !== "#" && v !== "." && v !== "#" && grid.v[i] !== v) { grid.v[i] = v; grid.filled.add(i); } });
    });
    return true;
  }
  return false;
}

function showFill(k) {
  // Several fills: each is drawn over the letters the user had written.
  if (!grid.fills.length || !grid.base) return;
  grid.which = (k + grid.fills.length) % grid.fills.length;
  const f = grid.fills[grid.which];
  grid.v = grid.base.slice(); grid.filled.clear();
  applyFill(f);
  $("grid-pager").hidden = grid.fills.length < 2;
  $("grid-which").textContent = `fill ${grid.which + 1} of ${grid.fills.length}` + (f.mean_priority != null ? `: mean score ${f.mean_priority}, lowest ${f.lowest_priority}` : "");
  drawGrid(); showCandidates();
}

async function fillGrid(regionOnly) {
  if (!has("fill")) return;
  const body = {}; body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText(grid);
  if (regionOnly) {
    const b = regionBox();
    if (b) body.region = `r${b.top + 1}c${b.left + 1}:r${b.bottom + 1}c${b.right + 1}`;
    else { const cells = slotCells(grid, grid.r, grid.c, grid.across); if (!cells.length) return; body.region = slotName(grid, cells, grid.across); }
  }
  Object.assign(body, rules());
  const wanted = Math.max(1, Math.min(20, +$("grid-fills").value || 1));
  if (wanted > 1) body.fills = wanted;
  const base = grid.base || grid.v.slice();  // fill the grid as the user wrote it, not a fill shown before
  body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText(grid, base);
  setStatus($("grid-status"), "filling…");
  try {
    const doc = await api("fill", body);
    const done = doc.status === "filled";
    if (done) {
      record();
      grid.base = base;
      grid.fills = doc.fills && doc.fills.length ? doc.fills : [doc];
      showFill(0);
    }
    let text = done ? `filled ${doc.count} slots${doc.lowest_priority != null ? `; lowest priority ${doc.lowest_priority}, mean ${doc.mean_priority}` : ""}`
      : doc.status === "no_fill" ? `no fill exists: ${doc.reason || ""}` : "no fill found within the time limit";
    if (done && doc.reason) text += ` (${doc.reason})`;
    setStatus($("grid-status"), text, !done);
  } catch (err) { setStatus($("grid-status"), err.message, true); }
}

// Another lexicon chosen: the candidates for the selected slot, from it.
export function refresh() { showCandidates(); }
