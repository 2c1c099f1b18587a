// lexigraph's page: search, board and grid views over the server's own JSON API (no other host, no build step).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { commands: {}, lexicon: "", limits: { max_results: 1000 } };

// ---------------------------------------------------------------------------------------------- API

async function api(name, body, signal) {
  const payload = Object.assign({}, body);
  if (state.lexicon) payload.lexicon = state.lexicon;
  const r = await fetch("/api/" + name, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload), signal,
  });
  const doc = await r.json();
  if (!r.ok) throw new Error((doc.error && doc.error.message) || r.statusText);
  return doc;
}

function has(name) { return Object.prototype.hasOwnProperty.call(state.commands, name); }
function paramNames(name) { return has(name) ? state.commands[name].params.map((p) => p.name) : []; }
function firstParam(name, candidates) {
  const names = paramNames(name);
  for (const c of candidates) if (names.includes(c)) return c;
  const pos = state.commands[name] && state.commands[name].params.find((p) => p.required);
  return pos ? pos.name : candidates[0];
}
function wordOf(r) { return typeof r === "string" ? r : (r.word || r.alphagram || ""); }
function setStatus(el, text, error) { el.textContent = text; el.classList.toggle("error", !!error); }

// --------------------------------------------------------------------------------------------- tabs

const TABS = ["search", "board", "grid", "play"];
function showTab(name, focus) {
  for (const t of TABS) {
    const on = t === name;
    $("tab-" + t).setAttribute("aria-selected", on);
    $("tab-" + t).tabIndex = on ? 0 : -1;
    $("view-" + t).hidden = !on;
  }
  if (focus) $("tab-" + name).focus();
  if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
}
for (const t of TABS) {
  $("tab-" + t).addEventListener("click", () => showTab(t));
  $("tab-" + t).addEventListener("keydown", (e) => {
    const i = TABS.indexOf(t);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      showTab(TABS[(i + (e.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length], true);
    }
  });
}

// ------------------------------------------------------------------------------------------- search

const MODES = [
  { id: "match", label: "Pattern", cmd: "match", field: ["pattern"], help: "? any tile, * any run, [abc] a set, @ vowel, # consonant", placeholder: "??mo??t" },
  { id: "anagram", label: "Anagram", cmd: "anagram", field: ["rack"], help: "tiles of a rack; ? is a blank, a trailing * asks for longer words (as every tile and more)", placeholder: "aelrst?" },
  { id: "search", label: "Study search", cmd: "search", field: ["expr", "expression", "query"], help: "conditions combined with and / or (see docs/search.md)", placeholder: "length 7 and hooks s" },
  { id: "words", label: "Prefix", cmd: "words", field: ["prefix"], help: "words that start with these tiles", placeholder: "qu" },
];
const search = { page: 0, size: 100, seq: 0, ctrl: null, timer: 0, total: 0, results: [] };

function searchMode() { return MODES.find((m) => m.id === $("search-mode").value) || MODES[0]; }

function setupSearch() {
  const sel = $("search-mode");
  sel.innerHTML = "";
  for (const m of MODES) {
    const usable = has(m.cmd) || (m.id === "match");    // patterns fall back to the Datamuse route
    if (!usable) continue;
    const o = document.createElement("option");
    o.value = m.id; o.textContent = m.label;
    sel.appendChild(o);
  }
  const onMode = () => {
    const m = searchMode();
    $("search-help").textContent = m.help; $("search-input").placeholder = m.placeholder;
    $("anagram-options").hidden = m.id !== "anagram";
    runSearch(0);
  };
  sel.addEventListener("change", onMode);
  for (const id of ["anagram-mode", "anagram-sort"]) $(id).addEventListener("change", () => runSearch(0));
  for (const id of ["anagram-min", "anagram-max"]) {
    $(id).addEventListener("input", () => { clearTimeout(search.timer); search.timer = setTimeout(() => runSearch(0), 250); });
  }
  $("search-input").addEventListener("input", () => { clearTimeout(search.timer); search.timer = setTimeout(() => runSearch(0), 120); });
  $("search-input").addEventListener("keydown", (e) => { if (e.key === "Enter") { clearTimeout(search.timer); runSearch(0); } });
  $("search-prev").addEventListener("click", () => runSearch(search.page - 1));
  $("search-next").addEventListener("click", () => runSearch(search.page + 1));
  onMode();
}

async function fetchPage(mode, text, offset, limit, signal) {
  // Paged on the server when the command takes offset/limit; otherwise the (capped) list is paged here.
  if (!has(mode.cmd)) {
    const r = await fetch("/words?" + new URLSearchParams({ sp: text, max: state.limits.max_results, lexicon: state.lexicon }), { signal });
    const doc = await r.json();
    if (!r.ok) throw new Error(doc.error.message);
    return { words: doc.slice(offset, offset + limit).map((d) => ({ word: d.word })), total: doc.length, capped: doc.length >= state.limits.max_results };
  }
  const names = paramNames(mode.cmd);
  const body = {};
  body[firstParam(mode.cmd, mode.field)] = text;
  const serverPaged = names.includes("offset") && names.includes("limit");
  if (serverPaged) { body.offset = offset; body.limit = limit; }
  if (mode.id === "search" && names.includes("hooks")) body.hooks = true;   // study tools show each word's hooks
  if (mode.id === "anagram") anagramOptions(body, names);
  const doc = await api(mode.cmd, body, signal);
  let rows = doc.results || [];
  if (rows.length && rows[0].words && !rows[0].word) {   // grouped results (alphagram groups): flatten
    rows = rows.flatMap((g) => g.words.map((w) => (typeof w === "string" ? { word: w } : w)));
  }
  const total = doc.total != null ? doc.total : rows.length;
  if (!serverPaged) rows = rows.slice(offset, offset + limit);
  return { words: rows, total, capped: !!doc.truncated };
}

// The anagram options as the anagram command takes them: which words (some of the tiles, every tile, every tile
// and more), their lengths, their order (longest first, probability, alphabetical).
function anagramOptions(body, names) {
  const mode = $("anagram-mode").value;
  if (mode === "exact" || mode === "super") body[mode] = true;
  for (const [id, name] of [["anagram-min", "min_length"], ["anagram-max", "max_length"]]) {
    const text = $(id).value.trim();
    if (text && names.includes(name)) body[name] = Number.isFinite(+text) ? Math.trunc(+text) : text;  // the server says what is wrong
  }
  if (names.includes("sort")) body.sort = $("anagram-sort").value;
}

async function runSearch(page) {
  const text = $("search-input").value.trim();
  const mode = searchMode();
  const seq = ++search.seq;
  if (search.ctrl) search.ctrl.abort();
  const list = $("search-results");
  if (!text) { list.innerHTML = ""; setStatus($("search-status"), ""); updatePager(0, 0); return; }
  search.ctrl = new AbortController();
  setStatus($("search-status"), "searching…");
  try {
    const got = await fetchPage(mode, text, page * search.size, search.size, search.ctrl.signal);
    if (seq !== search.seq) return;
    search.page = page;
    list.innerHTML = "";
    for (const r of got.words) {
      const li = document.createElement("li");
      li.textContent = wordOf(r);
      const extra = r.score != null ? r.score : (r.probability_rank != null ? "#" + r.probability_rank : null);
      if (r.hooks) {   // as study tools print them: front hooks, the word, back hooks
        li.textContent = "";
        const f = document.createElement("small"); f.textContent = r.hooks.front || ""; f.className = "hook";
        const b = document.createElement("small"); b.textContent = r.hooks.back || ""; b.className = "hook";
        li.append(f, document.createTextNode(wordOf(r)), b);
      }
      else if (extra != null && mode.id !== "match") { const s = document.createElement("small"); s.textContent = extra; li.appendChild(s); }
      list.appendChild(li);
    }
    const n = got.total;
    setStatus($("search-status"), n === 0 ? "no words" : `${n.toLocaleString()} word${n === 1 ? "" : "s"}${got.capped ? " (the server's limit; narrow the search)" : ""}`);
    updatePager(page, n);
  } catch (err) {
    if (err.name === "AbortError" || seq !== search.seq) return;
    list.innerHTML = "";
    setStatus($("search-status"), err.message, true);
    updatePager(0, 0);
  }
}

function updatePager(page, total) {
  const pages = Math.ceil(total / search.size);
  $("search-prev").disabled = page <= 0;
  $("search-next").disabled = page + 1 >= pages;
  $("search-page").textContent = pages > 1 ? `page ${page + 1} of ${pages}` : "";
}

// ------------------------------------------------------------------------------------- cell editors

// One keyboard model for the board and the grid: arrows move, letters type and advance, Space turns,
// Backspace clears and steps back, Home/End jump along the line. A board (coords) has its column letters over it
// and its row numbers on its left, as moves name squares (8D: row 8, column D); the cells shrink to fit a phone.
function makeCells(container, rows, cols, onKey, coords) {
  container.innerHTML = "";
  container.style.setProperty("--span", cols + (coords ? 0.7 : 0));
  container.style.gridTemplateColumns = (coords ? "var(--coord) " : "") + `repeat(${cols}, var(--cell))`;
  if (coords) {
    const head = document.createElement("div");
    head.style.display = "contents";
    head.setAttribute("aria-hidden", "true");   // each square's own label names it
    head.appendChild(coordCell(""));
    for (let c = 0; c < cols; c++) head.appendChild(coordCell(String.fromCharCode(65 + c)));
    container.appendChild(head);
  }
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.style.display = "contents";
    if (coords) row.appendChild(coordCell(String(r + 1)));
    for (let c = 0; c < cols; c++) {
      const d = document.createElement("div");
      d.className = "cell";
      d.setAttribute("role", "gridcell");
      d.tabIndex = -1;
      d.dataset.r = r; d.dataset.c = c;
      d.addEventListener("keydown", (e) => onKey(e, r, c));
      row.appendChild(d);
      cells.push(d);
    }
    container.appendChild(row);
  }
  return cells;
}

