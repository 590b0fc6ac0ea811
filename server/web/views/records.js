// Reading a game record in the page: Easel Game Notation (docs/records.md)
// or JSON lines, the two forms `easel replay` reads. This reads only the
// layout (headers, numbered turns, steps by text, chance marks, ids,
// comments, results); whether each step is legal is the server's to say:
// checkRecord replays the steps with Engine.ApplyAction and puts the line
// of the step it refuses before the server's message.
import { call } from "../api.js";
import { moveNumbers } from "./moves.js";

export class RecordError extends Error {
  constructor(line, message) {
    super(line ? `line ${line}: ${message}` : message);
    this.line = line;
  }
}

const HEADER = /^\[([A-Za-z][A-Za-z0-9_.]*)\s+"((?:[^"\\]|\\.)*)"\]$/;
const MOVE = /^(\d+)\.(?:\s+|$)(?:P(\d+):\s*)?(.*)$/;
const SHARE = "(?:0|1|1/\\d+)";
const RESULT = new RegExp(`^(?:\\*|${SHARE}(?:-${SHARE})*)$`);

// Games of the text: [{game, headers, result, steps: [{text, id?, kind,
// line, move, player?}]}]; throws RecordError naming the line.
export function parseRecords(text) {
  const body = String(text || "").replace(/^\uFEFF/, "");
  const first = body.trimStart()[0];
  if (first === "{") return parseJsonLines(body);
  if (first === "[") return parseEgn(body);
  throw new RecordError(0, first === undefined ? "the record is empty"
    : "a record starts with an EGN header such as [Format \"EGN 1\"] or a JSON object {...}: "
      + `this one starts with ${JSON.stringify(body.trimStart().slice(0, 20))}`);
}

function parseJsonLines(body) {
  const games = [];
  body.split(/\r?\n/).forEach((raw, n) => {
    if (!raw.trim()) return;
    let rec;
    try { rec = JSON.parse(raw); } catch (e) {
      throw new RecordError(n + 1, `not a JSON object (${e.message})`);
    }
    if (!rec || typeof rec.game !== "string" || !Array.isArray(rec.steps)) {
      throw new RecordError(n + 1, "a JSON record needs \"game\" (a game string) and \"steps\" ([[player, action id], ...])");
    }
    const steps = rec.steps.map((s, i) => {
      if (!Array.isArray(s) || s.length !== 2 || !Number.isInteger(s[0]) || !Number.isInteger(s[1])) {
        throw new RecordError(n + 1, `steps[${i}] is ${JSON.stringify(s).slice(0, 40)}: write [player, action id] (player -1 for chance)`);
      }
      return { id: s[1], kind: s[0] < 0 ? "NODE_KIND_CHANCE" : "NODE_KIND_DECISION", line: n + 1, player: s[0] };
    });
    games.push({ game: rec.game, headers: {}, result: null, steps });
  });
  return games;
}

// Splits a move line's steps on ";" outside comments and quoted texts.
function splitSteps(rest, line) {
  const raw = [];
  let cur = "";
  for (let i = 0; i < rest.length;) {
    const ch = rest[i];
    if (ch === "{") {
      const end = rest.indexOf("}", i);
      if (end < 0) throw new RecordError(line, "a comment opened with { is not closed with }");
      i = end + 1;
    } else if (ch === "\"" && /^\s*\*?\s*$/.test(cur)) {
      let j = i + 1;
      while (j < rest.length && rest[j] !== "\"") j += rest[j] === "\\" ? 2 : 1;
      if (j >= rest.length) throw new RecordError(line, "a quoted text is not closed with \"");
      cur += rest.slice(i, j + 1);
      i = j + 1;
    } else if (ch === ";") {
      raw.push(cur); cur = ""; i++;
    } else {
      cur += ch; i++;
    }
  }
  raw.push(cur);
  return raw.map((part) => {
    let s = part.trim();
    const chance = s.startsWith("*");
    if (chance) s = s.slice(1).trim();
    let id;
    const at = s.match(/\s*@(\d+)$/);
    if (at) { id = Number(at[1]); s = s.slice(0, at.index).trim(); }
    if (s.startsWith("\"")) {
      try { s = JSON.parse(s); } catch (e) { throw new RecordError(line, `a quoted text is not a JSON string: ${s.slice(0, 40)}`); }
    }
    if (!s) throw new RecordError(line, "an empty step (two \";\" in a row, or one at the end)");
    return { text: s, id, kind: chance ? "NODE_KIND_CHANCE" : "NODE_KIND_DECISION", line };
  });
}

