// Starving Artists on the web table (issue #26): the table drawn in SVG from the position, every
// part the table notation names a button whose picker writes that notation line, the loader's
// refusals beside the parts they name, and a hint's whole turn drawn on the table.
//
// The grammar is engine/starving_artists/ENCODING.md "Table notation"; the words (payday pile,
// market slot, studio, canvas, square, painting, nutrition, free action) are the rulebook's, as
// RULINGS.md numbers its clauses. Every colour carries its letter (R O Y G B V K, W for the wild
// cube): the rulebook's colour-blind note.
//
// In set-up the table is drawn from the notation being written, not from the last position the
// loader accepted: a table clicked in step by step is refused most of the way (day 5 before its
// canvases are bought), and a person must see each click land. Read-only tables (hint, play,
// review) draw the position's own notation (info.notation). The canvases' squares and titles come
// from the deck (starving_artists_deck.js, written from the engine's deck by a tool), because
// the JSON view names the canvases off the table by deck index only.
import { useEffect, useRef, useState } from "../vendor/hooks.js";
import { html } from "../html.js";
import { setLine } from "../notation.js";
import { DECKS } from "./starving_artists_deck.js";

// -- colours (ENCODING.md "Constants": the cube colours and the box) ----------------------------

export const COLOURS = ["red", "orange", "yellow", "green", "blue", "violet", "black", "wild"];
const LETTER = { red: "R", orange: "O", yellow: "Y", green: "G", blue: "B", violet: "V",
  black: "K", wild: "W" };
const FILL = { red: "#d93025", orange: "#f08a1c", yellow: "#f5d428", green: "#2e9e48",
  blue: "#2f6fd6", violet: "#8d4fb8", black: "#262626", wild: "#ffffff" };
const INK = { red: "#fff", orange: "#1a1a1a", yellow: "#1a1a1a", green: "#fff", blue: "#fff",
  violet: "#fff", black: "#fff", wild: "#1a1a1a" };
const BOX = { red: 15, orange: 20, yellow: 20, green: 20, blue: 30, violet: 15, black: 20,
  wild: 10 };
const FROM_LETTER = { r: "red", o: "orange", y: "yellow", g: "green", b: "blue", v: "violet",
  k: "black" };
const COLOUR_WORDS = { purple: "violet", clear: "wild" };
// The phases a position can rest in (ENCODING.md "Phases"); dawn, feed and dusk never rest.
const PHASES = ["turn", "paint", "pay", "take", "announce", "collect", "supper", "advance",
  "setup", "draw", "canvas", "end"];
const DECIDING = new Set(["turn", "paint", "pay", "take", "announce", "collect", "supper",
  "advance"]);
const TURN_PHASES = new Set(["turn", "paint", "pay", "take"]);
const SECTION_KEYS = new Set(["nutrition", "cubes", "canvas", "paintings", "free", "food",
  "stars", "alive", "starved"]);

export function colourWord(word) {
  const w = String(word || "").toLowerCase();
  const c = COLOUR_WORDS[w] || w;
  return COLOURS.includes(c) ? c : null;
}

function zeroCubes() {
  return Object.fromEntries(COLOURS.map((c) => [c, 0]));
}

// "red 3 orange 6" -> {red: 3, orange: 6, ...}; "none" -> all 0.
export function parseCubes(text) {
  const out = zeroCubes();
  const words = String(text || "").trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i + 1 < words.length; i += 2) {
    const c = colourWord(words[i]);
    const n = parseInt(words[i + 1], 10);
    if (c && Number.isFinite(n)) out[c] = n;
  }
  return out;
}

export function cubesText(counts) {
  const parts = COLOURS.filter((c) => counts[c] > 0).map((c) => `${c} ${counts[c]}`);
  return parts.length ? parts.join(" ") : null;
}

// -- the deck ------------------------------------------------------------------------------------

// A deck's canvases as {index, name, stars, food, paint, squares: [[colour, ...], ...]}.
const deckCache = {};
export function deckOf(spec) {
  const key = DECKS[spec] ? spec : "38";
  if (!deckCache[key]) {
    deckCache[key] = DECKS[key].map(([name, id, stars, food, paint, squares], index) => ({
      index, name, id, stars, food, paint,
      squares: squares.split(" ").map((w) => [...w].map((l) => FROM_LETTER[l])),
    }));
  }
  return deckCache[key];
}

// The canvas a JSON view names: by its deck index, or by its printed id (the canvas file's `id`,
// as views that name cards by what is printed on them do); null when the deck has none such.
export function cardOfView(deck, ref) {
  if (Number.isInteger(ref)) return deck[ref] || null;
  return deck.find((c) => c.id === ref) || null;
}

// The canvas a notation name means (ENCODING.md: a title in any case, or a prefix of at least
// four letters no other title starts with), or null.
export function findCard(deck, name) {
  const want = String(name || "").trim().toLowerCase();
  if (!want) return null;
  if (want.startsWith("#")) return deck.find((c) => c.id.toLowerCase() === want.slice(1)) || null;
  const exact = deck.find((c) => c.name.toLowerCase() === want);
  if (exact) return exact;
  if (want.length < 4) return null;
  const starts = deck.filter((c) => c.name.toLowerCase().startsWith(want));
  return starts.length === 1 ? starts[0] : null;
}

function viewSquares(card) {
  return (card.squares || []).map((s) => String(s).split("/").map(colourWord));
}

// -- reading the notation into the table ----------------------------------------------------------

function stripComment(line) {
  const m = /(^|\s)#(\s|$)/.exec(line);
  return m ? line.slice(0, m.index) : line;
}

function titles(rest) {
  return String(rest || "").split(";").map((t) => t.trim()).filter((t) => t && t !== "-");
}

// The notation's lines as {no, key, rest, section}: section null at table level, else the
// 1-based player whose section holds the line (docs/table-notation.md "Grammar").
export function notationLines(text) {
  const out = [];
  let section = null;
  String(text || "").split("\n").forEach((raw, i) => {
    const line = stripComment(raw).trim();
    if (!line) return;
    const m = /^(\S+)\s*(.*)$/.exec(line);
    const key = m[1].toLowerCase();
    const rest = m[2];
    if (i === 0 && /^starving_artists\b/i.test(line)) {
      out.push({ no: i + 1, key: "#game", rest: line, section: null });
      return;
    }
    if (key === "player" && /^\d+$/.test(rest.trim())) {
      section = parseInt(rest, 10);
      out.push({ no: i + 1, key: "player", rest, section });
      return;
    }
    if (!SECTION_KEYS.has(key)) section = null;
    out.push({ no: i + 1, key, rest, section });
  });
  return out;
}

// One card on the table: the deck's card for a name, or what the position's JSON view says of a
// canvas named so (a deck given as a file), or an unknown name (the loader refuses it).
function cardFor(deck, extra, name) {
  return findCard(deck, name) || extra[String(name).toLowerCase()] ||
    { index: -1, name, stars: 0, food: 0, paint: 0, squares: [], unknown: true };
}

