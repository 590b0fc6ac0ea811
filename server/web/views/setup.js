// Set up a position (#/setup/<game string>): the position's text beside the
// table, both ways. For a game with a table notation the text is the
// notation (docs/table-notation.md), read by Engine.ReadPosition on every
// edit (debounced): the table re-renders from the answer, the refusals
// show beside the lines they name and on the table (the game module marks
// them), and what the server derived (bag, supply, unseen deck) shows under
// the table; a click on the table (the game module's pickers) rewrites a
// line of the text. For a game without one (Pig, Connect Four) the text is
// the game's steps, one a line as LegalActions writes them, read by
// Engine.LegalActions; the next step can be clicked. The hint panel
// (views/hint.js) analyses the position read last.
import { useEffect, useMemo, useRef, useState } from "../vendor/hooks.js";
import { html } from "../html.js";
import { call, callAgainOnFailure, describe } from "../api.js";
import { moduleFor } from "../games/index.js";
import Hint from "./hint.js";

export const READ_DELAY_MS = 150;     // the pause in typing after which the text is read
const SAVED = "easel-setup:";         // sessionStorage: the text of each game string's set-up

const STEP = /^position\.record\.steps\[(\d+)\]/;

function stepsOf(text) {
  // one step a line, comments (# ...) and blank lines skipped: [{line, text}]
  return text.split("\n").map((l, k) => ({ line: k + 1, text: l.replace(/(^|\s)#(\s.*)?$/, "").trim() }))
    .filter((s) => s.text);
}

// The Position message of what was read last (hint, play from here).
export function positionOf(spec, info, steps) {
  if (!info) return null;
  if (info.notation) return { notation: { game: spec, text: info.notation } };
  return { record: { game: spec, steps: steps.map((s) => ({ text: s.text })) } };
}

function Gutter({ lines, refusals, scroll }) {
  const marks = new Map();
  for (const r of refusals) if (r.line) marks.set(r.line, (marks.get(r.line) || []).concat(r));
  const rows = [];
  for (let n = 1; n <= lines; n++) {
    const here = marks.get(n);
    rows.push(html`<div class=${here ? "refused" : ""} data-line=${n}
      title=${here ? here.map((r) => r.message).join("\n") : ""}>${here ? "⚠ " : ""}${n}</div>`);
  }
  return html`<div class="gutter" aria-hidden="true" style=${`transform: translateY(${-scroll}px)`}>
    ${rows}</div>`;
}

function Refusals({ refusals, onPick }) {
  if (!refusals.length) return null;
  return html`<ul class="refusals" role="alert" aria-label="what the game refuses">
    ${refusals.map((r) => html`<li class="refusal" data-line=${r.line || 0} data-field=${r.field || ""}>
      ${r.line ? html`<button type="button" class="at-line" onClick=${() => onPick(r.line)}
                        aria-label=${`go to line ${r.line}`}>line ${r.line}</button>` : null}
      ${r.field ? html`<b class="field">${r.field}</b>` : null}
      <span class="message">${r.message}</span></li>`)}
  </ul>`;
}

function Derived({ mod, info, game }) {
  if (!info) return null;
  let rows = [];
  try { rows = mod.derived(info.state || {}) || []; } catch (e) { rows = [{ label: "derived", value: `(${e.message})` }]; }
  const current = info.currentPlayer ?? 0;     // proto3 JSON leaves a 0 out
  const who = current >= 0 ? `player ${current + 1}`
    : info.kind === "NODE_KIND_CHANCE" ? "chance (a draw or a roll)" : "nobody: the game is over";
  return html`<dl class="derived" aria-label="what the server derived">
    <div><dt>to move</dt><dd>${who}</dd></div>
    ${rows.map((r) => html`<div><dt>${r.label}</dt><dd>${String(r.value)}</dd></div>`)}
  </dl>`;
}

export default function Setup({ path, games }) {
  const spec = path;
  const name = spec.split("(")[0];
  const game = (games || []).find((g) => g.name === name);
  const [mod, setMod] = useState(null);
  const [start, setStart] = useState(null);       // NewGame's position
  const [text, setText] = useState(null);
  const [info, setInfo] = useState(null);         // the position read last
  const [readSteps, setReadSteps] = useState([]);
  const [actions, setActions] = useState([]);     // record games: the next steps
  const [refusals, setRefusals] = useState([]);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [turn, setTurn] = useState(null);
  const [readText, setReadText] = useState(null);   // the text the answers shown are of
  const [scroll, setScroll] = useState(0);
  const area = useRef(null);
  const seq = useRef(0);

  useEffect(() => {
    let live = true;
    moduleFor(name).then((m) => live && setMod(m));
    call("Engine", "NewGame", { game: spec }).then((a) => {
      if (!live) return;
      setStart(a.position);
      const saved = sessionStorage.getItem(SAVED + spec);
      setText(saved !== null ? saved : (a.position.notation || ""));
    }, (e) => live && setError(e));
    return () => { live = false; };
  }, [spec]);

  const hasNotation = !!(start && start.notation);

  async function read(t) {
    const mine = ++seq.current;
    const current = () => mine === seq.current;
    setBusy(true);
    try {
      if (hasNotation) {
        const a = await callAgainOnFailure("Engine", "ReadPosition",
                                           { notation: { game: spec, text: t } }, current);
        if (!current()) return;
        setError(null);
        setRefusals(a.refusals || []);
        // The drawn turn is the hint's (views/hint.js): it goes when the position read
        // differs, not when a text of the same position is read again.
        if (a.position) setInfo(a.position);
      } else {
        const steps = stepsOf(t);
        try {
          const a = await callAgainOnFailure("Engine", "LegalActions",
                               { position: { record: { game: spec, steps: steps.map((s) => ({ text: s.text })) } } },
                               current);
          if (!current()) return;
          setError(null);
          setRefusals([]);
          setInfo(a.position);
          setReadSteps(steps);
          setActions(a.actions || []);
        } catch (e) {
          if (!current()) return;
          const m = e.code === "invalid_argument" && STEP.exec(e.message);
          if (!m) throw e;
          const bad = steps[Number(m[1])];
          setError(null);
          setRefusals([{ line: bad ? bad.line : 0, field: `step ${Number(m[1]) + 1}`,
                         message: e.message.replace(/^position\.record\.steps\[\d+\](\.\w+)?: /, "") }]);
        }
      }
    } catch (e) {
      if (current()) setError(e);
    } finally {
      if (current()) { setBusy(false); setReadText(t); }
    }
  }

  useEffect(() => {
    if (text === null || !start) return;
    sessionStorage.setItem(SAVED + spec, text);
    const timer = setTimeout(() => read(text), READ_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, start]);

  const setup = useMemo(() => hasNotation ? { notation: text, setNotation: (t) => setText(t) } : null,
                        [hasNotation, text]);

  function pickLine(n) {
    const el = area.current;
    if (!el) return;
    const lines = el.value.split("\n");
    const from = lines.slice(0, n - 1).reduce((s, l) => s + l.length + 1, 0);
    el.focus();
    el.setSelectionRange(from, from + (lines[n - 1] || "").length);
  }

  if (!game) {
    return html`<p class="error" role="alert">This server has no game ${JSON.stringify(name)};
      <a href="#/">choose one</a>.</p>`;
  }
  if (!start || !mod || text === null) {
    return error ? html`<p class="error" role="alert">NewGame failed: ${describe(error)}</p>`
      : html`<p class="status" role="status">Loading…</p>`;
  }
  const lineCount = Math.max(1, text.split("\n").length);
  const loaded = info && !refusals.length;
  const Table = mod.Table;
  // data-synced: the table, refusals and hint are of the text as it stands (tests wait for it)
  return html`<section class="setup" data-game=${name}
                       data-synced=${readText === text ? "true" : "false"}>
    <h2>${game.longName || game.name}: set up
      <span class="spec">${spec}</span></h2>
    <div class="columns">
      <div class="board-column">
        <div class=${"table-frame" + (refusals.length ? " has-refusals" : "")}>
          <${Table} info=${info || start} setup=${setup} refusals=${refusals} turn=${turn} />
        </div>
        <${Derived} mod=${mod} info=${info} game=${game} />
        ${!hasNotation && actions.length ? html`<div class="next-steps" aria-label="the next step">
          <span>Next step:</span>
          ${actions.slice(0, 40).map((a) => html`<button type="button" class="step"
              onClick=${() => setText(text.replace(/\n*$/, "") + (text.trim() ? "\n" : "") + a.text + "\n")}>
              ${a.text}${a.probability ? ` (${Math.round(a.probability * 100)}%)` : ""}</button>`)}
        </div>` : null}
        <${Hint} spec=${spec} game=${game} info=${loaded ? info : null}
                 position=${loaded ? positionOf(spec, info, readSteps) : null}
                 onTurn=${setTurn} />
      </div>
      <div class="text-column">
        <label for="notation-text">${hasNotation ? "The table notation" : "The steps so far, one a line"}
          ${busy ? html`<span class="reading" aria-hidden="true"> · reading…</span>` : null}</label>
        <div class="editor">
          <${Gutter} lines=${lineCount} refusals=${refusals} scroll=${scroll} />
          <textarea id="notation-text" ref=${area} spellcheck="false" wrap="off"
            autocapitalize="off" autocomplete="off" rows=${Math.min(24, Math.max(8, lineCount + 1))}
            value=${text} onInput=${(e) => setText(e.target.value)}
            onScroll=${(e) => setScroll(e.target.scrollTop)}
            aria-invalid=${refusals.length ? "true" : "false"}
            aria-describedby="refusals"></textarea>
        </div>
        <div id="refusals"><${Refusals} refusals=${refusals} onPick=${pickLine} /></div>
        ${error ? html`<p class="error" role="alert">${describe(error)}</p>` : null}
        <p class="actions">
          <button type="button" onClick=${() => setText(start.notation || "")}>
            Start from the initial position</button>
          ${hasNotation && info && info.notation !== text ? html`<button type="button"
             onClick=${() => setText(info.notation)}>Write it the shortest way</button>` : null}
        </p>
        <p class="help">${hasNotation
          ? "Type or paste a notation; click the table to change a part of it."
          : "Type or paste the steps, or click the next step."}</p>
      </div>
    </div>
  </section>`;
}
