// Couleurs de Paris: the table drawn in SVG, and the pickers that write its table notation
// (engine/couleurs_de_paris/ENCODING.md "Table notation"; docs/table-notation.md).
//
// What is drawn comes from the notation text while the table is being set up (most positions
// on the way to the one on the table are refused, and the picture must follow every click),
// and from the last position that loaded for what only the engine knows: the wheel order, the
// usable spaces of the lower board, each painting's colours, the derived parts.
//
// The parts (data-part, each a keyboard button) and the line each picker writes: "round",
// "phase", "first", "rotation", "claims", "pending" (table lines); "easel N" (easels),
// "removed"; "space <action>" for the ten lower-board positions and the four centre spaces
// (every player's standing and lying lines, by the action the space faces); per player
// "player P pigments", "player P tools" (tools and bonus), "player P painting K" and
// "player P painting add" (that player's `painting #id: fill` lines).
// The JSON view names the colours only of the paintings a player holds (easels and deck are
// bare ids), so the cards come from couleurs_de_paris_cards.js (written from the engine's data
// by tools/web_couleurs_de_paris_cards.py): the easels are drawn in their cards' colours and a
// card just added to a board is painted one click a space. A game given another data file
// (`data=PATH`) learns a card's colours from the first position holding it; until then its
// easels show the printed id and its spaces are chosen from a list.
import { useState } from "../vendor/hooks.js";
import { html } from "../html.js";
import { setLine } from "../notation.js";
import { PAINTINGS } from "./couleurs_de_paris_cards.js";

const COLOURS = ["red", "orange", "yellow", "green", "blue", "violet", "white", "black"];
// The notation's letters (ENCODING.md): colour is never the only cue, every swatch has one.
const LETTER = { red: "r", orange: "o", yellow: "y", green: "g", blue: "b", violet: "v",
  white: "w", black: "k" };
const FILL = { red: "#d23c32", orange: "#f08a1c", yellow: "#f5d33a", green: "#3d9b45",
  blue: "#2f67c8", violet: "#8a46b5", white: "#ffffff", black: "#222222" };
const DARK_TEXT = new Set(["yellow", "white", "orange"]);
const FROM_LETTER = Object.fromEntries(Object.entries(LETTER).map(([c, l]) => [l, c]));
// A card's space not painted yet: its colour pale (a painted space is the full colour and a
// capital letter), so the card is recognised and what is painted still stands out.
const PALE = Object.fromEntries(Object.entries(FILL).map(([c, hex]) => [c, "#" + [1, 3, 5]
  .map((i) => Math.round(255 - (255 - parseInt(hex.slice(i, i + 2), 16)) * 0.45)
    .toString(16).padStart(2, "0")).join("")]));
const TOOLS = ["paint tube", "palette", "brush"];
const PHASES = ["deal", "place", "act", "tool", "pay", "bonus", "take", "imitate", "paint",
  "rotate", "refill", "discard", "stand", "end"];
const NO_DECIDER = new Set(["deal", "refill", "end"]);
// Where each action is named as the action texts and the notation name it (rules.LOCATION_NAMES).
const ACTION_WORDS = { red: "acquire red", orange: "mix orange", yellow: "acquire yellow",
  green: "mix green", blue: "acquire blue", violet: "mix violet", black: "mix black",
  improve: "improve a tool", "take painting": "take a painting", paint: "paint" };
const CENTRE = [["first player", "first player"], ["imitator", "imitator"],
  ["rotate", "rotate the board"], ["white", "acquire white"]];
const PLAYER_FILL = ["#37474f", "#8d5524", "#00796b", "#6a1b9a"];
const W = 400;                              // the viewBox width; everything scales to it

// -- the notation text, read as far as the pickers and the drawing need ---------------------

const TOP = new Set(["round", "phase", "first", "rotation", "claims", "easels", "removed",
  "pending", "supply", "deck"]);

function parseText(text) {
  const m = { top: {}, players: [], lines: [] };
  let section = null;
  (text || "").split("\n").forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#(\s.*)?$/, "").trim();
    if (!line) return;
    const words = line.split(/\s+/);
    const kw = words[0].toLowerCase();
    const ps = /^player\s+(\d+)$/i.exec(line);
    if (ps) {
      section = Number(ps[1]);
      while (m.players.length < section) m.players.push({ paintings: [] });
      m.lines[i + 1] = { part: `player ${section}` };
      return;
    }
    const rest = line.slice(words[0].length).trim();
    if (TOP.has(kw)) {
      section = null;
      m.top[kw] = rest;
      m.lines[i + 1] = { part: kw };
    } else if (section !== null) {
      const p = m.players[section - 1];
      if (kw === "painting") {
        p.paintings.push(rest);
        m.lines[i + 1] = { part: `player ${section} painting`, k: p.paintings.length - 1 };
      } else {
        p[kw] = rest;
        m.lines[i + 1] = { part: `player ${section} ${kw}` };
      }
    } else {
      m.lines[i + 1] = { part: i === 0 ? "header" : kw };
    }
  });
  return m;
}

function counts(value) {
  const out = Object.fromEntries(COLOURS.map((c) => [c, 0]));
  const w = (value || "").toLowerCase().split(/\s+/);
  for (let i = 0; i + 1 < w.length; i += 2) if (w[i] in out) out[w[i]] = Number(w[i + 1]) || 0;
  return out;
}

function countsText(c) {
  const parts = COLOURS.filter((k) => c[k]).map((k) => `${k} ${c[k]}`);
  return parts.length ? parts.join(" ") : null;
}

function toolsOf(value) {
  const out = { "paint tube": 1, palette: 1, brush: 1 };
  const s = (value || "").toLowerCase();
  for (const t of TOOLS) {
    const m = new RegExp(`${t}\\s+(\\d+)`).exec(s);
    if (m) out[t] = Number(m[1]);
  }
  return out;
}

function bonusOf(value) {
  const out = { "paint tube": null, palette: null, brush: null };
  const s = (value || "").toLowerCase();
  for (const t of TOOLS) {
    const m = new RegExp(`${t}\\s+(assistant|points)`).exec(s);
    if (m) out[t] = m[1];
  }
  return out;
}

const spaceList = (value) => (value || "").split(";").map((s) => s.trim().toLowerCase())
  .filter((s) => s && s !== "none");

// "#8: yr..b.yyy" -> {card: 8, fill: "yr..b.yyy"}; a title is looked up in the cards seen.
function paintingOf(value, cards) {
  const [name, fill = ""] = value.split(":");
  return { card: cardId(name.trim(), cards), name: name.trim(),
    fill: (fill.trim() + ".........").slice(0, 9) };
}