function coordCell(text) {
  const d = document.createElement("div");
  d.className = "coord";
  d.setAttribute("aria-hidden", "true");
  d.textContent = text;
  return d;
}

// Premium squares as game documents write them (T D t d), their names, and the short labels the boards show.
const PREMIUM_KINDS = {
  T: { cls: "tw", label: "TW", name: "triple word" },
  D: { cls: "dw", label: "DW", name: "double word" },
  t: { cls: "tl", label: "TL", name: "triple letter" },
  d: { cls: "dl", label: "DL", name: "double letter" },
};
const START_LABEL = "\u2605";

// An empty square: its premium's colour and label, the star on the start square (which the first move covers).
function drawSquare(d, prem, start) {
  const kind = PREMIUM_KINDS[prem];
  if (kind) d.classList.add(kind.cls);
  if (start) d.classList.add("start");
  const label = start ? START_LABEL : kind ? kind.label : "";
  if (!label) return;
  const s = document.createElement("span");
  s.className = "prem"; s.textContent = label; s.setAttribute("aria-hidden", "true");   // the square's label says it
  d.appendChild(s);
}

// A square's accessible name: where it is, then its tile, or its premium and whether it is the start.
function squareLabel(r, c, tile, prem, start) {
  const where = `${String.fromCharCode(65 + c)}${r + 1}`;
  if (tile) return `${where} ${tile.tile}${tile.blank ? " blank" : ""}`;
  const kind = PREMIUM_KINDS[prem];
  return where + (start ? ", start" : "") + (kind ? ", " + kind.name : "");
}

// The legend under a board: each premium's label and name, and the start square's star with its own premium.
function drawLegend(list, startPrem) {
  list.innerHTML = "";
  const start = PREMIUM_KINDS[startPrem];
  const items = [...Object.values(PREMIUM_KINDS),
    { cls: "start" + (start ? " " + start.cls : ""), label: START_LABEL, name: "start" + (start ? ` (${start.name})` : "") }];
  for (const k of items) {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch " + k.cls; sw.textContent = k.label; sw.setAttribute("aria-hidden", "true");
    li.append(sw, document.createTextNode(k.name));
    list.appendChild(li);
  }
}

