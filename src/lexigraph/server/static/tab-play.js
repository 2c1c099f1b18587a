// The Play tab: a game against lexigraph. The game lives on the server (/api/games): it deals, checks every move,
// answers with the engine's reply and keeps the record; this page only shows it and sends the moves typed (in the
// move field, or as tiles put down on the board).

import { api, gameApi, has, state } from "./api.js";
import { drawLegend, drawSquare, squareLabel, tilesOf } from "./board.js";
import { $, setStatus } from "./dom.js";
import { editorKeys, focusCell, makeCells } from "./grid.js";

const play = { id: null, doc: null, rows: 15, cols: 15, r: 7, c: 7, across: true, cells: [], typed: new Map(), rack: [], busy: false };

// Everything that makes a move: off once the game is over (the board's keys too: see playKey).
const PEG_BAG = 4;
const PEG_SECONDS = 20;  // the pre-endgame's time budget: the answer covers the draws solved by then
const INFERRED_SHOWN = 5;  // the inferred leaves listed after lexigraph's move, most probable first
const MOVE_CONTROLS = ["play-move", "play-submit", "play-pass", "play-exchange", "play-exchange-tiles", "play-shuffle"];

export function setup() {
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
  $("play-peg-solve").addEventListener("click", solvePreEndgame);
  if (!has("endgame")) $("play-solve").title = "this server has no endgame solver";
}

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
    $("play-peg").textContent = "";
    $("play-analysis-box").hidden = true;
    showGame(doc);
    setStatus($("play-status"), doc.turn === "you" ? "Your turn." : "");
    $("play-move").focus();
  } catch (err) { setStatus($("play-status"), err.message, true); }
}

// A game named in the address (?game=ID): shown again, as the server keeps it.
export async function resumeGame(id) {
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
  // The pre-endgame: 1 to 4 tiles in the bag, the person on turn (PEG_BAG: what the solver takes).
  $("play-peg-box").hidden = !(doc.turn === "you" && doc.bag >= 1 && doc.bag <= PEG_BAG && has("peg"));
  showInferredLeave(doc.engine_move_seen);
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

async function solvePreEndgame() {
  const doc = play.doc;
  if (!doc || !(doc.bag >= 1 && doc.bag <= PEG_BAG)) return;
  setStatus($("play-peg"), "solving every play against every draw…");
  try {
    const res = await api("peg", { position: doc.cgp, time_limit: PEG_SECONDS });
    const line = (r) => `${r.notation}: ${r.wins} won, ${r.draws} tied, ${r.losses} lost (mean spread ${r.mean_spread >= 0 ? "+" : ""}${r.mean_spread.toFixed(1)})`;
    const how = res.exact ? "every draw solved" : `${res.scenarios_done} of ${res.scenarios} draw orders solved in the time`;
    setStatus($("play-peg"), `${res.draws} draws (${how}); best ${line(res.results[0])}` +
      (res.results.length > 1 ? `; then ${res.results.slice(1, 3).map(line).join("; ")}` : ""));
  } catch (err) { setStatus($("play-peg"), err.message, true); }
}

// After lexigraph's play or exchange: what it may have kept, inferred (/api/infer) from its move and what the person
// could see before it (the game document's engine_move_seen: that position and the move).
function inferredBox() {
  let box = document.getElementById("play-inferred-box");
  if (!box) {
    box = document.createElement("div");
    box.id = "play-inferred-box";
    box.innerHTML = `<h2>What lexigraph may have kept</h2><p id="play-inferred" class="status" aria-live="polite"></p>`;
    $("play-peg-box").before(box);
  }
  return box;
}

async function showInferredLeave(seen) {
  const box = inferredBox();
  box.hidden = !(seen && has("infer"));
  if (box.hidden) return;
  const shown = $("play-inferred");
  setStatus(shown, `inferring from ${seen.move}…`);
  try {
    const res = await api("infer", { position: seen.cgp, move: seen.move, top: INFERRED_SHOWN });
    if (play.doc.engine_move_seen !== seen) return;   // a later move answered first
    const pct = (p) => `${(100 * p).toFixed(1)}%`;
    const leaves = res.results.map((r) => `${r.leave || "nothing"} ${pct(r.probability)}`).join(", ");
    const tiles = Object.entries(res.tile_means).map(([t, v]) => `${t} ${v.toFixed(2)}`).join(", ");
    setStatus(shown, res.results.length
      ? `after ${res.move} (${res.consistent} leaves consistent${res.exact ? "" : ", sampled"}): ${leaves}; expected tiles: ${tiles}`
      : `after ${res.move}: ${(res.notes || []).join(" ") || "nothing inferred"}`);
  } catch (err) { setStatus(shown, err.message, true); }
}
