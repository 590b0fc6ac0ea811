"""Asking a person for one move: read lines until one names a legal move
or a word of the session (moves.py), answering everything else in place
(`?` lists the moves with their short forms; an ambiguous start lists the
moves it begins; an unknown text names the closest). Both ways of playing
(a local game, a hosted match) ask through here."""
from __future__ import annotations

from . import moves


class Ask:
    """`ask(prompt, texts, shorts)` -> ("move", index) or ("command", word);
    ("command", "eof") when the input ends. `say(line)` prints a line,
    `read_line(prompt)` reads one (input() by default)."""

    def __init__(self, say, read_line=None):
        self.say = say
        self.read_line = read_line or input
        self.completions: list[str] = []

    def __call__(self, prompt: str, texts: list[str], shorts: list[str], extra=None):
        self.completions = list(texts) + [w for w in moves.COMMANDS if w != "moves"]
        while True:
            try:
                line = self.read_line(prompt)
            except EOFError:
                return "command", "eof"
            reading = moves.read(line, texts, shorts)
            if reading.kind == "move":
                return "move", reading.index
            if reading.kind == "command" and reading.command == "list":
                for row in moves.listing(texts, shorts, extra=extra):
                    self.say(row)
                continue
            if reading.kind == "command":
                return "command", reading.command
            if reading.kind in ("ambiguous", "unknown"):
                for row in moves.explain(reading, line, texts, shorts, extra):
                    self.say(row)


def news_lines(news: list[tuple[int, str]], name) -> list[str]:
    """What happened since the person last decided, `news` being (player,
    text) per step (player -1: chance): a line per player's run of moves,
    "name: a; b", and a line "drawn: ..." per run of chance draws, so that a
    setup's many draws take one line. `name(player)` names a player."""
    from easel.engine.contract_ids import PLAYER_CHANCE
    runs: list[tuple[int, list[str]]] = []
    for player, text in news:
        if runs and runs[-1][0] == player:
            runs[-1][1].append(text)
        else:
            runs.append((player, [text]))
    return [f"{'drawn' if p == PLAYER_CHANCE else name(p)}: {'; '.join(t)}" for p, t in runs]


def setup_completion(ask: Ask, stdin) -> None:
    """Tab completes a move's text where the terminal allows it."""
    if not stdin.isatty():
        return
    try:
        import readline
    except ImportError:
        return

    def complete(text, k):
        hits = [c for c in ask.completions if c.lower().startswith(text.lower())]
        return hits[k] if k < len(hits) else None
    readline.set_completer(complete)
    readline.set_completer_delims("")
    readline.parse_and_bind("tab: complete")
