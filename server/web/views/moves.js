// What the play and review views share about moves: reading a typed move
// against the legal texts (the rules of `easel play`, server/playtable/
// moves.py: case and the amount of white space ignored; a full text wins
// over a start of a longer one; else any start no other text shares; else
// the starts of its words in order) and numbering steps into turns as the
// EGN writer does (docs/records.md, "The moves"; search/egn.py layout).
import { useState, useEffect } from "../vendor/hooks.js";
import { html } from "../html.js";
import { moduleFor } from "../games/index.js";


// The views' stylesheet, linked once (a <link> from this origin: the page's
// Content-Security-Policy admits no inline style sheet).
const SHEET = new URL("./play.css", import.meta.url).href;
export function linkStyle() {
  if (document.querySelector(`link[href="${SHEET}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = SHEET;
  document.head.append(link);
}

// As engine/textio.py normalise_text: lower case, runs of white space as one
// space, none at the ends or around commas.
export function normalise(text) {
  return String(text || "").toLowerCase().replace(/\s+/g, " ").replace(/ ?, ?/g, ",").trim();
}

function wordStarts(wanted, text) {
  // Each typed word starts a word of the text, in order.
  const words = text.split(/[ ,:;()\-]+/).filter(Boolean);
  let i = 0;
  for (const part of wanted.split(/[ ,]+/).filter(Boolean)) {
    while (i < words.length && !words[i].startsWith(part)) i++;
    if (i === words.length) return false;
    i++;
  }
  return true;
}

// The indices of the texts that `typed` may mean: one index when it names
// one move, several when it is ambiguous, all when it is empty.
export function matching(typed, texts) {
  const wanted = normalise(typed);
  if (!wanted) return texts.map((_, i) => i);
  const normal = texts.map(normalise);
  const exact = normal.flatMap((t, i) => (t === wanted ? [i] : []));
  if (exact.length) return exact;
  const starts = normal.flatMap((t, i) => (t.startsWith(wanted) ? [i] : []));
  if (starts.length) return starts;
  return normal.flatMap((t, i) => (wordStarts(wanted, t) ? [i] : []));
}

// steps: [{player}] with player -1 for chance. Returns [{number, player,
// start, end}] as search/egn.py layout numbers them.
export function layout(steps, numPlayers) {
  const turns = [];
  let start = 0, player = null, number = 0;
  steps.forEach((s, i) => {
    const p = s.player ?? 0;
    if (p < 0) return;
    if (i === 0 || p !== player || (numPlayers === 1 && (steps[i - 1].player ?? 0) < 0)) {
      if (i > start || player !== null) turns.push({ number, player, start, end: i });
      number += 1; player = p; start = i;
    }
  });
  if (steps.length > start || player !== null) {
    turns.push({ number, player, start, end: steps.length });
  }
  return turns;
}

// The turn number of each step (its EGN move number).
export function moveNumbers(steps, numPlayers) {
  const out = new Array(steps.length).fill(0);
  for (const t of layout(steps, numPlayers)) for (let i = t.start; i < t.end; i++) out[i] = t.number;
  return out;
}

// The move list as EGN-like text lines: "3. P1: take red; *bag: ..." with
// each step a button when onPick is given (the review steps to it).
// seatName(p) names a player; current: the number of steps shown (the step
// just played is marked).
export function MoveList({ steps, numPlayers, seatName, current = -1, onPick, label }) {
  const turns = layout(steps, numPlayers);
  return html`<ol class="move-list" aria-label=${label || "moves"}>
    ${turns.map((t) => html`<li key=${t.number}>
      <span class="number">${t.number}.</span>${" "}<span class="who">${t.player === null ? "chance" : seatName(t.player)}:</span>${" "}
      ${steps.slice(t.start, t.end).map((s, k) => {
        const i = t.start + k, text = (s.player ?? 0) < 0 ? `*${s.text}` : s.text;
        const here = i === current - 1;
        // The ";" after a step stays on its line (the item does not break
        // between them; the step's own text still wraps).
        const sep = i < t.end - 1 ? ";" : "";
        return html`${k ? " " : ""}<span class="item">${onPick
          ? html`<button type="button" class=${"step" + (here ? " here" : "")}
              aria-current=${here ? "step" : null} onClick=${() => onPick(i + 1)}>${text}</button>`
          : html`<span class=${"step" + (here ? " here" : "")}>${text}</span>`}${sep}</span>`;
      })}
    </li>`)}
  </ol>`;
}

// A turn of steps (Candidate.turn PvSteps, or a review's best turn) in the
// Table's `turn` form: [{id, text, player, isChance}].
export function tableTurn(pvSteps) {
  return (pvSteps || []).map((s) => ({
    id: s.id ?? 0, text: s.text || "", player: s.player ?? 0, isChance: !!s.isChance,
  }));
}


// The game's Table (its module from the registry, generic.js where a game
// has none), read-only (setup = null), with what the module derives shown
// under it. info: PositionInfo JSON; turn: null or steps to draw.
export function PositionTable({ info, turn = null }) {
  const [loaded, setLoaded] = useState({ name: null, module: null });
  const name = String(info.game || "").replace(/\(.*$/, "");
  useEffect(() => {
    let live = true;
    Promise.resolve(moduleFor(name)).then((m) => live && setLoaded({ name, module: m }));
    return () => { live = false; };
  }, [name]);
  // Never another game's module with this game's state (a review that opens
  // a record of another game renders once before the new module is in).
  const module = loaded.name === name ? loaded.module : null;
  if (!module) return html`<p role="status">Loading the table…</p>`;
  const derived = module.derived ? module.derived(info.state || {}) : [];
  return html`<div class="position-table">
    <${module.Table} info=${info} setup=${null} refusals=${[]} turn=${turn} />
    ${derived.length > 0 && html`<dl class="derived">${derived.map((d) => html`
      <dt>${d.label}</dt><dd>${String(d.value)}</dd>`)}</dl>`}
  </div>`;
}