// The table as the notation `text` writes it: what the drawing and the pickers read.
export function readTable(text, { players, deck, state }) {
  const extra = {};       // canvases of the JSON view by title (decks the page does not hold)
  if (state) {
    const add = (c) => {
      if (c && c.title) {
        extra[c.title.toLowerCase()] = { index: -1, name: c.title, stars: c.stars,
          food: c.food, paint: c.paint, squares: viewSquares(c) };
      }
    };
    (state.market || []).forEach(add);
    (state.studios || []).forEach((s) => (s.canvases || []).forEach(add));
  }
  const t = {
    players, day: 1, round: null, phase: null, phasePlayer: null, market: [null, null, null],
    pile: zeroCubes(), under: [], removed: [], result: null, pending: null, first: null,
    lines: {}, studios: [],
  };
  for (let p = 0; p < players; p++) {
    t.studios.push({ nutrition: null, cubes: zeroCubes(), canvases: [], paintings: [],
      free: false, food: null, lines: {} });
  }
  for (const ln of notationLines(text)) {
    const { key, rest, section } = ln;
    if (section !== null && key !== "player") {
      const s = t.studios[section - 1];
      if (!s) continue;
      if (key === "canvas") {
        const m = /^(.*?):(.*)$/.exec(rest);
        const name = (m ? m[1] : rest).trim();
        const card = cardFor(deck, extra, name);
        const words = m ? m[2].trim().split(/\s+/).filter(Boolean) : [];
        const n = Math.max(card.squares.length, words.length);
        const cubes = [];
        for (let k = 0; k < n; k++) cubes.push(words[k] && words[k] !== "." ? colourWord(words[k]) || "?" : null);
        s.canvases.push({ card, cubes, line: ln.no });
        continue;
      }
      s.lines[key] = ln.no;
      if (key === "nutrition") s.nutrition = parseInt(rest, 10);
      else if (key === "cubes") s.cubes = parseCubes(rest);
      else if (key === "paintings") s.paintings = titles(rest).map((n) => cardFor(deck, extra, n));
      else if (key === "free") s.free = /^used/i.test(rest.trim());
      else if (key === "food") s.food = parseInt(rest, 10);
      continue;
    }
    t.lines[key] = ln.no;
    if (key === "day") {
      const m = /^(\d+)(?:\s+round\s+(\d+))?/i.exec(rest.trim());
      if (m) { t.day = parseInt(m[1], 10); t.round = m[2] ? parseInt(m[2], 10) : null; }
    } else if (key === "phase") {
      const m = /^(\w+)(?:\s+player\s+(\d+))?/i.exec(rest.trim());
      if (m) { t.phase = m[1].toLowerCase(); t.phasePlayer = m[2] ? parseInt(m[2], 10) : null; }
    } else if (key === "market") {
      const slots = rest.split(";").map((x) => x.trim());
      for (let k = 0; k < 3; k++) {
        const name = slots[k];
        t.market[k] = name && name !== "-" ? cardFor(deck, extra, name) : null;
      }
    } else if (key === "pile") t.pile = parseCubes(rest);
    else if (key === "under") t.under = titles(rest).map((n) => cardFor(deck, extra, n));
    else if (key === "removed") t.removed = titles(rest).map((n) => cardFor(deck, extra, n));
    else if (key === "result") t.result = rest.trim().toLowerCase();
    else if (key === "pending") t.pending = rest.trim();
    else if (key === "first") {
      const m = /player\s+(\d+)/i.exec(rest);
      if (m) t.first = parseInt(m[1], 10);
    }
  }
  // What is derived (ENCODING.md "Derived, never asked"), as far as the page needs it to draw.
  if (t.first === null) {
    const start = state && Number.isInteger(state.first_player) && Number.isInteger(state.day)
      ? state.first_player - (state.day - 1) : 0;
    t.first = (((start + t.day - 1) % players) + players) % players + 1;
  }
  t.bag = { ...BOX };
  const take = (counts) => COLOURS.forEach((c) => { t.bag[c] -= counts[c] || 0; });
  take(t.pile);
  for (const s of t.studios) {
    take(s.cubes);
    for (const cv of s.canvases) cv.cubes.forEach((c) => { if (c && t.bag[c] !== undefined) t.bag[c] -= 1; });
    s.stars = s.paintings.reduce((a, c) => a + c.stars, 0);
    s.foodDerived = s.food === null;
    if (s.food === null) s.food = s.paintings.reduce((a, c) => a + c.food, 0);
    s.nutritionDerived = s.nutrition === null || Number.isNaN(s.nutrition);
    if (s.nutritionDerived) s.nutrition = Math.max(0, 5 - (t.day - 1));
  }
  const onTable = new Set(usedCards(t).map((c) => c.index));
  t.unseen = deck.filter((c) => !onTable.has(c.index));
  return t;
}

// The table as a JSON view shows it (a read-only table given a position without its notation):
// the same shape as readTable's, the derived parts the engine's own.
export function tableFromState(state, deck) {
  const card = (c) => {
    if (c === null || c === undefined) return null;
    if (typeof c === "object") {
      return cardOfView(deck, c.canvas) || { index: -1, name: c.title, stars: c.stars,
        food: c.food, paint: c.paint, squares: viewSquares(c) };
    }
    return cardOfView(deck, c) || { index: -1, name: `canvas ${c}`, stars: 0, food: 0, paint: 0,
      squares: [], unknown: true };
  };
  const counts = (o) => ({ ...zeroCubes(), ...(o || {}) });
  const fd = state.face_down || {};
  const phase = state.phase || null;
  const seat = Number.isInteger(state.current_player) ? state.current_player : -1;
  const t = {
    players: state.players, day: state.day || 1,
    round: TURN_PHASES.has(phase) && state.players > 1 ? state.round : null,
    phase, phasePlayer: DECIDING.has(phase) && seat >= 0 ? seat + 1 : null,
    market: (state.market || [null, null, null]).map(card), pile: counts(state.payday_pile),
    under: (fd.known_under || []).map(card), removed: (state.removed || []).map(card),
    result: state.result > 0 ? "won" : state.result < 0 ? "lost" : null, pending: null,
    first: (state.first_player || 0) + 1, lines: {}, bag: counts(state.bag),
    unseen: (fd.unseen || []).map(card),
    studios: (state.studios || []).map((st) => ({
      nutrition: st.nutrition, nutritionDerived: false, cubes: counts(st.cubes),
      canvases: (st.canvases || []).map((cv) => ({ card: card(cv), cubes: (cv.cubes || []).map(colourWord) })),
      paintings: (st.paintings || []).map(card), free: !!st.free_action_used,
      food: st.food_earned || 0, foodDerived: true, stars: st.stars || 0, lines: {},
    })),
  };
  return t;
}

function usedCards(t) {
  const out = [...t.market.filter(Boolean), ...t.under, ...t.removed];
  for (const s of t.studios) out.push(...s.canvases.map((c) => c.card), ...s.paintings);
  return out.filter((c) => c.index >= 0);
}

// -- writing the notation ------------------------------------------------------------------------

function names(cards) {
  return cards.length ? cards.map((c) => c.name).join("; ") : null;
}

function canvasText(cv) {
  const n = Math.max(cv.card.squares.length, cv.cubes.length);
  const words = [];
  for (let k = 0; k < n; k++) words.push(cv.cubes[k] || ".");
  return `${cv.card.name}: ${words.join(" ")}`;
}

// Player p's k-th `canvas` line (0-based k) replaced by `value`, removed (null) or added (k past
// the last): a section holds one `canvas` line per canvas, so notation.js's one-line-a-keyword
// setLine cannot name them.
export function setCanvasLine(text, p, k, value) {
  const lines = String(text || "").split("\n");
  const parsed = notationLines(text);
  const mine = parsed.filter((l) => l.section === p && l.key === "canvas");
  if (k < mine.length) {
    const i = mine[k].no - 1;
    if (value === null) lines.splice(i, 1);
    else lines[i] = lines[i].replace(/^(\s*)\S.*$/, `$1canvas ${value}`);
    return lines.join("\n");
  }
  if (value === null) return text;
  const head = parsed.find((l) => l.key === "player" && l.section === p);
  if (!head) {
    const withHead = setLine(text, "cubes", "none", p);       // opens the section
    return setCanvasLine(setLine(withHead, "cubes", null, p), p, k, value);
  }
  const inSection = parsed.filter((l) => l.section === p);
  const last = inSection[inSection.length - 1].no;          // the section's last line (1-based)
  lines.splice(last, 0, `  canvas ${value}`);
  return lines.join("\n");
}

// -- the drawing ---------------------------------------------------------------------------------

const W = 400;          // the viewBox width: the table scales to the page's width
const PAD = 8;
const FONT = "system-ui, sans-serif";

function Button({ id, label, onOpen, children, className }) {
  if (!onOpen) return html`<g class=${className || ""} data-part=${id}>${children}</g>`;
  const key = (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onOpen(); }
  };
  return html`<g class=${"sa-part " + (className || "")} data-part=${id} tabindex="0"
    role="button" aria-label=${label} onClick=${onOpen} onKeyDown=${key}>${children}</g>`;
}

function Cube({ x, y, size, colour, ghost }) {
  const fill = FILL[colour] || "#ccc";
  const ink = INK[colour] || "#000";
  return html`<g>
    <rect x=${x} y=${y} width=${size} height=${size} rx=${size * 0.18}
      fill=${colour === "wild" ? "url(#sa-wild)" : fill} stroke="#1a1a1a" stroke-width="1"
      opacity=${ghost ? 0.85 : 1} stroke-dasharray=${ghost ? "3 2" : null} />
    <text x=${x + size / 2} y=${y + size / 2 + size * 0.18} font-size=${size * 0.52}
      text-anchor="middle" font-weight="700" fill=${ink}>${LETTER[colour] || "?"}</text>
  </g>`;
}

