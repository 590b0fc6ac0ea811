// The play view (issue #26, "play"): a form that creates a hosted match
// (docs/matches.md: each seat this page or a bot at a level, chance drawn
// by the server or entered from the real table), then the match itself:
// the game's Table, whose turn, the legal moves as buttons with a filter box
// that takes any unambiguous start (Enter plays the one it names), the
// moves so far, the bots' moves as the WatchMatch stream brings them, the
// real draws to pick in table mode, hints where the match allows them,
// resigning, and the result. The match id and the seat tokens are kept in
// localStorage with the steps seen, so a reload goes on from the stream
// (WatchMatch from the last step seen + 1) and misses nothing.
import { useState, useEffect, useRef } from "../vendor/hooks.js";
import { html } from "../html.js";
import { call, stream, describe as errorText } from "../api.js";
import { linkStyle, MoveList, matching, tableTurn, PositionTable } from "./moves.js";

linkStyle();

const LEVELS = Array.from({ length: 10 }, (_, i) => i + 1);
const STORE = "easel-match:";

// What this browser keeps of a match: {game, seatTokens: {seat: token},
// creatorToken, tableToken, steps: [{id, text, player, by}]}.
export function loadMatch(id) {
  try { return JSON.parse(localStorage.getItem(STORE + id) || "null"); } catch (e) { return null; }
}
function saveMatch(id, kept) {
  try { localStorage.setItem(STORE + id, JSON.stringify(kept)); } catch (e) { /* full: the stream still has it all */ }
}

// The game string for a game and a player count (GameInfo.players_option).
export function gameString(info, players) {
  if (!info) return "";
  if (!info.playersOption || info.minPlayers === info.maxPlayers) return info.name;
  return `${info.name}(${info.playersOption}=${players})`;
}

