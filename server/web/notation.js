// Editing a table notation line by line (docs/table-notation.md): the lines
// are `keyword value...`; games with players write `player N` sections whose
// lines are the player's. Keywords compare case-insensitively; comments
// (`#` at the start of a line or before a space) and the game string header
// are kept as written.

const COMMENT = /(^|\s)#(\s|$)/;

function body(line) {
  const m = COMMENT.exec(line);
  return (m ? line.slice(0, m.index) : line).trim();
}

function words(keyword) {
  return String(keyword).trim().toLowerCase().split(/\s+/);
}

// The line's keyword words match `keyword` (which may be numbered: "painting 3").
function matches(line, keyword) {
  const want = words(keyword);
  const have = body(line).toLowerCase().split(/\s+/);
  if (have.length < want.length) return false;
  for (let k = 0; k < want.length; k++) {
    let w = have[k];
    // "palette 1:" -- a number may carry the colon that opens the value
    if (k === want.length - 1 && w.endsWith(":") && !want[k].endsWith(":")) w = w.slice(0, -1);
    if (w !== want[k]) return false;
  }
  return true;
}

function sectionStart(line) {
  const m = /^player\s+(\d+)$/i.exec(body(line));
  return m ? Number(m[1]) : null;
}

// Every line's owner: "head" (a `player N` line), the player number of
// the section it is in, or null (table-level: before the first section).
function sections(lines) {
  let current = null;
  return lines.map((line) => {
    const start = sectionStart(line);
    if (start !== null) { current = start; return "head"; }
    return current;
  });
}

function find(lines, keyword, section) {
  const owner = sections(lines);
  for (let i = 0; i < lines.length; i++) {
    if (owner[i] === "head") continue;
    if ((section === null ? owner[i] === null : owner[i] === Number(section))
        && matches(lines[i], keyword)) return i;
  }
  return -1;
}

function split(text) {
  const lines = String(text ?? "").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function join(lines) {
  return lines.length ? lines.join("\n") + "\n" : "";
}

// The value after the keyword on its line, or null when not written.
export function getLine(text, keyword, section = null) {
  const lines = split(text);
  const i = find(lines, keyword, section);
  if (i < 0) return null;
  const rest = body(lines[i]).split(/\s+/).slice(words(keyword).length).join(" ");
  return rest.replace(/^:\s*/, "");
}

// The 1-based number of the keyword's line, or null.
export function lineNumberOf(text, keyword, section = null) {
  const i = find(split(text), keyword, section);
  return i < 0 ? null : i + 1;
}

// The text with the keyword's line replaced (its comment kept), added (at
// the end of its section, or before the first section for a table-level
// line) or removed (value === null).
export function setLine(text, keyword, value, section = null) {
  const lines = split(text);
  const i = find(lines, keyword, section);
  const indent = section === null ? "" : "  ";
  // a value that starts with ":" follows the keyword at once ("palette 1: BU BD")
  const v = value === null ? null : String(value);
  const written = v === null ? null
    : `${indent}${String(keyword).trim()}${v === "" ? "" : (v.startsWith(":") ? "" : " ") + v}`;
  if (i >= 0) {
    if (written === null) { lines.splice(i, 1); return join(lines); }
    const m = COMMENT.exec(lines[i]);
    lines[i] = written + (m ? " " + lines[i].slice(m.index).trim() : "");
    return join(lines);
  }
  if (written === null) return join(lines);
  const owner = sections(lines);
  if (section === null) {
    const first = owner.indexOf("head");
    if (first < 0) lines.push(written);
    else lines.splice(first, 0, written);
    return join(lines);
  }
  let head = -1;
  for (let k = 0; k < lines.length; k++) {
    if (owner[k] === "head" && sectionStart(lines[k]) === Number(section)) head = k;
  }
  if (head < 0) {                             // no such section yet: open it at the end
    lines.push(`player ${Number(section)}`, written);
    return join(lines);
  }
  let end = head + 1;
  while (end < lines.length && owner[end] === Number(section)) end++;
  while (end > head + 1 && !body(lines[end - 1])) end--;   // before trailing blank lines
  lines.splice(end, 0, written);
  return join(lines);
}
