"""The review and the play views on the three painting games (issue #26):
"review: open a text record or a finished match, step through it, see the
win-probability graph and the flagged decisions with the better turn
drawn", and "play: ... or table mode where the person enters each real
draw". test_web_review.py and test_web_play.py run the views on Connect
Four and Pig, whose table is the generic one; here the table is each
painting game's own SVG module, and the record is a real game's.

Each review opens the first turns of a game of `random` (player 1) against
`mcts` (the project's bots, chance drawn as the arena draws it, written by
the EGN writer), steps through it, reviews it at a small budget, and
follows a flagged turn of the random side to the position before it, where
the game's table draws the better turn (the marks its hint tests check).
Screenshots go to $EASEL_SCREENSHOT_DIR (default: the test's tmp_path) as
web-<game>-review-<desktop|phone>.png and web-vangogh-table-mode-desktop.png."""
from __future__ import annotations

import random
import re
import time

import pytest

from web_helpers import PHONE, assert_clean
from test_web_play import new_match, rpc, web_url  # noqa: F401 (a fixture)
from test_web_review import open_record, where


def opening(game_string: str, turns: int, seed: int, iterations: int):
    """The first `turns` turns (runs of one player's decisions, as the
    review counts them) of a game of `random` in seat 1 against
    mcts(iterations=...) in seat 2: (EGN text with result "*", a game in
    progress; the steps' texts; the EGN number of the last turn). Chance
    is drawn as the arena draws it (arena.sample_outcome from a seeded
    stream); the bots are the project's (search.specs)."""
    from easel import engine
    from easel.engine.contract_ids import PLAYER_CHANCE
    from easel.search import egn
    from easel.search.arena import derive_seed, sample_outcome
    from easel.search.records import RECORD_FORMAT, today
    from easel.search.specs import make_bot

    game = engine.load_game(game_string)
    specs = ["random", f"mcts(iterations={iterations})"]
    seeds = [derive_seed(seed, "bot", seat) for seat in range(2)]
    bots = [make_bot(spec, game, seed=s) for spec, s in zip(specs, seeds)]
    chance = random.Random(seed)
    state, steps, texts, started = game.new_initial_state(), [], [], 0
    while not state.is_terminal():
        player = state.current_player()
        if player == PLAYER_CHANCE:
            action = sample_outcome(state.chance_outcomes(), chance.random())
        else:
            if not steps or steps[-1][0] != player:       # a new turn starts
                if started == turns:
                    break
                started += 1
            action = bots[player].step(state.clone())
        texts.append(("*" if player == PLAYER_CHANCE else "") + state.action_to_string(action))
        state.apply_action(action)
        steps.append([player, int(action)])
    record = {"format": RECORD_FORMAT, "game": game.spec, "date": today(),
              "seats": [{"seat": i, "bot": spec, "spec": spec, "seed": s}
                        for i, (spec, s) in enumerate(zip(specs, seeds))],
              "steps": steps}
    return egn.dumps(record, game=game), texts, egn.layout(steps, game.num_players())[-1].number


def svg_texts(page, selector):
    """The text of SVG elements (inner_text is for HTML)."""
    return page.locator(selector).evaluate_all("els => els.map(e => e.textContent.trim())")


def vangogh_drawn(page, best):
    """Van Gogh's table (games/vangogh.js): the steps listed beside it, and
    numbered marks on the parts the steps use and fill."""
    listed = page.locator(".position-table .vg-steps li").all_inner_texts()
    assert len(listed) == len(best) and all(b in t for t, b in zip(listed, best)), (listed, best)
    badges = svg_texts(page, ".position-table svg.vg-svg .vg-stepbadge text")
    assert set(badges) <= {str(i + 1) for i in range(len(best))}, (badges, best)
    return page.locator(".position-table svg.vg-svg .vg-mark.vg-target").count()


def couleurs_drawn(page, best):
    """Couleurs de Paris (games/couleurs_de_paris.js): the steps listed, and
    a numbered mark on each part a step names."""
    listed = page.locator(".position-table ol.cdp-steps li").all_inner_texts()
    assert listed == best, (listed, best)
    numbers = page.locator(".position-table svg.cdp-svg g.cdp-step").evaluate_all(
        "els => els.map(e => e.dataset.step)")
    assert set(numbers) <= {str(i + 1) for i in range(len(best))}, (numbers, best)
    return len(numbers)