function cardId(name, cards) {
  if (!name || name === "-") return null;
  const m = /^#(\d+)$/.exec(name);
  if (m) return Number(m[1]);
  const low = name.toLowerCase();
  for (const [id, c] of cards) if (c.name && c.name.toLowerCase().startsWith(low)) return id;
  return null;
}

// -- what the last loaded position teaches: the cards, the wheel ----------------------------

// Cards by printed id -> {name, value, spaces}; kept across positions of one game, as the
// JSON view names the colours only of the paintings a player holds.
const CARDS = new Map();
let CARDS_GAME;               // the game string CARDS are of

// The shipped cards, unless the game string names another data file; a new game starts afresh.
function cardsOf(game) {
  if (game === CARDS_GAME) return;
  CARDS_GAME = game;
  CARDS.clear();
  if (/[(,]\s*data\s*=\s*[^\s,)]/.test(game || "")) return;
  for (const [id, name, value, spaces] of PAINTINGS) {
    CARDS.set(id, { name, value, spaces: [...spaces].map((l) => FROM_LETTER[l]) });
  }
}

function learn(state) {
  if (!state) return;
  const all = [...(state.deck || []), ...(state.easels || []).filter((c) => c !== null),
    ...(state.removed || [])];
  for (const id of all) if (!CARDS.has(id)) CARDS.set(id, { name: null });
  for (const b of state.boards || []) {
    for (const pv of b.paintings || []) {
      CARDS.set(pv.card, { name: pv.name, value: pv.value, spaces: pv.spaces });
    }
  }
}

// The printed id, and the title where the data has one (the placeholder names are ids).
function cardLabel(id) {
  const c = CARDS.get(id);
  const title = c && c.name && c.name !== `painting ${id}` ? c.name : null;
  return title ? `#${id} ${title}` : `#${id}`;
}

function wheelOf(state) {
  // lower_board[q].action = wheel[(q - rotation) mod 10]
  const lb = state.lower_board || [];
  const r = state.rotation || 0;
  return lb.map((_, i) => lb[(i + r) % lb.length].action);
}

function model(info, text) {
  const st = info.state || {};
  const n = st.players || info.numPlayers || 2;
  const t = parseText(text);
  const players = [];
  for (let p = 0; p < n; p++) {
    const s = t.players[p] || { paintings: [] };
    const b = (st.boards || [])[p] || {};
    players.push({
      // not written: round 1's starting pigments (derived), else none
      pigments: s.pigments !== undefined ? counts(s.pigments)
        : (Number(t.top.round || 1) === 1 && b.pigments ? b.pigments : counts("")),
      tools: toolsOf(s.tools), bonus: bonusOf(s.bonus),
      standing: spaceList(s.standing), lying: spaceList(s.lying),
      paintings: s.paintings.map((v) => paintingOf(v, CARDS)),
      score: (st.scores || [])[p], assistants: b.assistants,
    });
  }
  const phaseWords = (t.top.phase || "").toLowerCase().split(/\s+/);
  const pm = /player\s+(\d+)/.exec(t.top.first || "");
  const claims = (t.top.claims || "").toLowerCase();
  const rotation = t.top.rotation !== undefined ? Number(t.top.rotation) || 0 : 0;
  const wheel = wheelOf(st);
  const easelCount = (st.easels || []).length || (n === 2 ? 3 : 4);
  const easels = (t.top.easels || "").split(";").map((s) => cardId(s.trim(), CARDS));
  while (easels.length < easelCount) easels.push(null);
  return {
    n, text: t, players, round: Number(t.top.round) || 1,
    phase: phaseWords[0] || "deal",
    decider: phaseWords[1] === "player" ? Number(phaseWords[2]) : null,
    first: pm ? Number(pm[1]) : (st.first_player ?? 0) + 1,
    firstWritten: !!pm, rotation,
    pending: Object.fromEntries([...(t.top.pending || "").matchAll(/(\w+)\s*=\s*(\S+)/g)]
      .map(([, k, v]) => [k.toLowerCase(), v.toLowerCase()])),
    claimFirst: Number((/first\s+player\s+(\d+)/.exec(claims) || [])[1]) || null,
    claimRotate: Number((/rotate\s+player\s+(\d+)/.exec(claims) || [])[1]) || null,
    // the lower board: position q faces wheel[(q - rotation) mod 10]; its spaces are fixed
    lower: (st.lower_board || []).map((lv, q) => ({
      q, action: wheel.length ? wheel[((q - rotation) % 10 + 10) % 10] : lv.action,
      spaces: lv.spaces })),
    easels: easels.slice(0, easelCount),
    removed: (t.top.removed || "").split(";").map((s) => cardId(s.trim(), CARDS))
      .filter((c) => c !== null),
  };
}

// The cards not on the table in the text (for the easel and painting pickers).
function freeCards(m, keep = null) {
  const used = new Set([...m.easels, ...m.removed,
    ...m.players.flatMap((p) => p.paintings.map((pv) => pv.card))]);
  return [...CARDS.keys()].sort((a, b) => a - b).filter((c) => c === keep || !used.has(c));
}

// -- refusals: which part of the table each names -------------------------------------------

