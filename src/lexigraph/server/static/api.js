// The server's JSON API as the page asks it: what the server offers (its commands, their parameters, the lexicons,
// the limits: GET /api, read once at start), the lexicon chosen, and every request the page makes, with the
// server's error message as the Error's when a request fails.

export const state = { commands: {}, lexicon: "", limits: { max_results: 1000 } };

// A JSON document from the server; an Error carrying the server's message when the status is not 2xx.
async function request(url, init) {
  const r = await fetch(url, init);
  const doc = await r.json();
  if (!r.ok) throw new Error((doc.error && doc.error.message) || r.statusText);
  return doc;
}

function posted(body, signal) {
  return { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal };
}

// The commands, lexicons and limits the server offers (GET /api); the lexicon chosen is the server's default.
export async function loadServer() {
  const info = await (await fetch("/api")).json();
  for (const c of info.commands) state.commands[c.name] = c;
  state.limits = info.limits;
  state.lexicon = info.default_lexicon;
  return info;
}

// A command (POST /api/NAME) on the chosen lexicon.
export function api(name, body, signal) {
  const payload = Object.assign({}, body);
  if (state.lexicon) payload.lexicon = state.lexicon;
  return request("/api/" + name, posted(payload, signal));
}

// The games route: GET /api/games + path without a body, POST with one.
export function gameApi(path, body) {
  return request("/api/games" + path, body === undefined ? {} : posted(body));
}

// The Datamuse-compatible spelling search (GET /words) on the chosen lexicon: [{word, score}], best first.
export function spelled(sp, max, signal) {
  return request("/words?" + new URLSearchParams({ sp, max, lexicon: state.lexicon }), { signal });
}

export function has(name) { return Object.prototype.hasOwnProperty.call(state.commands, name); }
export function paramNames(name) { return has(name) ? state.commands[name].params.map((p) => p.name) : []; }
// The name of a command's parameter: the first of the candidates it has, else its first required one.
export function firstParam(name, candidates) {
  const names = paramNames(name);
  for (const c of candidates) if (names.includes(c)) return c;
  const pos = state.commands[name] && state.commands[name].params.find((p) => p.required);
  return pos ? pos.name : candidates[0];
}
// A result's word: results are words, or objects with a word (or an alphagram).
export function wordOf(r) { return typeof r === "string" ? r : (r.word || r.alphagram || ""); }