// One square of a canvas: its colour (a split square in two halves), its letters, and the cube
// on it when there is one.
function Square({ x, y, size, colours, cube, ghost }) {
  const [a, b] = colours;
  const tint = (c) => (c ? FILL[c] : "#ddd");
  const body = b
    ? html`<g>
        <polygon points=${`${x},${y} ${x + size},${y} ${x},${y + size}`} fill=${tint(a)} opacity="0.45" />
        <polygon points=${`${x + size},${y} ${x + size},${y + size} ${x},${y + size}`} fill=${tint(b)} opacity="0.45" />
        <text x=${x + size * 0.3} y=${y + size * 0.42} font-size=${size * 0.36} text-anchor="middle" fill="#111">${LETTER[a]}</text>
        <text x=${x + size * 0.72} y=${y + size * 0.88} font-size=${size * 0.36} text-anchor="middle" fill="#111">${LETTER[b]}</text>
      </g>`
    : html`<g>
        <rect x=${x} y=${y} width=${size} height=${size} fill=${tint(a)} opacity="0.4" />
        <text x=${x + size / 2} y=${y + size * 0.66} font-size=${size * 0.45} text-anchor="middle" fill="#111">${LETTER[a] || "?"}</text>
      </g>`;
  const inner = size * 0.74;
  const off = (size - inner) / 2;
  return html`<g>
    ${body}
    <rect x=${x} y=${y} width=${size} height=${size} fill="none" stroke="#555" stroke-width="1" />
    ${cube ? html`<${Cube} x=${x + off} y=${y + off} size=${inner} colour=${cube} ghost=${ghost} />` : null}
  </g>`;
}

function Badge({ x, y, n, colour }) {
  return html`<g class="sa-badge">
    <circle cx=${x} cy=${y} r="8" fill=${colour || "#c2185b"} stroke="#fff" stroke-width="1.5" />
    <text x=${x} y=${y + 3.8} font-size="10.5" text-anchor="middle" font-weight="700" fill="#fff">${n}</text>
  </g>`;
}

// A row of the eight cube colours with their counts.
function CubeRow({ x, y, counts, size = 22, badges, id, label, onOpen, dim }) {
  const step = (W - 2 * PAD - x + PAD) / 8;
  const parts = COLOURS.map((c, i) => {
    const cx = x + i * step;
    const n = counts[c] || 0;
    const bs = (badges && badges[c]) || [];
    return html`<g opacity=${n || bs.length ? 1 : 0.35}>
      <${Cube} x=${cx} y=${y} size=${size} colour=${c} />
      <text x=${cx + size + 3} y=${y + size * 0.72} font-size="13" font-weight=${n ? 700 : 400}>${n}</text>
      ${bs.map((b, j) => html`<${Badge} x=${cx + size - 2 + j * 12} y=${y - 2} n=${b} />`)}
    </g>`;
  });
  return html`<${Button} id=${id} label=${label} onOpen=${onOpen}>
    <rect class="sa-hit" x=${x - 3} y=${y - 4} width=${W - PAD - x + 3} height=${size + 8} rx="4"
      fill=${dim ? "#f4f4f4" : "#fff"} stroke="#bbb" />
    ${parts}
  </${Button}>`;
}

function wrap(text, width) {
  const words = String(text).split(/\s+/);
  const out = [];
  let line = "";
  for (const w of words) {
    if (line && (line + " " + w).length > width) { out.push(line); line = w; } else line = line ? line + " " + w : w;
  }
  if (line) out.push(line);
  return out;
}

function clip(text, n) {
  return text.length > n ? text.slice(0, n - 1) + "…" : text;
}

// Where each refusal lands: the part of the table its line or field names.
export function refusalParts(refusals, text) {
  const lines = notationLines(text);
  const out = {};
  for (const r of refusals || []) {
    const key = partOfRefusal(r, lines);
    (out[key] = out[key] || []).push(r);
  }
  return out;
}

