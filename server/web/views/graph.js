// The review's win-probability graph (issue #26): one line per player over
// the game, each point the deciding player's win probability after the turn
// played (ReviewedDecision.played_win_probability), as the HTML page of
// `easel review --html` draws it (search/review_page.py). Every player has
// its own marker shape and dash pattern and every flagged turn its letter
// mark (?!, ?, ??), so colour is never the only cue. A point is a button: a
// click, Enter or Space goes to that turn.
import { useState, useEffect, useRef } from "../vendor/hooks.js";
import { html } from "../html.js";


// SVG user units. The drawing is as wide, in user units, as the box that
// holds it is in pixels (from 320 to 900), so that its labels keep their
// size on a phone and in a narrow column alike.
const MIN_WIDTH = 320, MAX_WIDTH = 900, HEIGHT_OF = (w) => Math.round(Math.min(260, Math.max(200, w * 0.4)));
const LEFT = 44, RIGHT = 12, TOP = 12, BOTTOM = 40;
const COLOURS = ["#1f5fa8", "#c0392b", "#23803a", "#7d3c98", "#c26a00", "#6b4c3b"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4"];
// The review's classes (docs/review.md, "Thresholds"), with the marks chess
// readers know; JUDGEMENT_GOOD and forced turns are not marked.
export const JUDGEMENTS = {
  JUDGEMENT_INACCURACY: { word: "inaccuracy", mark: "?!", colour: "#9a7400" },
  JUDGEMENT_MISTAKE: { word: "mistake", mark: "?", colour: "#b35300" },
  JUDGEMENT_BLUNDER: { word: "blunder", mark: "??", colour: "#b00000" },
};

export function playerColour(p) { return COLOURS[p % COLOURS.length]; }

// A marker per player: circle, square, triangle, diamond, ... (the shape
// tells the players apart without their colours).
export function Marker({ player, x, y, r = 4, fill }) {
  const colour = fill || playerColour(player);
  switch (player % 4) {
    case 0: return html`<circle cx=${x} cy=${y} r=${r} fill=${colour} />`;
    case 1: return html`<rect x=${x - r} y=${y - r} width=${2 * r} height=${2 * r} fill=${colour} />`;
    case 2: return html`<polygon points=${`${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`}
      fill=${colour} />`;
    default: return html`<polygon points=${`${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`}
      fill=${colour} />`;
  }
}

// Up to about `want` tick values from `first` to `last`, round ones between.
export function ticks(first, last, want = 8) {
  const span = Math.max(1, last - first);
  const raw = span / want;
  const base = Math.pow(10, Math.floor(Math.log10(raw)));
  // Moves are whole numbers: a step of at least 1.
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * base).find((s) => s >= raw) || 10 * base);
  // The first and the last move are always labelled; a round tick too close
  // to either gives way.
  const out = [first];
  for (let v = Math.ceil(first / step) * step; v < last; v += step) {
    if (v - first > step / 2 && last - v > step / 2) out.push(v);
  }
  if (last !== first) out.push(last);
  return out;
}

// decisions: ReviewedDecision JSON (camelCase); numPlayers; current: the
// step index the page shows (its turn is outlined); onPick(decision).
// The width of the element `ref` holds, followed as it changes.
function useWidth(ref, initial) {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    if (!ref.current || typeof ResizeObserver === "undefined") return undefined;
    const observer = new ResizeObserver((entries) => {
      const w = Math.round(entries[0].contentRect.width);
      if (w > 0) setWidth(w);
    });
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, []);
  return width;
}

