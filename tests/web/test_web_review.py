"""The review view in a real browser (issue #26, "review"): a text record
pasted or opened from a file, stepped through by buttons and arrow keys,
reviewed by Engine.Review with a progress bar, the win-probability graph
(axis labels; a click on a point goes to that turn), the flagged turns by
player with the better turn; a finished match opened from the server; a
bad record says what is wrong; the phone viewport. Screenshots go to
$EASEL_SCREENSHOT_DIR (default: the test's tmp_path) as
web-<game>-review-<desktop|phone>.png."""
from __future__ import annotations

import json
import pathlib
import re
import time

from web_helpers import assert_clean
from test_web_play import rpc, web_url  # noqa: F401 (a fixture)

# Player 1 leaves the open column: move 6 loses at once where o in column 4 blocks, a
# blunder at any budget.
BLUNDER = """[Format "EGN 1"]
[Game "connect_four"]
[Date "2026-12-01"]
[Seat0 "client:you"]
[Seat1 "level(1)"]
[Result "1-0"]
[Returns "1.0 -1.0"]
[scores "null"]

1. P0: x in column 4 {the centre column}
2. P1: o in column 1
3. P0: x in column 4
4. P1: o in column 1
5. P0: x in column 4
6. P1: o in column 7 {o in column 4 blocks}
7. P0: x in column 4
1-0
"""


def open_record(page, web_url, text):
    page.goto(web_url + "#/review")
    page.wait_for_selector(".open-record")
    if not page.is_visible("#record-text"):           # folded once a record is open
        page.click(".open-record summary")
    page.fill("#record-text", text)
    opened = int(page.get_attribute(".review-view", "data-opened"))
    page.click(".open-record form button[type=submit]")
    page.wait_for_function(f"() => document.querySelector('.review-view').dataset.opened > {opened}")


def where(page):
    return page.inner_text(".review-view .where")


def test_a_record_is_stepped_through_reviewed_and_its_blunder_shows_the_better_turn(
        page, web_url, served, shot):
    open_record(page, web_url, BLUNDER)
    assert where(page) == "connect_four: step 0 of 7 (the start)"
    page.click("text=next ▶")
    assert where(page).startswith("connect_four: step 1 of 7, after move 1: x in column 4")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert where(page).startswith("connect_four: step 3 of 7")
    page.keyboard.press("ArrowLeft")
    assert where(page).startswith("connect_four: step 2 of 7")
    page.keyboard.press("End")
    assert where(page).startswith("connect_four: step 7 of 7, after move 7: x in column 4")
    page.click("text=|◀ first")
    assert where(page) == "connect_four: step 0 of 7 (the start)"
    # a step of the move list is a button to its position
    page.click(".move-list button:text-is('o in column 7')")
    assert where(page).startswith("connect_four: step 6 of 7, after move 6: o in column 7")

    page.fill(".review-run input[type=number]", "300")
    page.click("text=Review this game")
    page.wait_for_selector(".review-run progress")
    page.wait_for_selector(".review-summary", timeout=120000)
    assert "Reviewed: 7 of 7 turns" in page.inner_text(".review-run")
    assert page.get_attribute(".review-run progress", "value") == "7"

    graph = page.locator(".win-graph svg")
    labels = graph.locator("text").all_text_contents()
    assert {"0 %", "50 %", "100 %", "1", "7", "move"} <= set(labels), labels
    assert graph.locator("polyline").count() == 2           # a line per player
    assert graph.locator("g.point").count() == 7
    assert "??" in labels                                   # the blunder's mark

    flagged = page.locator(".flagged section").nth(1)
    assert "Player 2: 1 flagged" in flagged.inner_text()
    assert "move 6: ?? blunder" in flagged.inner_text()
    assert "best o in column 4" in flagged.inner_text()
    assert "Player 1: none flagged" in page.inner_text(".flagged section >> nth=0")
    flagged.locator("button").click()
    # the position before the blunder, with the better turn on the table
    assert where(page).startswith("connect_four: step 5 of 7, after move 5: x in column 4")
    panel = page.inner_text(".decision")
    assert "Move 6, player 2" in panel and "?? blunder" in panel
    assert re.search(r"Best\s+o in column 4 — [\d.]+ % to win \(drawn on the table\)", panel), panel
    # the table shows a step once its position is read (review.js `shown` lags `at`)
    page.wait_for_selector(".review-table[data-shown='5'] .position-table ol.turn li")
    assert page.locator(".position-table ol.turn li").all_inner_texts() == ["o in column 4"]
    shot(page, "web-connect_four-review-desktop.png")

    # a point of the graph goes to its turn (click, or Enter on it)
    graph.locator("g.point").first.click()
    assert where(page) == "connect_four: step 0 of 7 (the start)"
    graph.locator("g.point").nth(2).focus()
    page.keyboard.press("Enter")
    assert where(page).startswith("connect_four: step 2 of 7")
    assert "Move 3, player 1" in page.inner_text(".decision")
    assert_clean(page, served)


