// Undo and redo for an editor: snapshots of its state, taken before each change. undo(now) hands back the state
// before the last change (and keeps now for redo); a new change forgets what could be redone.

export function makeHistory(limit = 200) {
  const done = [], undone = [];
  return {
    record(state) { done.push(state); if (done.length > limit) done.shift(); undone.length = 0; },
    undo(now) { if (!done.length) return null; undone.push(now); return done.pop(); },
    redo(now) { if (!undone.length) return null; done.push(now); return undone.pop(); },
    get canUndo() { return done.length > 0; },
    get canRedo() { return undone.length > 0; },
  };
}
