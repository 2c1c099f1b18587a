// lexigraph's page: search, board, grid, play and analysis views over the server's own JSON API (no other host, no build
// step: plain ES modules). This module starts the page: it reads what the server offers (api.js), fills the lexicon
// chooser, sets each tab up (one module per tab) and switches between the tabs.

import { loadServer, state } from "./api.js";
import { $ } from "./dom.js";
import * as analysisTab from "./tab-analysis.js";
import * as boardTab from "./tab-board.js";
import * as gridTab from "./tab-grid.js";
import * as playTab from "./tab-play.js";
import * as searchTab from "./tab-search.js";
import * as studyTab from "./tab-study.js";
import * as judge from "./judge.js";
import * as why from "./why.js";

const TABS = ["search", "board", "grid", "play", "study", "analysis"];

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

// The lexicon chooser: the server's lexicons with their word counts; another choice asks the tabs again.
function setupLexicons(lexicons) {
  const sel = $("lexicon");
  for (const l of lexicons) { const o = document.createElement("option"); o.value = l.name; o.textContent = `${l.name} (${l.words.toLocaleString()})`; sel.appendChild(o); }
  sel.value = state.lexicon;
  sel.addEventListener("change", () => { state.lexicon = sel.value; searchTab.refresh(); gridTab.refresh(); boardTab.refresh(); });
}

async function start() {
  const info = await loadServer();
  setupLexicons(info.lexicons);
  searchTab.setup(); boardTab.setup(); gridTab.setup(); playTab.setup(); analysisTab.setup();
  studyTab.setup(); why.setup(); why.attachWordList($("search-results")); judge.setup(() => showTab("study", true));
  const tab = location.hash.slice(1);
  const resume = new URLSearchParams(location.search).get("game");   // a game named in the address: shown again
  const quizId = new URLSearchParams(location.search).get("quiz");   // and a quiz (the Study tab when both are named)
  showTab(quizId && (tab === "study" || !resume) ? "study" : resume ? "play" : TABS.includes(tab) ? tab : "search");
  if (resume) await playTab.resumeGame(resume);
  if (quizId) await studyTab.resume(quizId);
  if (tab === "judge") judge.open();   // Word Judge: over the whole page, on its own address
  document.body.dataset.ready = "1";
}

start();
