// The review view (issue #26, "review"): open a text record (pasted or a
// file) or a finished match, step through it on the game's Table, run
// Engine.Review (docs/review.md) with a progress bar, see the
// win-probability graph and the flagged turns, each with the turn the
// search preferred drawn on the table.
import { useState, useEffect, useLayoutEffect, useRef } from "../vendor/hooks.js";
import { html } from "../html.js";
import { call, stream, describe as errorText } from "../api.js";
import { WinGraph, JUDGEMENTS } from "./graph.js";
import { linkStyle, MoveList, PositionTable } from "./moves.js";
import { parseRecords, checkRecord } from "./records.js";

linkStyle();

// The review's turns as search/review.py decision_points finds them: each
// run of one player's decisions (a chance outcome ends it).
export function decisionCount(steps) {
  let count = 0;
  steps.forEach((s, i) => {
    if (s.player >= 0 && (i === 0 || steps[i - 1].player !== s.player)) count++;
  });
  return count;
}

// A decision's best turn in the Table's `turn` form.
function bestTurn(d) {
  const ids = d.bestIds || [], texts = (d.bestText || "").split("; ");
  return ids.map((id, i) => ({ id, text: texts[i] || "", player: d.player || 0, isChance: false }));
}

const pct = (p) => `${(100 * (p || 0)).toFixed(1)} %`;

function DecisionPanel({ d }) {
  const judged = JUDGEMENTS[d.judgement];
  return html`<section class="decision" aria-label="this turn, reviewed">
    <p><strong>Move ${d.move}, player ${(d.player || 0) + 1}</strong>${" "}
      ${d.forced ? "(forced: the only legal turn)"
        : judged ? html`<span class=${"judgement " + judged.word}>${judged.mark} ${judged.word}</span>`
          : "(good)"}</p>
    <dl>
      <dt>Played</dt><dd>${d.playedText} — ${pct(d.playedWinProbability)} to win</dd>
      ${!d.forced && html`<dt>Best</dt><dd>${d.bestText} — ${pct(d.bestWinProbability)} to win${
        judged ? " (drawn on the table)" : ""}</dd>
      <dt>Lost</dt><dd>${(100 * (d.loss || 0)).toFixed(1)} points (accuracy ${Math.round(d.accuracy || 0)})</dd>`}
    </dl>
  </section>`;
}

function Summary({ summary }) {
  return html`<div class="scroll"><table class="review-summary">
    <caption>Each player: turns reviewed, accuracy (100: no loss),
      ?! inaccuracies (a loss from ${pct(summary.inaccuracyThreshold)}), ? mistakes (from ${pct(summary.mistakeThreshold)}),
      ?? blunders (from ${pct(summary.blunderThreshold)});
      searched with ${summary.bot}.</caption>
    <thead><tr><th scope="col">player</th><th scope="col">turns</th><th scope="col">accuracy</th>
      <th scope="col"><abbr title="inaccuracies">?!</abbr></th><th scope="col"><abbr title="mistakes">?</abbr></th>
      <th scope="col"><abbr title="blunders">??</abbr></th></tr></thead>
    <tbody>${(summary.players || []).map((p) => html`<tr>
      <th scope="row">player ${(p.player || 0) + 1}</th><td>${p.decisions || 0}</td>
      <td>${(p.accuracy || 0).toFixed(1)}</td><td>${p.inaccuracies || 0}</td>
      <td>${p.mistakes || 0}</td><td>${p.blunders || 0}</td></tr>`)}
    </tbody></table></div>`;
}

function Flagged({ decisions, numPlayers, onPick }) {
  const flagged = decisions.filter((d) => JUDGEMENTS[d.judgement]);
  if (!flagged.length) return html`<p>No turn was flagged.</p>`;
  return html`<div class="flagged">${Array.from({ length: numPlayers }, (_, p) => {
    const mine = flagged.filter((d) => (d.player || 0) === p);
    return html`<section aria-label=${`flagged turns of player ${p + 1}`}>
      <h4>Player ${p + 1}: ${mine.length ? `${mine.length} flagged` : "none flagged"}</h4>
      <ul>${mine.map((d) => {
        const j = JUDGEMENTS[d.judgement];
        return html`<li><button type="button" class=${"flag " + j.word} onClick=${() => onPick(d)}>
          move ${d.move}: ${j.mark} ${j.word}, −${(100 * (d.loss || 0)).toFixed(1)} points</button>
          <span class="turns">played ${d.playedText}; best ${d.bestText}</span></li>`;
      })}</ul></section>`;
  })}</div>`;
}

