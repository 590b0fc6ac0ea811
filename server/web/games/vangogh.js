// Van Gogh's table for the web page (issue #26; contract: the game module of
// the set-up, hint, play and review views). The table is drawn in one SVG from
// the position's JSON view (engine/vangogh/ENCODING.md "State fields"); in the
// set-up view every part the table notation names (ENCODING.md "Table
// notation") is a button whose picker rewrites that one notation line, so a
// person clicks the position in front of them into the page.
import { useState, useEffect, useRef } from "../vendor/hooks.js";
import { html } from "../html.js";
import { setLine } from "../notation.js";

// The notation's words (ENCODING.md "Table notation"): a Minigogh is a colour
// letter and an orientation letter, the JSON view names them in full.
const COLOURS = ["yellow", "blue", "pink", "green", "purple", "white"];
const CL = ["Y", "B", "P", "G", "V", "W"];
const ORIENTS = ["lying down", "sideway", "upright", "upside down"];
const OL = ["L", "S", "U", "D"];
const FILL = { yellow: "#f3c623", blue: "#3a6ccf", pink: "#ef76ad", green: "#3c9a4d",
               purple: "#7c4bb2", white: "#fbfbf6" };
const INK = { yellow: "#1d1d1d", blue: "#ffffff", pink: "#1d1d1d", green: "#ffffff",
              purple: "#ffffff", white: "#1d1d1d" };
const CHAR_WORDS = ["VanGogh", "DrGachet", "MadameGinoux", "Anna", "Postman", "Eugene"];
const CHAR_NAMES = ["Van Gogh", "Dr. Gachet", "Madame Ginoux", "Anna", "Postman", "Eugene"];
const ANNA = 3;
const PHASES = ["setup_cards", "setup_table", "setup_palette", "choose", "wait_keep", "step",
                "ginoux_draw", "ginoux_keep", "roll", "sec_draw", "eugene_take", "refill",
                "card", "blue_draw", "blue_orient", "blue_discard", "brush", "eor"];
const ACTIVE_CAP = 7;
const TABLE_SIZE = 5;
const INACTIVE_EP = [1, 3, 5];          // RULINGS.md R4: an empty inactive space's worth
// Action ids (ENCODING.md "Decision actions"): a hint's steps name their ids.
const A = { DONE: 6, PAINT: 7, REORIENT: 532, RESTART: 628, EPIPHANY: 652, TAKE: 653,
            KEEP: 677, YELLOW: 682, PINK: 710, BLUE: 737, BLUE_ORIENT: 738,
            BLUE_DISCARD: 742, BRUSH: 766 };

// ---------------------------------------------------------------------------
// Minigoghs: "BU" <-> "blue-upright"

export function codeOf(name) {
  if (!name) return null;
  const s = String(name).trim();
  if (/^[YBPGVW][LSUD]$/i.test(s)) return s.toUpperCase();
  const i = s.indexOf("-");
  const c = COLOURS.indexOf(s.slice(0, i).toLowerCase());
  const o = ORIENTS.indexOf(s.slice(i + 1).toLowerCase());
  return i < 0 || c < 0 || o < 0 ? null : CL[c] + OL[o];
}
const colourOf = (code) => COLOURS[CL.indexOf(code[0])];
const orientOf = (code) => ORIENTS[OL.indexOf(code[1])];
const fullName = (code) => `${colourOf(code)}-${orientOf(code)}`;
const codeRank = (code) => CL.indexOf(code[0]) * 4 + OL.indexOf(code[1]);
const codeFromId = (n) => CL[Math.floor(n / 4)] + OL[n % 4];
const sortCodes = (list) => [...list].sort((a, b) => codeRank(a) - codeRank(b));
// RULINGS.md R14: the inactive spaces as set up hold the palette's colour lying
// down, sideway, upright; a notation leaves such an area out.
const setupInactive = (colour) => ["L", "S", "U"].map((o) => CL[COLOURS.indexOf(colour)] + o);

// ---------------------------------------------------------------------------
// The table as the pickers see it: from the JSON view, then (while the text is
// refused, so the view is the last position that loaded) each notation line
// that reads plainly laid over it, so a click shows at once.

const cardCache = new Map();            // card id -> {name, frame, orientations, bonus}

function modelFromState(st) {
  const names = st.card_names || [];
  const open = new Set();
  const paintings = (st.paintings || []).map((p) => {
    if (p.card == null || p.card < 0) return null;
    open.add(p.card);
    const card = { name: p.name ?? names[p.card] ?? `#${p.card}`, frame: p.frame || [],
                   orientations: p.orientations || [], bonus: p.bonus || [] };
    cardCache.set(p.card, card);
    return { card: p.card, ...card, occ: (p.occupants || []).map(codeOf) };
  });
  const deck = new Set(st.deck || []);
  const framed = names.map((_, i) => i).filter((i) => !deck.has(i) && !open.has(i));
  return {
    n: st.players, colors: st.colors || (st.palettes || []).map((p) => p.color),
    round: st.round, scores: [...(st.scores || [])], token: st.token_holder ?? -1,
    abilitySpent: !!st.ability_spent, brushUsed: !!st.brush_used,
    chosen: (st.characters || []).map((c) => !!c.taken),
    waiting: (st.characters || []).map((c) => (c.waiting || []).map(codeOf)),
    charNames: (st.characters || []).map((c, i) => c.name || CHAR_NAMES[i]),
    table: sortCodes((st.table || []).map(codeOf)),
    paintings, framed, cardNames: names,
    palettes: (st.palettes || []).map((p) => ({
      color: p.color, active: sortCodes((p.active || []).map(codeOf)),
      inactive: (p.inactive || []).map(codeOf) })),
    phase: st.phase, turnPlayer: st.turn_player, current: st.current_player,
    bag: st.bag || null, whites: st.whites ?? null,
    written: {},
  };
}