function refusalParts(refusals, m) {
  const out = new Map();
  const add = (key, r) => { if (!out.has(key)) out.set(key, []); out.get(key).push(r.message); };
  for (const r of refusals || []) {
    const keys = new Set();
    const field = (r.field || "").toLowerCase();
    if (field) keys.add(field.replace(/\s*\(.*$/, ""));
    const ln = m.text.lines[r.line];
    if (ln) keys.add(ln.part);
    if (!keys.size) keys.add("table");
    for (const k of keys) add(k, r);
  }
  return out;
}

// A part is marked when a refusal names it, a wider field that holds it ("player 2") or a
// narrower one within it ("player 2 pigments white").
function messagesFor(parts, key) {
  const out = [];
  for (const [k, msgs] of parts) {
    if (key === k || key.startsWith(k + " ") || k.startsWith(key + " ")) out.push(...msgs);
  }
  return out;
}

// -- the turn: which part each step moves ---------------------------------------------------

function stepTarget(step, m, cur) {
  const t = (step.text || "").toLowerCase();
  const p = (step.player ?? cur ?? 0) + 1;
  let r;
  if ((r = /^(?:place assistant on|act on|lay down from|imitate|stand assistant facing) (.+?)(?: without acting)?$/.exec(t)))
    return `space ${r[1]}`;
  if ((r = /^improve (.+)$/.exec(t))) return `player ${p} tools ${r[1]}`;
  if (/^bonus:/.test(t)) return `player ${p} tools`;
  if ((r = /^(?:pay|discard) (\w+)$/.exec(t))) return `player ${p} pigments ${r[1]}`;
  if ((r = /^take .* from easel (\d+)$/.exec(t))) return `easel ${r[1]}`;
  if ((r = /^paint (\w+) on painting (.+), space (\d+)$/.exec(t))) {
    // the card by its id (as the action texts write it) or, with real data, its title
    const id = /^#?\d+$/.test(r[2]) ? Number(r[2].replace("#", "")) : cardId(r[2], CARDS);
    return `player ${p} card ${id} ${r[3]}`;
  }
  if (/^rotate the board/.test(t)) return "rotation";
  if ((r = /^turn up painting (.+)$/.exec(t))) {
    const e = m.easels.indexOf(null);
    return e >= 0 ? `easel ${e + 1}` : null;
  }
  return null;
}

// -- drawing --------------------------------------------------------------------------------

let OPEN_PART = null;         // the part whose picker is open (drawn highlighted)

function Part({ id, label, x, y, w, hgt, open, marks, children, rx = 4 }) {
  const clickable = !!open;
  const onKey = (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(); }
  };
  const bad = marks && marks.length;
  return html`<g class=${"cdp-part" + (clickable ? " cdp-click" : "") + (bad ? " cdp-bad" : "")
      + (OPEN_PART === id ? " cdp-open" : "")} aria-expanded=${clickable ? OPEN_PART === id : null}
      data-part=${id} role=${clickable ? "button" : null} tabindex=${clickable ? 0 : null}
      aria-label=${label} onClick=${clickable ? open : null} onKeyDown=${clickable ? onKey : null}>
    <title>${label}${bad ? " — " + marks.join(" ") : ""}</title>
    <rect class="cdp-frame" x=${x} y=${y} width=${w} height=${hgt} rx=${rx} />
    ${children}
    ${bad ? html`<text class="cdp-bang" x=${x + w - 6} y=${y + 11}>!</text>` : null}
  </g>`;
}

function Swatch({ colour, x, y, s = 14, text = null }) {
  const c = colour || "none";
  return html`<g>
    <rect x=${x} y=${y} width=${s} height=${s} rx="2" fill=${FILL[c] || "#eee"}
      stroke="#555" stroke-width="0.6" />
    <text x=${x + s / 2} y=${y + s / 2 + 3.5} class="cdp-letter"
      fill=${DARK_TEXT.has(c) || !FILL[c] ? "#111" : "#fff"}>${text ?? (LETTER[c] || "")}</text>
  </g>`;
}

// An assistant: standing upright, lying flat; the player's number on it.
function Assistant({ p, lying, x, y }) {
  const [w, hh] = lying ? [16, 9] : [9, 16];
  return html`<g class=${lying ? "cdp-lying" : "cdp-standing"}>
    <rect x=${x} y=${y + (lying ? 7 : 0)} width=${w} height=${hh} rx="2"
      fill=${PLAYER_FILL[p % 4]} stroke="#fff" stroke-width="0.8" />
    <text x=${x + w / 2} y=${y + (lying ? 14.5 : 11.5)} class="cdp-aslabel">${p + 1}</text>
  </g>`;
}

function who(m, where, how) {
  const out = [];
  m.players.forEach((pl, p) => pl[how].forEach((s) => { if (s === where) out.push(p); }));
  return out;
}

function SpaceTokens({ m, where, x, y, w }) {
  const standing = who(m, where, "standing");
  const lying = who(m, where, "lying");
  const tokens = [...standing.map((p) => [p, false]), ...lying.map((p) => [p, true])];
  let cx = x;
  return tokens.map(([p, l]) => {
    const el = html`<${Assistant} p=${p} lying=${l} x=${cx} y=${y} />`;
    cx += l ? 18 : 11;
    return cx > x + w ? null : el;
  });
}

// A space is marked by the refusals of the standing and lying lines that name it.
function spaceMarks(m, marks, words) {
  return m.players.flatMap((_, p) => ["standing", "lying"].flatMap((how) =>
    messagesFor(marks, `player ${p + 1} ${how}`))).filter((msg) => msg.toLowerCase().includes(words));
}

function Board({ m, open, marks, anchors }) {
  const cx = W / 2, cy = 232, R = 148, bw = 74, bh = 50;
  const boxes = m.lower.map((lv) => {
    const th = (lv.q * 36 * Math.PI) / 180;
    const x = cx + R * Math.sin(th) - bw / 2, y = cy - R * Math.cos(th) - bh / 2;
    const words = ACTION_WORDS[lv.action] || lv.action;
    const colour = COLOURS.includes(lv.action) ? lv.action : null;
    const key = `space ${words}`;
    anchors[key] = { x, y, w: bw, h: bh };
    return html`<${Part} id=${key} label=${`position ${lv.q + 1}: ${words}, ${lv.spaces} spaces`}
        x=${x} y=${y} w=${bw} hgt=${bh} open=${open && (() => open({ kind: "space", where: words }))}
        marks=${spaceMarks(m, marks, words)}>
      ${colour ? html`<${Swatch} colour=${colour} x=${x + 3} y=${y + 3} s=${12} />` : null}
      <text class="cdp-small" x=${x + (colour ? 18 : 4)} y=${y + 13}>${words.replace(/^(acquire|mix) \w+$/, "$1").replace(" a tool", "").replace(" a painting", "")}</text>
      <text class="cdp-tiny" x=${x + bw - 3} y=${y + 13} text-anchor="end">${lv.q + 1}</text>
      ${Array.from({ length: Math.max(lv.spaces, 0) }, (_, i) => html`
        <rect x=${x + 4 + i * 22} y=${y + 20} width="20" height="26" rx="2" class="cdp-slot" />`)}
      ${lv.spaces === 0 ? html`<text class="cdp-tiny" x=${x + 4} y=${y + 44}>no space</text>` : null}
      <${SpaceTokens} m=${m} where=${words} x=${x + 5} y=${y + 25} w=${bw - 8} />
    </${Part}>`;
  });
  // the upper board's four centre spaces, 2 x 2
  const centre = CENTRE.map(([name, words], i) => {
    const x = cx - 82 + (i % 2) * 84, y = cy - 48 + Math.floor(i / 2) * 50;
    const key = `space ${words}`;
    anchors[key] = { x, y, w: 80, h: 46 };
    return html`<${Part} id=${key} label=${`upper board: ${words}`} x=${x} y=${y} w=${80} hgt=${46}
        open=${open && (() => open({ kind: "space", where: words }))} marks=${spaceMarks(m, marks, words)}>
      ${name === "white" ? html`<${Swatch} colour="white" x=${x + 3} y=${y + 3} s=${12} />` : null}
      <text class="cdp-small" x=${x + (name === "white" ? 18 : 4)} y=${y + 13}>${name}</text>
      <${SpaceTokens} m=${m} where=${words} x=${x + 5} y=${y + 20} w=${72} />
    </${Part}>`;
  });
  return html`<g>
    <circle cx=${cx} cy=${cy} r=${R - 38} class="cdp-wheel" />
    ${boxes}${centre}
  </g>`;
}

