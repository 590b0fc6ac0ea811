// The table of a game without a module of its own: the state's JSON view as
// a definition list, and a turn as its numbered steps. Read-only; a game
// without a table notation is set up in views/setup.js by its steps.
import { html } from "../html.js";

// A board written as rows of equal length (Connect Four's): a grid, one row a line.
function isGrid(v) {
  return Array.isArray(v) && v.length > 1 && v.every((r) => typeof r === "string"
                                                       && r.length === v[0].length);
}

function shown(value) {
  if (value === null || value === undefined) return "–";
  if (isGrid(value)) return html`<pre class="grid">${value.join("\n")}</pre>`;
  if (typeof value !== "object") return String(value);
  const text = JSON.stringify(value);
  return text.length > 200 ? text.slice(0, 197) + "…" : text;
}

function Table({ info, refusals, turn }) {
  const state = (info && info.state) || {};
  const marked = new Set((refusals || []).map((r) => (r.field || "").split(" ")[0]));
  return html`<div class="table generic-table">
    <dl class="state">
      ${Object.keys(state).map((k) => html`<div class=${marked.has(k) ? "refused" : ""}>
        <dt>${k.replace(/_/g, " ")}</dt><dd>${shown(state[k])}</dd></div>`)}
    </dl>
    ${turn && turn.length ? html`<ol class="turn" aria-label="the turn">
      ${turn.map((s) => html`<li class=${s.isChance ? "chance" : ""}>${s.text}</li>`)}
    </ol>` : null}
    ${info && info.text ? html`<details><summary>As text</summary>
      <pre class="board">${info.text}</pre></details>` : null}
  </div>`;
}

export default {
  name: "generic",
  Table,
  derived: () => [],
  samples: {},
};
