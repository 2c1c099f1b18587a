// A quiz as the page takes it: the server's quiz (POST /api/quiz and its routes, docs/study.md: answers checked on
// the server, each question ended goes into the cardbox) or, where the server has no quiz routes (they answer 501
// without the study extra), the same quiz made here from the server's commands, with no cardbox. Both give the
// documents of docs/schema/quiz-state.json, quiz-answer.json and quiz.json, so the tab draws one kind of thing.

import { api, state } from "./api.js";

// The quiz types (docs/study.md, Quizzes): what each asks and how many answers the page may hold for it.
export const TYPES = {
  anagram: "Each question is an alphagram: type every word of its tiles.",
  subanagram: "Each question is a rack: type every word of two tiles or more its tiles make.",
  hooks: "Each question is a word: type every word one tile longer, before or after it.",
  pattern: "Each question is a pattern (? any tile): type every word it matches.",
};
// Where the questions come from, and what the source box holds for each.
export const SOURCES = {
  search: { label: "a study search", placeholder: "length 7 and probability 1-500" },
  words: { label: "words", placeholder: "retains, stare, quixotic" },
  questions: { label: "questions as given", placeholder: "aeinrst, ??mo??t" },
  due: { label: "the cardbox: due now", placeholder: "" },
};

// The words typed or listed: split at spaces and commas, lower case, NFC (as the lexicon spells them).
export function wordsOf(text) {
  return text.normalize("NFC").toLowerCase().split(/[\s,]+/).filter(Boolean);
}

class HttpError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// How often, and how long at most each time, a request the server was too busy for (503, Retry-After) is sent
// again: it did nothing with it, so an answer sent again is checked once.
const BUSY_RETRIES = 2, BUSY_WAIT_MAX = 5;

async function call(method, url, body) {
  const init = body === undefined ? { method } : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(url, init);
    const doc = await r.json().catch(() => ({}));
    if (r.ok) return doc;
    const wait = Number(r.headers.get("retry-after"));
    if (r.status === 503 && attempt < BUSY_RETRIES && wait >= 0 && wait <= BUSY_WAIT_MAX) {
      await new Promise((done) => setTimeout(done, wait * 1000));
      continue;
    }
    throw new HttpError(r.status, (doc.error && doc.error.message) || r.statusText);
  }
}

// A new quiz: `spec` is { type, from, text, limit, order, time_limit } (time_limit null: untimed). The server's
// when it makes quizzes; made here (without a cardbox) when it does not.
export async function startQuiz(spec) {
  try {
    return await ServerQuiz.start(spec);
  } catch (err) {
    if (!(err instanceof HttpError) || (err.status !== 501 && err.status !== 404)) throw err;
    if (spec.from === "due") throw new Error("this server keeps no cardbox, so nothing is due");
    return LocalQuiz.start(spec);
  }
}

// A quiz of the server's taken up again (after a reload: the address names it).
export function resumeQuiz(id) {
  return ServerQuiz.resume(id);
}

// The study user: whose cardbox the page uses (docs/study.md: one server, several cardboxes). Kept in this browser's
// localStorage and sent with every study request; "default" (the terminal's) when none is given.
const USER_KEY = "lexigraph.study.user", MAX_USER = 64;

export function studyUser() {
  let kept = "";
  try { kept = localStorage.getItem(USER_KEY) || ""; } catch { /* storage refused: the default user */ }
  return userName(kept);
}

export function setStudyUser(name) {
  const user = userName(name);
  try {
    if (user === "default") localStorage.removeItem(USER_KEY); else localStorage.setItem(USER_KEY, user);
  } catch { /* storage refused: the name holds until the page is closed */ }
  return user;
}

// A name as the server takes it (Python's isprintable): no control or format characters, no line breaks, spaces
// as plain spaces; trimmed; at most 64 characters (code points, as Python counts them); empty is "default".
function userName(text) {
  const clean = String(text).replace(/[\p{C}\p{Zl}\p{Zp}]/gu, "").replace(/\p{Zs}/gu, " ").trim();
  const name = Array.from(clean).slice(0, MAX_USER).join("").trim();
  return name || "default";
}

// The cardbox's counts for the lexicon chosen (docs/schema/cardbox.json), or null when the server keeps none.
export async function cardboxCounts() {
  try {
    return await call("GET", "/api/cardbox?" + new URLSearchParams({ lexicon: state.lexicon, user: studyUser() }));
  } catch (err) {
    if (err instanceof HttpError && (err.status === 501 || err.status === 404)) return null;
    throw err;
  }
}

