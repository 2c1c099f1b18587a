// The Study tab: a quiz (anagrams, words from a rack, hooks, patterns) from a search, words, questions as given or
// the cardbox's due questions; timed or not; taken from the keyboard, the focus staying in the answer box; each
// answer marked right or wrong as it is typed; at the end the missed words with their hooks and the cardbox's counts.
// The quiz itself (the server's, or one made here) is quiz.js's.

import { $, setStatus } from "./dom.js";
import { state } from "./api.js";
import { SOURCES, TYPES, cardboxCounts, exportUrl, importList, resumeQuiz, setStudyUser, startQuiz, studyUser, wordsOf } from "./quiz.js";
import { openWhy } from "./why.js";

// The quiz under way: the session (quiz.js), the question's marks as typed, the question ended and shown (its
// answers revealed) before the next is asked, the clock, and one request at a time in order.
const quiz = { session: null, typed: [], shown: null, deadline: 0, timer: 0, running: false, queue: Promise.resolve() };

export function setup() {
  const from = $("study-from");
  for (const [value, s] of Object.entries(SOURCES)) {
    const o = document.createElement("option"); o.value = value; o.textContent = s.label; from.appendChild(o);
  }
  $("study-source").value = SOURCES.search.placeholder;
  for (const id of ["study-type", "study-from"]) $(id).addEventListener("change", onChoice);
  $("study-setup").addEventListener("submit", start);
  $("study-answer").addEventListener("keydown", onKey);
  $("study-reveal").addEventListener("click", () => { later(reveal); refocus(); });
  $("study-next").addEventListener("click", () => { later(skip); refocus(); });
  $("study-end").addEventListener("click", () => later(() => finish(true)));
  $("study-again").addEventListener("click", again);
  $("study-new").addEventListener("click", () => { showPart("setup"); refreshDue(); $("study-type").focus(); });
  from.addEventListener("focus", refreshDue);
  setupUser();
  setupLists();
  onChoice();
}

// The player: whose cardbox the quizzes, the counts and the lists use (kept in this browser, quiz.js).
function setupUser() {
  const box = $("study-user");
  box.value = studyUser() === "default" ? "" : studyUser();
  box.addEventListener("change", () => {
    const user = setStudyUser(box.value);
    box.value = user === "default" ? "" : user;
    refreshDue();
  });
}

// The cardbox's lists: a list pasted or read from a file goes in as new cards due now; the export downloads.
function setupLists() {
  $("cards-toggle").addEventListener("click", () => {
    const open = $("cards-panel").hidden;
    $("cards-panel").hidden = !open;
    $("cards-toggle").setAttribute("aria-expanded", String(open));
  });
  $("cards-file").addEventListener("change", readListFile);
  $("cards-import").addEventListener("click", importCards);
  // The download's address follows the choices (the lexicon, the player, the type, the format) when it is used.
  const aim = () => { $("cards-export").href = exportUrl($("cards-type").value, $("cards-format").value); };
  for (const e of ["pointerdown", "focus", "click"]) $("cards-export").addEventListener(e, aim);
  aim();
}

// A list file chosen: read here into the box (never past what the server takes in one request), to import.
async function readListFile() {
  const file = $("cards-file").files[0], status = $("cards-status");
  if (!file) return;
  const limit = state.limits.max_body || 65536;
  if (file.size > limit - 200) {
    setStatus(status, `${file.name} is ${file.size.toLocaleString()} bytes; this server takes at most ` +
      `${limit.toLocaleString()} in one request: import it in parts, or with lexigraph cardbox import`, true);
    return;
  }
  $("cards-list").value = await file.text();
  setStatus(status, `${file.name}: ${$("cards-list").value.split("\n").filter((l) => l.trim()).length} lines read; Import adds them.`);
}