def test_a_bad_record_says_what_is_wrong(page, web_url, served):
    open_record(page, web_url, BLUNDER.replace("5. P0: x in column 4", "5. P0: x in column 10"))
    error = page.inner_text(".review-view .error")
    # the line and move, then the server's INVALID_ARGUMENT message
    assert "line 14: move 5: actions[4].text: connect_four: 'x in column 10' is not a legal move here" in error, error
    assert "legal moves: x in column 1; x in column 2" in error
    assert page.locator(".review-board").count() == 0

    open_record(page, web_url, "1. P0: x in column 4\n")
    assert "a record starts with an EGN header" in page.inner_text(".review-view .error")
    open_record(page, web_url, BLUNDER.replace("6. P1: o in column 7", "6. P0: o in column 7"))
    assert "line 15: move 6: the line is P0's but 'o in column 7' is player 1's decision" in \
        page.inner_text(".review-view .error")
    open_record(page, web_url, BLUNDER.replace('[Game "connect_four"]', '[Game "connect_five"]'))
    assert "connect_five" in page.inner_text(".review-view .error")
    assert_clean(page, served, refused=("ApplyAction",))


def test_records_in_either_form_are_read_with_quotes_ids_and_comments(page, web_url):
    page.goto(web_url + "#/review")
    page.wait_for_selector("#record-text")
    games = page.evaluate("""async () => {
        const { parseRecords } = await import('./views/records.js');
        return parseRecords('[Format "EGN 1"]\\n[Game "pig"]\\n\\n1. P0: roll {a comment; with a semicolon}; '
            + '*"Roll 4" @3; stop\\n{a comment line}\\n*\\n\\n[Format "EGN 1"]\\n[Game "connect_four"]\\n\\n1. P0: x in column 4\\n*\\n');
    }""")
    assert [g["game"] for g in games] == ["pig", "connect_four"]
    assert [(s["text"], s["kind"], s.get("id")) for s in games[0]["steps"]] == [
        ("roll", "NODE_KIND_DECISION", None), ("Roll 4", "NODE_KIND_CHANCE", 3),
        ("stop", "NODE_KIND_DECISION", None)]
    # JSON lines: steps are [player, action id]
    jsonl = json.dumps({"game": "pig", "steps": [[0, 0], [-1, 3], [0, 1]]})
    open_record(page, web_url, jsonl + "\n")
    assert where(page) == "pig: step 0 of 3 (the start)"
    page.keyboard.press("End")
    assert where(page) == "pig: step 3 of 3, after move 1: stop"
    assert page.inner_text(".move-list") .replace("\n", " ").strip() == "1. P0: roll; *Roll 4; stop"