function moveBy(ed, dr, dc) {
  const r = Math.min(ed.rows - 1, Math.max(0, ed.r + dr));
  const c = Math.min(ed.cols - 1, Math.max(0, ed.c + dc));
  focusCell(ed, r, c);
}
function focusCell(ed, r, c) {
  const old = ed.cells[ed.r * ed.cols + ed.c];
  old.tabIndex = -1; old.classList.remove("cursor-across", "cursor-down");
  ed.r = r; ed.c = c;
  const cell = ed.cells[r * ed.cols + c];
  cell.tabIndex = 0;
  cell.classList.add(ed.across ? "cursor-across" : "cursor-down");
  cell.focus();
  if (ed.onMove) ed.onMove();
}
function editorKeys(ed, e, r, c, put) {
  ed.r = r; ed.c = c;
  const step = ed.across ? [0, 1] : [1, 0];
  const k = e.key;
  if (k === "ArrowUp" || k === "ArrowDown" || k === "ArrowLeft" || k === "ArrowRight") {
    e.preventDefault();
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[k];
    if (e.shiftKey && ed.onExtend) { ed.onExtend(d[0], d[1]); return; }
    moveBy(ed, d[0], d[1]);
  } else if (k === " ") {
    e.preventDefault(); ed.across = !ed.across; focusCell(ed, r, c);
  } else if (k === "Backspace" || k === "Delete") {
    e.preventDefault(); put(r, c, ""); if (k === "Backspace") moveBy(ed, -step[0], -step[1]);
  } else if (k === "Home") { e.preventDefault(); focusCell(ed, ed.across ? r : 0, ed.across ? 0 : c); }
  else if (k === "End") { e.preventDefault(); focusCell(ed, ed.across ? r : ed.rows - 1, ed.across ? ed.cols - 1 : c); }
  else if (k.length === 1 && /\p{L}/u.test(k) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault(); put(r, c, k, e.shiftKey); moveBy(ed, step[0], step[1]);
  } else return false;
  return true;
}

// -------------------------------------------------------------------------------------------- board

// Standard 15x15 premium squares: T triple word, D double word, t triple letter, d double letter.
const PREMIUMS = [
  "T..d...T...d..T", ".D...t...t...D.", "..D...d.d...D..", "d..D...d...D..d", "....D.....D....",
  ".t...t...t...t.", "..d...d.d...d..", "T..d...D...d..T", "..d...d.d...d..", ".t...t...t...t.",
  "....D.....D....", "d..D...d...D..d", "..D...d.d...D..", ".D...t...t...D.", "T..d...T...d..T",
];
const board = { rows: 15, cols: 15, r: 7, c: 7, across: true, cells: [], tiles: [], moves: [], chosen: -1, leaves: null };

function setupBoard() {
  board.tiles = Array.from({ length: 15 * 15 }, () => null);
  board.cells = makeCells($("board"), 15, 15, (e, r, c) => editorKeys(board, e, r, c, putTile), true);
  drawLegend($("board-legend"), PREMIUMS[7][7]);
  board.cells.forEach((d, i) => d.addEventListener("click", () => focusCell(board, Math.floor(i / 15), i % 15)));
  board.cells[7 * 15 + 7].tabIndex = 0;
  drawBoard();
  $("rack-form").addEventListener("submit", findMoves);
  $("board-clear").addEventListener("click", () => { board.tiles.fill(null); board.moves = []; board.chosen = -1; $("moves").innerHTML = ""; drawBoard(); });
  $("board-play").addEventListener("click", playChosen);
  const list = $("moves");
  list.addEventListener("keydown", (e) => {
    if (!board.moves.length) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") { e.preventDefault(); chooseMove(Math.max(0, Math.min(board.moves.length - 1, board.chosen + (e.key === "ArrowDown" ? 1 : -1)))); }
    else if (e.key === "Enter") { e.preventDefault(); playChosen(); }
  });
  if (!has("moves")) setStatus($("moves-status"), "This server has no moves command yet: the board can be edited, not analysed.");
  $("leaves-file").addEventListener("change", chooseLeaves);
  $("leaves-clear").addEventListener("click", () => {
    board.leaves = null; $("leaves-file").value = ""; $("leaves-clear").disabled = true;
    if ($("rack").value.trim()) findMoves(); else describeLeaves();
  });
  $("moves-sort").addEventListener("change", () => { if ($("rack").value.trim()) findMoves(); else describeLeaves(); });
  if (!paramNames("moves").includes("leaves")) {
    for (const id of ["leaves-file", "leaves-clear", "moves-sort"]) $(id).disabled = true;
    setStatus($("leaves-status"), "This server's moves command takes no leave table.");
  } else describeLeaves();
}

// What the leave-table line says comes from the server's moves document (its "leaves" names the table that valued
// the leaves, "sort" how the moves were ranked): the table chosen here, else the game's own, else none.
function leavesText(doc) {
  const by = doc.sort === "equity" ? "equity (score + the leave's value)" : "score";
  if (!doc.leaves) return `No leave table: moves are ranked by ${by}; equity adds only the end-of-game and opening adjustments.`;
  const which = board.leaves ? `${board.leaves.name} (chosen here)` : `${doc.leaves}, the game's own`;
  return `Leave table ${which}: moves are ranked by ${by}.`;
}

// Before any rack is asked about: the same question of the server for one tile on an empty board, no move listed.
async function describeLeaves() {
  if (!has("moves") || !paramNames("moves").includes("leaves")) return;
  const body = { rack: "E", top: 0 };
  body[firstParam("moves", ["position", "board", "cgp"])] = "empty";
  if (board.leaves) body.leaves = board.leaves.spec;
  if ($("moves-sort").value) body.sort = $("moves-sort").value;
  try { setStatus($("leaves-status"), leavesText(await api("moves", body))); }
  catch (err) { setStatus($("leaves-status"), err.message, true); }
}