async function importCards() {
  const status = $("cards-status"), text = $("cards-list").value;
  if (!text.trim()) { setStatus(status, "Paste a list, or choose a file, first.", true); return; }
  setStatus(status, "importing…");
  try {
    const doc = await importList(text, $("cards-type").value);
    const r = doc.results[0];
    setStatus(status, `Added ${r.added} of ${r.questions} ${r.type} questions to ${doc.user}'s cardbox` +
      (r.questions > r.added ? ` (${r.questions - r.added} were in it already)` : "") +
      (r.skipped ? `; ${r.skipped} lines left out: ${doc.warnings[0]}` : "") + ".");
    refreshDue();
  } catch (err) {
    setStatus(status, err.message, true);
  }
}

// The cardbox's choice says how many questions of the chosen type are due now (asked again when the choices show,
// and when the list of sources gets the focus); a server without a cardbox has it off.
async function refreshDue() {
  const option = $("study-from").querySelector("option[value=due]");
  let counts = null;
  try { counts = await cardboxCounts(); } catch { /* said when a quiz is asked of it */ }
  option.disabled = !counts;
  // A server without a cardbox has no lists to take or give; during a quiz the panel stays out of the way.
  $("study-lists").dataset.served = counts ? "1" : "";
  $("study-lists").hidden = !counts || !$("study-quiz").hidden;
  const row = counts && counts.results.find((r) => r.type === $("study-type").value);
  option.textContent = counts ? `the cardbox: ${row ? row.due_now : 0} due now` : SOURCES.due.label;
}

// The help line says what the quiz asks; the source box what it reads (nothing for the cardbox).
function onChoice() {
  const from = $("study-from").value, box = $("study-source");
  $("study-help").textContent = TYPES[$("study-type").value];
  box.placeholder = SOURCES[from].placeholder;
  if (box.dataset.from && box.dataset.from !== from) box.value = "";
  box.dataset.from = from;
  box.hidden = from === "due";
  refreshDue();
}

function showPart(part) {
  $("study-quiz").hidden = part !== "quiz";
  $("study-summary").hidden = part !== "summary";
  $("study-setup").hidden = $("study-help").hidden = part === "quiz";   // on a phone the question stays in view
  $("study-lists").hidden = part === "quiz" || !$("study-lists").dataset.served;
}

// Each request after the one before: answers typed fast are checked in the order typed.
function later(step) {
  quiz.queue = quiz.queue.then(step).catch((err) => setStatus($("study-status"), err.message, true));
  return quiz.queue;
}

async function start() {
  const spec = {
    type: $("study-type").value, from: $("study-from").value, text: $("study-source").value.trim(),
    limit: Math.max(1, Math.min(500, Math.trunc(+$("study-count").value) || 20)),
    order: $("study-order").value, time_limit: +$("study-time").value || null,
  };
  if (!spec.text && spec.from !== "due") { setStatus($("study-status"), `give ${SOURCES[spec.from].label}`, true); return; }
  setStatus($("study-status"), "making the questions…");
  try {
    begin(await startQuiz(spec));
  } catch (err) {
    setStatus($("study-status"), err.message, true);
  }
}

function begin(session) {
  if (!session.state.question) { setStatus($("study-status"), "no questions: the source gives none", true); return; }
  Object.assign(quiz, { session, typed: [], shown: null, running: true, queue: Promise.resolve() });
  nameInAddress(session.cardbox ? session : null);
  clearInterval(quiz.timer);
  const left = session.state.seconds_left;
  quiz.deadline = left != null ? Date.now() + left * 1000 : 0;
  if (quiz.deadline) quiz.timer = setInterval(tick, 250);
  setStatus($("study-status"), session.cardbox ? "" : "This server keeps no cardbox: the quiz is not remembered.");
  $("study-last").hidden = true;
  showPart("quiz");
  tick();
  ask();
}

// The address names the server's quiz (?quiz=ID#study), so a reload takes it up where it stood; a quiz made in the
// page is not kept, and the address names none.
function nameInAddress(session) {
  const url = new URL(location.href);
  if (session) url.searchParams.set("quiz", session.state.id); else url.searchParams.delete("quiz");
  history.replaceState(null, "", url);
}