export function NewMatchForm({ game: initial = "", games: listed = null }) {
  const [games, setGames] = useState(listed || []);
  const [game, setGame] = useState(initial || "connect_four");
  const [numPlayers, setNumPlayers] = useState(0);
  const [gameError, setGameError] = useState("");
  const [seats, setSeats] = useState([]);
  const [chance, setChance] = useState("CHANCE_SOURCE_SERVER");
  const [hints, setHints] = useState(true);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (listed) return;
    call("Engine", "ListGames", {}).then((a) => setGames(a.games || [])).catch((e) => setError(errorText(e)));
  }, [listed]);

  // The seats follow the game string's player count (NewGame reads it).
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      if (!game.trim()) { setGameError("write a game string, e.g. connect_four or vangogh(players=2)"); return; }
      call("Engine", "NewGame", { game: game.trim() }).then((a) => {
        if (!live) return;
        const n = a.position.numPlayers || 1;
        setGameError(""); setNumPlayers(n);
        setSeats((old) => Array.from({ length: n }, (_, i) => old[i] || (i === 0 ? "me" : "level(3)")));
      }).catch((e) => { if (live) { setGameError(errorText(e)); setNumPlayers(0); } });
    }, 200);
    return () => { live = false; clearTimeout(timer); };
  }, [game]);

  const name = game.trim().replace(/\(.*$/, "");
  const info = games.find((g) => g.name === name);

  async function create(e) {
    e.preventDefault();
    setError(""); setBusy(true);
    try {
      const answer = await call("Matches", "CreateMatch", {
        game: game.trim(),
        seats: seats.map((s) => (s === "me" ? { client: true, name: "me" } : { bot: s })),
        chance, allowHints: hints,
      });
      const seatTokens = {};
      for (const t of answer.seatTokens || []) seatTokens[t.seat || 0] = t.token;
      saveMatch(answer.matchId, {
        game: answer.match.game, seatTokens, creatorToken: answer.creatorToken,
        tableToken: answer.tableToken || "", steps: [],
      });
      location.hash = `#/play/${encodeURIComponent(answer.matchId)}`;
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return html`<form class="new-match" onSubmit=${create} aria-label="a new match">
    <h2>Play a match</h2>
    <div class="row">
      <label>Game <select value=${info ? info.name : ""} onChange=${(e) => {
        const g = games.find((x) => x.name === e.target.value);
        if (g) setGame(gameString(g, Math.max(g.minPlayers, Math.min(2, g.maxPlayers))));
      }}>
        ${!info && html`<option value="">(other)</option>`}
        ${games.map((g) => html`<option value=${g.name}>${g.longName || g.name}</option>`)}
      </select></label>
      ${info && info.playersOption && info.minPlayers !== info.maxPlayers && html`<label>Players
        <select value=${numPlayers} onChange=${(e) => setGame(gameString(info, Number(e.target.value)))}>
          ${Array.from({ length: info.maxPlayers - info.minPlayers + 1 }, (_, i) => info.minPlayers + i)
            .map((n) => html`<option value=${n}>${n}</option>`)}
        </select></label>`}
    </div>
    <label>Game string <input name="game" value=${game} spellcheck=${false} autocomplete="off"
      aria-invalid=${gameError ? "true" : "false"} onInput=${(e) => setGame(e.target.value)} /></label>
    ${gameError && html`<p class="error" role="alert">${gameError}</p>`}
    <fieldset><legend>Seats</legend>
      ${seats.slice(0, numPlayers).map((s, i) => html`<label class="seat">Seat ${i + 1}
        <select name=${`seat${i + 1}`} value=${s} onChange=${(e) => {
          const next = [...seats]; next[i] = e.target.value; setSeats(next);
        }}>
          <option value="me">me (this page)</option>
          ${LEVELS.map((n) => html`<option value=${`level(${n})`}>bot, level ${n}${
            n === 1 ? " (weakest)" : n === 10 ? " (strongest)" : ""}</option>`)}
        </select></label>`)}
    </fieldset>
    <fieldset><legend>Chance (draws, dice)</legend>
      <label><input type="radio" name="chance" checked=${chance === "CHANCE_SOURCE_SERVER"}
        onChange=${() => setChance("CHANCE_SOURCE_SERVER")} /> the server draws</label>
      <label><input type="radio" name="chance" checked=${chance === "CHANCE_SOURCE_TABLE"}
        onChange=${() => setChance("CHANCE_SOURCE_TABLE")} /> table mode: I enter each real draw</label>
    </fieldset>
    <label><input type="checkbox" checked=${hints} onChange=${(e) => setHints(e.target.checked)} /> allow hints</label>
    <div class="row"><button type="submit" disabled=${busy || !!gameError || !numPlayers}>Start the match</button></div>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </form>`;
}

function seatLabel(match, kept, p) {
  const seat = ((match && match.seats) || []).find((s) => (s.seat || 0) === p);
  const mine = kept && kept.seatTokens && kept.seatTokens[p];
  return `seat ${p + 1} (${mine ? "you" : seat ? seat.bot || seat.name || "client" : "?"})`;
}

function resultText(match, kept, end) {
  const result = end.result || {};
  if (end.status === "MATCH_STATUS_ABORTED") return "The match was aborted: no result.";
  if (end.status === "MATCH_STATUS_EXPIRED") return "The match expired (no move for too long): no result.";
  const returns = result.returns || [];
  const best = Math.max(...returns);
  const winners = returns.flatMap((r, i) => (r === best ? [i] : []));
  const who = winners.length === returns.length && returns.length > 1 ? "A draw"
    : winners.map((p) => seatLabel(match, kept, p)).join(" and ") + (winners.length > 1 ? " tie for first" : " won");
  const why = { END_REASON_RESIGNED: " (resignation)", END_REASON_TIME: " (on time)",
    END_REASON_BOT_FAILED: " (a bot failed)" }[result.reason] || "";
  const scores = (result.scores || []).length
    ? `; scores: ${result.scores.map((s, i) => `${seatLabel(match, kept, i)} ${s}`).join(", ")}` : "";
  return `${who}${why}${scores}.`;
}

export function MatchView({ matchId }) {
  const [kept] = useState(() => loadMatch(matchId));
  const [match, setMatch] = useState(null);
  const [steps, setSteps] = useState(() => (loadMatch(matchId) || {}).steps || []);
  const [position, setPosition] = useState(null);
  const [turn, setTurn] = useState(null);
  const [end, setEnd] = useState(null);
  const [legal, setLegal] = useState([]);
  const [filter, setFilter] = useState("");
  const [error, setError] = useState("");
  const [status, setStatus] = useState("connecting…");
  const [hint, setHint] = useState(null);
  const [hintBusy, setHintBusy] = useState(false);
  const [picked, setPicked] = useState(0);
  const [scores, setScores] = useState([]);
  const [resignAsk, setResignAsk] = useState(false);
  const [sending, setSending] = useState(false);
  const stepsRef = useRef(steps);
  const keptRef = useRef(kept);

  function addStep(ev) {
    const n = ev.step || 0;
    const have = stepsRef.current;
    if (n < have.length) return;           // seen already (our own SubmitAction's answer)
    const next = [...have, { id: ev.action.id ?? 0, text: ev.action.text, player: ev.player ?? 0, by: ev.by }];
    stepsRef.current = next;
    setSteps(next);
    if (keptRef.current) saveMatch(matchId, { ...keptRef.current, steps: next });
    if (ev.turn) setTurn(ev.turn);
    if (ev.position) setPosition(ev.position);
    if (ev.scores) setScores(ev.scores);
    setHint(null); setPicked(0);
  }

  // The event stream, reopened from the last step seen whenever it breaks.
  useEffect(() => {
    const controller = new AbortController();
    let ended = false;
    const tokens = Object.values((keptRef.current || {}).seatTokens || {});
    const onEvent = (ev) => {
      setStatus("");
      if (ev.snapshot) {
        const snap = ev.snapshot;
        setMatch(snap.match);
        if (snap.match.scores) setScores(snap.match.scores);
        if (snap.turn) setTurn(snap.turn);
        if (snap.position) setPosition(snap.position);
      } else if (ev.step) {
        addStep(ev.step);
      } else if (ev.end) {
        ended = true;
        setEnd(ev.end);
        setMatch((m) => (m ? { ...m, status: ev.end.status, result: ev.end.result } : m));
      } else if (ev.hint && (ev.hint.step || 0) === stepsRef.current.length) {
        setHint(ev.hint.analysis);
      }
    };
    (async () => {
      let failures = 0;
      while (!controller.signal.aborted && !ended) {
        const request = { matchId, fromStep: stepsRef.current.length, positions: true };
        if (tokens.length) request.token = tokens[0];
        try {
          await stream("Matches", "WatchMatch", request, onEvent, { signal: controller.signal });
          failures = 0;
        } catch (e) {
          if (controller.signal.aborted) return;
          if (e.code === "not_found" || e.code === "permission_denied" || e.code === "unauthenticated") {
            setError(errorText(e));
            return;
          }
          if (e.code === "invalid_argument" && stepsRef.current.length) {
            // What this browser kept runs past the match (another server's
            // match of the same id?): start again from the first step.
            stepsRef.current = []; setSteps([]);
            continue;
          }
          failures += 1;
          setStatus(`connection lost (${errorText(e)}); reconnecting…`);
        }
        if (!ended) await new Promise((r) => setTimeout(r, Math.min(5000, 500 * 2 ** failures)));
      }
    })();
    return () => controller.abort();
  }, [matchId]);

  const player = turn ? turn.player ?? 0 : null;
  const seatTokens = (kept && kept.seatTokens) || {};
  const myTurn = !end && turn && turn.kind === "NODE_KIND_DECISION" && seatTokens[player] !== undefined;
  const tableTurnNow = !end && turn && turn.kind === "NODE_KIND_CHANCE" && turn.table && kept && kept.tableToken;
  const token = myTurn ? seatTokens[player] : tableTurnNow ? kept.tableToken : null;

  // The moves to offer: the legal actions (or, in table mode, the draws).
  useEffect(() => {
    setLegal([]); setFilter("");
    if (!token || !match) return undefined;
    let live = true;
    call("Engine", "LegalActions", {
      position: { record: { game: match.game, steps: steps.map((s) => ({ id: s.id })) } },
    }).then((a) => live && setLegal(a.actions || [])).catch((e) => live && setError(errorText(e)));
    return () => { live = false; };
  }, [token, steps.length, match && match.game]);

  async function play(action) {
    if (sending) return;
    setError(""); setSending(true);
    try {
      const answer = await call("Matches", "SubmitAction", {
        matchId, token, step: stepsRef.current.length, action: { id: action.id ?? 0 },
      });
      addStep(answer.step);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSending(false);
    }
  }

  async function askHint() {
    setHintBusy(true); setError("");
    try {
      const answer = await call("Matches", "RequestHint", { matchId, token: seatTokens[player] });
      if ((answer.step || 0) === stepsRef.current.length) { setHint(answer.analysis); setPicked(0); }
    } catch (e) {
      setError(errorText(e));
    } finally {
      setHintBusy(false);
    }
  }

  async function resign() {
    setResignAsk(false); setError("");
    const mine = seatTokens[player] ?? Object.values(seatTokens)[0];
    try {
      await call("Matches", "Resign", { matchId, token: mine });
    } catch (e) {
      setError(errorText(e));
    }
  }

  const texts = legal.map((a) => a.text);
  const shown = matching(filter, texts);
  // The filter box stays while others move (read-only then), so that a
  // keyboard's focus stays in it from one move to the next.
  function onFilterKey(e) {
    if (e.key !== "Enter" || !token) return;
    e.preventDefault();
    if (shown.length === 1) play(legal[shown[0]]);
    else setError(shown.length ? `${shown.length} moves start so: type more of the one you mean`
      : `no legal move reads "${filter}"`);
  }

  const numPlayers = (position && position.numPlayers) || ((match && match.seats) || []).length || 1;
  const name = (p) => seatLabel(match, kept, p);
  const candidate = hint && (hint.candidates || [])[picked];
  let whose = "";
  if (end) whose = "The match is over.";
  else if (!turn) whose = "";
  else if (turn.kind === "NODE_KIND_CHANCE") {
    whose = turn.table ? (kept && kept.tableToken ? "Chance: enter the real draw from the table."
      : "Chance: waiting for the table to enter the real draw.") : "Chance: the server draws…";
  } else if (myTurn) whose = `Your turn (${name(player)}).`;
  else whose = `${name(player)} to move…`;

  return html`<section class="match-view" aria-label="the match">
    <h2>Match ${matchId}${match ? `: ${match.game}` : ""}</h2>
    ${status && html`<p role="status" class="status">${status}</p>`}
    ${!kept && html`<p class="note">This browser holds no seat of this match: you are watching.</p>`}
    <p class="whose" aria-live="polite"><strong>${whose}</strong></p>
    ${scores.length > 0 && html`<p class="scores">Scores: ${scores.map((v, i) => `${name(i)} ${v}`).join(", ")}</p>`}
    ${end && html`<div class="result" role="status"><p><strong>${resultText(match, kept, end)}</strong>${
      end.result && end.result.detail && end.result.reason !== "END_REASON_GAME_OVER"
        ? ` ${end.result.detail}` : ""}</p>
      <p><a href=${`#/review/${encodeURIComponent(matchId)}`}>Review this match</a> ·${" "}
        <a href=${`#/play/new/${encodeURIComponent(match ? match.game : "")}`}>Play another</a></p></div>`}
    <div class="match-board">
      <div class="match-table">
        ${position && html`<${PositionTable} info=${position} turn=${candidate ? tableTurn(candidate.turn) : null} />`}
      </div>
      <div class="match-side">
        ${!end && (token || Object.keys(seatTokens).length > 0 || (kept && kept.tableToken)) && html`<div class="moves-to-play">
          <label for="move-filter">${tableTurnNow ? "The draw" : "Your move"} (type any start, Enter plays it):</label>
          <input id="move-filter" type="text" autocomplete="off" spellcheck=${false} value=${filter}
            readOnly=${!token} placeholder=${token ? "" : "waiting…"}
            onInput=${(e) => setFilter(e.target.value)} onKeyDown=${onFilterKey}
            aria-describedby="move-count" />
          ${token && html`<p id="move-count" class="count">${shown.length} of ${legal.length} ${
            tableTurnNow ? "outcomes" : "moves"}</p>
          <div class="legal" role="group" aria-label=${tableTurnNow ? "possible draws" : "legal moves"}>
            ${shown.map((i) => html`<button type="button" class="action" disabled=${sending}
              onClick=${() => play(legal[i])}>${legal[i].text}${legal[i].probability
                ? html` <small>(${(100 * legal[i].probability).toFixed(0)} %)</small>` : ""}</button>`)}
          </div>`}
        </div>`}
        ${myTurn && match && match.allowHints && html`<div class="match-hint">
          <button type="button" onClick=${askHint} disabled=${hintBusy}>${hintBusy ? "Thinking…" : "Hint"}</button>
          ${hint && html`<ol class="hint-list" aria-label="hint: ranked turns">
            ${(hint.candidates || []).slice(0, 5).map((c, i) => html`<li>
              <button type="button" aria-pressed=${i === picked ? "true" : "false"} onClick=${() => setPicked(i)}>
                ${c.turnText || c.text}</button>
              ${" "}${(100 * (c.winProbability || 0)).toFixed(0)} % to win, ${c.visits} visits</li>`)}
          </ol>`}
        </div>`}
        ${!end && Object.keys(seatTokens).length > 0 && html`<div class="resign">
          ${resignAsk ? html`<button type="button" class="danger" onClick=${resign}>Yes, resign</button>
            <button type="button" onClick=${() => setResignAsk(false)}>No, play on</button>`
            : html`<button type="button" onClick=${() => setResignAsk(true)}>Resign…</button>`}
        </div>`}
        ${error && html`<p class="error" role="alert">${error}</p>`}
        <h3>Moves</h3>
        <${MoveList} steps=${steps} numPlayers=${numPlayers} seatName=${name} current=${steps.length}
          label="the moves so far" />
      </div>
    </div>
  </section>`;
}

// The route's rest (app.js): "" or "new/<game string>": the form (for that
// game); "<match id>": the match. games: ListGames' list.
export default function PlayView({ path = "", games = null }) {
  if (!path || path === "new" || path.startsWith("new/")) {
    return html`<${NewMatchForm} game=${path.slice(4)} games=${games} />`;
  }
  return html`<${MatchView} key=${path} matchId=${path} />`;
}
