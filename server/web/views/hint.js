// The hint panel: "Hint" streams Engine.Analyze on the position set up (the
// server's default budget: it searches until its two leading turns are told
// apart, within its default caps) and shows the ranked whole turns as the
// analysis refines them: the turn, the chance to win, the expected scores,
// the visits; a progress bar; "Stop" ends the stream and keeps the last
// ranking. The selected turn (the best one unless another is chosen) goes to
// the game's Table, which draws it.
//
// performance marks, for benchmarks/bench_web_hint.py: "hint-click" when
// asked, "hint-report" when the first report arrives, "hint-first" once the
// first ranking is on the page, "hint-settled" once the final one is.
import { useEffect, useRef, useState } from "../vendor/hooks.js";
import { html } from "../html.js";
import { describe, stream } from "../api.js";

// Milliseconds between the server's reports. The first ranking comes one
// interval after the search starts (a report falling due before the search
// has a candidate is skipped), so the interval bounds how soon a hint shows.
export // Turns listed: a settled hint of every candidate ran to hundreds of rows (587
// in a Couleurs de Paris paint step), a page no one reads on a phone.
const SHOWN = 8;
const REPORT_MS = 50;
// The shipped server's default caps (`easel serve --default-iterations`,
// `--default-seconds`): the progress bar's scale. The search usually stops
// before, once its leading turns are told apart; the bar then fills.
const DEFAULT_ITERATIONS = 100_000;
const DEFAULT_SECONDS = 10;

function percent(p) {
  return `${(100 * (p || 0)).toFixed(p > 0.995 || p < 0.005 ? 1 : 0)}%`;
}

function scores(c, players) {
  const xs = c.expectedScores || [];
  if (!xs.length) return null;
  return xs.map((x, k) => `${players === 1 ? "" : `P${k + 1} `}${x.toFixed(1)}`).join(" · ");
}

function Candidates({ candidates, chosen, onChoose, player, players }) {
  return html`<ol class="candidates" aria-label="ranked turns">
    ${candidates.map((c, k) => {
      const on = k === chosen;
      return html`<li class=${"candidate" + (on ? " chosen" : "")} data-rank=${c.rank || k + 1}>
        <button type="button" aria-pressed=${on ? "true" : "false"} onClick=${() => onChoose(k)}>
          <span class="rank">${c.rank || k + 1}</span>
          <span class="turn-text">${c.turnText || c.text}</span>
          <span class="numbers">
            <span class="win" title=${`player ${player + 1}'s chance to win after this turn`}>
              win ${percent(c.winProbability)}</span>
            ${scores(c, players) ? html`<span class="scores" title="expected final scores">
              ${scores(c, players)}</span>` : null}
            <span class="visits">${Number(c.visits || 0).toLocaleString("en")} visits</span>
          </span>
        </button></li>`;
    })}
  </ol>`;
}

export default function Hint({ spec, position, info, onTurn }) {
  const [analysis, setAnalysis] = useState(null);
  const [state, setState] = useState("idle");    // idle | running | settled | stopped | failed
  const [error, setError] = useState(null);
  const [chosen, setChosen] = useState(0);
  const [final, setFinal] = useState(null);
  const [took, setTook] = useState(0);            // seconds since the click, at the last report
  const started = useRef(0);
  const abort = useRef(null);
  const marked = useRef({ first: false, settled: false });
  const key = position ? JSON.stringify(position) : "";

  // a new position: the old hint no longer applies
  useEffect(() => {
    stop();
    setAnalysis(null); setState("idle"); setError(null); setChosen(0); setFinal(null);
    return stop;
  }, [key]);

  const candidates = (analysis && analysis.candidates) || [];
  useEffect(() => {
    if (candidates.length && !marked.current.first) {
      marked.current.first = true;
      performance.mark("hint-first");
    }
    if (final && !marked.current.settled) {
      marked.current.settled = true;
      performance.mark("hint-settled");
    }
    const c = candidates[Math.min(chosen, candidates.length - 1)];
    onTurn(c ? (c.turn || c.pv || []).map((s) => ({ id: s.id, text: s.text, player: s.player,
                                                    isChance: !!s.isChance })) : null);
  }, [analysis, chosen, final]);

  function stop() {
    if (abort.current) { abort.current.abort(); abort.current = null; }
  }

  async function ask() {
    stop();
    const controller = new AbortController();
    abort.current = controller;
    performance.clearMarks("hint-first"); performance.clearMarks("hint-settled");
    performance.mark("hint-click");
    started.current = performance.now();
    setTook(0);
    marked.current = { first: false, settled: false };
    setAnalysis(null); setError(null); setChosen(0); setFinal(null); setState("running");
    let seen = 0;
    try {
      await stream("Engine", "Analyze", { position, reportIntervalMs: REPORT_MS,
                                           reportCandidates: SHOWN,
                                           settings: { numCandidates: SHOWN } },
                   (m) => {
                     if (m.analysis && !seen++) performance.mark("hint-report");
                     if (m.analysis) setAnalysis(m.analysis);
                     setTook((performance.now() - started.current) / 1000);
                     if (m.final) setFinal(m.stopReason || "STOP_REASON_BUDGET");
                   }, { signal: controller.signal });
      if (abort.current === controller) setState("settled");
    } catch (e) {
      if (e.code === "aborted") { setState((s) => (s === "running" ? "stopped" : s)); return; }
      setError(e); setState("failed");
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  }

  const running = state === "running";
  const a = analysis || {};
  const secs = Math.max(Number(a.elapsedSeconds || 0), took), its = Number(a.iterations || 0);
  const progress = state === "settled" ? 1
    : Math.min(0.99, Math.max(secs / DEFAULT_SECONDS, its / DEFAULT_ITERATIONS));
  const players = info ? info.numPlayers : 0;
  // proto3 JSON leaves out a field at its default (player 0, 0 visits, false)
  const player = a.player ?? (info ? info.currentPlayer ?? 0 : 0);
  const noDecision = info && info.kind !== "NODE_KIND_DECISION";
  return html`<section class="hint" aria-label="hint" data-state=${state}>
    <div class="hint-bar">
      <button type="button" class="ask" onClick=${ask}
        disabled=${!position || running || noDecision}>Hint</button>
      <button type="button" class="stop" onClick=${() => { stop(); setState("stopped"); }}
        disabled=${!running}>Stop</button>
      <progress max="1" value=${state === "idle" ? 0 : progress}
        aria-label="how far the analysis has gone"></progress>
      <span class="hint-status" role="status">${
        !position ? "Hints come once the position loads."
        : noDecision && state === "idle" ? (info.kind === "NODE_KIND_TERMINAL" ? "The game is over."
          : "A chance outcome (a draw or a roll) comes next: enter it first.")
        : state === "idle" ? `Ask for the best turns of player ${player + 1}.`
        : `${its.toLocaleString("en")} iterations, ${secs.toFixed(1)} s${
          state === "settled" ? (a.leadersApart ? ": settled, the best turn is told apart"
                                 : ": settled") : state === "stopped" ? ": stopped" : "…"}`}</span>
    </div>
    ${error ? html`<p class="error" role="alert">Hint failed: ${describe(error)}</p>` : null}
    ${candidates.length ? html`<${Candidates} candidates=${candidates} chosen=${chosen}
        onChoose=${setChosen} player=${player} players=${players} />` : null}
  </section>`;
}