def test_a_finished_match_is_opened_from_the_server_on_a_phone(phone, web_url, served, shot):
    made = rpc(web_url, "Matches", "CreateMatch", {
        "game": "connect_four", "seats": [{"bot": "level(1)"}, {"bot": "level(1)"}]})
    match_id = made["matchId"]
    for _ in range(300):
        if rpc(web_url, "Matches", "GetMatch", {"matchId": match_id})["match"]["status"] != \
                "MATCH_STATUS_IN_PROGRESS":
            break
        time.sleep(0.1)
    phone.goto(web_url + "#/review")
    phone.click("text=Finished matches…")
    phone.click(f"text=Review {match_id}")
    phone.wait_for_selector(".review-board")
    steps = rpc(web_url, "Matches", "GetMatch", {"matchId": match_id})["match"]["steps"]
    assert where(phone) == f"connect_four: step 0 of {steps} (the start)"
    phone.keyboard.press("End")
    assert where(phone).startswith(f"connect_four: step {steps} of {steps}")
    phone.fill(".review-run input[type=number]", "100")
    phone.click("text=Review this game")
    phone.wait_for_selector(".review-summary", timeout=120000)
    phone.wait_for_selector(".win-graph svg g.point")
    shot(phone, "web-connect_four-review-phone.png")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # #/review/<match id> opens it at once (the play view's link)
    phone.goto(web_url + f"#/review/{match_id}")
    phone.wait_for_function("() => document.querySelector('.review-view .where')")
    assert where(phone) == f"connect_four: step 0 of {steps} (the start)"
    assert_clean(phone, served)


def doc_records():
    """The EGN examples of docs/records.md, one per game."""
    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text()
    return re.findall(r"```egn\n(.*?)```", doc, re.S)


def test_the_records_of_the_docs_open_for_every_game(page, web_url, served):
    from easel.search import egn
    records = doc_records()
    assert len(records) == 4
    for text in records:
        game = next(iter(egn.parse(text.splitlines(keepends=True))))[1]
        steps = len(game.record["steps"])
        open_record(page, web_url, text)
        name = game.record["game"].split("(")[0]           # the page shows the canonical string
        assert re.fullmatch(rf"{name}\S*: step 0 of {steps} \(the start\)", where(page)), where(page)
        page.keyboard.press("End")
        last = page.inner_text(".move-list li:last-child")
        assert re.match(rf"{name}\S*: step {steps} of {steps}, after move ", where(page)), where(page)
        # the move list numbers turns as the EGN writer does
        assert last.split(".")[0] == text.strip().splitlines()[-2].split(".")[0]
        page.wait_for_selector(".position-table")
    assert_clean(page, served)


def test_the_graph_labels_whole_moves_and_both_ends(page, web_url):
    page.goto(web_url + "#/review")
    page.wait_for_selector("#record-text")
    got = page.evaluate("""async () => {
        const { ticks } = await import('./views/graph.js');
        return [ticks(1, 3, 8), ticks(1, 7, 8), ticks(1, 26, 5), ticks(1, 15, 8)];
    }""")
    assert got == [[1, 2, 3], [1, 2, 3, 4, 5, 6, 7], [1, 5, 10, 15, 20, 26], [1, 4, 6, 8, 10, 12, 15]]


def test_a_review_stops_at_once_and_runs_again(page, web_url, served):
    open_record(page, web_url, BLUNDER)
    page.fill(".review-run input[type=number]", "1000000")      # hours of search, unless stopped
    page.click("text=Review this game")
    page.wait_for_selector(".review-run progress")
    page.click(".review-run button:text-is('Stop')")
    page.wait_for_selector(".review-run button:text-is('Review this game')")
    assert page.locator(".review-view [role=alert]").count() == 0
    page.fill(".review-run input[type=number]", "50")
    page.click("text=Review this game")
    page.wait_for_selector(".review-summary", timeout=120000)
    assert "Reviewed: 7 of 7 turns" in page.inner_text(".review-run")
    assert_clean(page, served)