// An SVG text of the 12 px label font squeezed into `room` pixels when its
// estimated width (about 7 px a character) would overrun its chip.
function fitted(text, room) {
  return text.length * 7 > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
}

function Header({ m, open, marks, anchors }) {
  const decider = m.decider ? ` · player ${m.decider}` : "";
  const chips = [
    ["round", `Round ${m.round}`, 68],
    ["phase", `Phase: ${m.phase}${decider}`, 156],
    ["first", `1st player: ${m.first}`, 86],
    ["rotation", `Rotation ${m.rotation}`, 70],
  ];
  let x = 4;
  const out = chips.map(([key, text, w]) => {
    const el = html`<${Part} id=${key} label=${text} x=${x} y=${4} w=${w} hgt=${24}
        open=${open && (() => open({ kind: key }))} marks=${messagesFor(marks, key)}>
      <text class="cdp-label" x=${x + w / 2} y=${21} text-anchor="middle"
          ...${fitted(text, w - 8)}>${text}</text>
    </${Part}>`;
    anchors[key] = { x, y: 4, w, h: 24 };
    x += w + 4;
    return el;
  });
  const claim = [m.claimFirst && `1st player token: player ${m.claimFirst}`,
    m.claimRotate && `rotate: player ${m.claimRotate}`].filter(Boolean).join(" · ");
  out.push(html`<${Part} id="claims" label=${"claims: " + (claim || "none")} x=${4} y=${32}
      w=${W / 2 - 6} hgt=${20} open=${open && (() => open({ kind: "claims" }))}
      marks=${messagesFor(marks, "claims")}>
    <text class="cdp-small" x=${10} y=${46}>Claims: ${claim || "none"}</text>
  </${Part}>`);
  const pend = Object.entries(m.pending).map(([k, v]) => `${k}=${v}`).join(" ");
  out.push(html`<${Part} id="pending" label=${"a step under way: " + (pend || "none")} x=${W / 2 + 2}
      y=${32} w=${W / 2 - 6} hgt=${20} open=${open && (() => open({ kind: "pending" }))}
      marks=${messagesFor(marks, "pending")}>
    <text class="cdp-small" x=${W / 2 + 8} y=${46}>Under way: ${pend || "none"}</text>
  </${Part}>`);
  return out;
}

// A card's 3x3 spaces: each needed colour pale with its lowercase letter, painted ones in full
// colour with the capital letter (W for white), "?" where the card's colours are not known.
function CardGrid({ id, fill, x, y, s, cellKey }) {
  const c = CARDS.get(id) || {};
  const cells = [];
  for (let j = 0; j < 9; j++) {
    const need = c.spaces ? c.spaces[j] : null;
    const f = fill ? fill[j] : ".";
    const filled = f && f !== ".";
    const colour = filled ? (f === "w" ? "white" : need || COLOURS.find((k) => LETTER[k] === f))
      : null;
    const cx = x + (j % 3) * s, cy = y + Math.floor(j / 3) * s;
    cells.push(html`<g data-cell=${cellKey ? `${cellKey} ${j + 1}` : null}>
      <rect x=${cx} y=${cy} width=${s} height=${s} fill=${filled ? FILL[colour] : need ? PALE[need] : "#f7f3ea"}
        stroke=${need ? FILL[need] : "#999"} stroke-width=${filled ? 0.6 : 2} />
      <text x=${cx + s / 2} y=${cy + s / 2 + 3.5} class="cdp-letter"
        fill=${filled && !DARK_TEXT.has(colour) ? "#fff" : "#222"}>${filled
          ? (f === "w" ? "W" : LETTER[colour].toUpperCase()) : (need ? LETTER[need] : "?")}</text>
    </g>`);
  }
  return cells;
}

function Easels({ m, open, marks, anchors, y0 }) {
  const n = m.easels.length, gap = 4, w = (W - gap * (n + 1)) / n, hh = 96;
  return html`<g>
    <text class="cdp-head" x="4" y=${y0 - 4}>Easels</text>
    ${m.easels.map((card, e) => {
      const x = gap + e * (w + gap);
      const key = `easel ${e + 1}`;
      anchors[key] = { x, y: y0, w, h: hh };
      const c = card !== null ? CARDS.get(card) || {} : null;
      return html`<${Part} id=${key} label=${`easel ${e + 1}: ${card === null ? "empty" : cardLabel(card)}`}
          x=${x} y=${y0} w=${w} hgt=${hh} open=${open && (() => open({ kind: "easel", e }))}
          marks=${messagesFor(marks, "easels")}>
        <text class="cdp-small" x=${x + 4} y=${y0 + 12}>Easel ${e + 1}</text>
        ${card === null ? html`<text class="cdp-label" x=${x + w / 2} y=${y0 + 55} text-anchor="middle">empty</text>`
          : html`<g>
            <text class="cdp-label" x=${x + w - 4} y=${y0 + 12} text-anchor="end">${cardLabel(card)}</text>
            ${c.spaces ? html`<${CardGrid} id=${card} fill="........." x=${x + w / 2 - 30} y=${y0 + 18} s=${20} />
              <text class="cdp-tiny" x=${x + 4} y=${y0 + 92}>${c.value} points</text>`
              : html`<text class="cdp-tiny" x=${x + w / 2} y=${y0 + 50} text-anchor="middle">colours shown</text>
                <text class="cdp-tiny" x=${x + w / 2} y=${y0 + 61} text-anchor="middle">once it is held</text>`}
          </g>`}
      </${Part}>`;
    })}
  </g>`;
}

