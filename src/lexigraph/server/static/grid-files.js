// The Grid tab's files: a text grid, an ipuz or a .puz opened or pasted (POST /api/grid/read answers its rows,
// title and clues), and the grid with its clues downloaded as .puz or .ipuz (POST /api/grid/write). Errors carry
// the server's message.

async function answerOf(r) {
  if (r.ok) return r;
  let message = r.statusText;
  try { const doc = await r.json(); message = (doc.error && doc.error.message) || message; } catch (e) { /* not JSON */ }
  throw new Error(message);
}

function post(path, body) {
  return fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(answerOf);
}

function base64Of(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// A file the person chose: its grid document ({title, height, width, rows, clues, format}).
export async function openFile(file) {
  const data = base64Of(new Uint8Array(await file.arrayBuffer()));
  return (await post("/api/grid/read", { data, name: file.name })).json();
}

// Pasted text: a text grid, or ipuz when it is a JSON object.
export async function readText(text) {
  return (await post("/api/grid/read", { text, format: text.trim().startsWith("{") ? "ipuz" : "text" })).json();
}

// The file of a grid document, downloaded under its name: a data: address (the page asks no other origin).
export async function download(doc, format, name) {
  const r = await post("/api/grid/write", Object.assign({}, doc, { format, name }));
  const type = r.headers.get("content-type") || "application/octet-stream";
  const given = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "");
  const a = document.createElement("a");
  a.href = `data:${type.split(";")[0]};base64,${base64Of(new Uint8Array(await r.arrayBuffer()))}`;
  a.download = given ? given[1] : `${name}.${format}`;
  document.body.appendChild(a); a.click(); a.remove();
  return a.download;
}

// A grid document's rows as the page keeps cells: "" empty, "#" a block, else the tile's letters (lower case).
export function valuesOf(rows) {
  return rows.map((row) => (row.match(/\[[^\]]+\]|./gu) || []).map((t) => (t === "." ? "" : t === "#" ? "#" : t.replace(/[[\]]/g, "").toLowerCase())));
}
