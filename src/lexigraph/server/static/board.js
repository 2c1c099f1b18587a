// A game board as the Board and Play tabs draw it: the premium squares' colours and labels, the start's star, each
// square's accessible name, the legend under the board, and tiles as a board's text writes them.

// Premium squares as game documents write them (T D t d), their names, and the short labels the boards show.
const PREMIUM_KINDS = {
  T: { cls: "tw", label: "TW", name: "triple word" },
  D: { cls: "dw", label: "DW", name: "double word" },
  t: { cls: "tl", label: "TL", name: "triple letter" },
  d: { cls: "dl", label: "DL", name: "double letter" },
};
const START_LABEL = "\u2605";

// An empty square: its premium's colour and label, the star on the start square (which the first move covers).
export function drawSquare(d, prem, start) {
  const kind = PREMIUM_KINDS[prem];
  if (kind) d.classList.add(kind.cls);
  if (start) d.classList.add("start");
  const label = start ? START_LABEL : kind ? kind.label : "";
  if (!label) return;
  const s = document.createElement("span");
  s.className = "prem"; s.textContent = label; s.setAttribute("aria-hidden", "true");   // the square's label says it
  d.appendChild(s);
}

// A square's accessible name: where it is, then its tile, or its premium and whether it is the start.
export function squareLabel(r, c, tile, prem, start) {
  const where = `${String.fromCharCode(65 + c)}${r + 1}`;
  if (tile) return `${where} ${tile.tile}${tile.blank ? " blank" : ""}`;
  const kind = PREMIUM_KINDS[prem];
  return where + (start ? ", start" : "") + (kind ? ", " + kind.name : "");
}

// The legend under a board: each premium's label and name, and the start square's star with its own premium.
export function drawLegend(list, startPrem) {
  list.innerHTML = "";
  const start = PREMIUM_KINDS[startPrem];
  const items = [...Object.values(PREMIUM_KINDS),
    { cls: "start" + (start ? " " + start.cls : ""), label: START_LABEL, name: "start" + (start ? ` (${start.name})` : "") }];
  for (const k of items) {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch " + k.cls; sw.textContent = k.label; sw.setAttribute("aria-hidden", "true");
    li.append(sw, document.createTextNode(k.name));
    list.appendChild(li);
  }
}

// A board row's (or a rack's) tiles: one character each, or a multi-letter tile in brackets ([CH]).
export function tilesOf(text) { return text.match(/\[[^\]]+\]|./gu) || []; }
