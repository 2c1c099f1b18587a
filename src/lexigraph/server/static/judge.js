// Word Judge (the address #judge): the whole screen, large type, high contrast, as tournaments use it. Players type
// the words a play forms, separated by spaces or commas, and Enter: VALID when the lexicon has every one, NOT VALID
// otherwise — never which word, never a list. The verdict clears after a few seconds, ready for the next play.

import { api, state } from "./api.js";
import { $ } from "./dom.js";
import { wordsOf } from "./quiz.js";

// How long a verdict stays on the screen (a page may set data-clear-after on the view, in milliseconds).
const CLEAR_AFTER = 5000;
let onLeave = () => {};
let clearing = 0;

export function setup(leave) {
  onLeave = leave;
  $("judge-input").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); judge(); } });
  $("judge-leave").addEventListener("click", () => close(true));
  window.addEventListener("hashchange", () => { if (location.hash === "#judge") open(); else if (isOpen()) close(false); });
}

function isOpen() { return !$("view-judge").hidden; }

// The judge over the whole page: nothing else shows, the focus waits in its box.
export function open() {
  document.body.classList.add("judging");
  $("view-judge").hidden = false;
  $("judge-lexicon").textContent = `Lexicon: ${state.lexicon}`;
  verdict("");
  if (location.hash !== "#judge") history.replaceState(null, "", "#judge");
  $("judge-input").focus();
}

function close(back) {
  document.body.classList.remove("judging");
  $("view-judge").hidden = true;
  clearTimeout(clearing);
  $("judge-input").value = "";
  if (back) onLeave();
}

function verdict(text, valid) {
  const el = $("judge-verdict");
  el.textContent = text;
  el.className = "judge-verdict" + (valid === true ? " valid" : valid === false ? " invalid" : "");
}

// The words typed, judged as one play: every one valid, or the play is not.
async function judge() {
  const box = $("judge-input");
  const words = wordsOf(box.value);
  if (!words.length || box.readOnly) return;
  box.readOnly = true;
  try {
    const said = (await api("judge", { words })).verdict;   // the verdict alone: the page never learns which word
    verdict(said, said === "VALID");
  } catch (err) {
    verdict(`The words could not be judged: ${err.message}`);
  }
  box.value = "";
  clearTimeout(clearing);
  clearing = setTimeout(() => { verdict(""); box.readOnly = false; box.focus(); }, +$("view-judge").dataset.clearAfter || CLEAR_AFTER);
}