// A leave table goes to the server as its content (the server reads no file of its own): CSV text as it is,
// a binary KLV2 or KLV file as "base64:" and its Base64.
async function chooseLeaves() {
  const file = $("leaves-file").files[0];
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = /\.csv$/i.test(file.name) || !bytes.includes(0);
  let spec;
  if (text) spec = new TextDecoder().decode(bytes);
  else {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    spec = "base64:" + btoa(bin);
  }
  board.leaves = { name: file.name, spec };
  $("leaves-clear").disabled = false;
  if ($("rack").value.trim()) findMoves(); else describeLeaves();
}

function putTile(r, c, k, blank) {
  board.tiles[r * 15 + c] = k ? { tile: k.toLowerCase(), blank: !!blank } : null;
  board.moves = []; board.chosen = -1; $("moves").innerHTML = ""; $("board-play").disabled = true;
  drawBoard();
}

function drawBoard(preview) {
  const placed = new Map();
  if (preview) for (const t of preview.tiles || []) placed.set(t.r * 15 + t.c, t);
  board.cells.forEach((d, i) => {
    const r = Math.floor(i / 15), c = i % 15, prem = PREMIUMS[r][c], start = r === 7 && c === 7;
    const t = placed.get(i) || board.tiles[i];
    d.className = "cell" + (d.tabIndex === 0 ? (board.across ? " cursor-across" : " cursor-down") : "");
    d.textContent = "";
    if (t) {
      d.classList.add("tile"); if (t.blank) d.classList.add("blank"); if (placed.has(i)) d.classList.add("new");
      d.textContent = t.tile;
    } else drawSquare(d, prem, start);
    d.setAttribute("aria-label", squareLabel(r, c, t, prem, start));
  });
}

function boardText() {
  // The plain board format: one line per row, '.' empty, upper case tiles, lower case blanks.
  const lines = [];
  for (let r = 0; r < 15; r++) {
    let s = "";
    for (let c = 0; c < 15; c++) {
      const t = board.tiles[r * 15 + c];
      s += !t ? "." : (t.tile.length > 1 ? "[" + t.tile.toUpperCase() + "]" : (t.blank ? t.tile.toLowerCase() : t.tile.toUpperCase()));
    }
    lines.push(s);
  }
  return lines.join("\n");
}

function colIndex(col) { return typeof col === "number" ? col - 1 : col.toUpperCase().charCodeAt(0) - 65; }

function moveTiles(m) {
  // Each placed tile: {row (1-based), col (letter or 1-based number), tile, blank}.
  return (m.tiles || []).filter((t) => typeof t === "object").map((t) => ({ r: t.row - 1, c: colIndex(t.col), tile: t.tile, blank: !!t.blank }));
}

async function findMoves() {
  if (!has("moves")) return;
  const rack = $("rack").value.trim();
  if (!rack) { setStatus($("moves-status"), "Give a rack first.", true); $("rack").focus(); return; }
  setStatus($("moves-status"), "finding moves…");
  const body = {};
  body[firstParam("moves", ["position", "board", "cgp"])] = boardText();
  body.rack = rack;
  const names = paramNames("moves");
  if (names.includes("top")) body.top = 50; else if (names.includes("limit")) body.limit = 50;
  if (board.leaves && names.includes("leaves")) body.leaves = board.leaves.spec;
  if ($("moves-sort").value && names.includes("sort")) body.sort = $("moves-sort").value;
  try {
    const doc = await api("moves", body);
    board.moves = (doc.results || []).filter((m) => ["play", "exchange"].includes(m.kind || "play"));
    const list = $("moves");
    list.innerHTML = "";
    board.moves.forEach((m, i) => {
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.id = "move-" + i;
      if (m.kind === "exchange") li.classList.add("exchange");
      li.innerHTML = `<span class="pos"></span><span class="word"></span><span class="leave"></span><span class="score"></span><span class="equity"></span>`;
      li.querySelector(".pos").textContent = m.kind === "exchange" ? "exch." : (m.position || "");
      li.querySelector(".word").textContent = m.kind === "exchange" ? m.notation : (m.notation ? m.notation.split(" ").slice(1).join(" ") : m.word);
      li.querySelector(".leave").textContent = m.leave || "-";
      li.querySelector(".score").textContent = m.score;
      li.querySelector(".equity").textContent = m.equity != null ? m.equity.toFixed(1) : "";
      li.title = `score ${m.score}` + (m.equity != null ? `, equity ${m.equity.toFixed(2)}` : "") + `, leave ${m.leave || "-"}`;
      li.addEventListener("click", () => { chooseMove(i); list.focus(); });
      list.appendChild(li);
    });
    const best = board.moves[0];
    const by = doc.sort === "equity" ? `equity ${best && best.equity != null ? best.equity.toFixed(2) : ""}` : `${best ? best.score : ""} points`;
    setStatus($("moves-status"), best ? `${(doc.total || board.moves.length).toLocaleString()} moves, ranked by ${doc.sort || "score"}; best ${best.notation || best.word}, ${by}` : "no move for this rack");
    setStatus($("leaves-status"), leavesText(doc));
    if (board.moves.length) chooseMove(0);
  } catch (err) { setStatus($("moves-status"), err.message, true); }
}

function chooseMove(i) {
  board.chosen = i;
  [...$("moves").children].forEach((li, j) => li.setAttribute("aria-selected", i === j));
  const li = $("move-" + i);
  if (li) { li.scrollIntoView({ block: "nearest" }); $("moves").setAttribute("aria-activedescendant", li.id); }
  const m = board.moves[i];
  const equity = m.equity != null ? `, equity ${m.equity.toFixed(2)} (leave ${m.leave_value >= 0 ? "+" : ""}${(m.leave_value || 0).toFixed(2)})` : "";
  if (m.kind === "exchange") {
    drawBoard();
    $("board-caption").textContent = `exchange ${m.exchanged}${equity}, keeping ${m.leave || "nothing"}`;
    $("board-play").disabled = true;
    return;
  }
  drawBoard({ tiles: moveTiles(m) });
  $("board-caption").textContent = `${m.notation || m.word}: ${m.score} points${equity}${m.leave ? ", leave " + m.leave : ""}${m.words && m.words.length > 1 ? "; also " + m.words.slice(1).join(", ") : ""}`;
  $("board-play").disabled = false;
}