function partOfRefusal(r, lines) {
  const field = String(r.field || "").toLowerCase();
  const ln = r.line ? lines.find((l) => l.no === r.line) : null;
  let m = /^player (\d+) (\w+)(?: (.*?))?(?: square (\d+))?$/.exec(field);
  if (ln && ln.section !== null && ln.key !== "player") {
    const p = ln.section;
    if (ln.key === "canvas") {
      const k = lines.filter((l) => l.section === p && l.key === "canvas" && l.no < ln.no).length;
      const sq = /square (\d+)/.exec(field);
      return sq ? `p${p}:canvas:${k}:sq:${parseInt(sq[1], 10) - 1}` : `p${p}:canvas:${k}`;
    }
    return `p${p}:${ln.key === "starved" || ln.key === "alive" ? "nutrition" : ln.key}`;
  }
  if (ln && ln.key === "market") {
    const slot = /slot (\d)/.exec(field);
    return slot ? `market:${parseInt(slot[1], 10) - 1}` : "market";
  }
  if (ln && ln.key === "player") return `p${ln.section}`;
  if (ln && ln.key !== "#game") return ln.key;
  if (m) {
    const key = m[2] === "alive" || m[2] === "starved" ? "nutrition" : m[2];
    return SECTION_KEYS.has(key) && key !== "canvas" ? `p${m[1]}:${key}` : `p${m[1]}`;
  }
  m = /^market(?: slot (\d))?/.exec(field);
  if (m) return m[1] ? `market:${parseInt(m[1], 10) - 1}` : "market";
  const head = field.split(/[ .(]/)[0];
  if (["day", "round", "phase", "pile", "under", "removed", "unseen", "bag", "first", "pending",
    "result"].includes(head)) return head === "round" ? "day" : head;
  return "table";
}

// -- a hint's turn on the table -----------------------------------------------------------------

// Where each step of a turn lands: {key: [step numbers]} for the parts it moves, and the cubes it
// paints ({p, canvas, square, colour, n}), by replaying the paint steps on the canvases
// (RULINGS.md §11: a cube goes on the first empty square of the colour it names).
export function turnMarks(turn, t) {
  const marks = {};
  const painted = [];
  const mark = (key, n) => { (marks[key] = marks[key] || []).push(n); };
  if (!turn || !turn.length) return { marks, painted };
  const who = (turn.find((s) => !s.isChance && s.player >= 0) || {}).player;
  const p = Number.isInteger(who) && who >= 0 ? who + 1 : t.phasePlayer || 1;
  const studio = t.studios[p - 1];
  const filled = studio ? studio.canvases.map((cv) => cv.cubes.slice()) : [];
  const canvasNamed = (name) => {
    const want = name.trim().toLowerCase();
    return studio ? studio.canvases.findIndex((cv) => cv.card.name.toLowerCase() === want) : -1;
  };
  let bought = null;
  turn.forEach((step, i) => {
    const n = i + 1;
    const text = String(step.text || "").trim();
    let m;
    if ((m = /^buy canvas (\d)/.exec(text))) {
      const slot = parseInt(m[1], 10) - 1;
      mark(`market:${slot}`, n);
      bought = t.market[slot];
    } else if ((m = /^(pay|take) (\w+)( from the pile)?$/.exec(text))) {
      const c = colourWord(m[2]);
      mark(m[1] === "pay" ? `p${p}:cubes:${c}` : `pile:${c}`, n);
    } else if ((m = /^return (\w+) to the bag$/.exec(text))) {
      mark(`pile:${colourWord(m[1])}`, n);
    } else if ((m = /^paint (\w+) on (.+?)(?:, square (\d+) \(.*\))?$/.exec(text))) {
      const colour = colourWord(m[1]);
      let k = canvasNamed(m[2]);
      if (k < 0 && bought && bought.name.toLowerCase() === m[2].trim().toLowerCase() && studio) {
        k = studio.canvases.length;
        filled[k] = bought.squares.map(() => null);
      }
      if (k < 0) { mark(`p${p}`, n); return; }
      const squares = k < studio.canvases.length ? studio.canvases[k].card.squares : bought.squares;
      let sq = m[3] ? parseInt(m[3], 10) - 1 : -1;
      if (sq < 0) sq = squares.findIndex((s, j) => !filled[k][j] && s.includes(colour));
      if (sq < 0) sq = filled[k].findIndex((c) => !c);
      if (sq >= 0) {
        filled[k][sq] = colour;
        painted.push({ p, canvas: k, square: sq, colour, n });
        mark(`p${p}:canvas:${k}:sq:${sq}`, n);
      }
      mark(`p${p}:cubes:${colour}`, n);
    } else if ((m = /^sell (.+)$/.exec(text)) && m[1] !== "nothing more") {
      const k = canvasNamed(m[1]);
      mark(k >= 0 ? `p${p}:canvas:${k}` : `p${p}`, n);
    } else if ((m = /^last supper: discard (.+)$/.exec(text))) {
      mark(`p${p}:paintings`, n);
    } else if (/^reset the market/.test(text)) {
      mark("market", n);
    } else if (/^(work|paint|trade |colour study)/.test(text)) {
      mark(`p${p}`, n);
    } else if (step.isChance) {
      mark("chance", n);
    }
  });
  return { marks, painted, player: p, bought };
}

// -- the Table -----------------------------------------------------------------------------------

function layoutText(x, y, text, opts = {}) {
  return html`<text x=${x} y=${y} font-size=${opts.size || 13} font-weight=${opts.bold ? 700 : 400}
    fill=${opts.fill || "#1a1a1a"} text-anchor=${opts.anchor || "start"}>${text}</text>`;
}

function Table({ info, setup, refusals, turn }) {
  const [open, setOpen] = useState(null);
  const wide = useWide();
  const state = (info && info.state) || {};
  const players = state.players || (info && info.numPlayers) || 2;
  const deck = deckOf(state.deck || "38");
  const text = setup ? setup.notation : (info && info.notation) || "";
  const t = text || !state.studios ? readTable(text, { players, deck, state }) : tableFromState(state, deck);
  const refused = refusalParts(refusals, text);
  const { marks, painted, bought, player: turnPlayer } = turnMarks(turn, t);
  const can = !!setup;
  const write = (fn) => setup && setup.setNotation(fn(setup.notation));
  const opener = (what) => (can ? () => setOpen(what) : null);

  const rows = [];          // SVG pieces, laid out top to bottom
  let y = PAD;
  const refusalRows = (key) => {
    for (const r of refused[key] || []) {
      for (const line of wrap(r.message, 62)) {
        rows.push(html`<text class="sa-refusal-text" x=${PAD + 4} y=${y + 11} font-size="11.5" fill="#b00020">${line}</text>`);
        y += 14;
      }
      y += 2;
    }
  };
  const outline = (key, x, y0, w, hgt) => (refused[key]
    ? html`<rect class="sa-refused" data-refused=${key} x=${x} y=${y0} width=${w} height=${hgt} rx="4" fill="none" stroke="#b00020" stroke-width="2.5" />`
    : null);
  const badgesAt = (key, x, y0) => (marks[key] || []).map((n, j) => html`<${Badge} x=${x + j * 15} y=${y0} n=${n} />`);

  // Day, round, phase (and the pending line, written only mid-turn).
  const dayText = `Day ${t.day}` + (t.round ? ` · round ${t.round}` : "");
  rows.push(html`<${Button} id="day" label=${`day ${t.day}${t.round ? " round " + t.round : ""}: change`} onOpen=${opener({ kind: "day" })}>
    <rect class="sa-hit" x=${PAD} y=${y} width="150" height="26" rx="5" fill="#fff8e1" stroke="#c9a227" />
    ${layoutText(PAD + 8, y + 18, dayText, { bold: true, size: 14 })}
    ${outline("day", PAD - 2, y - 2, 154, 30)}
  </${Button}>`);
  const phaseText = t.phase ? `${t.phase}${t.phasePlayer ? " · player " + t.phasePlayer : ""}` : "phase?";
  rows.push(html`<${Button} id="phase" label=${`phase ${phaseText}: change`} onOpen=${opener({ kind: "phase" })}>
    <rect class="sa-hit" x=${PAD + 158} y=${y} width=${W - 2 * PAD - 158} height="26" rx="5" fill="#e8f0fe" stroke="#5b7bd5" />
    ${layoutText(PAD + 166, y + 18, clip(`phase ${phaseText}` + (t.result ? ` · ${t.result}` : ""), 30), { bold: true, size: 14 })}
    ${outline("phase", PAD + 156, y - 2, W - 2 * PAD - 154, 30)}
  </${Button}>`);
  y += 32;
  refusalRows("day"); refusalRows("phase"); refusalRows("result");
  if (t.pending !== null || refused.pending) {
    rows.push(html`<${Button} id="pending" label="pending: the turn's step under way: change" onOpen=${opener({ kind: "pending" })}>
      <rect class="sa-hit" x=${PAD} y=${y} width=${W - 2 * PAD} height="22" rx="5" fill="#fdecea" stroke="#c0392b" />
      ${layoutText(PAD + 8, y + 15, clip(`pending ${t.pending || ""}`, 58), { size: 12 })}
      ${outline("pending", PAD - 2, y - 2, W - 2 * PAD + 4, 26)}
    </${Button}>`);
    y += 28;
    refusalRows("pending");
  }

  // The market (RULINGS.md §5: slot k costs k cubes; slot 3 lies next to the face-down pile).
  rows.push(layoutText(PAD, y + 13, "Market", { bold: true, size: 14 }));
  rows.push(...badgesAt("market", PAD + 60, y + 8));
  y += 20;
  for (let k = 0; k < 3; k++) {
    const card = t.market[k];
    const key = `market:${k}`;
    const h0 = card ? 58 : 30;
    const label = `market slot ${k + 1} (costs ${k + 1}): ${card ? card.name : "empty"}: change`;
    rows.push(html`<${Button} id=${key} label=${label} onOpen=${opener({ kind: "market", slot: k })}>
      <rect class="sa-hit" x=${PAD} y=${y} width=${W - 2 * PAD} height=${h0} rx="5" fill=${card ? "#fff" : "#f4f4f4"} stroke="#999" stroke-dasharray=${card ? null : "4 3"} />
      ${layoutText(PAD + 6, y + 16, `${k + 1}`, { bold: true, size: 14 })}
      ${layoutText(PAD + 6, y + 28, "cube" + (k ? "s" : ""), { size: 8.5, fill: "#666" })}
      ${card ? canvasBody(card, null, PAD + 34, y + 4, W - 2 * PAD - 40) : layoutText(PAD + 34, y + 19, "empty (-)", { fill: "#666" })}
      ${badgesAt(key, PAD + 14, y + 44)}
      ${outline(key, PAD - 2, y - 2, W - 2 * PAD + 4, h0 + 4)}
    </${Button}>`);
    y += h0 + 5;
    refusalRows(key);
  }
  refusalRows("market");
  // The face-down pile: unseen (derived), known canvases under it, and out of the game.
  const faceDown = `Face down: ${Math.max(0, t.unseen.length - (state.face_down ? state.face_down.set_aside || 0 : 0))} unseen` +
    (state.face_down && state.face_down.set_aside ? ` · ${state.face_down.set_aside} set aside` : "");
  rows.push(layoutText(PAD, y + 13, faceDown, { size: 12, fill: "#444" }));
  y += 18;
  const listRow = (key, word, cards, what) => {
    rows.push(html`<${Button} id=${key} label=${`${word}: ${cards.length ? names(cards) : "none"}: change`} onOpen=${opener({ kind: "list", what })}>
      <rect class="sa-hit" x=${PAD} y=${y} width=${W - 2 * PAD} height="22" rx="5" fill="#fafafa" stroke="#bbb" />
      ${layoutText(PAD + 6, y + 15, clip(`${word}: ${cards.length ? `${cards.length} · ${names(cards)}` : "none"}`, 60), { size: 12 })}
      ${outline(key, PAD - 2, y - 2, W - 2 * PAD + 4, 26)}
    </${Button}>`);
    y += 27;
    refusalRows(key);
  };
  // The solo game has no reset (RULINGS.md §15), so nothing goes under the pile.
  if (players > 1 || t.under.length || refused.under) listRow("under", "Under the pile (top first)", t.under, "under");
  listRow("removed", "Out of the game", t.removed, "removed");
  refusalRows("unseen");

  // The payday pile, and the bag (derived: the box less every cube on the table).
  rows.push(layoutText(PAD, y + 13, "Payday pile", { bold: true, size: 14 }));
  y += 18;
  const pileBadges = {};
  for (const c of COLOURS) if (marks[`pile:${c}`]) pileBadges[c] = marks[`pile:${c}`];
  rows.push(html`<g>
    <${CubeRow} x=${PAD + 4} y=${y + 2} counts=${t.pile} id="pile" badges=${pileBadges}
      label=${`payday pile: ${cubesText(t.pile) || "empty"}: change`} onOpen=${opener({ kind: "cubes", what: "pile" })} />
    ${outline("pile", PAD - 2, y - 4, W - 2 * PAD + 4, 36)}
  </g>`);
  y += 38;
  refusalRows("pile");
  rows.push(layoutText(PAD, y + 11, "Bag (derived: the box less the table)", { size: 11, fill: "#666" }));
  y += 16;
  rows.push(html`<${CubeRow} x=${PAD + 4} y=${y + 2} counts=${t.bag} size=${16} id="bag" label="bag" dim=${true} />`);
  y += 26;
  refusalRows("bag"); refusalRows("first"); refusalRows("table");

  // The studios: below the rest on a phone, beside it where the table has the room.
  const leftRows = rows.splice(0);
  const leftY = y;
  if (wide.on) y = PAD;
  for (let p = 1; p <= players; p++) {
    const s = t.studios[p - 1];
    const key = `p${p}`;
    const top = y;
    y += 4;
    const first = t.first === p && players > 1;
    const toMove = t.phasePlayer === p && DECIDING.has(t.phase);
    const starved = s.nutrition === 0;
    const head = `Player ${p}` + (starved ? " (starved)" : "");
    rows.push(layoutText(PAD + 6, y + 16, head, { bold: true, size: 15 }));
    let hx = PAD + 6 + head.length * 8.4 + 6;
    if (first) {
      rows.push(html`<g aria-label="first player (the carrot)"><rect x=${hx} y=${y + 3} width="58" height="17" rx="8" fill="#ffe0b2" stroke="#e67e22" />
        <polygon points=${`${hx + 7},${y + 8} ${hx + 17},${y + 8} ${hx + 12},${y + 18}`} fill="#e67e22" />
        <path d=${`M${hx + 10} ${y + 8} l-2 -4 M${hx + 12} ${y + 8} l0 -4 M${hx + 14} ${y + 8} l2 -4`} stroke="#2e7d32" stroke-width="1.5" />
        ${layoutText(hx + 36, y + 15, "first", { size: 11, anchor: "middle" })}</g>`);
      hx += 64;
    }
    if (toMove) {
      rows.push(html`<g><rect x=${hx} y=${y + 3} width="56" height="17" rx="8" fill="#d7f5dd" stroke="#2e9e48" />
        ${layoutText(hx + 28, y + 15, "to move", { size: 11, anchor: "middle" })}</g>`);
    }
    rows.push(layoutText(W - PAD - 6, y + 16, `★ ${s.stars} · ${s.paintings.length} sold · food ${s.food}`, { size: 12, anchor: "end" }));
    rows.push(...badgesAt(key, W - PAD - 12, y - 2));
    y += 24;
    refusalRows(key); refusalRows(`${key}:stars`);
    // Nutrition track 0..5 and the free action.
    const nkey = `${key}:nutrition`;
    rows.push(html`<${Button} id=${nkey} label=${`player ${p} nutrition ${s.nutrition}${s.nutritionDerived ? " (derived)" : ""}: change`} onOpen=${opener({ kind: "nutrition", p })}>
      <rect class="sa-hit" x=${PAD + 4} y=${y} width="230" height="24" rx="5" fill="#fff" stroke="#bbb" />
      ${layoutText(PAD + 10, y + 16, "nutrition", { size: 12 })}
      ${[0, 1, 2, 3, 4, 5].map((v) => html`<g>
        <rect x=${PAD + 66 + v * 22} y=${y + 3} width="19" height="18" rx="3" fill=${v === s.nutrition ? (v === 0 ? "#b00020" : "#2e7d32") : v < s.nutrition ? "#c8e6c9" : "#f4f4f4"} stroke="#888" />
        <text x=${PAD + 75.5 + v * 22} y=${y + 16} font-size="11.5" text-anchor="middle" font-weight=${v === s.nutrition ? 700 : 400} fill=${v === s.nutrition ? "#fff" : "#333"}>${v}</text></g>`)}
      ${s.nutritionDerived && can ? layoutText(PAD + 200, y + 16, "(der.)", { size: 9.5, fill: "#666" }) : null}
      ${outline(nkey, PAD + 2, y - 2, 234, 28)}
    </${Button}>`);
    const fkey = `${key}:free`;
    rows.push(html`<${Button} id=${fkey} label=${`player ${p} free action ${s.free ? "used" : "open"}: switch`} onOpen=${can ? () => write((x) => setLine(x, "free", s.free ? null : "used", p)) : null}>
      <rect class="sa-hit" x=${PAD + 242} y=${y} width=${W - 2 * PAD - 242} height="24" rx="5" fill=${s.free ? "#eee" : "#fff"} stroke="#bbb" />
      ${layoutText(PAD + 250, y + 16, `free action: ${s.free ? "used" : "open"}`, { size: 12 })}
      ${outline(fkey, PAD + 240, y - 2, W - 2 * PAD - 238, 28)}
    </${Button}>`);
    y += 30;
    refusalRows(nkey); refusalRows(fkey); refusalRows(`${key}:food`);
    // Cubes in the studio.
    const ckey = `${key}:cubes`;
    const cubeBadges = {};
    for (const c of COLOURS) if (marks[`${ckey}:${c}`]) cubeBadges[c] = marks[`${ckey}:${c}`];
    rows.push(html`<g>
      <${CubeRow} x=${PAD + 8} y=${y + 2} counts=${s.cubes} id=${ckey} badges=${cubeBadges}
        label=${`player ${p} cubes: ${cubesText(s.cubes) || "none"}: change`} onOpen=${opener({ kind: "cubes", what: "player", p })} />
      ${outline(ckey, PAD + 2, y - 4, W - 2 * PAD - 2, 36)}
    </g>`);
    y += 34;
    refusalRows(ckey);
    // Canvases (with the canvas a hint's turn buys, drawn dashed).
    const shown = s.canvases.slice();
    if (bought && turnPlayer === p && !shown.some((cv) => cv.card === bought)) {
      shown.push({ card: bought, cubes: bought.squares.map(() => null), ghost: true });
    }
    shown.forEach((cv, k) => {
      const cvKey = `${key}:canvas:${k}`;
      const ghostCubes = painted.filter((g) => g.p === p && g.canvas === k);
      const hgt = 58;
      rows.push(html`<g>
        <rect x=${PAD + 4} y=${y} width=${W - 2 * PAD - 8} height=${hgt} rx="5" fill="#fff" stroke=${cv.ghost ? "#c2185b" : "#999"} stroke-dasharray=${cv.ghost ? "5 3" : null} />
        <${Button} id=${cvKey} label=${`player ${p} canvas ${cv.card.name}: change`} onOpen=${cv.ghost ? null : opener({ kind: "canvas", p, k })}>
          <rect class="sa-hit" x=${PAD + 6} y=${y + 2} width=${W - 2 * PAD - 12} height="18" rx="3" fill="transparent" />
          ${canvasHead(cv.ghost ? { ...cv.card, name: `${cv.card.name} (bought this turn)` } : cv.card, PAD + 10, y + 4, W - 2 * PAD - 20)}
        </${Button}>
        ${canvasSquares(cv, PAD + 10, y + 24, W - 2 * PAD - 20, {
          onSquare: can && !cv.ghost ? (sq) => setOpen({ kind: "square", p, k, sq }) : null,
          idOf: (sq) => `${cvKey}:sq:${sq}`, label: `player ${p} ${cv.card.name}`,
          ghosts: ghostCubes, refused, marks })}
        ${badgesAt(cvKey, W - PAD - 14, y + 2)}
        ${outline(cvKey, PAD + 2, y - 2, W - 2 * PAD - 4, hgt + 4)}
      </g>`);
      y += hgt + 5;
      refusalRows(cvKey);
      cv.card.squares.forEach((_, sq) => refusalRows(`${cvKey}:sq:${sq}`));
    });
    if (can) {
      rows.push(html`<${Button} id=${`${key}:add-canvas`} label=${`player ${p}: add a canvas`} onOpen=${opener({ kind: "add-canvas", p })}>
        <rect class="sa-hit" x=${PAD + 4} y=${y} width="120" height="22" rx="5" fill="#fff" stroke="#999" stroke-dasharray="4 3" />
        ${layoutText(PAD + 12, y + 15, "+ canvas", { size: 12 })}
      </${Button}>`);
      y += 27;
    }
    refusalRows(`${key}:canvas`);
    // Paintings sold.
    const pkey = `${key}:paintings`;
    const sold = s.paintings.length ? s.paintings.map((c) => `${c.name} ★${c.stars}`).join("; ") : "none";
    const soldLines = wrap(`Paintings: ${sold}`, 60).slice(0, 3);
    const ph = 8 + soldLines.length * 15;
    rows.push(html`<${Button} id=${pkey} label=${`player ${p} paintings: ${names(s.paintings) || "none"}: change`} onOpen=${opener({ kind: "list", what: "paintings", p })}>
      <rect class="sa-hit" x=${PAD + 4} y=${y} width=${W - 2 * PAD - 8} height=${ph} rx="5" fill="#fdf6e3" stroke="#bbb" />
      ${soldLines.map((l, i) => layoutText(PAD + 10, y + 15 + i * 15, l, { size: 12 }))}
      ${badgesAt(pkey, W - PAD - 14, y + 2)}
      ${outline(pkey, PAD + 2, y - 2, W - 2 * PAD - 4, ph + 4)}
    </${Button}>`);
    y += ph + 6;
    refusalRows(pkey);
    rows.unshift(html`<rect x=${PAD / 2} y=${top} width=${W - PAD} height=${y - top} rx="8" fill=${toMove ? "#f1faf3" : "#fbfbfb"} stroke=${toMove ? "#2e9e48" : "#ccc"} stroke-width=${toMove ? 2 : 1} />`);
    y += 8;
  }
  const height = Math.ceil((wide.on ? Math.max(leftY, y) : y) + PAD);
  const width = wide.on ? 2 * W : W;
  const steps = turn && turn.length ? html`<ol class="sa-steps" aria-label="the turn, step by step">
    ${turn.map((s, i) => html`<li data-step=${i + 1}><span class="sa-step-n">${i + 1}</span> ${s.text}${s.isChance ? " (chance)" : ""}</li>`)}
  </ol>` : null;
  return html`<div class=${"sa-table" + (wide.on ? " sa-wide" : "") + (setup && open ? " sa-picking" : "")} ref=${wide.ref}>
    <svg class="sa-svg" viewBox=${`0 0 ${width} ${height}`} role="group" aria-label="Starving Artists table"
      font-family=${FONT} xmlns="http://www.w3.org/2000/svg">
      <defs>
        <pattern id="sa-wild" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#fff" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#9e9e9e" stroke-width="2" />
        </pattern>
      </defs>
      ${leftRows}
      ${wide.on ? html`<g transform=${`translate(${W} 0)`}>${rows}</g>` : rows}
    </svg>
    <p class="sa-legend">R red · O orange · Y yellow · G green · B blue · V violet · K black · W wild (clear) · a split square shows both letters · ★ stars · F food · P paint</p>
    ${steps}
    ${setup && open ? html`<${Picker} open=${open} setOpen=${setOpen} t=${t} deck=${deck}
      players=${players} text=${setup.notation} write=${write} refused=${refused} />` : null}
  </div>`;
}

// Two columns (the market and the pile; the studios) once the table's box is this wide in CSS
// pixels: a 400-unit column then keeps its text about as large as a phone's one column does
// (390 px less the page's margins), and a desktop sees the whole table without scrolling.
const WIDE_PX = 640;

function useWide() {
  const ref = useRef(null);
  const [on, setOn] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return undefined;
    const look = () => setOn(el.clientWidth >= WIDE_PX);
    look();
    const watch = new ResizeObserver(look);
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  return { ref, on };
}

function canvasHead(card, x, y, w) {
  const stats = `★${card.stars} F${card.food} P${card.paint}`;
  return html`<g>
    ${layoutText(x, y + 12, clip(card.name + (card.unknown ? " (not in the deck)" : ""), Math.floor((w - 80) / 6.6)), { bold: true, size: 12.5, fill: card.unknown ? "#b00020" : "#1a1a1a" })}
    ${layoutText(x + w, y + 12, stats, { size: 12, anchor: "end" })}
  </g>`;
}

function canvasSquares(cv, x, y, w, { onSquare, idOf, label, ghosts = [], refused = {}, marks = {} }) {
  const n = Math.max(cv.card.squares.length, cv.cubes.length, 1);
  const size = Math.min(28, (w - 2) / n - 2);
  return cv.card.squares.map((colours, sq) => {
    const sx = x + sq * (size + 2);
    const ghost = ghosts.find((g) => g.square === sq);
    const cube = cv.cubes[sq] || (ghost ? ghost.colour : null);
    const id = idOf ? idOf(sq) : null;
    const part = html`<g>
      <${Square} x=${sx} y=${y} size=${size} colours=${colours} cube=${cube} ghost=${!!ghost && !cv.cubes[sq]} />
      ${refused[id] ? html`<rect class="sa-refused" data-refused=${id} x=${sx - 2} y=${y - 2} width=${size + 4} height=${size + 4} fill="none" stroke="#b00020" stroke-width="2.5" />` : null}
      ${(marks[id] || []).map((m, j) => html`<${Badge} x=${sx + size - 3} y=${y + 1 + j * 14} n=${m} />`)}
    </g>`;
    if (!onSquare) return part;
    const sqLabel = `${label} square ${sq + 1} (${colours.join("/")}): ${cv.cubes[sq] || "empty"}: change`;
    return html`<${Button} id=${id} label=${sqLabel} onOpen=${() => onSquare(sq)}>${part}</${Button}>`;
  });
}

function canvasBody(card, cubes, x, y, w) {
  const cv = { card, cubes: cubes || card.squares.map(() => null) };
  return html`<g>${canvasHead(card, x, y, w)}${canvasSquares(cv, x, y + 22, w, {})}</g>`;
}

// -- the pickers (HTML under the table) ---------------------------------------------------------

function Chip({ on, label, onClick, children, cls }) {
  return html`<button type="button" class=${"sa-chip " + (on ? "on " : "") + (cls || "")}
    aria-pressed=${on ? "true" : "false"} aria-label=${label || null} onClick=${onClick}>${children}</button>`;
}

function ColourTag({ colour }) {
  return html`<span class=${"sa-cube sa-" + colour} aria-hidden="true">${LETTER[colour]}</span>`;
}

function TitleList({ cards, onPick, current }) {
  const [filter, setFilter] = useState("");
  const f = filter.trim().toLowerCase();
  const shown = cards.filter((c) => !f || c.name.toLowerCase().includes(f));
  return html`<div class="sa-titles">
    ${cards.length > 12 ? html`<input class="sa-filter" type="search" placeholder="filter titles"
      aria-label="filter titles" value=${filter} onInput=${(e) => setFilter(e.target.value)} />` : null}
    <div class="sa-title-list">
      ${shown.map((c) => html`<${Chip} on=${current === c} onClick=${() => onPick(c)} cls="sa-title"
        label=${c.name}>${c.name} <small>★${c.stars} F${c.food} P${c.paint} · ${c.squares.length} sq.</small></${Chip}>`)}
    </div>
  </div>`;
}

function CountRow({ colour, value, set, max }) {
  return html`<div class="sa-count-row" data-colour=${colour}>
    <span class="sa-count-name"><${ColourTag} colour=${colour} /> ${colour}</span>
    <button type="button" class="sa-step" aria-label=${`${colour} one less`} disabled=${value <= 0} onClick=${() => set(value - 1)}>−</button>
    <span class="sa-count" aria-label=${`${colour} count`}>${value}</span>
    <button type="button" class="sa-step" aria-label=${`${colour} one more`} disabled=${value >= max} onClick=${() => set(value + 1)}>+</button>
    <span class="sa-quick">${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((v) => v <= max).map((v) => html`<${Chip} on=${v === value}
      label=${`${colour} ${v}`} onClick=${() => set(v)}>${v}</${Chip}>`)}</span>
  </div>`;
}

function Picker({ open, setOpen, t, deck, players, text, write, refused }) {
  const close = () => setOpen(null);
  const free = t.unseen;                    // the canvases not yet on the table
  let title = "";
  let body = null;
  let partKey = open.kind;
  if (open.kind === "day") {
    title = "Day and round";
    const setDay = (d, r) => write((x) => setLine(x, "day", `${d}${r ? " round " + r : ""}`));
    const days = [];
    for (let d = 1; d <= Math.max(16, t.day + 4); d++) days.push(d);
    body = html`<div class="sa-row"><span class="sa-label">day</span>
        ${days.map((d) => html`<${Chip} on=${d === t.day} label=${`day ${d}`} onClick=${() => setDay(d, t.round)}>${d}</${Chip}>`)}</div>
      <div class="sa-row"><span class="sa-label">round</span>
        ${[1, 2].map((r) => html`<${Chip} on=${t.round === r} label=${`round ${r}`} onClick=${() => setDay(t.day, r)}>round ${r}</${Chip}>`)}
        <${Chip} on=${t.round === null} label="round not written" onClick=${() => setDay(t.day, null)}>not written</${Chip}></div>
      <p class="sa-note">The round is written only during the turns (phase turn, paint, pay, take), where both rounds can be.</p>`;
  } else if (open.kind === "phase") {
    title = "Phase and who decides";
    const setPhase = (ph, pl) => write((x) => {
      let out = setLine(x, "phase", `${ph}${pl && DECIDING.has(ph) ? " player " + pl : ""}`);
      if (TURN_PHASES.has(ph) && !t.round) out = setLine(out, "day", `${t.day} round 1`);
      if (!TURN_PHASES.has(ph) && t.round && t.phase && TURN_PHASES.has(t.phase)) out = setLine(out, "day", `${t.day}`);
      return out;
    });
    const who = t.phasePlayer || t.first || 1;
    const seats = [];
    for (let p = 1; p <= players; p++) seats.push(p);
    body = html`<div class="sa-row"><span class="sa-label">phase</span>
        ${PHASES.map((ph) => html`<${Chip} on=${ph === t.phase} label=${`phase ${ph}`} onClick=${() => setPhase(ph, who)}>${ph}</${Chip}>`)}</div>
      ${DECIDING.has(t.phase) ? html`<div class="sa-row"><span class="sa-label">player</span>
        ${seats.map((p) => html`<${Chip} on=${p === t.phasePlayer} label=${`player ${p} decides`} onClick=${() => setPhase(t.phase, p)}>player ${p}</${Chip}>`)}</div>` : null}
      ${players === 1 ? html`<div class="sa-row"><span class="sa-label">result</span>
        ${["won", "lost"].map((r) => html`<${Chip} on=${t.result === r} label=${`result ${r}`} onClick=${() => write((x) => setLine(x, "result", r))}>${r}</${Chip}>`)}
        <${Chip} on=${!t.result} label="no result" onClick=${() => write((x) => setLine(x, "result", null))}>playing</${Chip}></div>` : null}
      <div class="sa-row"><${Chip} on=${t.pending !== null} label="a turn's step under way (pending line)"
        onClick=${() => setOpen({ kind: "pending" })}>a step under way (pending)…</${Chip}></div>`;
  } else if (open.kind === "pending") {
    title = "The step under way (pending)";
    body = html`<${PendingEditor} value=${t.pending || ""} write=${write} close=${close} />`;
  } else if (open.kind === "market") {
    const k = open.slot;
    partKey = `market:${k}`;
    title = `Market slot ${k + 1} (costs ${k + 1} cube${k ? "s" : ""})`;
    const setSlot = (card) => {
      const slots = t.market.map((c) => (c ? c.name : "-"));
      slots[k] = card ? card.name : "-";
      write((x) => setLine(x, "market", slots.join("; ")));
      if (card && k < 2 && !t.market[k + 1]) setOpen({ kind: "market", slot: k + 1 });
    };
    body = html`<div class="sa-row">${[0, 1, 2].map((s) => html`<${Chip} on=${s === k} label=${`market slot ${s + 1}`}
        onClick=${() => setOpen({ kind: "market", slot: s })}>slot ${s + 1}</${Chip}>`)}
        <${Chip} label="empty slot" on=${!t.market[k]} onClick=${() => setSlot(null)}>empty (-)</${Chip}></div>
      ${t.market[k] ? html`<p class="sa-note">Now: ${t.market[k].name}</p>` : null}
      <${TitleList} cards=${free} onPick=${setSlot} />`;
  } else if (open.kind === "cubes") {
    const isPile = open.what === "pile";
    const counts = isPile ? t.pile : t.studios[open.p - 1].cubes;
    partKey = isPile ? "pile" : `p${open.p}:cubes`;
    title = isPile ? "Payday pile" : `Player ${open.p}: cubes in the studio`;
    const set = (c, v) => {
      const next = { ...counts, [c]: Math.max(0, v) };
      const value = cubesText(next);
      write((x) => (isPile ? setLine(x, "pile", value) : setLine(x, "cubes", value, open.p)));
    };
    body = html`<div class="sa-counts">${COLOURS.map((c) => html`<${CountRow} colour=${c} value=${counts[c]}
      max=${counts[c] + Math.max(0, t.bag[c])} set=${(v) => set(c, v)} />`)}</div>
      <div class="sa-row"><${Chip} label="no cubes" onClick=${() => write((x) => (isPile ? setLine(x, "pile", null) : setLine(x, "cubes", null, open.p)))}>none</${Chip}></div>`;
  } else if (open.kind === "nutrition") {
    const s = t.studios[open.p - 1];
    partKey = `p${open.p}:nutrition`;
    title = `Player ${open.p}: nutrition`;
    const set = (v) => write((x) => setLine(x, "nutrition", v === null ? null : String(v), open.p));
    body = html`<div class="sa-row">${[0, 1, 2, 3, 4, 5].map((v) => html`<${Chip} on=${!s.nutritionDerived && s.nutrition === v}
        label=${`nutrition ${v}`} onClick=${() => set(v)}>${v}</${Chip}>`)}
      <${Chip} on=${s.nutritionDerived} label="nutrition derived (not written)" onClick=${() => set(null)}>derived: ${Math.max(0, 5 - (t.day - 1))}</${Chip}></div>
      <p class="sa-note">Leave it derived for a player who has eaten nothing: 5 less one a dawn (RULINGS.md §7). 0 is starved.</p>`;
  } else if (open.kind === "list") {
    const what = open.what;
    const cards = what === "paintings" ? t.studios[open.p - 1].paintings : t[what];
    partKey = what === "paintings" ? `p${open.p}:paintings` : what;
    title = what === "paintings" ? `Player ${open.p}: paintings sold`
      : what === "under" ? "Known canvases under the face-down pile (top first)" : "Canvases out of the game";
    const setList = (list) => write((x) => setLine(x, what, names(list), what === "paintings" ? open.p : null));
    body = html`<ol class="sa-list">${cards.map((c, i) => html`<li>${c.name}
        <button type="button" class="sa-step" aria-label=${`remove ${c.name}`} onClick=${() => setList(cards.filter((_, j) => j !== i))}>×</button>
        ${i > 0 ? html`<button type="button" class="sa-step" aria-label=${`move ${c.name} up`} onClick=${() => { const l = cards.slice(); [l[i - 1], l[i]] = [l[i], l[i - 1]]; setList(l); }}>↑</button>` : null}</li>`)}</ol>
      <p class="sa-note">Add:</p>
      <${TitleList} cards=${free} onPick=${(c) => setList([...cards, c])} />`;
  } else if (open.kind === "add-canvas") {
    title = `Player ${open.p}: add a canvas to the studio`;
    partKey = `p${open.p}:canvas`;
    const n = t.studios[open.p - 1].canvases.length;
    body = html`<${TitleList} cards=${free} onPick=${(c) => { write((x) => setCanvasLine(x, open.p, n, canvasText({ card: c, cubes: [] }))); close(); }} />`;
  } else if (open.kind === "canvas") {
    const cv = t.studios[open.p - 1].canvases[open.k];
    if (!cv) { return null; }
    partKey = `p${open.p}:canvas:${open.k}`;
    title = `Player ${open.p}: ${cv.card.name}`;
    body = html`<div class="sa-row">
        <${Chip} label="remove this canvas" onClick=${() => { write((x) => setCanvasLine(x, open.p, open.k, null)); close(); }}>remove the canvas</${Chip}>
        <${Chip} label="take every cube off" onClick=${() => write((x) => setCanvasLine(x, open.p, open.k, canvasText({ card: cv.card, cubes: [] })))}>clear its squares</${Chip}></div>
      <p class="sa-note">Click a square on the table to put a cube on it. Another title:</p>
      <${TitleList} cards=${free} onPick=${(c) => write((x) => setCanvasLine(x, open.p, open.k, canvasText({ card: c, cubes: [] })))} />`;
  } else if (open.kind === "square") {
    const cv = t.studios[open.p - 1].canvases[open.k];
    if (!cv) { return null; }
    partKey = `p${open.p}:canvas:${open.k}:sq:${open.sq}`;
    const colours = cv.card.squares[open.sq] || [];
    title = `Player ${open.p}: ${cv.card.name}, square ${open.sq + 1} (${colours.join("/")})`;
    const set = (c) => {
      const cubes = cv.cubes.slice();
      cubes[open.sq] = c;
      write((x) => setCanvasLine(x, open.p, open.k, canvasText({ card: cv.card, cubes })));
    };
    const sqs = cv.card.squares.map((_, j) => j);
    body = html`<div class="sa-row">${[...colours, "wild"].map((c) => html`<${Chip} on=${cv.cubes[open.sq] === c}
        label=${`${c} cube`} onClick=${() => set(c)}><${ColourTag} colour=${c} /> ${c}</${Chip}>`)}
        <${Chip} on=${!cv.cubes[open.sq]} label="empty square" onClick=${() => set(null)}>empty (.)</${Chip}></div>
      <div class="sa-row"><span class="sa-label">square</span>${sqs.map((j) => html`<${Chip} on=${j === open.sq}
        label=${`square ${j + 1}`} onClick=${() => setOpen({ ...open, sq: j })}>${j + 1}</${Chip}>`)}</div>
      <p class="sa-note">At most one wild a canvas (RULINGS.md §2).</p>`;
  }
  const problems = refused[partKey] || [];
  return html`<section class="sa-picker" aria-label=${title} data-picker=${open.kind}>
    <header><strong>${title}</strong>
      <button type="button" class="sa-close" aria-label="close the picker" onClick=${close}>done</button></header>
    ${problems.map((r) => html`<p class="sa-refusal" role="alert">${r.message}</p>`)}
    ${body}
  </section>`;
}

function PendingEditor({ value, write, close }) {
  const [draft, setDraft] = useState(value);
  return html`<div>
    <p class="sa-note">Written only during a turn's steps, a sale or a draw: the keys that are not derived
      (ENCODING.md "pending"), e.g. <code>pay_for=buy slot=2 pay_left=1</code>.</p>
    <input class="sa-pending" aria-label="pending keys" value=${draft} onInput=${(e) => setDraft(e.target.value)} />
    <div class="sa-row">
      <${Chip} label="write the pending line" onClick=${() => write((x) => setLine(x, "pending", draft.trim() || null))}>write</${Chip}>
      <${Chip} label="no step under way" onClick=${() => { write((x) => setLine(x, "pending", null)); close(); }}>none (between turns)</${Chip}>
    </div>
  </div>`;
}

// -- what the page derived -------------------------------------------------------------------------

function derived(state) {
  if (!state || !state.bag) return [];
  const deck = deckOf(state.deck || "38");
  const nameOf = (ref) => { const c = cardOfView(deck, ref); return c ? c.name : `canvas ${ref}`; };
  const out = [{ label: "bag", value: COLOURS.map((c) => `${LETTER[c]}${state.bag[c] || 0}`).join(" ") +
    ` (${COLOURS.reduce((a, c) => a + (state.bag[c] || 0), 0)} cubes)` }];
  const fd = state.face_down || {};
  const unseen = fd.unseen || [];
  out.push({ label: "face-down canvases", value: `${unseen.length}` +
    (fd.set_aside ? ` (${fd.set_aside} of them set aside)` : "") });
  // The titles a canvas turned up can be: worth a list once the deck has thinned (a full deck's
  // 38 titles would push the hint panel off a phone's screen).
  if (unseen.length && unseen.length <= 24) out.push({ label: "unseen titles", value: unseen.map(nameOf).join("; ") });
  if (Number.isInteger(state.first_player)) out.push({ label: "first player (carrot)", value: `player ${state.first_player + 1}` });
  (state.studios || []).forEach((s, p) => out.push({ label: `player ${p + 1}`,
    value: `${s.stars} stars, ${(s.paintings || []).length} paintings, food earned ${s.food_earned}, nutrition ${s.nutrition}${s.alive ? "" : " (starved)"}` }));
  return out;
}

// -- samples: realistic mid-game positions, each reached by play (docs/at-the-table.md's for 2) ---

const samples = {
  1: `starving_artists(players=1)
day 5
phase turn player 1
market The Storm on the Sea of Galilee; Bahamian View; The Siesta
pile orange 1 blue 1 violet 1 black 2 wild 1
removed Hall of Bulls; Series I No. 3; Goldfish; Eagle Head
player 1
  nutrition 3
  cubes orange 2 yellow 1 violet 2 wild 3
  canvas The Alarm Clock: red red green green . . . .
  paintings Flight of an Aeroplane
`,
  2: `starving_artists
day 5 round 1
phase turn player 1
market Ten Symbols of Longevity; Eagle Head; The Temptation of St. Anthony
pile red 3 orange 6 yellow 3 green 2 blue 7 black 4 wild 3
under Series I No. 3; The Parasol; Kleine Fee; Flight of an Aeroplane; Preparing for Dance; Portrait of Felix Feneon; Judith Beheading Holofernes; Starry Night; Bahamian View
player 1
  nutrition 3
  cubes red 1 orange 2 yellow 1 green 4 blue 2 black 1 wild 1
  canvas Hall of Bulls: . . . black black .
  paintings Argument over a Card Game
player 2
  cubes orange 1 green 1 blue 2 violet 1
  canvas Goldfish: . . . . . yellow .
  canvas Carolina Parrot: . . . . . .
  canvas The Siesta: . . . violet .
`,
  3: `starving_artists(players=3)
day 4 round 1
phase turn player 1
market Poster for Victorian Sardou_s Gismonda; Judith Beheading Holofernes; Galileo displaying his telescope
pile red 1 orange 2 yellow 4 green 1 blue 13 violet 1 black 1
under Crystallo_s Fire Fox; Flaming June; Crystallo_s Unicorn
player 1
  cubes red 1 yellow 2 green 1 black 1 wild 2
  canvas Mysterious Suspense #1: orange orange wild . . . .
  canvas Kleine Fee: . . .
player 2
  cubes red 1 orange 1 blue 1 black 2 wild 2
  canvas The Great Wave off Kanagawa: orange wild blue . .
player 3
  nutrition 4
  cubes red 1 orange 1 yellow 5 green 4 blue 1 violet 1 black 4
  paintings Portrait of Felix Feneon
`,
  4: `starving_artists(players=4)
day 4 round 1
phase turn player 4
market Starry Night; Carolina Parrot; Crystallo_s Fire Fox
pile red 6 orange 5 yellow 4 green 2 violet 1 black 5 wild 1
player 1
  nutrition 4
  cubes orange 1 yellow 1 blue 2 violet 1 wild 3
  paintings The Siesta
player 2
  cubes yellow 1 violet 1 wild 1
  canvas Grain Field: yellow yellow green green yellow blue yellow .
player 3
  cubes red 1 green 1 violet 1 black 1
  canvas Galileo displaying his telescope: red . green green blue blue blue black
player 4
  nutrition 4
  cubes orange 3 green 1 blue 4 violet 1 black 1 wild 2
  paintings Flight of an Aeroplane
`,
};

export default { name: "starving_artists", Table, derived, samples, css: "starving_artists.css" };