// The quiz the address names, taken up: at its question, or at its summary when it is over.
export async function resume(id) {
  try {
    const session = await resumeQuiz(id);
    if (!session.state.finished && session.state.question) { begin(session); return; }
    Object.assign(quiz, { session, running: true, queue: Promise.resolve() });
    await finish();
  } catch (err) {
    nameInAddress(null);
    setStatus($("study-status"), `The quiz ${id} cannot be taken up: ${err.message}`, true);
  }
}

function refocus() { if (quiz.running) $("study-answer").focus(); }

// The question asked: its prompt, how many words it wants and how many are found, the marks typed for it.
function ask() {
  const doc = quiz.session.state, q = doc.question;
  quiz.typed = [];
  $("study-progress").textContent = `Question ${q.index + 1} of ${doc.total}`;
  $("study-question").textContent = doc.type === "hooks" ? `·${q.prompt}·` : q.prompt;
  $("study-question").dataset.prompt = q.prompt;
  $("study-answer").value = "";
  drawMarks();
  refocus();
}

function drawMarks() {
  const doc = quiz.session.state, q = doc.question;
  const shown = quiz.shown && quiz.shown.result;
  if (shown) $("study-need").textContent = shown.correct ? "Right: every word." : `Missed ${shown.missed.length} of ${shown.answers.length}: Enter goes on.`;
  else if (q) {
    const left = q.answers - q.found.length;
    $("study-need").textContent = `${q.answers} word${q.answers === 1 ? "" : "s"}, ${left} to find`;
  }
  $("study-score").textContent = `${doc.score.right} right, ${doc.score.wrong} missed`;
  const list = $("study-typed");
  list.innerHTML = "";
  for (const t of quiz.typed) {
    const li = document.createElement("li");
    li.className = t.verdict === "right" ? "right" : "wrong";
    li.dataset.verdict = t.verdict;
    li.textContent = `${t.verdict === "right" ? "✓" : "✗"} ${t.word.toUpperCase()}${t.verdict === "already" ? " (again)" : ""}`;
    list.appendChild(li);
  }
}

function onKey(e) {
  if (!quiz.running || e.key === "Tab") return;
  if (e.key === "Escape") { e.preventDefault(); later(reveal); return; }
  if (e.key !== "Enter") return;
  e.preventDefault();
  const words = wordsOf($("study-answer").value);
  $("study-answer").value = "";
  if (e.shiftKey) later(skip);
  else if (!words.length) later(() => (quiz.shown ? goOn() : reveal()));   // empty box: the answers, then the next one
  else for (const w of words) later(() => answer(w));
}

// A word typed: the verdict (right, wrong, already; time up ends the quiz); the last answer found ends the question.
async function answer(word) {
  if (!quiz.running) return;
  if (quiz.shown) await goOn();
  if (!quiz.running) return;
  const doc = await quiz.session.answer(word);
  if (doc.verdict === "time_up") { await finish(); return; }
  quiz.typed.unshift({ word: doc.word || word, verdict: doc.verdict });
  if (doc.result) { showResult(doc.result); await advance(doc); } else drawMarks();
}

// The question ended here: every answer shown, the missed ones marked, until Enter goes on.
async function reveal() {
  if (!quiz.running || quiz.shown) return;
  const doc = await quiz.session.next();
  quiz.shown = doc;
  showResult(doc.result);
  drawMarks();
}

async function goOn() {
  const doc = quiz.shown;
  quiz.shown = null;
  if (doc) await advance(doc);
}

async function skip() {
  if (!quiz.running) return;
  if (quiz.shown) { await goOn(); return; }
  const doc = await quiz.session.next();
  if (doc.result) showResult(doc.result);
  await advance(doc);
}

async function advance(doc) {
  if (doc.quiz.finished || !doc.quiz.question) await finish(); else ask();
}