function playChosen() {
  const m = board.moves[board.chosen];
  if (!m || m.kind === "exchange") return;
  for (const t of moveTiles(m)) board.tiles[t.r * 15 + t.c] = { tile: t.tile, blank: t.blank };
  board.moves = []; board.chosen = -1; $("moves").innerHTML = ""; $("board-play").disabled = true;
  $("board-caption").textContent = "";
  drawBoard();
}

// --------------------------------------------------------------------------------------------- grid

const grid = { rows: 5, cols: 5, r: 0, c: 0, across: true, cells: [], v: [], filled: new Set(), anchor: null, region: null, seq: 0,
  fills: [], which: 0, base: null, heat: null, heatOn: false, heatSeq: 0, heatTimer: 0 };

function setupGrid() {
  newGrid();
  $("grid-new").addEventListener("click", newGrid);
  $("grid-clear").addEventListener("click", () => { grid.v = grid.v.map((x) => (x === "#" ? "#" : "")); grid.filled.clear(); gridEdited(); drawGrid(); });
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

function allSlots() {
  // Every slot of two or more cells, with its name: across slots, then down slots.
  const out = [], nums = numbering();
  for (const across of [true, false]) {
    for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) {
      const cells = slotCells(r, c, across);
      if (cells.length && cells[0][0] === r && cells[0][1] === c) out.push({ name: `${nums.get(r * grid.cols + c)}${across ? "A" : "D"}`, cells });
    }
  }
  return out;
}

