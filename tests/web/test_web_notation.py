"""server/web/notation.js, the page's line editor of table notations
(docs/table-notation.md), run in Chromium on the served module: a line read,
replaced, added in its section, removed; numbered keywords; keywords in any
case; comments and the header kept."""
from __future__ import annotations

import pytest

TEXT = ("starving_artists(players=2)\n"
        "# the table tonight\n"
        "Day 3   # after supper\n"
        "phase turn player 1\n"
        "market Sunflowers; -; Irises\n"
        "player 1\n"
        "  paint red 2 blue 1\n"
        "  food 3\n"
        "player 2\n"
        "  food 1\n")


@pytest.fixture(scope="module")
def run(browser, served):
    context = browser.new_context()
    page = context.new_page()
    page.goto(served.url + "/")

    def call(fn, *args):
        return page.evaluate(
            "async ([fn, args]) => (await import('/notation.js'))[fn](...args)", [fn, list(args)])
    yield call
    context.close()


def test_get_line_reads_table_level_and_section_lines(run):
    assert run("getLine", TEXT, "day") == "3"                 # case, comment dropped
    assert run("getLine", TEXT, "market") == "Sunflowers; -; Irises"
    assert run("getLine", TEXT, "food", 1) == "3"
    assert run("getLine", TEXT, "food", 2) == "1"
    assert run("getLine", TEXT, "food") is None               # not at table level
    assert run("getLine", TEXT, "paint", 2) is None
    assert run("getLine", TEXT, "round") is None


def test_line_numbers_are_one_based_and_per_section(run):
    assert run("lineNumberOf", TEXT, "DAY") == 3
    assert run("lineNumberOf", TEXT, "food", 2) == 10
    assert run("lineNumberOf", TEXT, "food", 3) is None


def test_set_line_replaces_keeping_comment_and_header(run):
    out = run("setLine", TEXT, "day", "4")
    assert out.splitlines()[0] == "starving_artists(players=2)"
    assert out.splitlines()[1] == "# the table tonight"
    assert out.splitlines()[2] == "day 4 # after supper"
    assert out.count("\n") == TEXT.count("\n")


def test_set_line_adds_in_its_section_or_before_the_sections(run):
    out = run("setLine", TEXT, "paint", "yellow 1", 2)
    assert out.splitlines()[-1] == "  paint yellow 1"
    out = run("setLine", TEXT, "nutrition", "4", 1)
    lines = out.splitlines()
    assert lines[lines.index("player 1") + 3] == "  nutrition 4"
    assert lines.index("player 2") == lines.index("player 1") + 4
    out = run("setLine", TEXT, "round", "2")
    assert out.splitlines()[5] == "round 2" and out.splitlines()[6] == "player 1"
    out = run("setLine", TEXT, "food", "2", 3)                # a section not yet written
    assert out.endswith("player 3\n  food 2\n")


def test_set_line_removes_and_numbered_keywords(run):
    out = run("setLine", TEXT, "food", None, 1)
    assert "  food 3" not in out and "  food 1" in out
    text = "round 1\npainting 1 -\npainting 2 -\npalette 1: -\n"
    assert run("getLine", text, "painting 2") == "-"
    out = run("setLine", text, "painting 2", "Irises: . YU")
    assert out == "round 1\npainting 1 -\npainting 2 Irises: . YU\npalette 1: -\n"
    assert run("getLine", text, "palette 1") == "-"
    out = run("setLine", text, "palette 1", ": BU BD / . YS")
    assert out.splitlines()[3] == "palette 1: BU BD / . YS"
    assert run("setLine", text, "painting 3", None) == text   # nothing to remove
    assert run("getLine", text, "painting") == "1 -"          # the first 'painting' line
