// The Analysis tab: a game record (GCG) read by the engine (POST /api/analyze) and shown turn by turn. A GCG is
// pasted, read from a file, or taken from the Play tab's game; the board follows the turn chosen (Left and Right
// arrows step, Home and End jump), a chart draws the first player's win chance over the turns with the mistakes
// marked, and each turn lists the engine's alternatives.

import { api } from "./api.js";
import { $, setStatus } from "./dom.js";
import { makeCells } from "./grid.js";
import { tilesOf } from "./board.js";

const view = { doc: null, turn: -1, cells: [], size: 0 };
const MARKED = new Set(["inaccuracy", "mistake", "blunder"]);
const SVG = "http://www.w3.org/2000/svg";

export function setup() {
  $("analysis-form").addEventListener("submit", () => analyse($("analysis-gcg").value));
  $("analysis-file").addEventListener("change", async () => {
    const f = $("analysis-file").files[0];
    if (f) $("analysis-gcg").value = await f.text();
  });
  $("analysis-from-play").addEventListener("click", fromPlay);
  $("analysis-steps").addEventListener("keydown", stepKey);
  $("analysis-prev").addEventListener("click", () => show(view.turn - 1));
  $("analysis-next").addEventListener("click", () => show(view.turn + 1));
}

// The Play tab's game, as the server records it (GET /api/games/ID/gcg).
async function fromPlay() {
  const id = $("view-play").dataset.game;
  if (!id) { setStatus($("analysis-status"), "Play a game in the Play tab first.", true); return; }
  try {
    const r = await fetch("/api/games/" + encodeURIComponent(id) + "/gcg");
    if (!r.ok) throw new Error("the game's record is not available");
    $("analysis-gcg").value = await r.text();
    await analyse($("analysis-gcg").value);
  } catch (err) { setStatus($("analysis-status"), err.message, true); }
}

async function analyse(text) {
  if (!text.trim()) { setStatus($("analysis-status"), "Paste a GCG game first, or choose a file.", true); return; }
  setStatus($("analysis-status"), "analysing…");
  try {
    const doc = await api("analyze", { gcg: text, top: 3 });
    view.doc = doc;
    $("analysis-game").hidden = false;
    drawTurns(); drawChart(); drawMistakes(); drawSummary();
    show(-1);
    setStatus($("analysis-status"), `${doc.count} turns analysed.`);
    $("analysis-steps").focus();
  } catch (err) { setStatus($("analysis-status"), err.message, true); }
}

// Left/Right step through the turns, Home/End jump to the start and the last turn.
function stepKey(e) {
  if (!view.doc) return;
  const last = view.doc.results.length - 1;
  const to = { ArrowLeft: view.turn - 1, ArrowUp: view.turn - 1, ArrowRight: view.turn + 1, ArrowDown: view.turn + 1,
    Home: -1, End: last }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  show(to);
}

function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }

function turnText(t) {
  const made = `${t.player}: ${t.play}${t.legal ? " " + t.score : " (phony)"}${t.challenged ? ", challenged off" : ""}`;
  if (t.win_lost === null) return `${made}; not judged`;
  return `${made}; win ${pct(t.win_before)} → ${pct(t.win_after)}, lost ${pct(t.win_lost)} (${t.mistake})`;
}

function drawTurns() {
  const list = $("analysis-steps");
  list.innerHTML = "";
  view.doc.results.forEach((t, i) => {
    const li = document.createElement("li");
    li.id = "analysis-turn-" + i;
    li.setAttribute("role", "option");
    li.textContent = turnText(t);
    if (MARKED.has(t.mistake)) li.classList.add("mistake-" + t.mistake);
    li.addEventListener("click", () => show(i));
    list.appendChild(li);
  });
}

