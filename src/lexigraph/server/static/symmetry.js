// A crossword's block symmetry, as the Grid tab keeps it: a block placed or taken away at one cell is placed or
// taken away at its partners too. Rotational (the American standard: half a turn about the centre), left-right
// (a mirror about the middle column), or none.

export const SYMMETRIES = ["rotational", "left-right", "none"];

// The cells that change with (r, c) under a symmetry, (r, c) first, each once (the centre is its own partner).
export function partners(kind, rows, cols, r, c) {
  const out = [[r, c]];
  const add = (rr, cc) => { if (!out.some(([a, b]) => a === rr && b === cc)) out.push([rr, cc]); };
  if (kind === "rotational") add(rows - 1 - r, cols - 1 - c);
  else if (kind === "left-right") add(r, cols - 1 - c);
  return out;
}

// Whether the blocks of values (a value per cell, "#" a block) keep a symmetry.
export function isSymmetric(kind, rows, cols, values) {
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const block = values[r * cols + c] === "#";
    for (const [rr, cc] of partners(kind, rows, cols, r, c)) if ((values[rr * cols + cc] === "#") !== block) return false;
  }
  return true;
}