// The notation's statements, keyword (lower case, numbered ones with their
// number) -> the rest of the statement. Only for laying lines over the view.
function statements(text) {
  const out = {};
  for (const raw of String(text || "").split("\n")) {
    const line = raw.replace(/(^|\s)#(\s.*|$)/, "");
    for (const part of line.split(";")) {
      const words = part.trim().split(/\s+/).filter(Boolean);
      if (!words.length) continue;
      let key = words[0].toLowerCase().replace(/:$/, "");
      let rest = part.trim().slice(words[0].length).trim();
      if ((key === "painting" || key === "palette") && words.length > 1) {
        const num = words[1].replace(/:$/, "");
        key = `${key} ${num}`;
        rest = rest.slice(words[1].length).trim();
      }
      out[key] = rest.replace(/^:\s*/, "");
    }
  }
  return out;
}

const codesOf = (words) => {
  const out = words.map((w) => (w === "." ? "." : codeOf(w)));
  return out.every(Boolean) ? out : null;
};
const playerOf = (word, n) => {
  const p = Number(word);
  return Number.isInteger(p) && p >= 1 && p <= n ? p - 1 : null;
};
function charOf(word) {
  const w = word.toLowerCase();
  const alias = { gachet: 1, ginoux: 2 };
  if (w in alias) return alias[w];
  const i = CHAR_WORDS.findIndex((c) => c.toLowerCase() === w);
  return i < 0 ? null : i;
}
function cardOfTitle(title, names) {
  const t = title.trim().toLowerCase();
  const id = /^#(\d+)$/.exec(t);
  if (id) return Number(id[1]) < names.length ? Number(id[1]) : null;
  const exact = names.findIndex((x) => x.toLowerCase() === t);
  if (exact >= 0) return exact;
  const pre = names.map((x, i) => [x, i]).filter(([x]) => t.length >= 4 && x.toLowerCase().startsWith(t));
  return pre.length === 1 ? pre[0][1] : null;
}

function overlay(m, text) {
  const s = statements(text);
  const w = (k) => (k in s ? s[k] : undefined);
  const n = m.n;
  // The bag of the last position that loaded says nothing of this text.
  const out = { ...m, written: s, bag: null, whites: null };
  if (/^\d+$/.test(w("round") || "")) out.round = Number(w("round"));
  if (w("scores") !== undefined) {
    const sc = w("scores").split(/\s+/).map(Number);
    if (sc.length === n && sc.every((x) => Number.isInteger(x) && x >= 0)) out.scores = sc;
  }
  const tok = w("token") ?? w("hat");
  if (tok === undefined) out.token = -1;
  else if (tok === "-") out.token = -1;
  else if (playerOf(tok, n) !== null) out.token = playerOf(tok, n);
  out.abilitySpent = (w("ability") || "").toLowerCase() === "spent";
  out.brushUsed = (w("brush") || "").toLowerCase() === "used";
  if (w("chosen") === undefined || w("chosen") === "-") out.chosen = m.chosen.map(() => false);
  else {
    const cs = w("chosen").split(/\s+/).map(charOf);
    if (cs.every((c) => c !== null)) out.chosen = m.chosen.map((_, i) => cs.includes(i));
  }
  if (w("table") === undefined || w("table") === "-") out.table = [];
  else {
    const t = codesOf(w("table").split(/\s+/));
    if (t && !t.includes(".")) out.table = sortCodes(t);
  }
  if (w("waiting") === undefined || w("waiting") === "-") out.waiting = m.waiting.map(() => []);
  else {
    const wt = m.waiting.map(() => []);
    let ok = true;
    for (const item of w("waiting").split(",")) {
      const [c, ...xs] = item.trim().split(/\s+/);
      const ci = charOf(c || "");
      const codes = codesOf(xs);
      if (ci === null || !codes || codes.includes(".") || codes.length > 2) ok = false;
      else wt[ci] = codes;
    }
    if (ok) out.waiting = wt;
  }
  if (w("framed") === undefined || w("framed") === "-") out.framed = [];
  else {
    const ids = w("framed").split(",").map((x) => cardOfTitle(x, m.cardNames));
    if (ids.every((x) => x !== null)) out.framed = ids;
  }
  out.paintings = m.paintings.map((p, k) => {
    const line = w(`painting ${k + 1}`);
    if (line === undefined) return p;
    if (line.trim() === "-") return null;
    const cut = line.lastIndexOf(":");
    const title = cut < 0 ? line : line.slice(0, cut);
    const cid = cardOfTitle(title, m.cardNames);
    if (cid === null) return p;
    const card = cardCache.get(cid);
    const words = cut < 0 ? [] : line.slice(cut + 1).trim().split(/\s+/).filter(Boolean);
    const codes = codesOf(words);
    if (!codes) return p;
    const size = card ? card.orientations.length : codes.length;
    const occ = Array.from({ length: size }, (_, i) => (codes[i] && codes[i] !== "." ? codes[i] : null));
    return { card: cid, name: m.cardNames[cid], frame: card?.frame || [],
             orientations: card?.orientations || [], bonus: card?.bonus || [], occ,
             unknown: !card };
  });
  out.palettes = m.palettes.map((p, i) => {
    const line = w(`palette ${i + 1}`);
    if (line === undefined) return p;
    const [act, ina] = line.split("/");
    const aw = act.trim() === "-" || !act.trim() ? [] : act.trim().split(/\s+/);
    const a = codesOf(aw);
    const ia = ina === undefined ? setupInactive(p.color) : codesOf(ina.trim().split(/\s+/));
    if (!a || a.includes(".") || !ia || ia.length !== 3) return p;
    return { ...p, active: sortCodes(a), inactive: ia.map((x) => (x === "." ? null : x)) };
  });
  return out;
}

// ---------------------------------------------------------------------------
// The lines the pickers write (the writer's shortest form, ENCODING.md).

const titleOf = (m, cid) => {
  const name = m.cardNames[cid] ?? `#${cid}`;
  const twice = m.cardNames.filter((x) => x === name).length > 1;
  return twice || /[;,:]|\s#/.test(name) ? `#${cid}` : name;
};
const lines = {
  painting: (m, k, p) => (p === null ? "-" : titleOf(m, p.card) +
    (p.occ.some(Boolean) ? ": " + p.occ.map((x) => x || ".").join(" ") : "")),
  palette: (p) => (p.active.length ? sortCodes(p.active).join(" ") : "-") +
    (p.inactive.every((x, i) => x === setupInactive(p.color)[i]) ? ""
      : " / " + p.inactive.map((x) => x || ".").join(" ")),
  table: (m) => (m.table.length ? sortCodes(m.table).join(" ") : null),
  waiting: (m) => {
    const items = m.waiting.map((ws, c) => (ws.length ? `${CHAR_WORDS[c]} ${ws.join(" ")}` : null))
      .filter(Boolean);
    return items.length ? items.join(", ") : null;
  },
  chosen: (m) => {
    const cs = m.chosen.map((x, c) => (x ? CHAR_WORDS[c] : null)).filter(Boolean);
    return cs.length ? cs.join(" ") : null;
  },
  framed: (m) => (m.framed.length ? m.framed.map((c) => titleOf(m, c)).join(", ") : null),
};

// ---------------------------------------------------------------------------
// Drawing

function Figure({ x, y, size, orient, ink }) {
  // A Minigogh's little painter, turned as the orientation says (the letter
  // beside it says it too: shape is never the only cue).
  const rot = { "upright": 0, "upside down": 180, "lying down": -90, "sideway": 90 }[orient] ?? 0;
  const s = size / 20;
  return html`<g transform=${`translate(${x},${y}) rotate(${rot}) scale(${s})`} fill=${ink}
      stroke="none" aria-hidden="true">
    <circle cx="0" cy="-6" r="3" />
    <path d="M-4 -2 h8 l1 8 h-3 v4 h-4 v-4 h-3 z" />
  </g>`;
}

function Tile({ x, y, size, code, dim }) {
  const c = colourOf(code);
  const o = orientOf(code);
  return html`<g class="vg-tile" opacity=${dim ? 0.45 : 1}>
    <rect x=${x} y=${y} width=${size} height=${size} rx="5" fill=${FILL[c]}
      stroke=${c === "white" ? "#777" : "#2a2a2a"} stroke-width="1" />
    <${Figure} x=${x + size * 0.5} y=${y + size * 0.4} size=${size * 0.55} orient=${o} ink=${INK[c]} />
    <text x=${x + size / 2} y=${y + size - 3} text-anchor="middle" font-size=${size * 0.33}
      font-weight="700" fill=${INK[c]}>${code}</text>
  </g>`;
}

function EmptySlot({ x, y, size, orient, label }) {
  return html`<g class="vg-empty">
    <rect x=${x} y=${y} width=${size} height=${size} rx="5" fill="#f7f3ea" stroke="#9a917f"
      stroke-dasharray="3 2" />
    ${orient ? html`<${Figure} x=${x + size / 2} y=${y + size * 0.42} size=${size * 0.5}
        orient=${orient} ink="#c9c0ae" />` : null}
    ${label ? html`<text x=${x + size / 2} y=${y + size - 3} text-anchor="middle"
        font-size=${size * 0.3} fill="#8a806c">${label}</text>` : null}
  </g>`;
}

// A clickable part: a real button for the keyboard (role, tabindex, Enter and
// Space), or plain drawing when the table is read-only.
function Part({ id, label, onOpen, open, refused, children, box }) {
  const cls = "vg-part" + (refused ? " vg-refused" : "") + (open ? " vg-open" : "");
  const hit = box ? html`<rect class="vg-hit" x=${box.x - 2} y=${box.y - 2} width=${box.w + 4}
      height=${box.h + 4} rx="6" />` : null;
  if (!onOpen) return html`<g class=${cls} data-part=${id}>${children}${hit}</g>`;
  const key = (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onOpen(); }
  };
  return html`<g class=${cls} data-part=${id} tabindex="0" role="button" aria-label=${label}
      onClick=${onOpen} onKeyDown=${key}>
    <title>${label}${refused ? " — refused: " + refused : ""}</title>${children}${hit}</g>`;
}

const textWidth = (s, size) => String(s).length * size * 0.56 + 14;

// ---------------------------------------------------------------------------
// Which part a refusal names (its field, else the keyword on its line).

