// htm bound to Preact: html`<div class=${x}>...</div>` in every module of
// the page (no build step, no JSX). Modules may import the hooks from
// ./vendor/hooks.js.
import { h } from "./vendor/preact.js";
import htm from "./vendor/htm.js";

export const html = htm.bind(h);
export { h };
