// The game modules' registry: the module that draws a game's table
// (games/<name>.js, contract: default export {name, Table, derived, samples},
// optionally `css: "<name>.css"`, linked here once), else games/generic.js.
// MODULES names the games that ship one: asking the server for a module it
// does not have would be a 404, which the browser logs as an error.
import generic from "./generic.js";

const MODULES = new Set(["vangogh", "couleurs_de_paris", "starving_artists"]);
const loaded = new Map();

function gameName(spec) {
  return String(spec || "").split("(")[0].trim();
}

function link(css) {
  const href = new URL(css, import.meta.url).href;
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) return;
  const el = document.createElement("link");
  el.rel = "stylesheet";
  el.href = href;
  document.head.append(el);
}

// The module of a game (a game string or a name): a promise, never rejected
// (a module that fails to load falls back to the generic one, with a warning).
export function moduleFor(spec) {
  const name = gameName(spec);
  if (!MODULES.has(name)) return Promise.resolve(generic);
  if (!loaded.has(name)) {
    loaded.set(name, import(`./${name}.js`).then((m) => {
      const mod = m.default;
      if (mod && mod.css) link(mod.css);
      return mod && mod.Table ? mod : generic;
    }, (e) => {
      console.warn(`games/${name}.js did not load (${e.message}); the generic table is shown`);
      return generic;
    }));
  }
  return loaded.get(name);
}

export { generic };