function PlayerPanel({ m, p, open, marks, anchors, y0, current }) {
  const pl = m.players[p];
  const P = p + 1;
  const out = [];
  // paintings, four a row (a player keeps the finished ones): the panel grows by rows
  const s = 22, cw = 3 * s + 10, ch = 3 * s + 22, perRow = Math.floor((W - 6) / (cw + 4));
  const rows = Math.max(1, Math.ceil((pl.paintings.length + (open ? 1 : 0)) / perRow));
  const hh = 116 + rows * (ch + 4);
  out.push(html`<rect x="2" y=${y0} width=${W - 4} height=${hh} rx="6" class=${"cdp-panel" + (current ? " cdp-current" : "")} />`);
  out.push(html`<${Assistant} p=${p} lying=${false} x=${8} y=${y0 + 5} />`);
  const extra = [m.first === P ? "1st player token" : null,
    pl.assistants !== undefined ? `${pl.assistants} assistants` : null,
    pl.score !== undefined ? `score ${pl.score}` : null].filter(Boolean).join(" · ");
  out.push(html`<text class="cdp-head" x="22" y=${y0 + 17}>Player ${P}${current ? " (to move)" : ""}</text>
    <text class="cdp-small" x=${W - 8} y=${y0 + 17} text-anchor="end">${extra}</text>`);
  // pigments: one swatch a colour, its letter and count
  const py = y0 + 24;
  anchors[`player ${P} pigments`] = { x: 4, y: py, w: W - 8, h: 30 };
  out.push(html`<${Part} id=${`player ${P} pigments`} label=${`player ${P} pigments: ${countsText(pl.pigments) || "none"}`}
      x=${4} y=${py} w=${W - 8} hgt=${30} open=${open && (() => open({ kind: "pigments", p }))}
      marks=${messagesFor(marks, `player ${P} pigments`)}>
    ${COLOURS.map((c, i) => {
      const x = 8 + i * 48;
      anchors[`player ${P} pigments ${c}`] = { x, y: py + 2, w: 46, h: 26 };
      return html`<g opacity=${pl.pigments[c] ? 1 : 0.45}>
        <${Swatch} colour=${c} x=${x} y=${py + 7} s=${16} />
        <text class="cdp-label" x=${x + 20} y=${py + 20}>${pl.pigments[c]}</text></g>`;
    })}
  </${Part}>`);
  // tools and their bonuses
  const ty = py + 34;
  anchors[`player ${P} tools`] = { x: 4, y: ty, w: W - 8, h: 24 };
  out.push(html`<${Part} id=${`player ${P} tools`} label=${`player ${P} tools and bonus`}
      x=${4} y=${ty} w=${W - 8} hgt=${24} open=${open && (() => open({ kind: "tools", p }))}
      marks=${[...messagesFor(marks, `player ${P} tools`), ...messagesFor(marks, `player ${P} bonus`)]}>
    ${TOOLS.map((t, i) => {
      const x = 8 + i * 130;
      anchors[`player ${P} tools ${t}`] = { x, y: ty, w: 126, h: 24 };
      const b = pl.bonus[t];
      return html`<text class="cdp-label" x=${x} y=${ty + 16}>${t} ${pl.tools[t]}/8${b ? (b === "assistant" ? " +A" : " +6") : ""}</text>`;
    })}
  </${Part}>`);
  // assistants placed
  const ay = ty + 28;
  out.push(html`<text class="cdp-small" x="8" y=${ay + 8}>Standing: ${pl.standing.join(", ") || "none"}</text>
    <text class="cdp-small" x="8" y=${ay + 21}>Lying: ${pl.lying.join(", ") || "none"}</text>`);
  // paintings
  const gy0 = ay + 28;
  const at = (k) => [6 + (k % perRow) * (cw + 4), gy0 + Math.floor(k / perRow) * (ch + 4)];
  pl.paintings.forEach((pv, k) => {
    const [x, gy] = at(k);
    const key = `player ${P} card ${pv.card}`;
    anchors[key] = { x, y: gy, w: cw, h: ch };
    for (let j = 0; j < 9; j++) {
      anchors[`${key} ${j + 1}`] = { x: x + 5 + (j % 3) * s, y: gy + 16 + Math.floor(j / 3) * s, w: s, h: s };
    }
    const done = !pv.fill.includes(".");
    out.push(html`<${Part} id=${`player ${P} painting ${k + 1}`}
        label=${`player ${P} painting ${k + 1}: ${pv.card === null ? pv.name : cardLabel(pv.card)}${done ? ", finished" : ""}`}
        x=${x} y=${gy} w=${cw} hgt=${ch} open=${open && (() => open({ kind: "painting", p, k }))}
        marks=${messagesFor(marks, `player ${P} painting`)}>
      <text class="cdp-small" x=${x + 4} y=${gy + 12}>${pv.card === null ? pv.name : cardLabel(pv.card)}${done ? " ✓" : ""}</text>
      <${CardGrid} id=${pv.card} fill=${pv.fill} x=${x + 5} y=${gy + 16} s=${s} />
    </${Part}>`);
  });
  const [ax, gy] = at(pl.paintings.length);
  if (open) {
    out.push(html`<${Part} id=${`player ${P} painting add`} label=${`player ${P}: add a painting`}
        x=${ax} y=${gy} w=${cw} hgt=${ch} open=${() => open({ kind: "painting", p, k: pl.paintings.length })}>
      <text class="cdp-head" x=${ax + cw / 2} y=${gy + 44} text-anchor="middle">+</text>
      <text class="cdp-tiny" x=${ax + cw / 2} y=${gy + 60} text-anchor="middle">painting</text>
    </${Part}>`);
  }
  if (!pl.paintings.length && !open) {
    out.push(html`<text class="cdp-small" x="8" y=${gy + 30}>No painting</text>`);
  }
  const section = messagesFor(marks, `player ${P}`).filter((msg) =>
    !["pigments", "tools", "bonus", "painting"].some((k) => messagesFor(marks, `player ${P} ${k}`).includes(msg)));
  if (section.length) {
    out.push(html`<rect x="2" y=${y0} width=${W - 4} height=${hh} rx="6" class="cdp-badframe"><title>${section.join(" ")}</title></rect>`);
  }
  return { el: out, height: hh };
}

// A step's number sits above the top right corner of the part it names:
// labels start at the left and space numbers sit in the corner, and a badge
// inside the part hid their first letter ("take" read "ake").
function TurnMarks({ steps, m, cur, anchors }) {
  const out = [];
  const seen = new Map();
  steps.forEach((st, i) => {
    const key = stepTarget(st, m, cur);
    const a = key && (anchors[key] || anchors[key.split(" ").slice(0, -1).join(" ")]);
    if (!a) return;
    const k = seen.get(key) || 0;
    seen.set(key, k + 1);
    out.push(html`<g class="cdp-step" data-step=${i + 1} data-target=${key}>
      <rect x=${a.x - 1} y=${a.y - 1} width=${a.w + 2} height=${a.h + 2} rx="4" class="cdp-steprect" />
      <circle cx=${a.x + a.w - 4 - k * 16} cy=${a.y - 3} r="8" class="cdp-stepdot" />
      <text x=${a.x + a.w - 4 - k * 16} y=${a.y + 0.5} class="cdp-stepnum">${i + 1}</text>
    </g>`);
  });
  return out;
}

// -- pickers: each writes its notation line -------------------------------------------------