function partOfField(field, line, text) {
  let f = String(field || "").toLowerCase().replace(/,.*$/, "").trim();
  if (!f && line > 0) {
    const l = String(text || "").split("\n")[line - 1] || "";
    const w = l.trim().split(/\s+/);
    f = (w[0] || "").toLowerCase();
    if ((f === "painting" || f === "palette") && w[1]) f += " " + w[1].replace(/:$/, "");
  }
  const m = /^(painting|palette) (\d+)/.exec(f);
  if (m) return `${m[1]}:${Number(m[2]) - 1}`;
  if (f === "hat") return "token";
  if (["phase", "doing", "actor", "steps", "used", "hand", "draws", "queue", "blue", "resume",
       "card-slot", "eor", "setup"].includes(f)) return "underway";
  if (["round", "scores", "token", "chosen", "framed", "table", "waiting", "turn", "ability",
       "brush", "painting"].includes(f)) return f;
  return "general";
}

// ---------------------------------------------------------------------------
// A hint's turn: each step's targets and sources (by the step's action id).

// The turn is followed on a copy of the palettes (`sim`), so a Minigogh that a
// step brings in (an epiphany, a take) is found where it went by the next step.
function newSim(m) {
  return m.palettes.map((pal) => ({
    active: Array.from({ length: ACTIVE_CAP }, (_, i) => pal.active[i] || null),
    inactive: [...pal.inactive] }));
}

function stepMarks(step, m, player, sim) {
  const id = step.id;
  const text = step.text || "";
  const p = step.player ?? player;
  if (step.isChance) {
    const card = /onto painting (\d+)/.exec(text);
    return card ? { targets: [`painting:${Number(card[1]) - 1}`] } : { targets: [] };
  }
  if (id == null) return { targets: [] };
  const pal = sim[p] || { active: [], inactive: [] };
  const place = (code) => {            // into the first free active space
    const j = pal.active.indexOf(null);
    if (j < 0) return `palette:${p}`;
    pal.active[j] = code;
    return `active:${p}:${j}`;
  };
  const active = (code, remove) => {
    const i = pal.active.indexOf(code);
    if (i < 0) return `palette:${p}`;
    if (remove) pal.active[i] = null;
    return `active:${p}:${i}`;
  };
  const leftmost = (remove) => {
    const i = pal.inactive.findIndex(Boolean);
    if (i < 0) return [`palette:${p}`, null];
    const code = pal.inactive[i];
    if (remove) pal.inactive[i] = null;
    return [`inactive:${p}:${i}`, code];
  };
  if (id < 6) {
    const targets = [`char:${id}`];
    for (const code of m.waiting[id] || []) if (m.phase !== "wait_keep") place(code);
    return { targets };
  }
  if (id === A.DONE || id === A.BLUE || id === A.BRUSH) return { targets: [] };
  if (id >= A.PAINT && id < A.REORIENT) {
    let x = id - A.PAINT;
    const space = x % 7; x = Math.floor(x / 7);
    const slot = x % 3; const src = Math.floor(x / 3);
    return { sources: [src < 24 ? active(codeFromId(src), true) : leftmost(true)[0]],
             targets: [`space:${slot}:${space}`] };
  }
  if (id < A.RESTART) {
    const x = id - A.REORIENT;
    const code = codeFromId(Math.floor(x / 4));
    const at = active(code, false);
    const i = pal.active.indexOf(code);
    if (i >= 0) pal.active[i] = code[0] + OL[x % 4];
    return { targets: [at] };
  }
  if (id < A.EPIPHANY) {
    const code = codeFromId(id - A.RESTART);
    const at = active(code, false);
    const i = pal.active.indexOf(code);
    if (i >= 0) pal.active[i] = "W" + code[1];
    return { targets: [at] };
  }
  if (id === A.EPIPHANY) {
    const [from, code] = leftmost(true);
    return { sources: [from], targets: [code ? place(code) : `palette:${p}`] };
  }
  if (id < A.KEEP) {
    const code = codeFromId(id - A.TAKE);
    const t = m.table.indexOf(code);
    const from = m.phase === "wait_keep"
      ? m.waiting.map((ws, c) => (ws.includes(code) ? `waiting:${c}:${ws.indexOf(code)}` : null))
        .find(Boolean)
      : (t >= 0 ? `table:${t}` : null);
    return { sources: from ? [from] : [], targets: [place(code)] };
  }
  if (id < A.YELLOW) return { targets: [`palette:${p}`] };
  if (id < A.PINK) {
    const t = Math.floor((id - A.YELLOW) / 4);
    return { targets: [t < 4 ? active("Y" + OL[t], false) : `inactive:${p}:${t - 4}`] };
  }
  if (id < A.BLUE) {
    const t = id - A.PINK;
    return { targets: [t < 24 ? active(codeFromId(t), false) : `inactive:${p}:${t - 24}`] };
  }
  if (id >= A.BLUE_DISCARD && id < A.BRUSH) return { targets: [active(codeFromId(id - A.BLUE_DISCARD), true)] };
  return { targets: [`palette:${p}`] };
}

// ---------------------------------------------------------------------------
// The table

function useWidth(ref) {
  const [width, setWidth] = useState(800);
  useEffect(() => {
    if (!ref.current) return undefined;
    const ro = new ResizeObserver((es) => setWidth(es[0].contentRect.width || 800));
    ro.observe(ref.current);
    setWidth(ref.current.getBoundingClientRect().width || 800);
    return () => ro.disconnect();
  }, []);
  return width;
}

function Table({ info, setup, refusals, turn }) {
  const ref = useRef(null);
  const width = useWidth(ref);
  const [pick, setPick] = useState(null);
  // While the text is refused the page may hand no position: the last one that
  // loaded is drawn, with the text's readable lines laid over it.
  const last = useRef(null);
  if (info && info.state && info.state.palettes) last.current = info;
  const shown = setup ? last.current : info;
  const st = shown && shown.state;
  if (!st || !st.palettes) {
    return html`<div class="vg-table" ref=${ref}><p>No Van Gogh position to draw.</p></div>`;
  }
  const base = modelFromState(st);
  // The pickers write from the text as it is now: clicks may come faster than
  // the page reads them, and a line composed from the last answer would undo
  // the clicks not yet read. Lines that do not read plainly keep the answer's.
  const m = setup ? overlay(base, setup.notation) : base;
  if (setup && !(refusals || []).length) { m.bag = base.bag; m.whites = base.whites; }
  // One drawing unit is about one pixel from 400 to 960 wide: text stays
  // readable, and the columns follow the room there is.
  const W = Math.round(Math.max(400, Math.min(960, width || 800)));
  const refusedParts = {};
  for (const r of refusals || []) {
    const part = partOfField(r.field, r.line, setup?.notation);
    (refusedParts[part] = refusedParts[part] || []).push(r.message);
  }
  const write = setup ? (kw, value) => setup.setNotation(setLine(setup.notation, kw, value)) : null;
  const open = setup ? (p) => () => setPick(p) : () => null;
  const drawing = drawTable(m, { W, refusedParts, open, pick, setup, turn, info: shown });
  return html`<div class="vg-table" ref=${ref}>
    ${drawing}
    ${turn && turn.length ? html`<ol class="vg-steps">${turn.map((s, i) => html`<li key=${i}>
        <span class="vg-badge">${i + 1}</span>
        ${s.isChance ? "chance: " : `player ${(s.player ?? shown.currentPlayer ?? 0) + 1}: `}${s.text}</li>`)}
      </ol>` : null}
    ${Object.keys(refusedParts).length ? html`<ul class="vg-refusals" role="alert">
        ${Object.entries(refusedParts).map(([part, msgs], r) => msgs.map((msg, i) => html`<li
          key=${part + i} data-refused=${part}><span class="vg-rbadge">!${r + 1}</span>
          <strong>${partName(part, m)}</strong>: ${msg}</li>`))}</ul>` : null}
    ${setup && pick ? html`<${Picker} pick=${pick} m=${m} write=${write} setPick=${setPick}
        refused=${refusedParts[pickPart(pick)]} />` : null}
  </div>`;
}

