// A crossword grid's geometry, as the Grid tab edits it: grid is {rows, cols, v}, v a value per cell ("" empty,
// "#" a block, else its letters). Its slots (runs of two or more open cells), their standard numbering and names
// (1A, 3D), and the grid as the text the fill command reads.

export function allSlots(grid) {
  // Every slot of two or more cells, with its name: across slots, then down slots.
  const out = [], nums = numbering(grid);
  for (const across of [true, false]) {
    for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) {
      const cells = slotCells(grid, r, c, across);
      if (cells.length && cells[0][0] === r && cells[0][1] === c) out.push({ name: `${nums.get(r * grid.cols + c)}${across ? "A" : "D"}`, cells });
    }
  }
  return out;
}

// The cells of the slot through (r, c) in a direction, first to last; [] on a block or a run of one cell.
export function slotCells(grid, r, c, across) {
  const at = (rr, cc) => grid.v[rr * grid.cols + cc];
  if (at(r, c) === "#") return [];
  let [dr, dc] = across ? [0, 1] : [1, 0];
  let r0 = r, c0 = c;
  while (r0 - dr >= 0 && c0 - dc >= 0 && at(r0 - dr, c0 - dc) !== "#") { r0 -= dr; c0 -= dc; }
  const cells = [];
  for (let rr = r0, cc = c0; rr < grid.rows && cc < grid.cols && at(rr, cc) !== "#"; rr += dr, cc += dc) cells.push([rr, cc]);
  return cells.length >= 2 ? cells : [];
}

export function numbering(grid) {
  // Standard crossword numbering: a cell starts an entry when a slot of two or more begins there.
  const nums = new Map(); let n = 0;
  for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) {
    if (grid.v[r * grid.cols + c] === "#") continue;
    const open = (rr, cc) => rr >= 0 && cc >= 0 && rr < grid.rows && cc < grid.cols && grid.v[rr * grid.cols + cc] !== "#";
    const a = !open(r, c - 1) && open(r, c + 1), d = !open(r - 1, c) && open(r + 1, c);
    if (a || d) nums.set(r * grid.cols + c, ++n);
  }
  return nums;
}

// A slot's name: its first cell's number and A (across) or D (down).
export function slotName(grid, cells, across) {
  if (!cells.length) return "";
  const [r, c] = cells[0];
  return `${numbering(grid).get(r * grid.cols + c)}${across ? "A" : "D"}`;
}

export function gridText(grid, values) {
  // The grid as text: the letters written (values: those before a fill, when one is shown).
  const vs = values || grid.v;
  const lines = [];
  for (let r = 0; r < grid.rows; r++) {
    let s = "";
    for (let c = 0; c < grid.cols; c++) { const v = vs[r * grid.cols + c]; s += v === "#" ? "#" : v ? (v.length > 1 ? "[" + v + "]" : v) : "."; }
    lines.push(s);
  }
  return lines.join("\n") + "\n";
}

// What a constructor checks of a grid: its entries, blocks, entries under three letters, and open cells that are
// in one entry only (unchecked) or in none.
export function gridStats(grid) {
  const slots = allSlots(grid);
  const covered = new Map();
  for (const s of slots) for (const [r, c] of s.cells) covered.set(r * grid.cols + c, (covered.get(r * grid.cols + c) || 0) + 1);
  const open = grid.v.filter((x) => x !== "#").length;
  let unchecked = 0;
  grid.v.forEach((x, i) => { if (x !== "#" && (covered.get(i) || 0) < 2) unchecked++; });
  return { entries: slots.length, blocks: grid.v.length - open, short: slots.filter((s) => s.cells.length < 3).length, unchecked };
}