// Opens a text record or a finished match; path (the route's rest, app.js):
// "" or the id of a match to open at once (#/review/<match id>).
export default function ReviewView({ path = "" }) {
  const matchId = path || null;
  const [text, setText] = useState("");
  const [games, setGames] = useState([]);
  const [gameIndex, setGameIndex] = useState(0);
  const [record, setRecord] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [opened, setOpened] = useState(0);         // records opened (data-opened: tests wait on it)
  const [at, setAt] = useState(0);
  // The position the table shows and the step it is of: the step shown may
  // lag `at` while its position is read, and a turn is drawn only on the
  // position it starts from.
  const [shown, setShown] = useState({ at: -1, info: null });
  const [decisions, setDecisions] = useState([]);
  const [summary, setSummary] = useState(null);
  const [reviewing, setReviewing] = useState(false);
  const [reviewError, setReviewError] = useState("");
  const [iterations, setIterations] = useState("");
  const [matches, setMatches] = useState(null);
  const positions = useRef(new Map());
  const abort = useRef(null);

  async function open(sourceText, index = 0) {
    setError(""); setBusy(true); setRecord(null); setShown({ at: -1, info: null });
    if (abort.current) abort.current.abort();
    try {
      const parsed = parseRecords(sourceText);
      if (index >= parsed.length) index = 0;
      setGames(parsed); setGameIndex(index);
      const checked = await checkRecord(parsed[index]);
      positions.current = new Map();
      setDecisions([]); setSummary(null); setReviewError("");
      setRecord(checked);
      setAt(0);
    } catch (e) {
      setRecord(null);
      setError(errorText(e));
    } finally {
      setBusy(false);
      setOpened((n) => n + 1);
    }
  }

  async function openMatch(id) {
    setError("");
    try {
      const answer = await call("Matches", "GetMatch", { matchId: id, withRecordText: true });
      setText(answer.recordText || "");
      await open(answer.recordText || "");
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => { if (matchId) openMatch(matchId); }, [matchId]);
  useEffect(() => () => abort.current && abort.current.abort(), []);

  // The position after `at` steps, from the server (cached).
  useEffect(() => {
    if (!record) return;
    const cached = positions.current.get(at);
    if (cached) { setShown({ at, info: cached }); return; }
    let live = true;
    const steps = record.steps.slice(0, at).map((s) => ({ id: s.id }));
    call("Engine", "LegalActions", { position: { record: { game: record.game, steps } } })
      .then((answer) => {
        positions.current.set(at, answer.position);
        if (live) setShown({ at, info: answer.position });
      })
      .catch((e) => live && setError(errorText(e)));
    return () => { live = false; };
  }, [record, at]);

  // Arrow keys step through the record (not while typing in a field). Each
  // key steps from the step as it is now, not as the last render saw it: keys
  // pressed faster than the page draws each take their step. The listener is
  // in place when the opened record is drawn (a layout effect, run with the
  // render, where an effect waits for the next frame): a key pressed as soon
  // as the record shows is not lost.
  useLayoutEffect(() => {
    if (!record) return undefined;
    const last = record.steps.length;
    const onKey = (e) => {
      const tag = (e.target && e.target.tagName) || "";
      if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
      const to = { ArrowLeft: (a) => a - 1, ArrowRight: (a) => a + 1, Home: () => 0, End: () => last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      setAt((a) => Math.max(0, Math.min(last, to(a))));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [record]);

  async function runReview() {
    if (!record) return;
    if (abort.current) abort.current.abort();
    const controller = new AbortController();
    abort.current = controller;
    setDecisions([]); setSummary(null); setReviewError(""); setReviewing(true);
    const settings = {};
    const n = parseInt(iterations, 10);
    if (n > 0) settings.budget = { iterations: String(n) };
    const got = [];
    try {
      await stream("Engine", "Review", {
        record: { game: record.game, steps: record.steps.map((s) => ({ id: s.id })) }, settings,
      }, (message) => {
        if (message.decision) { got.push(message.decision); setDecisions([...got]); }
        if (message.summary) setSummary(message.summary);
      }, { signal: controller.signal });
    } catch (e) {
      if (!controller.signal.aborted) setReviewError(errorText(e));
    } finally {
      if (abort.current === controller) { abort.current = null; setReviewing(false); }
    }
  }

  function stopReview() {
    if (abort.current) abort.current.abort();
    abort.current = null;
    setReviewing(false);
  }

  async function listMatches() {
    setError("");
    try {
      const answer = await call("Matches", "ListMatches", { status: "MATCH_STATUS_FINISHED", pageSize: 20 });
      setMatches(answer.matches || []);
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function readFile(e) {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    if (file.size > 4 * 1024 * 1024) {
      setError(`${file.name} is ${file.size} bytes: the page opens records of at most 4 MiB`);
      return;
    }
    const body = await file.text();
    setText(body);
    open(body);
  }

  const total = record ? decisionCount(record.steps) : 0;
  const here = decisions.find((d) => (d.step || 0) === at && record && at < record.steps.length);
  const turn = here && JUDGEMENTS[here.judgement] && shown.at === at ? bestTurn(here) : null;
  const last = record ? record.steps.length : 0;
  const nav = (to) => setAt(Math.max(0, Math.min(last, to)));
  const stepLabel = record && at > 0 ? record.steps[at - 1] : null;

  return html`<section class="review-view" data-opened=${opened}>
    <h2>Review a game</h2>
    <details open=${!record} class="open-record">
      <summary>Open a record</summary>
      <form onSubmit=${(e) => { e.preventDefault(); open(text, 0); }}>
        <label for="record-text">A game record (Easel Game Notation or JSON lines, as
          <code>easel replay</code> reads):</label>
        <textarea id="record-text" rows="8" spellcheck=${false} value=${text}
          onInput=${(e) => setText(e.target.value)}></textarea>
        <div class="row">
          <button type="submit" disabled=${busy || !text.trim()}>Open</button>
          <label class="file">or a file: <input type="file" accept=".egn,.jsonl,.txt,.json"
            onChange=${readFile} /></label>
          <button type="button" onClick=${listMatches}>Finished matches…</button>
        </div>
      </form>
      ${matches && html`<ul class="match-list" aria-label="finished matches">
        ${matches.length ? matches.map((m) => html`<li>
          <button type="button" onClick=${() => openMatch(m.matchId)}>Review ${m.matchId}</button>
          ${" "}${m.game}: ${(m.seats || []).map((s) => s.bot || s.name || "client").join(" v ")}
          ${m.result && m.result.detail ? ` — ${m.result.detail}` : ""}</li>`)
          : html`<li>No finished match on this server.</li>`}</ul>`}
    </details>
    ${error && html`<p class="error" role="alert"><strong>This record cannot be read:</strong> ${error}</p>`}
    ${busy && html`<p role="status">Reading the record…</p>`}
    ${games.length > 1 && html`<label>Game:
      <select value=${gameIndex} onChange=${(e) => open(text, Number(e.target.value))}>
        ${games.map((g, i) => html`<option value=${i}>${i + 1}. ${g.game} ${g.headers.Date || ""}</option>`)}
      </select></label>`}
    ${record && html`<div class="review-board">
      <div class="review-table" data-shown=${shown.at}>
        <p class="where" aria-live="polite">${record.game}: step ${at} of ${last}${
          stepLabel ? `, after move ${stepLabel.move}: ${stepLabel.player < 0 ? "*" : ""}${stepLabel.text}` : " (the start)"}</p>
        <nav class="steps" aria-label="step through the game">
          <button type="button" onClick=${() => nav(0)} disabled=${at === 0} aria-label="first position">|◀ first</button>
          <button type="button" onClick=${() => nav(at - 1)} disabled=${at === 0} aria-label="previous step">◀ prev</button>
          <button type="button" onClick=${() => nav(at + 1)} disabled=${at === last} aria-label="next step">next ▶</button>
          <button type="button" onClick=${() => nav(last)} disabled=${at === last} aria-label="last position">last ▶|</button>
        </nav>
        ${shown.info && html`<${PositionTable} info=${shown.info} turn=${turn} />`}
        ${here && html`<${DecisionPanel} d=${here} />`}
      </div>
      <div class="review-side">
        <div class="review-run">
          <label>Iterations per turn <input type="number" min="1" inputmode="numeric"
            placeholder="server default" value=${iterations} onInput=${(e) => setIterations(e.target.value)} /></label>
          ${reviewing ? html`<button type="button" onClick=${stopReview}>Stop</button>`
            : html`<button type="button" onClick=${runReview}>${decisions.length ? "Review again" : "Review this game"}</button>`}
          ${(reviewing || decisions.length > 0) && html`<label class="progress">
            ${summary ? "Reviewed" : "Reviewing"}: ${decisions.length} of ${total} turns
            <progress max=${total || 1} value=${decisions.length}></progress></label>`}
          ${reviewError && html`<p class="error" role="alert">${reviewError}</p>`}
        </div>
        ${decisions.length > 0 && html`<${WinGraph} decisions=${decisions} numPlayers=${record.numPlayers}
          current=${at} onPick=${(d) => nav(d.step || 0)} />`}
        ${summary && html`<${Summary} summary=${summary} />`}
        ${decisions.length > 0 && html`<${Flagged} decisions=${decisions} numPlayers=${record.numPlayers}
          onPick=${(d) => nav(d.step || 0)} />`}
        <h3>Moves</h3>
        <${MoveList} steps=${record.steps} numPlayers=${record.numPlayers} current=${at}
          seatName=${(p) => `P${p}`} onPick=${nav} label="the record's moves" />
      </div>
    </div>`}
  </section>`;
}

