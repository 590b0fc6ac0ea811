// The web table's shell (docs/serving.md, "HTTP and the web page"): the
// header, the bearer-token form, the game and player chooser (from
// Engine.ListGames) and the hash router:
//   #/                      the chooser
//   #/setup/<game string>   set up a position, ask for hints (views/setup.js)
//   #/play/<rest>           play (views/play.js): <match id>, or new/<game string>
//   #/review/<rest>         review a record or a finished match (views/review.js)
// A view module's default export is a component given {path, games}: `path`
// the decoded rest of the hash after the view's name, `games` ListGames' list.
import { render } from "./vendor/preact.js";
import { useEffect, useState } from "./vendor/hooks.js";
import { html } from "./html.js";
import { call, describe, setToken, token } from "./api.js";

const VIEWS = {
  setup: () => import("./views/setup.js"),
  play: () => import("./views/play.js"),
  review: () => import("./views/review.js"),
};

export function route(hash = location.hash) {
  const parts = hash.replace(/^#\/?/, "").split("/");
  const view = parts.shift() || "";
  let path = parts.join("/");
  try { path = decodeURIComponent(path); } catch (e) { /* a stray % stays as written */ }
  return { view, path };
}

// The game strings of a game, one per player count (solo included).
export function gameStrings(game) {
  const lo = game.minPlayers || 1, hi = game.maxPlayers || lo;
  const out = [];
  for (let n = lo; n <= hi; n++) {
    out.push({ players: n,
               spec: game.playersOption ? `${game.name}(${game.playersOption}=${n})` : game.name });
  }
  return out;
}

function TokenForm({ onDone }) {
  const [value, setValue] = useState(token());
  const submit = (e) => { e.preventDefault(); setToken(value.trim()); onDone(); };
  return html`<form id="token-form" class="token" onSubmit=${submit}>
    <label>This server wants a bearer token:
      <input id="token" type="password" autocomplete="off" value=${value}
             onInput=${(e) => setValue(e.target.value)} /></label>
    <button type="submit">Use it</button>
  </form>`;
}

function Chooser({ games }) {
  return html`<section class="chooser">
    <h2>Choose a game and the players</h2>
    <ul id="games" class="games">
      ${games.map((g) => html`<li class="game" data-game=${g.name}>
        <h3 class="name">${g.longName || g.name}</h3>
        <p class="detail">${(g.description || "").split(/(?<=\.)\s/)[0]}</p>
        ${[["setup", "Set up and hint"], ["play", "Play"]].map(([view, label]) => html`
          <p class="counts" data-view=${view}><span class="label">${label}:</span>
          ${gameStrings(g).map(({ players, spec }) => html`<a class="button"
              href=${`#/${view}/${view === "play" ? "new/" : ""}${encodeURIComponent(spec)}`}
              data-spec=${view === "setup" ? spec : null}
              aria-label=${`${label.toLowerCase()}: ${g.longName || g.name}, ${players === 1 ? "solo"
                : players + " players"}`}>${players === 1 ? "Solo" : `${players}`}</a>`)}
          </p>`)}
        </li>`)}
    </ul></section>`;
}

function Routed({ where, games }) {
  const [loaded, setLoaded] = useState({ view: null, Component: null, error: null });
  useEffect(() => {
    const load = VIEWS[where.view];
    if (!load) return;
    let live = true;
    setLoaded({ view: where.view, Component: null, error: null });
    load().then((m) => live && setLoaded({ view: where.view, Component: m.default, error: null }),
                (e) => live && setLoaded({ view: where.view, Component: null,
                                           error: `this page has no ${where.view} view (${e.message})` }));
    return () => { live = false; };
  }, [where.view]);
  if (!VIEWS[where.view]) return html`<${Chooser} games=${games} />`;
  if (loaded.error) return html`<p class="error" role="alert">${loaded.error}</p>`;
  if (loaded.view !== where.view || !loaded.Component) {
    return html`<p class="status" role="status">Loading…</p>`;
  }
  const C = loaded.Component;
  return html`<${C} key=${where.view + "/" + where.path} path=${where.path} games=${games} />`;
}

function App() {
  const [where, setWhere] = useState(route());
  const [games, setGames] = useState(null);
  const [error, setError] = useState(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const on = () => setWhere(route());
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  useEffect(() => {
    setError(null);
    call("Engine", "ListGames", {}).then((a) => setGames(a.games || []), setError);
  }, [attempt]);
  return html`<header class="top">
      <a class="home" href="#/"><h1>Easel</h1></a>
      <nav aria-label="views"><a href="#/">Games</a> <a href="#/review">Review</a></nav>
    </header>
    <main id="main">
      ${error && error.code === "unauthenticated"
        ? html`<${TokenForm} onDone=${() => setAttempt(attempt + 1)} />` : null}
      ${error ? html`<p id="status" class="error" role="alert">ListGames failed: ${describe(error)}</p>`
        : games === null ? html`<p id="status" class="status" role="status">Loading…</p>`
        : html`<${Routed} where=${where} games=${games} />`}
    </main>`;
}

const root = document.getElementById("app");
root.replaceChildren();          // the "Loading…" line index.html shows until the modules run
render(html`<${App} />`, root);