// A list's text (plain, or Zyzzyva's Anagram Question/Answer) into the cardbox as `type` questions due now: the
// import's document (docs/schema/cardbox.json, action import).
export function importList(text, type) {
  return call("POST", "/api/cardbox/import", { list: text, type, user: studyUser(), lexicon: state.lexicon });
}

// Where the cardbox's `type` questions download as a list (`format` plain or zyzzyva).
export function exportUrl(type, format) {
  return "/api/cardbox/export?" + new URLSearchParams({ lexicon: state.lexicon, user: studyUser(), type, format });
}

// -- the server's quiz ----------------------------------------------------------------------------------------------

class ServerQuiz {
  static async start(spec) {
    const body = { type: spec.type, limit: spec.limit, time_limit: spec.time_limit, lexicon: state.lexicon, user: studyUser() };
    if (spec.order) body.order = spec.order;
    if (spec.from === "search") body.search = spec.text;
    else if (spec.from === "due") body.due = true;
    else body[spec.from] = wordsOf(spec.text);
    return new ServerQuiz(await call("POST", "/api/quiz", body));
  }

  // A quiz the server keeps (its id from the page's address): as it stands.
  static async resume(id) {
    return new ServerQuiz(await call("GET", "/api/quiz/" + encodeURIComponent(id)));
  }

  constructor(doc) { this.state = doc; this.cardbox = true; }
  get url() { return "/api/quiz/" + encodeURIComponent(this.state.id); }
  async answer(word) { const d = await call("POST", this.url + "/answer", { answer: word }); this.state = d.quiz; return d; }
  async next() { const d = await call("POST", this.url + "/next", {}); this.state = d.quiz; return d; }
  summary() { return call("GET", this.url + "/summary"); }
  // Ended before its last question: closed on the server (never taken up again), its summary.
  async endQuiz() { const d = await call("POST", this.url + "/end", {}); this.state = { ...this.state, finished: true, ended: true, question: null }; return d; }
}

// -- the same quiz, made here ---------------------------------------------------------------------------------------

// The prompts of a quiz's questions from a source, in order, without repeats, at most `limit`.
async function prompts(spec) {
  let words;
  const racks = spec.type === "anagram" || spec.type === "subanagram";
  if (spec.from === "questions" && !racks) return unique(wordsOf(spec.text), spec.limit);
  if (spec.from === "search") {
    const sort = spec.order === "alpha" ? "alpha" : "probability";
    words = (await api("search", { expression: spec.text, sort, limit: state.limits.max_results })).results;
  } else {   // words, or racks given as questions: their alphagrams (in the lexicon's tiles) from `why`
    words = (await api("why", { words: wordsOf(spec.text).slice(0, spec.limit) })).results;   // past its limit, it says so
  }
  const of = { anagram: (w) => w.alphagram, subanagram: (w) => w.alphagram, hooks: (w) => w.word,
    pattern: (w) => w.word.replace(/[aeiou]/g, "?") }[spec.type];
  return unique(words.map(of), spec.limit);
}

function unique(items, limit) {
  const out = [];
  for (const x of items) if (!out.includes(x) && out.length < limit) out.push(x);
  return out;
}

// The answers of many prompts at once, grouped by the field each result names its prompt by. A list the server cut
// short is refused: a quiz without all its answers would mark right words wrong.
function grouped(doc, field, keys) {
  const total = doc.total != null ? doc.total : doc.count;
  if (doc.truncated || (total != null && total > doc.results.length)) {
    throw new Error(`these questions have more than ${state.limits.max_results} answers in all: ask fewer, or narrower ones`);
  }
  const by = new Map(keys.map((k) => [k, []]));
  for (const r of doc.results) {
    const list = by.get(r[field]);
    if (list && !list.includes(r.word)) list.push(r.word);
  }
  return by;
}

async function answersOf(type, asked) {
  const limit = state.limits.max_results;
  if (type === "anagram" || type === "subanagram") {
    const body = type === "anagram" ? { racks: asked, exact: true, limit } : { racks: asked, min_length: 2, limit };
    const by = grouped(await api("anagram", body), "rack", asked);
    return asked.map((p) => by.get(p));
  }
  const patterns = type === "hooks" ? asked.flatMap((w) => ["?" + w, w + "?"]) : asked;
  const by = grouped(await api("match", { patterns, limit }), "pattern", patterns);
  return type === "hooks" ? asked.map((w) => [...by.get("?" + w), ...by.get(w + "?")]) : asked.map((p) => by.get(p));
}