// The question just ended, under the answer box: its prompt, every answer (the missed ones marked), each a link to
// why it is a word.
function showResult(r) {
  $("study-last").hidden = false;
  $("study-last-title").textContent = `${r.prompt}: ${r.found.length} of ${r.answers.length} found${r.correct ? " ✓" : ""}` +
    (r.card ? `; back ${fromNow(r.card.due)}` : "");
  const list = $("study-last-words");
  list.innerHTML = "";
  for (const w of r.answers) {
    const li = wordItem(w);
    if (!r.found.includes(w)) li.classList.add("missed");
    list.appendChild(li);
  }
}

// A word of a list that opens its "why" panel when chosen; with its hooks when given.
function wordItem(word, hooks) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.className = "word-link";
  b.dataset.word = word;
  if (hooks) {
    const f = document.createElement("small"); f.className = "hook"; f.textContent = hooks.front;
    const k = document.createElement("small"); k.className = "hook"; k.textContent = hooks.back;
    b.append(f, document.createTextNode(word.toUpperCase()), k);
  } else b.textContent = word.toUpperCase();
  b.addEventListener("click", () => openWhy(word, quiz.running ? $("study-answer") : b));   // back to the quiz's box
  li.appendChild(b);
  return li;
}

// When a card is due again, as a player reads it: "in 10 minutes", "in 3 days".
function fromNow(iso) {
  const minutes = Math.max(1, Math.round((Date.parse(iso) - Date.now()) / 60000));
  const [n, unit] = minutes < 90 ? [minutes, "minute"] : minutes < 36 * 60 ? [Math.round(minutes / 60), "hour"] : [Math.round(minutes / 1440), "day"];
  return `in ${n} ${unit}${n === 1 ? "" : "s"}`;
}

function tick() {
  if (!quiz.deadline) { $("study-clock").textContent = "untimed"; return; }
  const left = Math.max(0, Math.ceil((quiz.deadline - Date.now()) / 1000));
  $("study-clock").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (left === 0 && quiz.running) later(finish);
}

// The end: questions right and missed, every missed word with its hooks, the cardbox's counts. `early` (End quiz):
// the quiz is closed on the server first (the question being answered graded when something was typed for it).
async function finish(early = false) {
  if (!quiz.running) return;
  quiz.running = false;
  clearInterval(quiz.timer);
  const doc = early && !quiz.session.state.finished ? await quiz.session.endQuiz() : await quiz.session.summary();
  quiz.summary = doc;
  if (doc.ended) nameInAddress(null);   // ended before its last question: a reload starts afresh
  const found = doc.results.reduce((n, r) => n + r.found.length, 0), all = doc.results.reduce((n, r) => n + r.answers.length, 0);
  $("study-result").textContent = `${doc.right} of ${doc.total} questions right, ${doc.wrong} missed` +
    (doc.answered < doc.total ? ` (${doc.total - doc.answered} not reached)` : "") + `; ${found} of ${all} words found.`;
  const list = $("study-missed");
  list.innerHTML = "";
  for (const m of doc.missed) list.appendChild(wordItem(m.word, m));
  if (!doc.missed.length) list.innerHTML = "<li>none</li>";
  $("study-again").disabled = !doc.results.some((r) => !r.correct);
  setStatus($("study-due"), cardboxLine(doc.cardbox));
  setStatus($("study-status"), "");
  showPart("summary");
  $("study-summary-title").focus();
}

function cardboxLine(c) {
  if (!c) return "This server keeps no cardbox: nothing of this quiz is remembered.";
  const next = c.next_due ? `; next due ${new Date(c.next_due).toLocaleString()}` : "";
  return `Cardbox: ${c.due_now} due now of ${c.total} card${c.total === 1 ? "" : "s"}${next}.`;
}

// The questions missed, asked again as given (in the same order and time).
async function again() {
  const missed = quiz.summary.results.filter((r) => !r.correct).map((r) => r.prompt.toLowerCase());
  setStatus($("study-status"), "making the questions…");
  try {
    begin(await startQuiz({ type: quiz.summary.type, from: "questions", text: missed.join(" "), limit: missed.length,
      order: "given", time_limit: +$("study-time").value || null }));
  } catch (err) {
    setStatus($("study-status"), err.message, true);
  }
}
