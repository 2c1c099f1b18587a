// The page's two DOM helpers: an element by id, and a status line that may say an error.

export const $ = (id) => document.getElementById(id);

export function setStatus(el, text, error) { el.textContent = text; el.classList.toggle("error", !!error); }