function partName(part, m) {
  const [kind, k] = part.split(":");
  if (kind === "painting" && k !== undefined) return `painting ${Number(k) + 1}`;
  if (kind === "palette") return `palette ${Number(k) + 1}`;
  if (kind === "underway") return "the turn under way";
  if (kind === "general") return "the position";
  return kind;
}
function pickPart(pick) {
  if (!pick) return null;
  if (pick.kind === "painting" || pick.kind === "space") return `painting:${pick.k}`;
  if (pick.kind === "active" || pick.kind === "inactive") return `palette:${pick.p}`;
  if (pick.kind === "waitingSlot" || pick.kind === "char") return pick.kind === "char" ? "chosen" : "waiting";
  if (pick.kind === "tableSlot") return "table";
  return pick.kind;
}

function drawTable(m, ctx) {
  const { W, refusedParts, open, pick, setup, turn, info } = ctx;
  const narrow = W < 640;
  const pad = 8;
  const T = narrow ? 31 : 34;              // a Minigogh tile
  const step = T + 4;
  const pos = {};                          // part id -> box, for the turn's marks
  const els = [];
  const ref = (part) => (refusedParts[part] ? refusedParts[part].join(" ") : null);
  const isOpen = (p) => pick && JSON.stringify(pick) === JSON.stringify(p);
  let y = pad;

  // Header: round, whose turn, phase / under way, token, ability, brush.
  const chips = [];
  const n = m.n;
  chips.push({ id: "round", text: `Round ${m.round}`, p: { kind: "round" },
               label: `round ${m.round}: change the round` });
  const who = m.current >= 0 ? `player ${m.current + 1}` : m.current === -1 ? "chance" : "nobody";
  chips.push({ id: "turn", text: `To move: ${who}`, p: { kind: "turn" },
               label: `whose turn: ${who}${m.written.turn ? " (written)" : " (derived)"}` });
  const doing = m.written.doing ? ` · doing ${m.written.doing}` : "";
  chips.push({ id: "underway", text: `Phase: ${m.written.phase || m.phase}${doing}`,
               p: { kind: "underway" }, label: `phase ${m.phase}: the turn under way` });
  if (n > 1) {
    chips.push({ id: "token", text: `Token: ${m.token < 0 ? "nobody" : "player " + (m.token + 1)}`,
                 p: { kind: "token" }, label: "the Starting Player token" });
    chips.push({ id: "ability", text: `Anna's ability: ${m.abilitySpent ? "spent" : "open"}`,
                 p: { kind: "ability" }, label: "Anna's colour ability this round" });
  } else {
    chips.push({ id: "brush", text: `Brush: ${m.brushUsed ? "used" : "unused"}`,
                 p: { kind: "brush" }, label: "the solo brush token this round" });
  }
  let x = pad;
  const chipH = 26;
  for (const c of chips) {
    const w = textWidth(c.text, 13);
    if (x + w > W - pad) { x = pad; y += chipH + 6; }
    const box = { x, y, w, h: chipH };
    pos[c.id] = box;
    els.push(html`<${Part} key=${c.id} id=${c.id} label=${c.label} onOpen=${setup && open(c.p)}
        open=${isOpen(c.p)} refused=${ref(c.id)} box=${box}>
      <rect x=${x} y=${y} width=${w} height=${chipH} rx="13" fill="#fff" stroke="#6b6153" />
      <text x=${x + w / 2} y=${y + 17.5} text-anchor="middle" font-size="13">${c.text}</text>
    </${Part}>`);
    x += w + 6;
  }
  y += chipH + 12;
  if (setup && String(m.phase).startsWith("setup") && !m.written.doing) {
    // NewGame's position is the box being set up; a table in play begins at a turn.
    const text = narrow ? "▶ Begin at a turn (the set-up is done)"
      : `▶ Begin at a turn: the set-up (phase ${m.phase}) is done`;
    const w = textWidth(text, 13);
    pos.begin = { x: pad, y, w, h: chipH };
    els.push(html`<${Part} key="begin" id="begin" label="begin at a turn: the set-up is done"
        onOpen=${() => setup.setNotation(setLine(setup.notation, "phase", null))} box=${pos.begin}>
      <rect x=${pad} y=${y} width=${w} height=${chipH} rx="13" fill="#8a3b00" />
      <text x=${pad + w / 2} y=${y + 17.5} text-anchor="middle" font-size="13" fill="#fff"
        font-weight="700">${text}</text>
    </${Part}>`);
    y += chipH + 10;
  }

  // Paintings on offer.
  const cols = W >= 680 ? 3 : 1;            // three across, or one under another
  const gap = 8;
  const colW = (W - 2 * pad - (cols - 1) * gap) / cols;
  const sp = Math.min(step + 2, (colW - 16) / 7);
  const tileP = sp - 4;
  const cardH = 44 + tileP + 18;
  m.paintings.forEach((p, k) => {
    const cx = pad + (k % cols) * (colW + gap);
    const cy = y + Math.floor(k / cols) * (cardH + gap);
    const id = `painting:${k}`;
    pos[id] = { x: cx, y: cy, w: colW, h: cardH };
    const title = p ? p.name : String(m.phase).startsWith("setup")
      ? "(no painting yet: click to choose)" : "(empty slot: the deck ran out)";
    const head = html`<${Part} key=${id} id=${id} open=${isOpen({ kind: "painting", k })}
        label=${`painting ${k + 1}: ${p ? p.name : "empty slot"} — choose the painting`}
        onOpen=${setup && open({ kind: "painting", k })} refused=${ref(id)}
        box=${{ x: cx, y: cy, w: colW, h: 38 }}>
      <rect x=${cx} y=${cy} width=${colW} height="38" rx="8" fill="#fffaf0" />
      <text x=${cx + 8} y=${cy + 16} font-size="13" font-weight="700">
        ${`${k + 1}. `}${title.length > 34 ? title.slice(0, 33) + "…" : title}</text>
      <text x=${cx + 8} y=${cy + 32} font-size="11" fill="#5b5246">${p
        ? `frame ${p.frame.join(" / ")} EP · ${p.orientations.length || p.occ.length} spaces`
          + (p.unknown ? " (shown when the position loads)" : "")
        : "no painting"}</text>
    </${Part}>`;
    els.push(html`<rect key=${id + "bg"} x=${cx} y=${cy} width=${colW} height=${cardH} rx="8"
        fill="#fffaf0" stroke="#7a6a4f" />`);
    els.push(head);
    if (!p) return;
    const size = p.orientations.length || p.occ.length;
    for (let s = 0; s < size; s++) {
      const sx = cx + 8 + s * sp;
      const sy = cy + 40;
      const sid = `space:${k}:${s}`;
      const o = p.orientations[s];
      const code = p.occ[s];
      pos[sid] = { x: sx, y: sy, w: tileP, h: tileP };
      const lab = `painting ${k + 1}, space ${s + 1}` + (o ? ` (${o}${p.bonus[s] ? ", +1 EP" : ""})` : "")
        + `: ${code ? fullName(code) : "empty"}`;
      els.push(html`<${Part} key=${sid} id=${sid} label=${lab} open=${isOpen({ kind: "space", k, s })}
          onOpen=${setup && open({ kind: "space", k, s })} box=${pos[sid]}>
        ${code ? html`<${Tile} x=${sx} y=${sy} size=${tileP} code=${code} />`
          : html`<${EmptySlot} x=${sx} y=${sy} size=${tileP} orient=${o}
              label=${o ? OL[ORIENTS.indexOf(o)] : ""} />`}
        <text x=${sx + tileP / 2} y=${sy + tileP + 12} text-anchor="middle" font-size="10"
          fill="#5b5246">${`${s + 1}${o ? "·" + OL[ORIENTS.indexOf(o)] : ""}${p.bonus[s] ? " +1" : ""}`}</text>
      </${Part}>`);
    }
  });
  y += Math.ceil(m.paintings.length / cols) * (cardH + gap);

  // Framed paintings, then the table's inactive Minigoghs.
  const framedText = `Framed (${m.framed.length}): ` +
    (m.framed.length ? m.framed.map((c) => m.cardNames[c] || `#${c}`).join(", ") : "none");
  const fw = Math.min(W - 2 * pad, textWidth(framedText, 12));
  pos.framed = { x: pad, y, w: fw, h: 24 };
  els.push(html`<${Part} key="framed" id="framed" label="the finished paintings (framed)"
      open=${isOpen({ kind: "framed" })} onOpen=${setup && open({ kind: "framed" })}
      refused=${ref("framed")} box=${pos.framed}>
    <rect x=${pad} y=${y} width=${fw} height="24" rx="6" fill="#efe6d2" stroke="#7a6a4f" />
    <text x=${pad + 8} y=${y + 16} font-size="12">${framedText.length > (fw - 14) / 6.7
      ? framedText.slice(0, Math.floor((fw - 14) / 6.7) - 1) + "…" : framedText}</text>
  </${Part}>`);
  y += 32;

  const tableW = 70 + TABLE_SIZE * step;
  els.push(html`<text key="tablelabel" x=${pad} y=${y + T / 2 + 5} font-size="13"
      font-weight="700">Table</text>`);
  for (let i = 0; i < TABLE_SIZE; i++) {
    const tx = pad + 56 + i * step;
    const id = `table:${i}`;
    const code = m.table[i];
    pos[id] = { x: tx, y, w: T, h: T };
    els.push(html`<${Part} key=${id} id=${id} open=${isOpen({ kind: "tableSlot", i })}
        label=${`table, inactive Minigogh ${i + 1}: ${code ? fullName(code) : "empty"}`}
        onOpen=${setup && open({ kind: "tableSlot", i })}
        box=${pos[id]}>
      ${code ? html`<${Tile} x=${tx} y=${y} size=${T} code=${code} />`
        : html`<${EmptySlot} x=${tx} y=${y} size=${T} />`}
    </${Part}>`);
  }
  pos.table = { x: pad + 56, y, w: tableW - 56, h: T };
  y += T + 14;

  // Characters: chosen this round, Minigoghs waiting on them.
  const ccols = W >= 900 ? 6 : 3;
  const cw = (W - 2 * pad - (ccols - 1) * 6) / ccols;
  const chH = 30 + T + 8;
  m.charNames.forEach((name, c) => {
    const cx = pad + (c % ccols) * (cw + 6);
    const cy = y + Math.floor(c / ccols) * (chH + 6);
    const id = `char:${c}`;
    const solo = n === 1 && c === ANNA;
    pos[id] = { x: cx, y: cy, w: cw, h: chH };
    els.push(html`<rect key=${id + "bg"} x=${cx} y=${cy} width=${cw} height=${chH} rx="8"
        fill=${m.chosen[c] ? "#d9d2c3" : solo ? "#eee" : "#fffaf0"} stroke="#7a6a4f"
        stroke-dasharray=${m.chosen[c] ? "5 3" : null} />`);
    els.push(html`<${Part} key=${id} id=${id} open=${isOpen({ kind: "char", c })}
        label=${`${name}: ${m.chosen[c] ? "chosen this round" : "not chosen"}`}
        onOpen=${setup && !solo && open({ kind: "char", c })}
        refused=${ref("chosen")} box=${{ x: cx, y: cy, w: cw, h: 24 }}>
      <rect x=${cx + 1} y=${cy + 1} width=${cw - 2} height="28" rx="8" fill="transparent" />
      <text x=${cx + 6} y=${cy + 15} font-size=${narrow ? 11.5 : 12.5} font-weight="700">${name}</text>
      <text x=${cx + 6} y=${cy + 27} font-size="10.5" fill="#5b5246">${solo ? "not in solo"
        : m.chosen[c] ? "✓ chosen" : "free"}</text>
    </${Part}>`);
    if (solo) return;
    for (let i = 0; i < 2; i++) {
      const wx = cx + 6 + i * step;
      const wy = cy + 32;
      const wid = `waiting:${c}:${i}`;
      const code = m.waiting[c][i];
      pos[wid] = { x: wx, y: wy, w: T - 4, h: T - 4 };
      els.push(html`<${Part} key=${wid} id=${wid} open=${isOpen({ kind: "waitingSlot", c, i })}
          label=${`waiting on ${name}, ${i + 1}: ${code ? fullName(code) : "none"}`}
          onOpen=${setup && open({ kind: "waitingSlot", c, i })}
          box=${pos[wid]}>
        ${code ? html`<${Tile} x=${wx} y=${wy} size=${T - 4} code=${code} />`
          : html`<${EmptySlot} x=${wx} y=${wy} size=${T - 4} />`}
      </${Part}>`);
    }
  });
  const charRows = Math.ceil(m.charNames.length / ccols);
  pos.chosen = pos.waiting = { x: pad, y, w: W - 2 * pad, h: charRows * (chH + 6) - 6 };
  y += charRows * (chH + 6) + 8;

  // Palettes: score, token, active area, inactive area (1/3/5 EP when empty).
  const pcols = W >= 820 ? 2 : 1;
  const pw = (W - 2 * pad - (pcols - 1) * 10) / pcols;
  const palH = 26 + T + 20;
  m.palettes.forEach((pal, p) => {
    const px = pad + (p % pcols) * (pw + 10);
    const py = y + Math.floor(p / pcols) * (palH + 8);
    const pid = `palette:${p}`;
    pos[pid] = { x: px, y: py, w: pw, h: palH };
    const colour = pal.color;
    els.push(html`<g key=${pid + "bg"}>
      <rect x=${px} y=${py} width=${pw} height=${palH} rx="8" fill="#fffaf0"
        stroke=${m.current === p ? "#1d1d1d" : "#7a6a4f"} stroke-width=${m.current === p ? 2.5 : 1} />
      <rect x=${px} y=${py} width="8" height=${palH} rx="3" fill=${FILL[colour] || "#ccc"} />
      <text x=${px + 14} y=${py + 17} font-size="13" font-weight="700">${`Player ${p + 1} · ${colour}`
        }${m.current === p ? " · to move" : ""}</text>
    </g>`);
    const sid = `scores:${p}`;
    const stext = `${m.scores[p] ?? 0} EP`;
    const sw = textWidth(stext, 13);
    const sx = px + pw - sw - 6;
    pos[sid] = { x: sx, y: py + 3, w: sw, h: 20 };
    els.push(html`<${Part} key=${sid} id=${sid} label=${`player ${p + 1}'s score: ${stext}`}
        open=${isOpen({ kind: "scores", p })} onOpen=${setup && open({ kind: "scores", p })}
        refused=${ref("scores")} box=${pos[sid]}>
      <rect x=${sx} y=${py + 3} width=${sw} height="20" rx="10" fill="#fff" stroke="#6b6153" />
      <text x=${sx + sw / 2} y=${py + 17} text-anchor="middle" font-size="13">${stext}</text>
    </${Part}>`);
    if (m.token === p) {
      const tx = sx - 30;
      els.push(html`<g key=${pid + "tok"} aria-label="holds the Starting Player token">
        <title>Starting Player token</title>
        <circle cx=${tx + 12} cy=${py + 13} r="10" fill="#1d1d1d" />
        <text x=${tx + 12} y=${py + 17} text-anchor="middle" font-size="10" fill="#fff"
          font-weight="700">SP</text></g>`);
    }
    const ay = py + 26;
    const act = pal.active;
    const firstEmpty = act.length;
    for (let i = 0; i < ACTIVE_CAP; i++) {
      const ax = px + 14 + i * step;
      const aid = `active:${p}:${i}`;
      const code = act[i];
      const pk = { kind: "active", p, i: code ? i : firstEmpty };
      pos[aid] = { x: ax, y: ay, w: T, h: T };
      els.push(html`<${Part} key=${aid} id=${aid} open=${isOpen({ kind: "active", p, i })}
          label=${`palette ${p + 1}, active ${i + 1}: ${code ? fullName(code) : "empty"}`}
          onOpen=${setup && open(pk)} box=${pos[aid]}>
        ${code ? html`<${Tile} x=${ax} y=${ay} size=${T} code=${code} />`
          : html`<${EmptySlot} x=${ax} y=${ay} size=${T} />`}
      </${Part}>`);
    }
    const ix0 = px + 14 + ACTIVE_CAP * step + 8;
    els.push(html`<line key=${pid + "sep"} x1=${ix0 - 6} x2=${ix0 - 6} y1=${ay - 2} y2=${ay + T + 14}
        stroke="#7a6a4f" stroke-width="1.5" />`);
    for (let i = 0; i < 3; i++) {
      const ix = ix0 + i * step;
      const iid = `inactive:${p}:${i}`;
      const code = pal.inactive[i];
      pos[iid] = { x: ix, y: ay, w: T, h: T };
      els.push(html`<${Part} key=${iid} id=${iid} open=${isOpen({ kind: "inactive", p, i })}
          label=${`palette ${p + 1}, inactive space ${i + 1}: ${code ? fullName(code) : "empty"}`}
          onOpen=${setup && open({ kind: "inactive", p, i })} box=${pos[iid]}>
        ${code ? html`<${Tile} x=${ix} y=${ay} size=${T} code=${code} />`
          : html`<${EmptySlot} x=${ix} y=${ay} size=${T} label=${`${INACTIVE_EP[i]} EP`} />`}
        <text x=${ix + T / 2} y=${ay + T + 12} text-anchor="middle" font-size="10"
          fill="#5b5246">${`in ${i + 1}`}</text>
      </${Part}>`);
    }
    els.push(html`<text key=${pid + "lab"} x=${px + 14} y=${ay + T + 12} font-size="10"
        fill="#5b5246">active (${act.length}/7)</text>`);
  });
  y += Math.ceil(m.palettes.length / pcols) * (palH + 8);
  pos.scores = pos["scores:0"];
  pos.painting = { x: pad, y: pos["painting:0"].y, w: W - 2 * pad,
                   h: pos[`painting:${m.paintings.length - 1}`].y + cardH - pos["painting:0"].y };

  // Refusals: the region each names outlined in red, numbered as the list under the table.
  const refusalMarks = Object.keys(refusedParts).map((part, r) => {
    const b = pos[part];
    if (!b) return null;
    return html`<g key=${"r" + part} class="vg-refusal-mark" data-refused=${part}>
      <rect x=${b.x - 4} y=${b.y - 4} width=${b.w + 8} height=${b.h + 8} rx="8" fill="none"
        stroke="#c5221f" stroke-width="3" />
      <rect x=${b.x - 6} y=${b.y - 12} width="26" height="16" rx="8" fill="#c5221f" />
      <text x=${b.x + 7} y=${b.y} text-anchor="middle" font-size="11" font-weight="700"
        fill="#fff">!${r + 1}</text></g>`;
  });

  // A hint's turn: numbered marks on what it uses and where it goes.
  const marks = [];
  if (turn && turn.length) {
    const player = info.currentPlayer ?? m.current;
    const seen = {};
    const sim = newSim(m);
    turn.forEach((s, i) => {
      const mk = stepMarks(s, m, player, sim);
      const badge = (id, kind) => {
        const b = pos[id];
        if (!b) return;
        const k = (seen[id] = (seen[id] || 0) + 1);
        marks.push(html`<rect key=${`m${i}${id}${kind}`} class=${`vg-mark vg-${kind}`}
            x=${b.x - 3} y=${b.y - 3} width=${b.w + 6} height=${b.h + 6} rx="6" />`);
        const bx = b.x + b.w - 2 - (k - 1) * 20;
        marks.push(html`<g key=${`b${i}${id}${kind}`} class="vg-stepbadge">
          <circle cx=${bx} cy=${b.y - 1} r="9" fill=${kind === "target" ? "#b3001b" : "#1d1d1d"} />
          <text x=${bx} y=${b.y + 3} text-anchor="middle" font-size="11" font-weight="700"
            fill="#fff">${i + 1}</text></g>`);
      };
      (mk.sources || []).forEach((id) => badge(id, "source"));
      mk.targets.forEach((id) => badge(id, "target"));
      if (mk.sources && mk.sources[0] && mk.targets[0] && pos[mk.sources[0]] && pos[mk.targets[0]]) {
        const a = pos[mk.sources[0]];
        const b = pos[mk.targets[0]];
        marks.push(html`<line key=${`a${i}`} class="vg-arrow" x1=${a.x + a.w / 2} y1=${a.y + a.h / 2}
            x2=${b.x + b.w / 2} y2=${b.y + b.h / 2} marker-end="url(#vg-arrowhead)" />`);
      }
    });
  }

  return html`<svg class="vg-svg" viewBox=${`0 0 ${W} ${y + 4}`} role="group"
      aria-label=${`Van Gogh table, round ${m.round}`} xmlns="http://www.w3.org/2000/svg">
    <defs><marker id="vg-arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"
      markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#b3001b" />
    </marker></defs>
    <rect x="0" y="0" width=${W} height=${y + 4} fill="#f1e9d8" rx="10" />
    ${els}
    <g class="vg-marks" pointer-events="none">${marks}${refusalMarks}</g>
  </svg>`;
}

// ---------------------------------------------------------------------------
// Pickers: each writes one notation line and offers only sensible values.

function MinigoghGrid({ colours, orients, onPick, current, disabled }) {
  // A row per orientation, a button per colour: the letters say both.
  return html`<div class="vg-grid" role="group">
    ${orients.map((o) => html`<div class="vg-row" key=${o}>
      ${colours.map((c) => {
        const code = CL[COLOURS.indexOf(c)] + OL[ORIENTS.indexOf(o)];
        const off = disabled && disabled(code);
        return html`<button key=${code} type="button" class=${"vg-mg" + (code === current ? " vg-current" : "")}
            style=${`background:${FILL[c]};color:${INK[c]}`} disabled=${off}
            title=${fullName(code) + (off ? " (none left)" : "")} aria-label=${fullName(code)}
            data-code=${code} onClick=${() => onPick(code)}>${code}</button>`;
      })}<span class="vg-orient">${o}</span></div>`)}
  </div>`;
}

// A Minigogh the box has no more of (the bag or the white supply is empty)
// can only replace one of its own colour; unknown while the text is refused.
const noneLeft = (m, replaced) => (code) => {
  if (!m.bag || (replaced && replaced[0] === code[0])) return false;
  if (code[0] === "W") return m.whites === 0;
  return m.bag[colourOf(code)] === 0;
};

function Picker({ pick, m, write, setPick, refused }) {
  const close = () => setPick(null);
  // The keyboard lands in the picker it opened (Escape closes it).
  const box = useRef(null);
  const which = JSON.stringify(pick);
  useEffect(() => {
    const first = box.current && box.current.querySelector(".vg-current, button:not(:disabled)");
    if (first) first.focus({ preventScroll: true });
  }, [which]);
  const n = m.n;
  let title = "";
  let body = null;
  if (pick.kind === "round") {
    title = `round ${m.round}`;
    const set = (r) => { if (r >= 1) write("round", String(r)); };
    body = html`<div class="vg-counter">
      <button type="button" onClick=${() => set(m.round - 1)} aria-label="one round earlier">−</button>
      <span>${m.round}</span>
      <button type="button" onClick=${() => set(m.round + 1)} aria-label="one round later">+</button></div>
      <div class="vg-choices">${Array.from({ length: n === 1 ? 5 : 10 }, (_, i) => i + 1).map((r) =>
        html`<button type="button" key=${r} class=${r === m.round ? "vg-current" : ""}
          onClick=${() => set(r)}>round ${r}</button>`)}</div>`;
  } else if (pick.kind === "scores") {
    title = "scores (EP)";
    const set = (p, d) => {
      const sc = [...m.scores];
      sc[p] = Math.max(0, (sc[p] || 0) + d);
      write("scores", sc.join(" "));
    };
    body = html`${m.scores.map((s, p) => html`<div class="vg-counter" key=${p}>
      <span class="vg-who">player ${p + 1}</span>
      ${[-10, -5, -1].map((d) => html`<button type="button" key=${d} data-player=${p + 1}
        data-delta=${d} onClick=${() => set(p, d)}>${d}</button>`)}
      <span class="vg-value">${s} EP</span>
      ${[1, 5, 10].map((d) => html`<button type="button" key=${d} data-player=${p + 1}
        data-delta=${d} onClick=${() => set(p, d)}>+${d}</button>`)}</div>`)}`;
  } else if (pick.kind === "token") {
    title = "the Starting Player token";
    body = html`<div class="vg-choices">
      <button type="button" onClick=${() => { write("token", null); close(); }}
        class=${m.token < 0 ? "vg-current" : ""}>nobody</button>
      ${m.scores.map((_, p) => html`<button type="button" key=${p}
        class=${m.token === p ? "vg-current" : ""}
        onClick=${() => { write("token", String(p + 1)); close(); }}>player ${p + 1}</button>`)}</div>`;
  } else if (pick.kind === "turn") {
    title = "whose turn (written only when Anna moved the token this round)";
    body = html`<div class="vg-choices">
      <button type="button" onClick=${() => { write("turn", null); close(); }}
        class=${m.written.turn ? "" : "vg-current"}>derived (leave it out)</button>
      ${m.scores.map((_, p) => html`<button type="button" key=${p}
        class=${m.written.turn === String(p + 1) ? "vg-current" : ""}
        onClick=${() => { write("turn", String(p + 1)); close(); }}>player ${p + 1}</button>`)}</div>`;
  } else if (pick.kind === "ability" || pick.kind === "brush") {
    const on = pick.kind === "ability" ? m.abilitySpent : m.brushUsed;
    const word = pick.kind === "ability" ? "spent" : "used";
    title = pick.kind === "ability" ? "Anna's colour ability this round" : "the brush token this round";
    body = html`<div class="vg-choices">
      <button type="button" class=${on ? "" : "vg-current"}
        onClick=${() => { write(pick.kind, null); close(); }}>${pick.kind === "ability" ? "open" : "unused"}</button>
      <button type="button" class=${on ? "vg-current" : ""}
        onClick=${() => { write(pick.kind, word); close(); }}>${word}</button></div>`;
  } else if (pick.kind === "painting") {
    const k = pick.k;
    const here = m.paintings[k];
    title = `painting ${k + 1}`;
    const taken = new Set([...m.framed, ...m.paintings.map((p, i) => (p && i !== k ? p.card : null))]);
    const free = m.cardNames.map((name, cid) => ({ name, cid })).filter(({ cid }) => !taken.has(cid));
    body = html`<p class="vg-note">The paintings not yet on the table:</p>
      <div class="vg-choices">${free.map(({ name, cid }) => html`<button type="button" key=${cid}
        class=${here && here.card === cid ? "vg-current" : ""} data-card=${cid}
        onClick=${() => { write(`painting ${k + 1}`, titleOf(m, cid)); close(); }}>${name}</button>`)}
        <button type="button" onClick=${() => { write(`painting ${k + 1}`, "-"); close(); }}>
          - (empty slot: the deck ran out)</button></div>`;
  } else if (pick.kind === "framed") {
    title = "framed (the finished paintings)";
    const open = new Set(m.paintings.filter(Boolean).map((p) => p.card));
    const toggle = (cid) => {
      const f = m.framed.includes(cid) ? m.framed.filter((x) => x !== cid) : [...m.framed, cid];
      write("framed", lines.framed({ ...m, framed: f.sort((a, b) => a - b) }));
    };
    body = html`<div class="vg-choices">${m.cardNames.map((name, cid) => (open.has(cid) ? null
      : html`<button type="button" key=${cid} aria-pressed=${m.framed.includes(cid)} data-card=${cid}
          class=${m.framed.includes(cid) ? "vg-current" : ""} onClick=${() => toggle(cid)}>
          ${m.framed.includes(cid) ? "✓ " : ""}${name}</button>`))}</div>`;
  } else if (pick.kind === "space") {
    const { k, s } = pick;
    const p = m.paintings[k];
    if (!p) return null;
    const o = p.orientations[s];
    const size = p.orientations.length || p.occ.length;
    title = `painting ${k + 1}, space ${s + 1}` + (o ? ` (requires ${o})` : "");
    const put = (code) => {
      const occ = Array.from({ length: size }, (_, i) => p.occ[i] || null);
      occ[s] = code;
      write(`painting ${k + 1}`, lines.painting(m, k, { ...p, occ }));
      setPick(s + 1 < size && code ? { kind: "space", k, s: s + 1 } : null);
    };
    const [all, setAll] = [pick.all, (v) => setPick({ ...pick, all: v })];
    body = html`${o && !all ? html`<p class="vg-note">A Minigogh ${o} (the space's orientation):</p>` : null}
      <${MinigoghGrid} colours=${COLOURS} orients=${o && !all ? [o] : ORIENTS} onPick=${put}
        current=${p.occ[s]} disabled=${noneLeft(m, p.occ[s])} />
      <div class="vg-choices">
        <button type="button" onClick=${() => put(null)}>. (empty)</button>
        ${o ? html`<button type="button" onClick=${() => setAll(!all)}>${all
          ? "only the required orientation" : "another orientation (green's ability)"}</button>` : null}
      </div>`;
  } else if (pick.kind === "tableSlot" || pick.kind === "waitingSlot") {
    const isTable = pick.kind === "tableSlot";
    const list = isTable ? m.table : m.waiting[pick.c];
    const i = Math.min(pick.i, list.length);
    title = isTable ? `table, inactive Minigogh ${i + 1}`
      : `waiting on ${m.charNames[pick.c]}, Minigogh ${i + 1}`;
    const cap = isTable ? TABLE_SIZE : 2;
    const put = (code) => {
      const next = [...list];
      if (code) next[i] = code; else next.splice(i, 1);
      if (isTable) write("table", lines.table({ ...m, table: next }));
      else {
        const wt = m.waiting.map((x, c) => (c === pick.c ? next : x));
        write("waiting", lines.waiting({ ...m, waiting: wt }));
      }
      const more = code && i + 1 < cap;
      setPick(more ? { ...pick, i: Math.min(i + 1, next.length) } : null);
    };
    body = html`<${MinigoghGrid} colours=${COLOURS.slice(0, 5)} orients=${ORIENTS} onPick=${put}
        current=${list[i]} disabled=${noneLeft(m, list[i])} />
      ${list[i] ? html`<div class="vg-choices"><button type="button" onClick=${() => put(null)}>
        remove ${list[i]}</button></div>` : null}`;
  } else if (pick.kind === "char") {
    const c = pick.c;
    title = m.charNames[c];
    const toggle = () => {
      write("chosen", lines.chosen({ ...m, chosen: m.chosen.map((x, i) => (i === c ? !x : x)) }));
      close();
    };
    body = html`<div class="vg-choices"><button type="button" onClick=${toggle}
        aria-pressed=${m.chosen[c]}>${m.chosen[c] ? `not chosen this round` : `chosen this round`}
      </button></div>
      <p class="vg-note">The Minigoghs waiting on ${m.charNames[c]}: click its slots on the table.</p>`;
  } else if (pick.kind === "active") {
    const p = pick.p;
    const pal = m.palettes[p];
    const i = Math.min(pick.i, pal.active.length);
    title = `palette ${p + 1} (player ${p + 1}), active Minigogh ${i + 1}`;
    const put = (code) => {
      const next = [...pal.active];
      if (code) next[i] = code; else next.splice(i, 1);
      const sorted = sortCodes(next);
      write(`palette ${p + 1}`, ": " + lines.palette({ ...pal, active: sorted }));
      setPick(code && !pal.active[i] && next.length < ACTIVE_CAP
        ? { kind: "active", p, i: next.length } : null);
    };
    body = html`<${MinigoghGrid} colours=${COLOURS} orients=${ORIENTS} onPick=${put}
        current=${pal.active[i]} disabled=${noneLeft(m, pal.active[i])} />
      ${pal.active[i] ? html`<div class="vg-choices"><button type="button" onClick=${() => put(null)}>
        remove ${pal.active[i]}</button></div>` : null}`;
  } else if (pick.kind === "inactive") {
    const { p, i } = pick;
    const pal = m.palettes[p];
    title = `palette ${p + 1}, inactive space ${i + 1} (${INACTIVE_EP[i]} EP when empty)`;
    const put = (code) => {
      const ina = [...pal.inactive];
      ina[i] = code;
      write(`palette ${p + 1}`, ": " + lines.palette({ ...pal, inactive: ina }));
      close();
    };
    body = html`<p class="vg-note">Only the palette's own colour (${pal.color}) stands here.</p>
      <${MinigoghGrid} colours=${[pal.color]} orients=${ORIENTS} onPick=${put} current=${pal.inactive[i]}
        disabled=${noneLeft(m, pal.inactive[i])} />
      <div class="vg-choices"><button type="button" onClick=${() => put(null)}>. (empty)</button></div>`;
  } else if (pick.kind === "underway") {
    title = "phase and the turn under way";
    body = html`<${UnderWay} m=${m} write=${write} />`;
  }
  const key = (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } };
  return html`<div class="vg-picker" role="dialog" aria-label=${title} ref=${box} onKeyDown=${key}>
    <div class="vg-picker-head"><strong>${title}</strong>
      <button type="button" class="vg-close" onClick=${close} aria-label="close the picker">×</button></div>
    ${refused ? html`<p class="vg-refused-text">${refused.join(" ")}</p>` : null}
    ${body}
  </div>`;
}

// The lines of a turn under way (ENCODING.md: doing, actor, phase, used, steps,
// hand, draws, queue, blue, resume, card-slot, eor, setup), each a row of choices.
function UnderWay({ m, write }) {
  const w = m.written;
  const row = (kw, label, values, current) => html`<div class="vg-line" key=${kw}>
    <span class="vg-who">${label}</span>
    <button type="button" class=${current == null ? "vg-current" : ""}
      onClick=${() => write(kw, null)}>—</button>
    ${values.map((v) => html`<button type="button" key=${v}
      class=${current != null && current.toLowerCase() === v.toLowerCase() ? "vg-current" : ""}
      onClick=${() => write(kw, v)}>${v}</button>`)}</div>`;
  const players = m.scores.map((_, p) => String(p + 1));
  const chars = CHAR_WORDS.flatMap((c) => [`${c} primary`, `${c} secondary`]);
  const colourLetters = CL.slice(0, 5);
  const multi = (kw, label, cur) => {
    const have = (cur || "").split(/\s+/).filter(Boolean);
    return html`<div class="vg-line" key=${kw}><span class="vg-who">${label}</span>
      <button type="button" onClick=${() => write(kw, null)}>—</button>
      ${colourLetters.map((c) => html`<button type="button" key=${c}
        onClick=${() => write(kw, [...have, c].join(" "))}>+${c}</button>`)}
      <span class="vg-value">${cur || ""}</span></div>`;
  };
  return html`<div class="vg-underway">
    ${row("phase", "phase", PHASES, w.phase)}
    ${row("doing", "doing", chars, w.doing)}
    ${row("actor", "actor", players, w.actor)}
    ${row("used", "used", ["paint", "restart", "epiphany", "paint restart", "paint epiphany",
      "restart epiphany"], w.used)}
    ${row("steps", "steps", ["0", "1", "2", "3"], w.steps)}
    ${multi("hand", "hand", w.hand)}
    ${row("draws", "draws", ["0", "1", "2", "3"], w.draws)}
    ${multi("queue", "queue", w.queue)}
    ${row("blue", "blue", colourLetters, w.blue)}
    ${row("resume", "resume", ["choose", "step"], w.resume)}
    ${row("card-slot", "card-slot", [1, 2, 3].flatMap((k) => [`${k} then choose`, `${k} then step`]),
      w["card-slot"])}
    ${row("eor", "eor", [...CHAR_WORDS, "end"], w.eor)}
    ${row("setup", "setup", Array.from({ length: 11 }, (_, i) => String(i)), w.setup)}
  </div>`;
}

// ---------------------------------------------------------------------------

function derived(state) {
  if (!state || !state.bag) return [];
  // in the rulebook's colour order (a Struct's keys come sorted by name)
  const bag = COLOURS.slice(0, 5).map((c) => [c, state.bag[c] ?? 0]);
  const names = state.card_names || [];
  const tpr = state.players === 2 ? 4 : state.players === 1 ? 3 : state.players;
  const out = [
    { label: "bag", value: bag.map(([c, k]) => `${CL[COLOURS.indexOf(c)]}${k}`).join(" ") +
      ` (${bag.reduce((s, [, k]) => s + k, 0)} Minigoghs)` },
    { label: "white supply", value: String(state.whites) },
    { label: "unseen paintings (deck)", value: `${(state.deck || []).length}` +
      ((state.deck || []).length ? ": " + state.deck.map((c) => names[c] || `#${c}`).join(", ") : "") },
    { label: "paintings finished", value: String(state.finished) },
    { label: "turn of the round", value: `${state.turn ?? 1} of ${tpr}` },
    { label: "round's starter", value: `player ${state.round_starter + 1}` },
  ];
  return out;
}

// A mid-game position per player count (reached by play: the heuristic
// player 4 moves in 5 with seed 0; 3 players is docs/at-the-table.md's).
const samples = {
  1: `vangogh(players=1)
round 3
chosen Eugene
scores 35
painting 1 Placeholder painting 13: . PU GL VD . . BL
painting 2 Placeholder painting 11: . PL . YL . .
painting 3 Placeholder painting 6: . PD . VL GU
table BU BU PD GU VS
waiting MadameGinoux BD GL, Postman BU
palette 1: YU YD BU VL / . YS YU
`,
  2: `vangogh(players=2)
round 4
chosen VanGogh DrGachet Eugene
token 2
scores 29 37
painting 1 Placeholder painting 14: . . BD . . . .
painting 2 Placeholder painting 5
painting 3 Placeholder painting 6: . PD GS PL .
framed Placeholder painting 11, Placeholder painting 13
table PD PD GL GD VD
waiting MadameGinoux GL
palette 1: YU PD GS VS VS VD / . YS YU
palette 2: YD PD GD VU / . . BU
`,
  3: `vangogh(players=3)
round 4
chosen Eugene
token 2
scores 12 22 16
painting 1 Placeholder painting 5: BU . . VD .
painting 2 Placeholder painting 11: . . GU . . .
painting 3 Placeholder painting 6: VU PD GS . YU
framed Placeholder painting 13
table BL PD GL GU VD
waiting DrGachet GS, MadameGinoux YL GS, Anna YS GL
palette 1: YL BL PS PD GL VU VD / . YS YU
palette 2: YS BL PD VU
palette 3: PU
`,
  4: `vangogh(players=4)
round 3
chosen VanGogh
token 3
scores 9 11 27 11
painting 1 Placeholder painting 13: . VU VL PD . . YL
painting 2 Placeholder painting 4: PL GS . BL .
painting 3 Placeholder painting 6: . . BS . .
framed Placeholder painting 11
table YS YS BU VL VU
waiting MadameGinoux PL, Anna BD
palette 1: YL BU PU GD VD / . YS YU
palette 2: BL BU PU PD / . BS BU
palette 3: VD / . PS PU
palette 4: YD GL VU VU
`,
  5: `vangogh(players=5)
round 3
chosen Eugene
token 3
scores 27 17 11 8 32
painting 1 Placeholder painting 1
painting 2 Placeholder painting 10: . . BS PL . .
painting 3 Placeholder painting 6: . YD VS BL .
framed Placeholder painting 11, Placeholder painting 13
table YD BL PL GL GU
waiting MadameGinoux VL
palette 1: PS GL VS / . YS YU
palette 2: BL BS PU GS / . BS BU
palette 3: YS YU PU PU GS GD
palette 4: YU BL PD GL GS VU / . GS GU
palette 5: BL VL VS VU / . . .
`,
};

export default { name: "vangogh", Table, derived, samples, css: "vangogh.css" };
// For the tests and other modules: the readers the pickers use.
export { statements, overlay, modelFromState, partOfField, stepMarks, A as ACTION_IDS, CHAR_WORDS };