async function refreshHeat() {
  $("grid-heat-legend").hidden = !grid.heatOn;
  if (!grid.heatOn || !has("fill")) { drawGrid(); return; }
  if (grid.heat) { drawGrid(); return; }
  const seq = ++grid.heatSeq;
  const body = Object.assign(rules(), { counts: true });
  delete body.theme;  // counts are of the grid as it is
  body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText(grid.base);
  try {
    const doc = await api("fill", body);
    if (seq !== grid.heatSeq) return;
    const count = new Map((doc.results || []).map((r) => [r.slot, r.candidates]));
    const heat = new Map();
    for (const s of allSlots()) {
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
  grid.rows = Math.max(2, Math.min(25, +$("grid-rows").value || 5));
  grid.cols = Math.max(2, Math.min(25, +$("grid-cols").value || 5));
  grid.v = Array.from({ length: grid.rows * grid.cols }, () => "");
  grid.filled = new Set(); grid.region = null; grid.anchor = null; grid.r = 0; grid.c = 0;
  grid.fills = []; grid.base = null; grid.heat = null; $("grid-pager").hidden = true;
  grid.cells = makeCells($("grid"), grid.rows, grid.cols, gridKey);
  grid.cells.forEach((d) => d.addEventListener("mousedown", () => { grid.wasFocused = document.activeElement === d; }));
  grid.cells.forEach((d, i) => d.addEventListener("click", (e) => {
    const r = Math.floor(i / grid.cols), c = i % grid.cols;
    if (e.shiftKey) { extendRegion(r, c); return; }
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
    const i = r * grid.cols + c;
    grid.v[i] = grid.v[i] === "#" ? "" : "#"; grid.filled.delete(i);
    const step = grid.across ? [0, 1] : [1, 0];
    gridEdited(); drawGrid(); moveBy(grid, step[0], step[1]);
    return;
  }
  if (!e.shiftKey && e.key.startsWith("Arrow")) grid.region = null;
  editorKeys(grid, e, r, c, (rr, cc, k) => { const i = rr * grid.cols + cc; if (grid.v[i] !== "#" || k) grid.v[i] = k.toLowerCase(); grid.filled.delete(i); gridEdited(); drawGrid(); showCandidates(); });
}

function slotCells(r, c, across) {
  const at = (rr, cc) => grid.v[rr * grid.cols + cc];
  if (at(r, c) === "#") return [];
  let [dr, dc] = across ? [0, 1] : [1, 0];
  let r0 = r, c0 = c;
  while (r0 - dr >= 0 && c0 - dc >= 0 && at(r0 - dr, c0 - dc) !== "#") { r0 -= dr; c0 -= dc; }
  const cells = [];
  for (let rr = r0, cc = c0; rr < grid.rows && cc < grid.cols && at(rr, cc) !== "#"; rr += dr, cc += dc) cells.push([rr, cc]);
  return cells.length >= 2 ? cells : [];
}

function numbering() {
  // Standard crossword numbering: a cell starts an entry when a slot of two or more begins there.
  const nums = new Map(); let n = 0;
  for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) {
    if (grid.v[r * grid.cols + c] === "#") continue;
    const open = (rr, cc) => rr >= 0 && cc >= 0 && rr < grid.rows && cc < grid.cols && grid.v[rr * grid.cols + cc] !== "#";
    const a = !open(r, c - 1) && open(r, c + 1), d = !open(r - 1, c) && open(r + 1, c);
    if (a || d) nums.set(r * grid.cols + c, ++n);
  }
  return nums;
}

function slotName(cells, across) {
  if (!cells.length) return "";
  const [r, c] = cells[0];
  return `${numbering().get(r * grid.cols + c)}${across ? "A" : "D"}`;
}

function drawGrid() {
  const slot = new Set(slotCells(grid.r, grid.c, grid.across).map(([r, c]) => r * grid.cols + c));
  const box = regionBox();
  const nums = numbering();
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
    if (nums.has(i)) { const s = document.createElement("span"); s.className = "num"; s.textContent = nums.get(i); d.appendChild(s); }
    d.title = heat ? heat.slots.join(", ") : "";
    d.setAttribute("aria-label", `row ${r + 1} column ${c + 1}: ${v === "#" ? "block" : v || "empty"}` + (heat ? `; candidates ${heat.slots.join(", ")}` : ""));
  });
}

function gridText(values) {
  // The grid as text: the letters written (values: those before a fill, when one is shown).
  const vs = values || grid.v;
  const lines = [];
  for (let r = 0; r < grid.rows; r++) {
    let s = "";
    for (let c = 0; c < grid.cols; c++) { const v = vs[r * grid.cols + c]; s += v === "#" ? "#" : v ? (v.length > 1 ? "[" + v + "]" : v) : "."; }
    lines.push(s);
  }
  return lines.join("\n") + "\n";
}

function showCandidates() {
  // The title at once; the list a moment later, so typing a word asks the server once, not per letter.
  const cells = slotCells(grid.r, grid.c, grid.across);
  const seq = ++grid.seq;
  $("candidates").innerHTML = "";
  clearTimeout(grid.timer);
  if (!cells.length) { $("slot-title").textContent = "Candidates"; return; }
  const name = slotName(cells, grid.across);
  const pattern = cells.map(([r, c]) => grid.v[r * grid.cols + c] || "?").join("");
  $("slot-title").textContent = `Candidates for ${name} (${pattern})`;
  grid.timer = setTimeout(() => loadCandidates(seq, name, pattern), 120);
}

async function loadCandidates(seq, name, pattern) {
  const list = $("candidates");
  try {
    let words;
    if (has("fill") && paramNames("fill").includes("suggest")) {
      const body = { suggest: name }; body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText();
      const doc = await api("fill", body);
      words = (doc.results || []).map((r) => ({ word: wordOf(r), note: r.score }));
    } else if (has("match")) {
      const body = {}; body[firstParam("match", ["pattern", "patterns"])] = pattern;
      if (paramNames("match").includes("limit")) body.limit = 200;
      words = ((await api("match", body)).results || []).map((r) => ({ word: wordOf(r) }));
    } else {
      const r = await fetch("/words?" + new URLSearchParams({ sp: pattern, max: 200, lexicon: state.lexicon }));
      words = (await r.json()).map((d) => ({ word: d.word }));
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
  const cells = slotCells(grid.r, grid.c, grid.across);
  const tiles = [...word];
  if (tiles.length !== cells.length) return;
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
  const body = {}; body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText();
  if (regionOnly) {
    const b = regionBox();
    if (b) body.region = `r${b.top + 1}c${b.left + 1}:r${b.bottom + 1}c${b.right + 1}`;
    else { const cells = slotCells(grid.r, grid.c, grid.across); if (!cells.length) return; body.region = slotName(cells, grid.across); }
  }
  Object.assign(body, rules());
  const wanted = Math.max(1, Math.min(20, +$("grid-fills").value || 1));
  if (wanted > 1) body.fills = wanted;
  const base = grid.base || grid.v.slice();  // fill the grid as the user wrote it, not a fill shown before
  body[firstParam("fill", ["grid_text", "grid", "text"])] = gridText(base);
  setStatus($("grid-status"), "filling…");
  try {
    const doc = await api("fill", body);
    const done = doc.status === "filled";
    if (done) {
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

// --------------------------------------------------------------------------------------------- play

// A game against lexigraph. The game lives on the server (/api/games): it deals, checks every move, answers
// with the engine's reply and keeps the record; this page only shows it and sends the moves typed.
const play = { id: null, doc: null, rows: 15, cols: 15, r: 7, c: 7, across: true, cells: [], typed: new Map(), rack: [], busy: false };

async function gameApi(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch("/api/games" + path, init);
  const doc = await r.json();
  if (!r.ok) throw new Error((doc.error && doc.error.message) || r.statusText);
  return doc;
}

// Everything that makes a move: off once the game is over (the board's keys too: see playKey).
const MOVE_CONTROLS = ["play-move", "play-submit", "play-pass", "play-exchange", "play-exchange-tiles", "play-shuffle"];

function setupPlay() {
  $("play-setup").addEventListener("submit", newGame);
  $("play-form").addEventListener("submit", () => sendMove(normaliseMove($("play-move").value)));
  $("play-pass").addEventListener("click", () => sendMove("-"));
  $("play-exchange-form").addEventListener("submit", () => {
    const tiles = $("play-exchange-tiles").value.replace(/\s+/g, "").toUpperCase();
    if (!tiles) { setStatus($("play-status"), "Type the tiles to exchange first.", true); $("play-exchange-tiles").focus(); return; }
    sendMove("-" + tiles);
  });
  $("play-shuffle").addEventListener("click", () => {
    for (let i = play.rack.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [play.rack[i], play.rack[j]] = [play.rack[j], play.rack[i]]; }
    drawRack();
  });
  $("play-solve").addEventListener("click", solveEndgame);
  if (!has("endgame")) $("play-solve").title = "this server has no endgame solver";
}

function tilesOf(text) { return text.match(/\[[^\]]+\]|./gu) || []; }

// Typed moves: a word all in lower case means its natural tiles (blanks are lower case among upper case ones).
function normaliseMove(text) {
  const t = text.trim().replace(/\s+/g, " ");
  const parts = t.split(" ");
  if (parts.length === 2 && !/[A-Z]/.test(parts[1])) return parts[0] + " " + parts[1].toUpperCase();
  if (/^-[a-z?]+$/.test(t)) return t.toUpperCase();
  return t;
}

async function newGame() {
  setStatus($("play-status"), "dealing…");
  $("play-game").hidden = false;
  try {
    const body = { opponent: $("play-opponent").value, first: $("play-first").value };
    if (state.lexicon) body.lexicon = state.lexicon;
    const doc = await gameApi("", body);
    play.id = doc.id;
    history.replaceState(null, "", "?game=" + encodeURIComponent(doc.id) + location.hash);  // a reload resumes it
    $("play-analysis").textContent = ""; $("play-best").innerHTML = ""; $("play-endgame").textContent = "";
    $("play-analysis-box").hidden = true;
    showGame(doc);
    setStatus($("play-status"), doc.turn === "you" ? "Your turn." : "");
    $("play-move").focus();
  } catch (err) { setStatus($("play-status"), err.message, true); }
}

// A game named in the address (?game=ID): shown again, as the server keeps it.
async function resumeGame(id) {
  $("play-game").hidden = false;
  try {
    const doc = await gameApi("/" + encodeURIComponent(id));
    play.id = doc.id;
    showGame(doc);
    if (doc.turns.length) {
      const mine = [...doc.turns].reverse().find((t) => t.player === "you" && t.analysis);
      if (mine) showAnalysis({ analysis: mine.analysis, played: { kind: mine.kind, notation: mine.notation, exchanged: mine.notation.slice(1) } });
    }
    setStatus($("play-status"), doc.over ? "The game is over." : "Your turn.");
  } catch (err) { setStatus($("play-status"), `${err.message}: start a new game`, true); }
}

async function sendMove(text) {
  if (!play.id || play.busy) return;
  if (!text) { setStatus($("play-status"), "Type a move first (8D WORD, - to pass, -ABC to exchange).", true); $("play-move").focus(); return; }
  play.busy = true;
  setStatus($("play-status"), "lexigraph is thinking…");
  try {
    const doc = await gameApi("/" + encodeURIComponent(play.id) + "/play", { move: text });
    $("play-move").value = ""; $("play-exchange-tiles").value = "";
    showGame(doc);
    showAnalysis(doc);
    const reply = doc.reply;
    const said = reply ? `lexigraph ${reply.kind === "play" ? "played " + reply.notation + " for " + reply.score : reply.kind === "exchange" ? "exchanged " + reply.exchanged.length + " tiles" : "passed"}.` : "";
    setStatus($("play-status"), doc.over ? "The game is over. " + said : said + " Your turn.");
    (doc.over ? $("play-gcg") : $("play-move")).focus();   // at the end the move field is off: the record is next
  } catch (err) {
    setStatus($("play-status"), err.message, true);
    $("play-move").focus();
  } finally { play.busy = false; }
}

function showAnalysis(doc) {
  const a = doc.analysis, m = doc.played;
  if (!a) return;
  $("play-analysis-box").hidden = false;
  const named = m.kind === "pass" ? "pass" : m.kind === "exchange" ? `exchange ${m.exchanged}` : m.notation;
  $("play-analysis").textContent = `${named}: rank ${a.rank} of ${a.of} by equity; equity ${a.equity.toFixed(1)}, score ${a.score}.`;
  const list = $("play-best");
  list.innerHTML = "";
  for (const b of a.best) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="pos"></span><span class="word"></span><span class="score"></span><span class="equity"></span>`;
    li.querySelector(".pos").textContent = b.kind === "play" ? b.position : b.kind === "exchange" ? "exch." : "pass";
    li.querySelector(".word").textContent = b.kind === "play" ? b.notation.split(" ").slice(1).join(" ") : b.notation;
    li.querySelector(".score").textContent = b.score;
    li.querySelector(".equity").textContent = b.equity != null ? b.equity.toFixed(1) : "";
    if (b.notation === m.notation) li.setAttribute("aria-current", "true");
    list.appendChild(li);
  }
}

function showGame(doc) {
  play.doc = doc;
  const n = doc.size;
  if (play.cells.length !== n * n) {
    play.rows = play.cols = n; play.r = play.c = Math.floor(n / 2);
    play.cells = makeCells($("play-board"), n, n, (e, r, c) => playKey(e, r, c), true);
    play.cells.forEach((d, i) => d.addEventListener("click", () => focusCell(play, Math.floor(i / n), i % n)));
    play.cells[play.r * n + play.c].tabIndex = 0;
    play.onMove = () => drawPlayBoard();
    drawLegend($("play-legend"), doc.premiums[Math.floor(n / 2)][Math.floor(n / 2)]);
  }
  play.typed.clear();
  play.rack = tilesOf(doc.rack);
  drawPlayBoard(); drawRack();
  $("play-score-you").textContent = doc.scores.you;
  $("play-score-engine").textContent = doc.scores.lexigraph;
  $("play-bag").textContent = doc.bag;
  $("play-turn").textContent = doc.over ? "game over" : doc.turn === "you" ? "your turn" : "lexigraph's turn";
  $("play-unseen").textContent = Object.entries(doc.unseen).map(([t, k]) => (k > 1 ? `${t}×${k}` : t)).join(" ") +
    ` (${Object.values(doc.unseen).reduce((a, b) => a + b, 0)}: the bag and lexigraph's ${doc.opponent_rack_size} tiles)`;
  const log = $("play-log");
  log.innerHTML = "";
  for (const t of doc.turns) {
    const li = document.createElement("li");
    li.textContent = `${t.player}: ${t.kind === "pass" ? "pass" : t.notation} ${t.score >= 0 ? "+" : ""}${t.score} = ${t.total}`;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
  for (const id of MOVE_CONTROLS) $(id).disabled = doc.over;
  $("play-result").hidden = !doc.over;
  if (doc.over) {
    const res = doc.result;
    $("play-final-you").textContent = res.scores.you;
    $("play-final-engine").textContent = res.scores.lexigraph;
    const adj = (k) => `${res.adjustments[k] >= 0 ? "+" : ""}${res.adjustments[k]}`;
    $("play-final-note").textContent = `(${res.ending === "out" ? "played out" : "six scoreless turns"}; rack adjustments: you ${adj("you")}, lexigraph ${adj("lexigraph")}; ` +
      (res.winner ? (res.winner === "you" ? "you win" : "lexigraph wins") : "a draw") + ")";
    $("play-gcg").href = "/api/games/" + encodeURIComponent(play.id) + "/gcg";
    $("play-gcg").setAttribute("download", `lexigraph-${play.id}.gcg`);
  }
  $("play-endgame-box").hidden = !(doc.endgame_cgp && has("endgame"));
  const view = $("view-play");
  view.dataset.game = play.id || "";
  view.dataset.turns = doc.turns.length;
  view.dataset.over = doc.over ? "1" : "0";
}

function drawRack() {
  const el = $("play-rack");
  el.innerHTML = "";
  for (const t of play.rack) { const s = document.createElement("span"); s.className = "tile"; s.textContent = t.replace(/[[\]]/g, ""); el.appendChild(s); }
  el.setAttribute("aria-label", "your rack: " + (play.rack.join(" ") || "empty"));
}

function boardTile(r, c) {
  const row = play.doc ? tilesOf(play.doc.board[r]) : [];
  const t = row[c];
  return !t || t === "." ? null : { tile: t.replace(/[[\]]/g, ""), blank: t !== t.toUpperCase() };
}

function drawPlayBoard() {
  const doc = play.doc, n = play.cols;
  const last = new Set((doc ? doc.last_play : []).map((q) => (q.row - 1) * n + (q.col - 1)));
  const mid = Math.floor(n / 2);   // the start square: the centre in every game lexigraph ships
  play.cells.forEach((d, i) => {
    const r = Math.floor(i / n), c = i % n;
    const typed = play.typed.get(i), t = typed || boardTile(r, c);
    const prem = doc ? doc.premiums[r][c] : ".", start = r === mid && c === mid;
    d.className = "cell" + (d.tabIndex === 0 ? (play.across ? " cursor-across" : " cursor-down") : "");
    d.textContent = "";
    if (t) {
      d.classList.add("tile"); if (t.blank) d.classList.add("blank");
      if (typed) d.classList.add("new"); else if (last.has(i)) d.classList.add("last");
      d.textContent = t.tile;
    } else drawSquare(d, prem, start);
    d.setAttribute("aria-label", squareLabel(r, c, t, prem, start) + (last.has(i) && !typed ? ", last play" : ""));
  });
}

// Keys on the board: the editors' model; letters are tiles put down for this move (the board's own tiles are
// skipped over: the next letter goes to the next empty square), Enter plays, Escape takes the typed tiles back.
function playKey(e, r, c) {
  const n = play.cols;
  if (play.doc && play.doc.over && (e.key === "Enter" || e.key === "Escape" || (e.key.length === 1 && e.key !== " "))) {
    e.preventDefault(); return;   // the game is over: the board is only looked at
  }
  if (e.key === "Enter") { e.preventDefault(); sendMove($("play-move").value.trim()); return; }
  if (e.key === "Escape") { e.preventDefault(); play.typed.clear(); typedNotation(); drawPlayBoard(); return; }
  const [dr, dc] = play.across ? [0, 1] : [1, 0];
  const skip = (rr, cc) => { while (boardTile(rr, cc) && rr + dr < n && cc + dc < n) { rr += dr; cc += dc; } return [rr, cc]; };
  if (e.key.length === 1 && /\p{L}/u.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    let [rr, cc] = skip(r, c);
    if (!boardTile(rr, cc)) play.typed.set(rr * n + cc, { tile: e.key.toLowerCase(), blank: e.shiftKey });
    if (rr + dr < n && cc + dc < n) [rr, cc] = skip(rr + dr, cc + dc);
    typedNotation();
    focusCell(play, rr, cc);
    return;
  }
  editorKeys(play, e, r, c, (rr, cc, k) => {
    if (!k) play.typed.delete(rr * n + cc);
    typedNotation(); drawPlayBoard();
  });
}

function squareName(r, c, across) { const col = String.fromCharCode(65 + c); return across ? `${r + 1}${col}` : `${col}${r + 1}`; }

// The tiles typed on the board as a move text (board tiles played through in parentheses) in the move field.
function typedNotation() {
  const n = play.cols;
  const placed = [...play.typed.keys()].map((i) => [Math.floor(i / n), i % n]);
  if (!placed.length) { $("play-move").value = ""; return; }
  const rows = new Set(placed.map((p) => p[0])), cols = new Set(placed.map((p) => p[1]));
  let across = play.across;
  if (placed.length > 1) across = rows.size === 1;
  if (placed.length > 1 && rows.size > 1 && cols.size > 1) { setStatus($("play-status"), "The tiles are not in one line.", true); return; }
  const [dr, dc] = across ? [0, 1] : [1, 0];
  const has = (r, c) => r >= 0 && c >= 0 && r < n && c < n && (play.typed.has(r * n + c) || boardTile(r, c));
  placed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let [r, c] = placed[0];
  while (has(r - dr, c - dc)) { r -= dr; c -= dc; }
  const start = [r, c];
  let word = "", through = false;
  for (; has(r, c); r += dr, c += dc) {
    const typed = play.typed.get(r * n + c);
    if (typed) { if (through) { word += ")"; through = false; } word += typed.blank ? typed.tile.toLowerCase() : typed.tile.toUpperCase(); }
    else { if (!through) { word += "("; through = true; } const b = boardTile(r, c); word += b.blank ? b.tile.toLowerCase() : b.tile.toUpperCase(); }
  }
  if (through) word += ")";
  $("play-move").value = `${squareName(start[0], start[1], across)} ${word}`;
  setStatus($("play-status"), "");
}

async function solveEndgame() {
  const doc = play.doc;
  if (!doc || !doc.endgame_cgp) return;
  setStatus($("play-endgame"), "solving…");
  try {
    const res = await api("endgame", { position: doc.endgame_cgp });
    const moveText = (m) => (m == null || m.kind === "pass" ? "pass" : m.notation);
    setStatus($("play-endgame"), `value ${res.value >= 0 ? "+" : ""}${res.value} (${res.complete ? "solved exactly" : "not finished: the best found in the time"}); ` +
      `best ${moveText(res.best)}; principal variation: ${(res.pv || []).map(moveText).join(", ")}`);
  } catch (err) { setStatus($("play-endgame"), err.message, true); }
}

// --------------------------------------------------------------------------------------------- start

async function start() {
  const r = await fetch("/api");
  const info = await r.json();
  for (const c of info.commands) state.commands[c.name] = c;
  state.limits = info.limits;
  const sel = $("lexicon");
  for (const l of info.lexicons) { const o = document.createElement("option"); o.value = l.name; o.textContent = `${l.name} (${l.words.toLocaleString()})`; sel.appendChild(o); }
  state.lexicon = info.default_lexicon;
  sel.value = state.lexicon;
  sel.addEventListener("change", () => { state.lexicon = sel.value; runSearch(0); showCandidates(); describeLeaves(); });
  setupSearch(); setupBoard(); setupGrid(); setupPlay();
  const tab = location.hash.slice(1);
  const resume = new URLSearchParams(location.search).get("game");
  showTab(resume ? "play" : TABS.includes(tab) ? tab : "search");
  if (resume) await resumeGame(resume);
  document.body.dataset.ready = "1";
}
start();
