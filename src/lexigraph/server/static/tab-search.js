// The Search tab: patterns, anagrams, study searches and prefixes, answered as the user types, 100 words to a page.

import { api, firstParam, has, paramNames, spelled, state, wordOf } from "./api.js";
import { $, setStatus } from "./dom.js";

const MODES = [
  { id: "match", label: "Pattern", cmd: "match", field: ["pattern"], help: "? any tile, * any run, [abc] a set, @ vowel, # consonant", placeholder: "??mo??t" },
  { id: "anagram", label: "Anagram", cmd: "anagram", field: ["rack"], help: "tiles of a rack; ? is a blank, a trailing * asks for longer words (as every tile and more)", placeholder: "aelrst?" },
  { id: "search", label: "Study search", cmd: "search", field: ["expr", "expression", "query"], help: "conditions combined with and / or (see docs/search.md)", placeholder: "length 7 and hooks s" },
  { id: "words", label: "Prefix", cmd: "words", field: ["prefix"], help: "words that start with these tiles", placeholder: "qu" },
];
const search = { page: 0, size: 100, seq: 0, ctrl: null, timer: 0, total: 0, results: [] };

function searchMode() { return MODES.find((m) => m.id === $("search-mode").value) || MODES[0]; }

export function setup() {
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
    $("search-options").hidden = m.id !== "search";
    runSearch(0);
  };
  sel.addEventListener("change", onMode);
  for (const id of ["anagram-mode", "anagram-sort", "search-sort"]) $(id).addEventListener("change", () => runSearch(0));
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
    const doc = await spelled(text, state.limits.max_results, signal);
    return { words: doc.slice(offset, offset + limit).map((d) => ({ word: d.word })), total: doc.length, capped: doc.length >= state.limits.max_results };
  }
  const names = paramNames(mode.cmd);
  const body = {};
  body[firstParam(mode.cmd, mode.field)] = text;
  const serverPaged = names.includes("offset") && names.includes("limit");
  if (serverPaged) { body.offset = offset; body.limit = limit; }
  if (mode.id === "search" && names.includes("hooks")) body.hooks = true;   // study tools show each word's hooks
  if (mode.id === "search" && names.includes("sort")) body.sort = $("search-sort").value;
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

// Another lexicon chosen: the same search, on it, from the first page.
export function refresh() { runSearch(0); }