def starving_drawn(page, best):
    """Starving Artists (games/starving_artists.js): the steps listed,
    numbered, and each step that moves a cube or a canvas badged with its
    number on the table."""
    listed = page.locator(".position-table .sa-steps li").all_inner_texts()
    assert [re.sub(r"^\d+\s+", "", t) for t in listed] == best, (listed, best)
    badges = svg_texts(page, ".position-table svg.sa-svg .sa-badge")
    moving = {str(k + 1) for k, t in enumerate(best)
              if re.search(r"\b(paint \w+ on|buy canvas|pay|take|sell (?!nothing))", t)}
    assert moving <= set(badges), (best, badges)
    return len(badges)


# game -> (game string, turns, seed, iterations of the mcts side and of the
# review, the table's SVG, what checks the drawn turn)
REVIEWED = {
    "vangogh": ("vangogh(players=2)", 12, 3, 100, 300, "svg.vg-svg", vangogh_drawn),
    "couleurs_de_paris": ("couleurs_de_paris(players=2)", 12, 3, 100, 300, "svg.cdp-svg",
                          couleurs_drawn),
    "starving_artists": ("starving_artists(players=2)", 8, 3, 100, 300, "svg.sa-svg",
                         starving_drawn),
}


@pytest.mark.parametrize("name", list(REVIEWED))
def test_a_painting_game_is_reviewed_and_a_flagged_turn_shows_the_better_turn_on_its_table(
        name, page, web_url, served, shot):
    game, turns, seed, bot_iterations, iterations, svg, drawn = REVIEWED[name]
    started = time.monotonic()
    text, texts, moves = opening(game, turns, seed, bot_iterations)
    made = time.monotonic() - started
    steps = len(texts)
    open_record(page, web_url, text)
    shown = where(page).split(": step ")[0]             # the page writes the canonical string
    assert shown.startswith(name) and where(page) == f"{shown}: step 0 of {steps} (the start)", \
        where(page)
    page.wait_for_selector(f".position-table {svg}")
    page.click("text=next ▶")
    assert where(page) == f"{shown}: step 1 of {steps}, after move 0: {texts[0]}", where(page)
    page.keyboard.press("End")
    assert where(page) == f"{shown}: step {steps} of {steps}, after move {moves}: {texts[-1]}", \
        where(page)

    page.fill(".review-run input[type=number]", str(iterations))
    page.click("text=Review this game")
    page.wait_for_selector(".review-summary", timeout=120_000)
    assert f"Reviewed: {turns} of {turns} turns" in page.inner_text(".review-run")
    graph = page.locator(".win-graph svg")
    labels = graph.locator("text").all_text_contents()
    assert {"0 %", "50 %", "100 %", "1", str(moves), "move"} <= set(labels), labels
    assert graph.locator("polyline").count() == 2           # a line per player
    assert 0 < graph.locator("g.point").count() <= turns     # a point per turn not forced
    assert {"?!", "?", "??"} & set(labels), labels           # the flagged turns' marks

    # the random side (player 1) has flagged turns; each shows the position
    # before it with the better turn drawn on the game's own table
    mine = page.locator(".flagged section").nth(0)
    assert re.match(r"Player 1: \d+ flagged", mine.inner_text()), mine.inner_text()
    marked = 0
    for k in range(mine.locator("button").count()):
        flag = mine.locator("button").nth(k)
        move = int(re.match(r"move (\d+):", flag.inner_text()).group(1))
        flag.click()
        at = int(re.match(rf"{re.escape(shown)}: step (\d+) of", where(page)).group(1))
        panel = page.inner_text(".decision")
        assert f"Move {move}, player 1" in panel, panel
        played = re.search(r"Played\s+(.+) — [\d.]+ % to win", panel)
        assert played and played.group(1).split("; ")[0] == texts[at], (panel, texts[at])
        best = re.search(r"Best\s+(.+) — [\d.]+ % to win \(drawn on the table\)", panel)
        assert best, panel
        # the table shows the position of that step (not the one before the click)
        page.wait_for_selector(f".review-table[data-shown='{at}'] .position-table {svg}")
        marked += drawn(page, best.group(1).split("; ")) > 0
    assert marked, "no flagged turn drew a mark on the table"
    # the screenshots show the first flagged turn
    mine.locator("button").first.click()
    at = int(re.match(rf"{re.escape(shown)}: step (\d+) of", where(page)).group(1))
    page.wait_for_selector(f".review-table[data-shown='{at}'] .position-table {svg}")
    shot(page, f"web-{name}-review-desktop.png")
    page.set_viewport_size(PHONE)
    shot(page, f"web-{name}-review-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_clean(page, served)
    print(f"\n{name}: {steps} steps, {turns} turns, {k + 1} flagged turns of the random side; "
          f"record made in {made:.1f} s, test {time.monotonic() - started:.1f} s")


def offered(web_url, game, match_id):
    """(whose: "chance", a player number or None at the end; the texts
    LegalActions gives for the match's steps so far: the legal moves or the
    possible draws; the number of steps so far)."""
    record = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id, "withRecord": True})
    steps = [{"id": s.get("id", 0)} for s in record["record"].get("steps", [])]
    answer = rpc(web_url, "Engine", "LegalActions",
                 {"position": {"record": {"game": game, "steps": steps}}})
    kind = answer["position"].get("kind")
    whose = ("chance" if kind == "NODE_KIND_CHANCE" else
             answer["position"].get("currentPlayer", 0) if kind == "NODE_KIND_DECISION" else None)
    return whose, [a["text"].strip() for a in answer.get("actions", [])], len(steps)