def test_the_better_turn_is_drawn_only_on_the_position_it_starts_from(page, web_url, served):
    open_record(page, web_url, BLUNDER)
    page.fill(".review-run input[type=number]", "50")
    page.click("text=Review this game")
    page.wait_for_selector(".review-summary", timeout=120000)
    # the position before the blunder is held back: until it comes, the
    # table still shows the start, and the better turn is not drawn on it
    held = []
    page.route("**/LegalActions", lambda route: held.append(route))
    page.locator(".flagged section").nth(1).locator("button").click()
    assert where(page).startswith("connect_four: step 5 of 7")
    assert "(drawn on the table)" in page.inner_text(".decision")
    page.wait_for_function("() => true")              # the page has rendered the click
    assert page.locator(".position-table ol.turn li").count() == 0
    assert page.get_attribute(".review-table", "data-shown") == "0"
    for route in held:
        route.continue_()
    page.unroute("**/LegalActions")
    page.wait_for_selector(".review-table[data-shown='5'] .position-table ol.turn li")
    assert page.locator(".position-table ol.turn li").all_inner_texts() == ["o in column 4"]
    assert_clean(page, served)


def test_the_turns_of_one_move_split_by_chance_are_not_drawn_on_one_another(page, web_url):
    # A painting game's turn split by a chance outcome (Van Gogh's bag, Starving
    # Artists' market) is two reviewed turns of one move number: the second,
    # here a mistake, was drawn on the first, its mark hidden under the marker.
    page.goto(web_url + "#/review")
    page.wait_for_selector("#record-text")
    got = page.evaluate("""async () => {
        const { WinGraph } = await import('./views/graph.js');
        const { html } = await import('./html.js');
        const { render } = await import('./vendor/preact.js');
        const box = document.createElement('div');
        document.body.append(box);
        const d = (step, move, player, p, judgement) =>
            ({ step, move, player, playedWinProbability: p, judgement });
        render(html`<${WinGraph} numPlayers=${2} decisions=${[d(0, 1, 0, 0.5), d(3, 1, 0, 0.4,
            'JUDGEMENT_MISTAKE'), d(4, 2, 1, 0.6), d(6, 3, 0, 0.3), d(8, 3, 0, 0.35)]} />`, box);
        const xs = [...box.querySelectorAll('g.point')].map((g) => Number(g.querySelector('circle').getAttribute('cx')));
        const labels = [...box.querySelectorAll('svg > text')].map((t) => t.textContent);
        box.remove();
        return { xs, labels };
    }""")
    xs = got["xs"]
    assert xs == sorted(xs) and len(set(xs)) == 5, xs                # in order, none on another
    assert min(b - a for a, b in zip(xs, xs[1:])) >= 16, xs        # a marker's width apart
    assert [t for t in got["labels"] if t not in ("0 %", "50 %", "100 %", "move")] == ["1", "2", "3"]


def test_arrow_keys_pressed_quickly_each_take_a_step(page, web_url):
    # Each key was read against the step of the last render: a key pressed
    # before the page had drawn the step before it was lost. And the keys are
    # pressed the moment the record shows (a mutation observer on the count of
    # records opened, before the next frame): the listener was put in place a
    # frame later, and those keys were lost too.
    open_record(page, web_url, BLUNDER)
    page.evaluate("""() => { for (let i = 0; i < 6; i++) {
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    } }""")
    page.wait_for_function("() => (document.querySelector('.review-view .where')?.textContent || '').includes('step 6 of 7')",
                           timeout=5000)
    page.evaluate("""() => {
        const view = document.querySelector('.review-view');
        const seen = new MutationObserver(() => {
            seen.disconnect();
            for (let i = 0; i < 3; i++) {
                window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
            }
        });
        seen.observe(view, { attributes: true, attributeFilter: ['data-opened'] });
    }""")
    if not page.is_visible("#record-text"):           # folded once a record is open
        page.click(".open-record summary")
    page.click(".open-record form button[type=submit]")        # the same record, opened again
    page.wait_for_function("() => (document.querySelector('.review-view .where')?.textContent || '').includes('step 3 of 7')",
                           timeout=5000)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => (document.querySelector('.review-view .where')?.textContent || '').includes('step 6 of 7')",
                           timeout=5000)
    page.evaluate("""() => { for (const key of ['ArrowLeft', 'ArrowLeft', 'Home', 'ArrowRight']) {
        window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    } }""")
    page.wait_for_function("() => (document.querySelector('.review-view .where')?.textContent || '').includes('step 1 of 7')",
                           timeout=5000)
