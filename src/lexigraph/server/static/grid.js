// A grid of cells edited from the keyboard: the Board, Grid and Play tabs' squares. An editor is a plain object,
// {rows, cols, r, c, across, cells, onMove?, onExtend?}: the cell with the focus, the typing direction, and what
// to do when the focus moves (onMove) or Shift+arrow extends a selection (onExtend).
//
// One keyboard model for the board and the grid: arrows move, letters type and advance, Space turns,
// Backspace clears and steps back, Home/End jump along the line. A board (coords) has its column letters over it
// and its row numbers on its left, as moves name squares (8D: row 8, column D); the cells shrink to fit a phone.
export function makeCells(container, rows, cols, onKey, coords) {
  container.innerHTML = "";
  container.style.setProperty("--span", cols + (coords ? 0.7 : 0));
  container.style.gridTemplateColumns = (coords ? "var(--coord) " : "") + `repeat(${cols}, var(--cell))`;
  if (coords) {
    const head = document.createElement("div");
    head.style.display = "contents";
    head.setAttribute("aria-hidden", "true");   // each square's own label names it
    head.appendChild(coordCell(""));
    for (let c = 0; c < cols; c++) head.appendChild(coordCell(String.fromCharCode(65 + c)));
    container.appendChild(head);
  }
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.style.display = "contents";
    if (coords) row.appendChild(coordCell(String(r + 1)));
    for (let c = 0; c < cols; c++) {
      const d = document.createElement("div");
      d.className = "cell";
      d.setAttribute("role", "gridcell");
      d.tabIndex = -1;
      d.dataset.r = r; d.dataset.c = c;
      d.addEventListener("keydown", (e) => onKey(e, r, c));
      row.appendChild(d);
      cells.push(d);
    }
    container.appendChild(row);
  }
  return cells;
}

function coordCell(text) {
  const d = document.createElement("div");
  d.className = "coord";
  d.setAttribute("aria-hidden", "true");
  d.textContent = text;
  return d;
}

export function moveBy(ed, dr, dc) {
  const r = Math.min(ed.rows - 1, Math.max(0, ed.r + dr));
  const c = Math.min(ed.cols - 1, Math.max(0, ed.c + dc));
  focusCell(ed, r, c);
}
export function focusCell(ed, r, c) {
  const old = ed.cells[ed.r * ed.cols + ed.c];
  old.tabIndex = -1; old.classList.remove("cursor-across", "cursor-down");
  ed.r = r; ed.c = c;
  const cell = ed.cells[r * ed.cols + c];
  cell.tabIndex = 0;
  cell.classList.add(ed.across ? "cursor-across" : "cursor-down");
  cell.focus();
  if (ed.onMove) ed.onMove();
}
export function editorKeys(ed, e, r, c, put) {
  ed.r = r; ed.c = c;
  const step = ed.across ? [0, 1] : [1, 0];
  const k = e.key;
  if (k === "ArrowUp" || k === "ArrowDown" || k === "ArrowLeft" || k === "ArrowRight") {
    e.preventDefault();
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[k];
    if (e.shiftKey && ed.onExtend) { ed.onExtend(d[0], d[1]); return; }
    moveBy(ed, d[0], d[1]);
  } else if (k === " ") {
    e.preventDefault(); ed.across = !ed.across; focusCell(ed, r, c);
  } else if (k === "Backspace" || k === "Delete") {
    e.preventDefault(); put(r, c, ""); if (k === "Backspace") moveBy(ed, -step[0], -step[1]);
  } else if (k === "Home") { e.preventDefault(); focusCell(ed, ed.across ? r : 0, ed.across ? 0 : c); }
  else if (k === "End") { e.preventDefault(); focusCell(ed, ed.across ? r : ed.rows - 1, ed.across ? ed.cols - 1 : c); }
  else if (k.length === 1 && /\p{L}/u.test(k) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault(); put(r, c, k, e.shiftKey); moveBy(ed, step[0], step[1]);
  } else return false;
  return true;
}