function parseEgn(body) {
  const games = [];
  let cur = null;
  const finish = () => {
    if (!cur) return;
    if (!cur.game) throw new RecordError(cur.line, "this game has no [Game \"...\"] header (the game string)");
    games.push(cur);
    cur = null;
  };
  body.split(/\r?\n/).forEach((raw, n) => {
    const line = n + 1, s = raw.trim();
    if (!s) return;
    if (s.startsWith("[")) {
      const m = s.match(HEADER);
      if (!m) throw new RecordError(line, "a header is written [Name \"value\"]");
      if (cur && cur.steps.length) finish();
      if (!cur) cur = { game: "", headers: {}, result: null, steps: [], line };
      const value = m[2].replace(/\\(["\\])/g, "$1");
      if (m[1] in cur.headers) throw new RecordError(line, `the header ${m[1]} is given twice`);
      cur.headers[m[1]] = value;
      if (m[1] === "Game") cur.game = value;
      return;
    }
    if (!cur) throw new RecordError(line, "a game starts with its headers ([Format \"EGN 1\"], [Game \"...\"])");
    if (RESULT.test(s)) { cur.result = s; finish(); return; }
    if (s.startsWith("{")) {
      if (!/^(\{[^}]*\}\s*)+$/.test(s)) throw new RecordError(line, "a comment line holds {comments} only");
      return;
    }
    const m = s.match(MOVE);
    if (!m) {
      throw new RecordError(line, "not a header, a move line (\"3. P1: text; text\") or a result (1-0, 0-1, 1/2-1/2, *)");
    }
    const move = Number(m[1]);
    const player = m[2] === undefined ? null : Number(m[2]);
    for (const step of splitSteps(m[3], line)) {
      if (player === null && step.kind !== "NODE_KIND_CHANCE") {
        throw new RecordError(line, `move ${move}: '${step.text}' is a decision on a line with no player: write "${move}. P0: ..." or mark a chance outcome with *`);
      }
      cur.steps.push({ ...step, move, linePlayer: player });
    }
  });
  finish();
  if (!games.length) throw new RecordError(0, "the text holds no game");
  return games;
}

// Replays a parsed game on the server. Returns {game, steps: [{id, text,
// player, kind, line, move}], numPlayers, final}; throws RecordError whose
// text is the server's message (for a refused step, after its line).
export async function checkRecord(parsed) {
  const actions = parsed.steps.map((s) => {
    const step = { kind: s.kind };
    if (s.text !== undefined) step.text = s.text;
    if (s.id !== undefined) step.id = s.id;
    return step;
  });
  if (!actions.length) {
    const start = await call("Engine", "NewGame", { game: parsed.game });
    return { game: start.position.game, steps: [], numPlayers: start.position.numPlayers || 1,
      final: start.position };
  }
  let answer;
  try {
    answer = await call("Engine", "ApplyAction", {
      position: { record: { game: parsed.game, steps: [] } }, actions,
    });
  } catch (error) {
    const m = /^actions\[(\d+)\]/.exec(error.message || "");
    const at = m ? parsed.steps[Number(m[1])] : null;
    const where = at ? [at.line ? `line ${at.line}` : "", at.move ? `move ${at.move}` : `step ${Number(m[1]) + 1}`]
      .filter(Boolean).join(": ") + ": " : "";
    throw new RecordError(0, where + (error.message || String(error)));
  }
  const applied = answer.appliedSteps || [];
  const numPlayers = answer.position.numPlayers || 1;
  const steps = applied.map((a, i) => ({
    id: a.id ?? 0, text: a.text, player: a.player ?? 0, kind: a.kind, line: parsed.steps[i].line,
  }));
  // Numbered as the EGN writer numbers them, as the review's moves are.
  moveNumbers(steps, numPlayers).forEach((n, i) => { steps[i].move = n; });
  steps.forEach((s, i) => {
    const said = parsed.steps[i].linePlayer;
    if (said !== undefined && said !== null && s.player >= 0 && s.player !== said) {
      throw new RecordError(s.line, `move ${parsed.steps[i].move}: the line is P${said}'s but '${s.text}' is player ${s.player}'s decision`);
    }
  });
  return { game: answer.position.game, steps, numPlayers, final: answer.position };
}