// The first player's win chance after each turn (0 on the left: before the game, 50%), mistakes as dots.
function drawChart() {
  const svg = $("analysis-chart");
  svg.innerHTML = "";
  const turns = view.doc.results;
  const w = 600, h = 160, n = Math.max(1, turns.length);
  const x = (i) => ((i + 1) / n) * (w - 20) + 10;
  const y = (p) => h - 10 - p * (h - 20);
  const add = (name, attrs, parent = svg) => {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    parent.appendChild(el);
    return el;
  };
  add("line", { x1: 10, x2: w - 10, y1: y(0.5), y2: y(0.5), class: "even" });
  const points = [[x(-1), y(0.5)], ...turns.map((t, i) => [x(i), y(t.win_player1)])];
  add("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "win" });
  turns.forEach((t, i) => {
    if (!MARKED.has(t.mistake)) return;
    const dot = add("circle", { cx: x(i), cy: y(t.win_player1), r: 4, class: "mistake-" + t.mistake });
    add("title", {}, dot).textContent = `turn ${t.turn}: ${t.player} ${t.play}, ${t.mistake} (lost ${pct(t.win_lost)})`;
  });
  view.marker = add("line", { x1: x(-1), x2: x(-1), y1: 5, y2: h - 5, class: "now" });
  svg.setAttribute("aria-label", `${view.doc.players[0] || "the first player"}'s win chance over ${turns.length} turns; ` +
    `${turns.filter((t) => MARKED.has(t.mistake)).length} mistakes marked`);
}

function drawMistakes() {
  const list = $("analysis-mistakes");
  list.innerHTML = "";
  view.doc.results.forEach((t, i) => {
    if (!MARKED.has(t.mistake)) return;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `turn ${t.turn}, ${t.player}: ${t.play} — ${t.mistake}, lost ${pct(t.win_lost)}; best ${t.best_move || "–"}`;
    b.addEventListener("click", () => { show(i); $("analysis-steps").focus(); });
    li.appendChild(b);
    list.appendChild(li);
  });
  if (!list.children.length) { const li = document.createElement("li"); li.textContent = "no mistakes"; list.appendChild(li); }
}

function drawSummary() {
  $("analysis-summary").textContent = (view.doc.summary || []).map((s) =>
    `${s.player}: lost ${pct(s.lost)} over ${s.judged} turns (${s.mistakes.inaccuracy} inaccuracies, ${s.mistakes.mistake} mistakes, ${s.mistakes.blunder} blunders)`).join("; ");
}

function drawBoard(rows) {
  const n = rows.length || 15;
  if (view.size !== n) {
    view.cells = makeCells($("analysis-board"), n, n, () => {}, true);
    view.size = n;
  }
  view.cells.forEach((d, i) => {
    const t = tilesOf(rows[Math.floor(i / n)] || "")[i % n];
    const tile = t && t !== "." ? t.replace(/[[\]]/g, "") : "";
    d.textContent = tile;
    d.classList.toggle("filled", !!tile);
    d.classList.toggle("blank", !!tile && tile !== tile.toUpperCase());
  });
}

// Turn i (-1: before the first): its board, its place in the list and on the chart, its alternatives.
function show(i) {
  const turns = view.doc.results;
  i = Math.max(-1, Math.min(turns.length - 1, i));
  view.turn = i;
  const t = turns[i];
  const empty = Array.from({ length: view.size || 15 }, () => ".".repeat(view.size || 15));
  drawBoard(t ? t.board_after : empty);
  for (const li of $("analysis-steps").children) li.setAttribute("aria-selected", li.id === "analysis-turn-" + i);
  if (t) $("analysis-steps").setAttribute("aria-activedescendant", "analysis-turn-" + i);
  else $("analysis-steps").removeAttribute("aria-activedescendant");
  const cur = $("analysis-turn-" + i);
  if (cur) cur.scrollIntoView({ block: "nearest" });
  if (view.marker) { const x = view.marker.ownerSVGElement.querySelector("polyline").points[i + 1]; view.marker.setAttribute("x1", x.x); view.marker.setAttribute("x2", x.x); }
  $("analysis-now").textContent = t ? `Turn ${t.turn} of ${turns[turns.length - 1].turn}: ${turnText(t)}` : "Before the first turn.";
  $("view-analysis").dataset.turn = String(i + 1);
  const alt = $("analysis-alternatives");
  alt.innerHTML = "";
  if (!t) return;
  const rows = t.alternatives ? t.alternatives.map((a) => `${a.notation}: win ${pct(a.win)}, spread ${a.spread.toFixed(1)}, ${a.playouts} play-outs${a.dropped ? ", dropped" : ""}`)
    : t.best.map((b) => `${b.notation}: score ${b.score}, equity ${b.equity !== undefined ? b.equity.toFixed(2) : "–"}`);
  for (const r of rows) { const li = document.createElement("li"); li.textContent = r; alt.appendChild(li); }
}
