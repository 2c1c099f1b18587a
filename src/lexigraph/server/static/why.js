// "Why a word": a panel over the page with what a player studies about one word — whether the lexicon has it, its
// probability rank among the words of its length, its hooks, its anagrams, its playability rank (how often
// lexigraph's own self-play plays it) and its definitions, the last two where the server has them.

import { api, state } from "./api.js";
import { $ } from "./dom.js";

const ROWS = ["why-valid", "why-probability", "why-hooks", "why-anagrams", "why-playability", "why-definition"];
const MAX_DEFINITIONS = 4;   // a panel, not a dictionary page
let opener = null;   // the control that opened the panel: the focus goes back to it

export function setup() {
  const dialog = $("why");
  dialog.addEventListener("close", () => { if (opener && opener.isConnected) opener.focus(); opener = null; });
  $("why-close").addEventListener("click", () => dialog.close());
}

// The panel for `word`, opened over the page (the server's `why` command: docs/study.md); `from` gets the focus back
// when it closes.
export async function openWhy(word, from) {
  const dialog = $("why");
  opener = from || document.activeElement;
  dialog.dataset.word = word;
  delete dialog.dataset.ready;
  $("why-word").textContent = word.toUpperCase();
  for (const id of ROWS) $(id).textContent = "…";
  if (!dialog.open) dialog.showModal();
  $("why-close").focus();
  let said;
  try {
    said = lines((await api("why", { words: [word] })).results[0]);
  } catch (err) {
    said = { "why-valid": err.message };
  }
  if (!dialog.open || dialog.dataset.word !== word) return;   // closed, or another word asked since
  for (const id of ROWS) $(id).textContent = said[id] || "";
  dialog.dataset.ready = word;
}

// What each row of the panel says of a `why` result (docs/schema/why.json).
function lines(r) {
  const play = r.playability;
  return {
    "why-valid": r.valid ? `a word of ${state.lexicon}` : `not a word of ${state.lexicon}`,
    "why-probability": r.probability_rank == null ? "no rank (no tile set, or not a word)"
      : `#${r.probability_rank.toLocaleString()} among the words of ${r.length} tiles (alphagram ${r.alphagram.toUpperCase()})`,
    "why-hooks": `${r.front || "–"} ·${r.word.toUpperCase()}· ${r.back || "–"}`,
    "why-anagrams": r.anagrams.length ? r.anagrams.map((w) => w.toUpperCase()).join(" ") : "none",
    "why-playability": play ? `#${play.rank.toLocaleString()} of the ${play.of.toLocaleString()} words played (${play.plays.toLocaleString()} plays in ${play.games.toLocaleString()} games; ${play.source})`
      : "no self-play table for this lexicon",
    "why-definition": definitions(r.word, r.definitions),
  };
}

// The first few definitions, each with its part of speech (and the word it defines, when `word` is a form of it:
// RETAINS, of retain), and the dictionaries they come from.
function definitions(word, defs) {
  if (!defs.length) return "none installed";
  const of = (d) => (d.lemma && d.lemma !== word ? ` (${d.lemma})` : "");
  const shown = defs.slice(0, MAX_DEFINITIONS).map((d) => `${d.part_of_speech}${of(d)}: ${d.text}`);
  if (defs.length > MAX_DEFINITIONS) shown.push(`(${defs.length - MAX_DEFINITIONS} more)`);
  shown.push(`— ${[...new Set(defs.map((d) => d.source))].join(", ")}`);
  return shown.join("\n");
}

// A list of words (the search's results): arrows choose a word, Enter or a click opens its panel.
export function attachWordList(list) {
  list.tabIndex = 0;
  list.setAttribute("aria-description", "arrows choose a word; Enter shows why it is a word");
  const items = () => [...list.children];
  const chosen = () => items().findIndex((li) => li.getAttribute("aria-selected") === "true");
  const choose = (i) => {
    items().forEach((li, j) => li.setAttribute("aria-selected", i === j ? "true" : "false"));
    const li = items()[i];
    if (li) li.scrollIntoView({ block: "nearest" });
  };
  list.addEventListener("keydown", (e) => {
    const n = items().length;
    if (!n) return;
    const i = chosen();
    if (e.key === "ArrowDown" || e.key === "ArrowRight") { e.preventDefault(); choose(Math.min(n - 1, i + 1)); }
    else if (e.key === "ArrowUp" || e.key === "ArrowLeft") { e.preventDefault(); choose(Math.max(0, i - 1)); }
    else if (e.key === "Enter" && i >= 0) { e.preventDefault(); openWhy(wordOfItem(items()[i]), list); }
  });
  list.addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li && list.contains(li)) { choose(items().indexOf(li)); openWhy(wordOfItem(li), list); }
  });
}

// A list item's word: its own text, without the hooks printed beside it.
function wordOfItem(li) {
  const text = [...li.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  return (text ? text.textContent : li.textContent).trim().toLowerCase();
}
