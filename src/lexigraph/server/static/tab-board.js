// The Board tab: a 15x15 board edited from the keyboard, a rack, and the best moves the server's moves command
// finds for them (ranked by equity or score, valued with the game's leave table or one chosen here).

import { api, firstParam, has, paramNames } from "./api.js";
import { drawLegend, drawSquare, squareLabel } from "./board.js";
import { $, setStatus } from "./dom.js";
import { editorKeys, focusCell, makeCells } from "./grid.js";

// Standard 15x15 premium squares: T triple word, D double word, t triple letter, d double letter.
const PREMIUMS = [
  "T..d...T...d..T", ".D...t...t...D.", "..D...d.d...D..", "d..D...d...D..d", "....D.....D....",
  ".t...t...t...t.", "..d...d.d...d..", "T..d...D...d..T", "..d...d.d...d..", ".t...t...t...t.",
  "....D.....D....", "d..D...d...D..d", "..D...d.d...D..", ".D...t...t...D.", "T..d...T...d..T",
];
// movesSeq, leavesSeq: the last question asked for the moves list and for the leave-table line. Questions overlap
// (each choice of "Rank by" asks again at once) and their answers may come back in any order: an answer to an
// earlier question, arriving later, is dropped.
const board = { rows: 15, cols: 15, r: 7, c: 7, across: true, cells: [], tiles: [], moves: [], chosen: -1, leaves: null,
  movesSeq: 0, leavesSeq: 0 };

export function setup() {
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
  const seq = ++board.leavesSeq;
  try {
    const doc = await api("moves", body);
    if (seq === board.leavesSeq) setStatus($("leaves-status"), leavesText(doc));
  } catch (err) { if (seq === board.leavesSeq) setStatus($("leaves-status"), err.message, true); }
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
  const seq = ++board.movesSeq, leavesSeq = ++board.leavesSeq;
  try {
    const doc = await api("moves", body);
    if (seq !== board.movesSeq) return;
    showMoves(doc);
    if (leavesSeq === board.leavesSeq) setStatus($("leaves-status"), leavesText(doc));
  } catch (err) { if (seq === board.movesSeq) setStatus($("moves-status"), err.message, true); }
}

// The moves document's plays and exchanges as the list beside the board, the best one chosen.
function showMoves(doc) {
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
  if (board.moves.length) chooseMove(0);
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

// Another lexicon chosen: the leave-table line says what the moves command now ranks with.
export function refresh() { describeLeaves(); }