def wait_offered(page, web_url, game, match_id):
    """Until the server waits on this page (a draw to enter, or seat 1's
    decision) and the page offers just that (not the buttons of the step
    before, shown until the page's own read lands); returns (whose, texts,
    steps so far)."""
    deadline = time.monotonic() + 60
    while True:
        whose, texts, steps = offered(web_url, game, match_id)
        if whose in ("chance", 0):
            break
        assert time.monotonic() < deadline, f"the bot never ended its turn ({whose!r} to move)"
        time.sleep(0.1)
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('button.action')]"
        ".map(b => b.firstChild.textContent.trim())) === JSON.stringify(want)", arg=texts)
    return whose, texts, steps


def enter(page, button, steps):
    """Clicks a draw or a move; returns once the move list shows it."""
    button.click()
    page.wait_for_function(f"() => document.querySelectorAll('.move-list .step').length > {steps}")


def test_table_mode_on_van_gogh_takes_every_real_draw_from_the_person(page, web_url, served, shot):
    game = "vangogh(players=2)"
    started = time.monotonic()
    match_id = new_match(page, web_url, game, table=True)
    # the opening: three paintings from the deck and nine Minigoghs from the
    # bag, each asked of the person, who picks the last one offered
    entered = []
    while True:
        whose, texts, steps = wait_offered(page, web_url, game, match_id)
        if whose != "chance":
            break
        assert page.inner_text(".whose") == "Chance: enter the real draw from the table."
        assert page.get_attribute(".legal", "aria-label") == "possible draws"
        shown = page.locator("button.action").all_inner_texts()
        assert all(re.search(r"\(\d+ %\)$", t) for t in shown), shown
        entered.append(texts[-1])
        enter(page, page.locator("button.action").last, steps)
    assert len(entered) >= 4 and any(t.startswith("deck: ") for t in entered), entered
    drawn_first = list(entered)
    # the person's first move, then on to the bot's turn (its draws asked of
    # the person too); each decision of the person's turn is the first offered
    assert page.inner_text(".whose") == "Your turn (seat 1 (you))."
    assert page.get_attribute(".legal", "aria-label") == "legal moves"
    moves = [texts[0]]
    enter(page, page.locator("button.action").first, steps)

    def bot_moved():
        # every draw and every move of seat 1 is the page's: any other step is the bot's
        done = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id, "withRecord": True})
        return len(done["record"]["steps"]) > len(entered) + len(moves)

    while not bot_moved():
        assert len(moves) < 60, moves
        whose, texts, steps = wait_offered(page, web_url, game, match_id)
        if whose == "chance":
            entered.append(texts[-1])
            enter(page, page.locator("button.action").last, steps)
        else:
            moves.append(texts[0])
            enter(page, page.locator("button.action").first, steps)
    record = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id, "withRecord": True})
    done = [s["text"] for s in record["record"]["steps"]]
    assert done[:len(drawn_first) + 1] == drawn_first + moves[:1], (done, drawn_first, moves)
    assert record["match"]["chance"] == "CHANCE_SOURCE_TABLE"
    # the move list shows each draw (as "*draw") and the bot's moves; the page hears of the
    # bot's move from the match's event stream, after the server has it (read above)
    page.wait_for_function("() => (document.querySelector('.move-list')?.innerText || '')"
                           ".includes('level(1)')")
    listed = page.locator(".move-list").inner_text()
    assert all(f"*{t}" in listed for t in entered) and "level(1)" in listed, listed
    shot(page, "web-vangogh-table-mode-desktop.png")
    assert_clean(page, served)
    print(f"\ntable mode: {len(entered)} draws entered by hand, {len(moves)} moves; "
          f"{time.monotonic() - started:.1f} s")
