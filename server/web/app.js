// A placeholder page: lists the games of easel.v1.Engine/ListGames, called
// over the server's HTTP face (Connect protocol, proto3 JSON). Everything
// comes from this server (see the Content-Security-Policy it sends).
"use strict";

const statusLine = document.getElementById("status");
const list = document.getElementById("games");
const tokenForm = document.getElementById("token-form");
const tokenInput = document.getElementById("token");

async function call(method, request) {
  const headers = { "Content-Type": "application/json" };
  const token = sessionStorage.getItem("easel-token");
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch("/easel.v1.Engine/" + method, {
    method: "POST", headers, body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    const error = new Error(body.message || response.statusText);
    error.code = body.code;
    throw error;
  }
  return body;
}

function show(games) {
  list.replaceChildren();
  for (const game of games) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = game.longName || game.name;
    const detail = document.createElement("span");
    detail.className = "detail";
    const players = game.minPlayers === game.maxPlayers ? String(game.minPlayers)
      : `${game.minPlayers}–${game.maxPlayers}`;
    detail.textContent = ` — ${game.name}, ${players} players`;
    item.append(name, detail);
    list.append(item);
  }
  statusLine.textContent = `${games.length} games`;
}

async function load() {
  statusLine.classList.remove("error");
  statusLine.textContent = "Loading…";
  try {
    const answer = await call("ListGames", {});
    tokenForm.hidden = true;
    show(answer.games || []);
  } catch (error) {
    statusLine.classList.add("error");
    statusLine.textContent = `ListGames failed: ${error.message}`;
    if (error.code === "unauthenticated") tokenForm.hidden = false;
  }
}

tokenForm.addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem("easel-token", tokenInput.value.trim());
  load();
});

load();