export function WinGraph({ decisions, numPlayers, current = -1, onPick }) {
  const box = useRef(null);
  const WIDTH = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, useWidth(box, 640)));
  const HEIGHT = HEIGHT_OF(WIDTH);
  const narrow = WIDTH < 480;
  const shown = decisions.filter((d) => !d.forced);
  const moves = decisions.map((d) => d.move || 0);
  const first = Math.min(1, ...moves), last = Math.max(first + 1, ...moves);
  // The turns of one move number (a painting game's turn split by a chance
  // outcome: Van Gogh's bag, Starving Artists' market, each part reviewed
  // as a turn) share SPREAD of the way to the next move, in order, so that
  // none is drawn on another and hides its mark.
  const SPREAD = 0.6;
  const count = new Map(), place = new Map();
  for (const d of shown) {
    const m = d.move || 0, k = count.get(m) || 0;
    place.set(d, k);
    count.set(m, k + 1);
  }
  const along = (d) => (d.move || 0) + SPREAD * place.get(d) / count.get(d.move || 0);
  const end = Math.max(last, ...shown.map(along));
  const w = WIDTH - LEFT - RIGHT, hgt = HEIGHT - TOP - BOTTOM;
  const x = (move) => LEFT + (w * (move - first)) / (end - first);
  const y = (p) => TOP + hgt * (1 - p);
  const win = (d) => d.playedWinProbability || 0;
  const grid = [0, 0.5, 1].map((q) => html`
    <line x1=${LEFT} x2=${WIDTH - RIGHT} y1=${y(q)} y2=${y(q)}
      stroke=${q === 0.5 ? "#888" : "#ccc"} stroke-dasharray=${q === 0.5 ? "4 3" : ""} />
    <text x=${LEFT - 6} y=${y(q) + 4} text-anchor="end" font-size="12">${q * 100} %</text>`);
  const xTicks = ticks(first, last, narrow ? 5 : 8).map((m) => html`
    <line x1=${x(m)} x2=${x(m)} y1=${TOP + hgt} y2=${TOP + hgt + 5} stroke="#666" />
    <text x=${x(m)} y=${TOP + hgt + 17} text-anchor="middle" font-size="12">${m}</text>`);
  const lines = [];
  for (let p = 0; p < numPlayers; p++) {
    const pts = shown.filter((d) => (d.player || 0) === p)
      .map((d) => `${x(along(d)).toFixed(1)},${y(win(d)).toFixed(1)}`);
    if (pts.length > 1) {
      lines.push(html`<polyline fill="none" stroke=${playerColour(p)} stroke-width="2"
        stroke-dasharray=${DASHES[p % DASHES.length]} points=${pts.join(" ")} />`);
    }
  }
  const points = shown.map((d) => {
    const player = d.player || 0, judged = JUDGEMENTS[d.judgement];
    const cx = x(along(d)), cy = y(win(d));
    const label = `move ${d.move}, player ${player + 1}: ${Math.round(100 * win(d))} %`
      + (judged ? `, ${judged.word}` : "");
    const pick = () => onPick && onPick(d);
    const key = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } };
    return html`<g class=${"point" + ((d.step || 0) === current ? " current" : "")}
        tabindex="0" role="button" aria-label=${label} onClick=${pick} onKeyDown=${key}>
      <title>${label}</title>
      <circle cx=${cx} cy=${cy} r="11" fill="transparent" />
      ${(d.step || 0) === current && html`<circle cx=${cx} cy=${cy} r="8" fill="none"
        stroke="#000" stroke-width="1.5" />`}
      <${Marker} player=${player} x=${cx} y=${cy} />
      ${judged && html`<text x=${cx} y=${cy - 9} text-anchor="middle" font-size="12"
        font-weight="bold" fill=${judged.colour}>${judged.mark}</text>`}
    </g>`;
  });
  return html`<figure class="win-graph" ref=${box}>
    <svg viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="group"
      aria-label="win probability of the player who decided, after each turn">
      ${grid}${xTicks}
      <text x=${LEFT + w / 2} y=${HEIGHT - 4} text-anchor="middle" font-size="12">move</text>
      ${lines}${points}
    </svg>
    <figcaption>${Array.from({ length: numPlayers }, (_, p) => html`
      <span class="legend-item"><svg viewBox="0 0 30 12" width="30" height="12" aria-hidden="true">
        <line x1="0" x2="30" y1="6" y2="6" stroke=${playerColour(p)} stroke-width="2"
          stroke-dasharray=${DASHES[p % DASHES.length]} />
        <${Marker} player=${p} x=${15} y=${6} />
      </svg> player ${p + 1}</span>`)}
      ${Object.values(JUDGEMENTS).map((j) => html`<span class="legend-item">
        <b class=${"judgement " + j.word}>${j.mark}</b> ${j.word}</span>`)}
    </figcaption>
  </figure>`;
}