function Counter({ label, value, set, min = 0, max = 99, swatch = null }) {
  return html`<span class="cdp-counter">
    ${swatch ? html`<span class=${"cdp-chip cdp-c-" + swatch}>${LETTER[swatch].toUpperCase()}</span>` : null}
    <span class="cdp-clabel">${label}</span>
    <button type="button" aria-label=${`${label} minus one`} disabled=${value <= min}
      onClick=${() => set(value - 1)}>−</button>
    <output>${value}</output>
    <button type="button" aria-label=${`${label} plus one`} disabled=${value >= max}
      onClick=${() => set(value + 1)}>+</button>
  </span>`;
}

function Choice({ options, value, set, label }) {
  return html`<span class="cdp-choice" role="group" aria-label=${label}>
    ${options.map(([v, text]) => html`<button type="button" aria-pressed=${v === value}
      class=${v === value ? "cdp-on" : ""} onClick=${() => set(v)}>${text}</button>`)}
  </span>`;
}

// A card button: its printed id over its spaces (pale, each with its letter) and value, so the
// card at the table is found by its colours too.
function CardButton({ id, on, pressed = null, onClick }) {
  const c = CARDS.get(id) || {};
  const rows = c.spaces ? [0, 3, 6].map((j) => c.spaces.slice(j, j + 3).map((k) => LETTER[k]).join(""))
    : null;
  return html`<button type="button" class=${"cdp-card" + (on ? " cdp-on" : "")} data-card=${id}
      aria-pressed=${pressed} onClick=${onClick}
      aria-label=${cardLabel(id) + (rows ? `: ${rows.join(" ")}, ${c.value} points` : "")}>
    <span>${cardLabel(id)}</span>
    ${rows ? html`<span class="cdp-mini" aria-hidden="true">${c.spaces.map((k) => html`<span
        style=${{ background: PALE[k], borderColor: FILL[k] }}>${LETTER[k]}</span>`)}</span>
      <small aria-hidden="true">${c.value} points</small>` : null}
  </button>`;
}

function CardChoice({ m, keep, set, none = "empty (-)" }) {
  return html`<div class="cdp-cards">
    ${none ? html`<button type="button" class=${keep === null ? "cdp-on" : ""} onClick=${() => set(null)}>${none}</button>` : null}
    ${freeCards(m, keep).map((c) => html`<${CardButton} id=${c} on=${c === keep} onClick=${() => set(c)} />`)}
  </div>`;
}