function shuffled(items) {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

class LocalQuiz {
  static async start(spec) {
    let asked = await prompts(spec);
    if (spec.order === "random") asked = shuffled(asked);
    else if (spec.order === "alpha" && spec.from !== "search") asked = asked.slice().sort();
    const answers = asked.length ? await answersOf(spec.type, asked) : [];
    return new LocalQuiz(spec, asked.map((p, i) => ({ prompt: p, answers: answers[i], found: [], wrong: [] })));
  }

  constructor(spec, questions) {
    this.cardbox = false;
    this.spec = spec;
    this.questions = questions;
    this.results = [];
    this.position = 0;
    this.ended = false;
    this.deadline = spec.time_limit ? Date.now() + spec.time_limit * 1000 : null;
    this.state = this.document();
  }

  timeUp() { return this.deadline !== null && Date.now() >= this.deadline; }

  document() {
    const q = this.questions[this.position];
    const finished = !q || this.ended || this.timeUp();
    return {
      id: "local", type: this.spec.type, lexicon: state.lexicon, user: "", source: this.spec.text, created: "",
      time_limit: this.spec.time_limit, seconds_left: this.deadline === null ? null : Math.max(0, (this.deadline - Date.now()) / 1000),
      total: this.questions.length, position: this.position, finished,
      score: {
        right: this.results.filter((r) => r.correct).length, wrong: this.results.filter((r) => !r.correct).length,
        answers_found: this.questions.reduce((n, x) => n + x.found.length, 0),
        answers_total: this.questions.reduce((n, x) => n + x.answers.length, 0),
      },
      question: finished ? null : { index: this.position, prompt: q.prompt.toUpperCase(), answers: q.answers.length, found: q.found.slice(), wrong: q.wrong.slice() },
    };
  }

  // The question asked ends: its result, and the quiz at the next one.
  end() {
    const q = this.questions[this.position];
    const missed = q.answers.filter((w) => !q.found.includes(w));
    const result = { index: this.position, prompt: q.prompt.toUpperCase(), answers: q.answers.slice(), found: q.found.slice(),
      missed, wrong: q.wrong.slice(), correct: !missed.length && !q.wrong.length, card: null };
    this.results.push(result);
    this.position += 1;
    return result;
  }

  async answer(typed) {
    const word = wordsOf(typed)[0] || "";
    let verdict, result = null;
    if (this.state.finished || this.timeUp()) verdict = "time_up";
    else {
      const q = this.questions[this.position];
      if (q.found.includes(word) || q.wrong.includes(word)) verdict = "already";
      else if (q.answers.includes(word)) { verdict = "right"; q.found.push(word); }
      else { verdict = "wrong"; q.wrong.push(word); }
      if (q.found.length === q.answers.length) result = this.end();
    }
    this.state = this.document();
    return { id: "local", verdict, word, result, quiz: this.state };
  }

  async next() {
    const result = this.state.finished ? null : this.end();
    this.state = this.document();
    return { id: "local", verdict: null, word: null, result, quiz: this.state };
  }

  // Ended before its last question: the question being answered graded when something was typed for it (as the
  // server does), the others not.
  async endQuiz() {
    const q = this.questions[this.position];
    if (!this.state.finished && q && (q.found.length || q.wrong.length)) this.end();
    this.ended = true;
    this.state = this.document();
    return this.summary();
  }

  async summary() {
    const missedWords = this.results.flatMap((r) => r.missed.map((w) => ({ word: w, question: r.prompt })));
    const hooks = new Map();
    if (missedWords.length) {
      const doc = await api("hooks", { words: missedWords.map((m) => m.word).slice(0, state.limits.max_values || 1000) });
      for (const h of doc.results) hooks.set(h.word, h);
    }
    return {
      command: "quiz", id: "local", type: this.spec.type, lexicon: state.lexicon, user: "", total: this.questions.length,
      answered: this.results.length, right: this.state.score.right, wrong: this.state.score.wrong, finished: this.state.finished,
      ended: this.ended, results: this.results, count: this.results.length, cardbox: null,
      missed: missedWords.map((m) => ({ ...m, front: (hooks.get(m.word) || {}).front || "", back: (hooks.get(m.word) || {}).back || "" })),
    };
  }
}