function Picker({ part, m, write, setup, marks, close }) {
  const P = part.p !== undefined ? part.p + 1 : null;
  const pl = P ? m.players[part.p] : null;
  let title = "", body = null, keys = [];
  const players = Array.from({ length: m.n }, (_, i) => [i + 1, `player ${i + 1}`]);
  switch (part.kind) {
    case "round":
      title = "Round"; keys = ["round"];
      body = html`<${Counter} label="round" value=${m.round} min=${1} max=${40}
        set=${(v) => write("round", v === 1 ? null : String(v))} />`;
      break;
    case "phase": {
      title = "Phase and who decides"; keys = ["phase"];
      const put = (ph, d) => write("phase", NO_DECIDER.has(ph) ? ph : `${ph} player ${d || 1}`);
      body = html`<div><${Choice} label="phase" options=${PHASES.map((x) => [x, x])} value=${m.phase}
          set=${(ph) => put(ph, m.decider)} /></div>
        ${NO_DECIDER.has(m.phase) ? null : html`<div>decides: <${Choice} label="player to decide"
          options=${players} value=${m.decider || 1} set=${(d) => put(m.phase, d)} /></div>`}`;
      break;
    }
    case "first":
      title = "1st Player token"; keys = ["first"];
      body = html`<${Choice} label="first player" options=${players} value=${m.firstWritten ? m.first : null}
        set=${(v) => write("first", `player ${v}`)} />
        <button type="button" onClick=${() => write("first", null)}>not written (round 1: the option's)</button>`;
      break;
    case "rotation":
      title = "Rotation: steps the upper board has turned"; keys = ["rotation"];
      body = html`<${Choice} label="rotation" options=${Array.from({ length: 10 }, (_, i) => [i, String(i)])}
        value=${m.rotation} set=${(v) => write("rotation", v ? String(v) : null)} />`;
      break;
    case "claims": {
      title = "Claims for phase 3"; keys = ["claims"];
      const put = (f, r) => write("claims", [f && `first player ${f}`, r && `rotate player ${r}`]
        .filter(Boolean).join(" ") || null);
      body = html`<div>1st Player token: <${Choice} label="first player claim"
          options=${[[null, "none"], ...players]} value=${m.claimFirst} set=${(v) => put(v, m.claimRotate)} /></div>
        <div>rotate the board: <${Choice} label="rotate claim"
          options=${[[null, "none"], ...players]} value=${m.claimRotate} set=${(v) => put(m.claimFirst, v)} /></div>`;
      break;
    }
    case "easel": {
      title = `Easel ${part.e + 1}`; keys = ["easels"];
      const put = (c) => {
        const es = m.easels.slice();
        es[part.e] = c;
        write("easels", es.map((x) => (x === null ? "-" : `#${x}`)).join("; "));
      };
      body = html`<${CardChoice} m=${m} keep=${m.easels[part.e]} set=${put} />`;
      break;
    }
    case "pending": {
      // Only what is under way mid-turn and not derived (ENCODING.md "pending"); a key left
      // out takes its derived value.
      title = "A step under way (pending)"; keys = ["pending"];
      const put = (k, v) => {
        const next = { ...m.pending };
        if (v === null) delete next[k]; else next[k] = String(v);
        write("pending", Object.entries(next).map(([a, b]) => `${a}=${b}`).join(" ") || null);
      };
      const row = (k, control) => html`<div data-key=${k}><span class="cdp-clabel">${k}</span> ${control}
        ${k in m.pending ? html`<button type="button" aria-label=${`${k}: not written`}
          onClick=${() => put(k, null)}>not written</button>` : html`<small> (derived)</small>`}</div>`;
      const num = (k, max) => row(k, html`<${Counter} label=${k} value=${Number(m.pending[k] || 0)}
        max=${max} set=${(v) => put(k, v)} />`);
      const keep = (m.pending.keep || Array(m.n).fill("-").join(",")).split(",");
      body = html`
        ${row("tool", html`<${Choice} label="pending tool" options=${TOOLS.map((t) => [t, t])}
          value=${m.pending.tool} set=${(v) => put("tool", v)} />`)}
        ${num("pay_left", 2)}
        ${row("pay_min", html`<${Choice} label="pending pay_min" options=${COLOURS.slice(0, 7).map((c) => [c, c])}
          value=${m.pending.pay_min} set=${(v) => put("pay_min", v)} />`)}
        ${num("painted", 20)}${num("paint_left", 20)}${num("seat_k", m.n - 1)}
        ${row("keep", html`<span>${keep.map((x, p) => html`<label> player ${p + 1}
          <select aria-label=${`keep player ${p + 1}`} value=${x} onChange=${(e) => {
            const ks = keep.slice(); ks[p] = e.target.value; put("keep", ks.join(","));
          }}>${["-", ...Array.from({ length: 10 }, (_, i) => String(i + 1))].map((o) =>
            html`<option value=${o}>${o === "-" ? "none" : `position ${o}`}</option>`)}</select></label>`)}</span>`)}`;
      break;
    }
    case "removed": {
      title = "Paintings out of the game"; keys = ["removed"];
      const put = (c) => {
        const next = m.removed.includes(c) ? m.removed.filter((x) => x !== c) : [...m.removed, c];
        write("removed", next.length ? next.map((x) => `#${x}`).join("; ") : null);
      };
      body = html`<p>Click a card to put it out of the game or back.</p>
        <div class="cdp-cards">${[...new Set([...m.removed, ...freeCards(m)])].sort((a, b) => a - b)
          .map((c) => html`<${CardButton} id=${c} on=${m.removed.includes(c)} pressed=${m.removed.includes(c)}
            onClick=${() => put(c)} />`)}</div>`;
      break;
    }
    case "space": {
      title = `Assistants at ${part.where}`;
      keys = m.players.flatMap((_, p) => [`player ${p + 1} standing`, `player ${p + 1} lying`]);
      const put = (p, how, k) => {
        const list = m.players[p][how].filter((s) => s !== part.where);
        for (let i = 0; i < k; i++) list.push(part.where);
        write(how, list.length ? list.join("; ") : null, p + 1);
      };
      body = m.players.map((q, p) => html`<div>player ${p + 1}:
        <${Counter} label=${`player ${p + 1} standing`} value=${who(m, part.where, "standing").filter((x) => x === p).length}
          max=${6} set=${(k) => put(p, "standing", k)} />
        <${Counter} label=${`player ${p + 1} lying`} value=${who(m, part.where, "lying").filter((x) => x === p).length}
          max=${6} set=${(k) => put(p, "lying", k)} /></div>`);
      break;
    }
    case "pigments": {
      title = `Player ${P} pigments`; keys = [`player ${P} pigments`];
      const put = (c, v) => {
        const next = { ...pl.pigments, [c]: v };
        write("pigments", countsText(next) || (m.round === 1 ? "none" : null), P);
      };
      body = COLOURS.map((c) => html`<${Counter} label=${c} swatch=${c} value=${pl.pigments[c]}
        max=${211} set=${(v) => put(c, v)} />`);
      break;
    }
    case "tools": {
      title = `Player ${P} tools and development bonuses`;
      keys = [`player ${P} tools`, `player ${P} bonus`];
      const putTools = (t, v) => {
        const next = { ...pl.tools, [t]: v };
        write("tools", TOOLS.filter((x) => next[x] > 1).map((x) => `${x} ${next[x]}`).join(" ") || null, P);
      };
      const putBonus = (t, v) => {
        const next = { ...pl.bonus, [t]: v };
        write("bonus", TOOLS.filter((x) => next[x]).map((x) => `${x} ${next[x]}`).join(" ") || null, P);
      };
      body = TOOLS.map((t) => html`<div><${Counter} label=${t} value=${pl.tools[t]} min=${1} max=${8}
          set=${(v) => putTools(t, v)} />
        bonus: <${Choice} label=${`${t} bonus`} options=${[[null, "none"], ["assistant", "assistant"], ["points", "6 points"]]}
          value=${pl.bonus[t]} set=${(v) => putBonus(t, v)} /></div>`);
      break;
    }
    case "painting": {
      const pv = pl.paintings[part.k];
      title = `Player ${P} painting ${part.k + 1}`; keys = [`player ${P} painting`];
      // A painting's line is keyed by the card as written ("painting #6: r..w....."): a
      // change of card removes the old line and writes the new one.
      const put = (card, fill) => {
        let t = setup.notation;
        if (pv && pv.card !== card) t = setLine(t, `painting ${pv.name}`, null, P);
        if (card !== null) t = setLine(t, `painting #${card}`, `: ${fill}`, P);
        setup.setNotation(t);
      };
      if (!pv) {
        body = html`<p>Which painting did player ${P} take?</p>
          <${CardChoice} m=${m} keep=${null} none=${null} set=${(c) => put(c, ".........")} />`;
        break;
      }
      const c = CARDS.get(pv.card) || {};
      const cell = (j) => {
        const f = pv.fill[j];
        const need = c.spaces ? c.spaces[j] : null;
        // a space holds its own colour or white (§15); "." is empty
        const opts = [[".", "empty"], ...(need ? [[LETTER[need], need]]
          : COLOURS.slice(0, 6).map((k) => [LETTER[k], k])), ["w", "white"]];
        const setF = (v) => put(pv.card, pv.fill.slice(0, j) + v + pv.fill.slice(j + 1));
        const nextF = opts[(opts.findIndex(([v]) => v === f) + 1) % opts.length][0];
        return html`<button type="button" class=${"cdp-cell cdp-c-" + (f === "w" ? "white" : f === "." ? "empty" : need || COLOURS.find((k) => LETTER[k] === f))}
          data-space=${j + 1} style=${f === "." && need ? { background: PALE[need] } : null} aria-label=${`space ${j + 1}${need ? " (" + need + ")" : ""}: ${opts.find(([v]) => v === f)?.[1] || f}`}
          onClick=${() => (need ? setF(nextF) : null)}>${need ? html`<small>${LETTER[need]}</small>` : null}${f === "." ? "·" : f.toUpperCase()}</button>
          ${need ? null : html`<select aria-label=${`space ${j + 1}`} value=${f} onChange=${(e) => setF(e.target.value)}>
            ${opts.map(([v, t]) => html`<option value=${v}>${t}</option>`)}</select>`}`;
      };
      body = html`<p>Click a space: empty → its colour → white → empty.</p>
        <div class="cdp-grid">${Array.from({ length: 9 }, (_, j) => cell(j))}</div>
        <details><summary>Another card (${cardLabel(pv.card)} now)</summary>
          <${CardChoice} m=${m} keep=${pv.card} none="remove this painting"
            set=${(card) => put(card, pv.fill)} /></details>
        <button type="button" onClick=${() => { put(null); close(); }}>remove painting ${part.k + 1}</button>`;
      break;
    }
    default:
      return null;
  }
  const msgs = keys.flatMap((k) => messagesFor(marks, k));
  return html`<div class="cdp-picker" role="dialog" aria-label=${title}>
    <div class="cdp-pickhead"><strong>${title}</strong>
      <button type="button" class="cdp-close" aria-label="close" onClick=${close}>×</button></div>
    ${body}
    ${msgs.length ? html`<ul class="cdp-refusals">${[...new Set(msgs)].map((x) => html`<li>${x}</li>`)}</ul>` : null}
  </div>`;
}

// -- the table ------------------------------------------------------------------------------

// The table part a picker edits (its data-part), drawn highlighted while the picker is open.
function partId(part, m) {
  const P = part.p + 1;
  switch (part.kind) {
    case "easel": return `easel ${part.e + 1}`;
    case "space": return `space ${part.where}`;
    case "pigments": case "tools": return `player ${P} ${part.kind}`;
    case "painting": return part.k < m.players[part.p].paintings.length
      ? `player ${P} painting ${part.k + 1}` : `player ${P} painting add`;
    default: return part.kind;
  }
}

function Table({ info, setup, refusals, turn }) {
  const [part, setPart] = useState(null);
  if (!info || !info.state) return html`<p>No position.</p>`;
  cardsOf(info.game);
  learn(info.state);
  const text = setup ? setup.notation : info.notation;
  const m = model(info, text);
  const marks = refusalParts(refusals, m);
  const open = setup ? (p) => setPart(p) : null;
  OPEN_PART = part && setup ? partId(part, m) : null;
  const write = (keyword, value, section = null) => {
    setup.setNotation(setLine(setup.notation, keyword, value === null ? null : String(value), section));
  };
  const anchors = {};
  const cur = info.currentPlayer ?? info.state.current_player;
  const header = Header({ m, open, marks, anchors });
  const board = Board({ m, open, marks, anchors });
  const easelY = 414;
  const easels = Easels({ m, open, marks, anchors, y0: easelY + 16 });
  const ry = easelY + 16 + 96 + 4;
  const removed = html`<${Part} id="removed" label=${`out of the game: ${m.removed.map(cardLabel).join(", ") || "none"}`}
      x=${4} y=${ry} w=${W - 8} hgt=${20} open=${open && (() => open({ kind: "removed" }))}
      marks=${messagesFor(marks, "removed")}>
    <text class="cdp-small" x=${10} y=${ry + 14}>Out of the game: ${m.removed.map(cardLabel).join(", ") || "none"}</text>
  </${Part}>`;
  let y = ry + 26;
  const panels = m.players.map((_, p) => {
    const r = PlayerPanel({ m, p, open, marks, anchors, y0: y, current: cur === p });
    y += r.height + 6;
    return r.el;
  });
  const steps = turn && turn.length ? TurnMarks({ steps: turn, m, cur, anchors }) : null;
  return html`<div class="cdp-table">
    <svg viewBox=${`0 0 ${W} ${y}`} class="cdp-svg" role="group"
        aria-label=${`Couleurs de Paris, ${m.n} players, round ${m.round}`}>
      ${header}${board}${easels}${removed}${panels}${steps}
    </svg>
    ${part ? html`<${Picker} part=${part} m=${m} write=${write} setup=${setup} marks=${marks} close=${() => setPart(null)} />` : null}
    ${turn && turn.length ? html`<ol class="cdp-steps">${turn.map((s) => html`<li>${s.text}</li>`)}</ol>` : null}
    ${refusals && refusals.length ? html`<ul class="cdp-refusals" aria-label="what the table refuses">
      ${refusals.map((r) => html`<li data-field=${r.field || ""}>${r.field ? html`<strong>${r.field}</strong>: ` : null}${r.message}</li>`)}</ul>` : null}
  </div>`;
}

function derived(state) {
  if (!state) return [];
  learn(state);
  const out = [];
  if (state.supply) {
    out.push({ label: "supply", value: COLOURS.map((c) => `${LETTER[c].toUpperCase()}${state.supply[c]}`).join(" ") });
  }
  if (state.deck) {
    out.push({ label: "paintings in the deck", value: `${state.deck.length}: ${state.deck.map((c) => "#" + c).join(" ")}` });
  }
  if (state.removed && state.removed.length) {
    out.push({ label: "removed", value: state.removed.map((c) => "#" + c).join(" ") });
  }
  if (state.scores) {
    out.push({ label: "scores", value: state.scores.map((s, p) => `player ${p + 1} ${s}`).join(", ") });
  }
  if (state.boards) {
    out.push({ label: "assistants hired", value: state.boards.map((b, p) => `player ${p + 1} ${b.assistants}`).join(", ") });
    const left = state.boards.map((b, p) => (b.to_place ? `player ${p + 1} ${b.to_place}` : null)).filter(Boolean);
    if (left.length) out.push({ label: "assistants left to place", value: left.join(", ") });
  }
  if (state.final_round) out.push({ label: "last round", value: "yes (an end condition occurred, §23)" });
  return out;
}

// Mid-game positions reached in play (round 4, the act phase), one per player count.
const samples = {
  2: `couleurs_de_paris
round 4
phase act player 1
first player 1
rotation 3
easels #20; #30; #11
player 1
  pigments orange 1 blue 3
  tools brush 2
  standing acquire red; acquire white
  lying paint
  painting #6: r..wbrr..
  painting #16: ..o......
player 2
  pigments red 2 orange 1 blue 1 white 6
  tools palette 2
  standing take a painting; acquire white
  lying paint
  painting #24: .o......r
`,
  3: `couleurs_de_paris(players=3)
round 4
phase act player 1
first player 1
rotation 3
easels #0; #22; -; #16
player 1
  pigments blue 1 white 3
  tools brush 2
  standing mix green; acquire white
  lying paint
  painting #11: .w...b.rg
  painting #26: ..b..g...
player 2
  pigments yellow 1 white 4
  tools palette 2 brush 2
  standing mix violet; acquire white
  lying paint
  painting #15: .v..w..v.
player 3
  pigments orange 2 yellow 2 green 2 white 6
  tools brush 2
  standing acquire red; acquire white
  lying take a painting
  painting #3: .........
  painting #9: .........
`,
  4: `couleurs_de_paris(players=4)
round 4
phase act player 1
first player 1
rotation 3
easels #5; -; #29; #7
player 1
  pigments white 4
  tools brush 2
  standing acquire red; acquire red
  lying paint
  painting #8: ...y...y.
  painting #13: .yr..b..y
player 2
  pigments red 1 yellow 4 white 2
  tools brush 2
  standing mix orange; acquire blue
  lying paint
  painting #19: ...b....r
  painting #21: .w.r.r...
player 3
  pigments red 1 yellow 1 green 2 white 3
  tools brush 3
  standing acquire red; mix orange
  lying take a painting
  painting #6: .........
  painting #27: .........
player 4
  pigments red 2 orange 2 violet 2 white 6
  tools brush 2
  standing mix green; mix violet
  lying mix violet
`,
};

export default { name: "couleurs_de_paris", Table, derived, samples, css: "couleurs_de_paris.css" };
