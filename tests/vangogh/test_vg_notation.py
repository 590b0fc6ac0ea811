"""Van Gogh's table notation (ENCODING.md "Table notation", docs/table-notation.md):
what is written is what the table shows, the rest is derived; derived parts
written anyway are checked; every refusal names every wrong line and says
what to write."""
from __future__ import annotations

import random
import re

import pytest

from easel import engine
from easel.engine.errors import StateFormatError
from easel.engine.vangogh import notation
from easel.engine.vangogh.notation import CHAR_WORDS, starter_of

SPECS = ["vangogh(players=1)", "vangogh", "vangogh(players=3)", "vangogh(players=4)",
         "vangogh(players=5)", "vangogh(players=3,start=2,roll=1-2-3-4)"]


def positions(spec, impl="reference", games=2, seed=0):
    """Every state of a few random games (the heuristic leads the later ones,
    which finishes paintings and reaches later rounds)."""
    from easel.engine.kit import load_hook
    game = engine.load_game(spec, impl)
    heuristic = load_hook(engine.game_entry("vangogh"), "policies").heuristic
    rng = random.Random(f"{spec}/{seed}")
    out = []
    for g in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            out.append(s.clone())
            if s.is_chance_node():
                s.apply_action(engine.draw_outcome(s, rng))
            elif g and rng.random() < 0.8:
                s.apply_action(heuristic(s, rng))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        out.append(s)
    return game, out


def refusal(game, text) -> str:
    with pytest.raises(StateFormatError) as e:
        game.state_from_notation(text)
    return str(e.value)


@pytest.mark.parametrize("spec", SPECS)
def test_shortest_form_omits_derived_parts_and_loads_back(spec):
    """Written with every derived part left out, a position loads back the
    same; written with them all, too; the shortest form holds no `turn`
    where the rules fix the starter, no `actor` for a primary action, no
    `phase step`, no bag, deck or supply."""
    game, states = positions(spec)
    for s in states[::2]:
        view = s.to_json()
        short = s.to_notation()
        full = notation.write(game, view, derived=True)
        assert game.state_from_notation(short).to_json() == view, short
        assert game.state_from_notation(full).to_json() == view, full
        assert len(short) <= len(full)
        taken = [c["taken"] for c in view["characters"]]
        fixed = starter_of(game_rules(game), view["round"], view["token_holder"], taken[3])
        assert (re.search(r"^turn ", short, re.M) is None) == (fixed is not None), short
        assert not re.search(r"^(bag|deck|whites|supply|phase step)\b", short, re.M), short
        if view["pending"]["act_primary"] and view["phase"] == "step":
            assert "actor" not in short, short


def game_rules(game):
    from easel.engine.vangogh.rules import rules_of
    return rules_of(game)


def test_the_turn_is_asked_only_once_anna_moved_the_token():
    """The 2-player example of ENCODING.md: player 1 took Anna in round 3, so
    who began the round no longer shows; without `turn` the refusal lists
    the players whose turn it can be (the token written by its old word, `hat`)."""
    game = engine.load_game("vangogh", "reference")
    text = ("round 3\nchosen Anna\nhat 1\nability spent\nscores 16 13\n"
            "painting 1 Placeholder painting 3: . YU . .\n"
            "painting 2 Placeholder painting 4: . . YU . .\n"
            "painting 3 Placeholder painting 2: . . . VD\nframed Placeholder painting 5\n"
            "table YU BU VS VS VU\nwaiting Postman YD\n"
            "palette 1: BU BD PS GD VL / . YS YU\npalette 2: YS YS PL GL GS / . BS BU\n")
    msg = refusal(game, text)
    assert "(turn)" in msg and "'turn P' with P one of" in msg, msg
    assert game.state_from_notation("turn 2\n" + text).to_json()["turn_player"] == 1


def test_header_comments_and_ids():
    game = engine.load_game("vangogh(players=1)", "core")
    text = ("vangogh(players=1)   # the solo game\nround 3\nscores 24\n"
            "painting 1 #3: PL VS . . PS\npainting 2 placeholder PAINTING 2: . . . GD\n"
            "painting 3 Placeholder painting 8: . . . VL VU  # the last one\n"
            "table YS BL PS GD VL\nwaiting VanGogh YS, Gachet BS YS\n"
            "palette 1: YD BS BS BS GD VU WD\n")
    s = game.state_from_notation(text)
    assert [p["card"] for p in s.to_json()["paintings"]] == [3, 1, 7]
    msg = refusal(game, "vangogh(players=3)\n" + text.split("\n", 1)[1])
    assert "line 1 (game)" in msg and "write vangogh(" in msg, msg


def test_a_missing_line_and_an_unknown_keyword_say_what_to_write():
    game = engine.load_game("vangogh", "reference")
    msg = refusal(game, "round 1\ntabel YU\nscores 0 0\npainting 1 #0\npainting 2 #1\n"
                        "palette 1: -\npalette 2: -\n")
    assert "line 2 (tabel)" in msg and "'table'" in msg, msg
    assert "(painting 3)" in msg and "'painting 3 TITLE: spaces'" in msg, msg


# ---------------------------------------------------------- mutated notations
def _lines(text):
    return text.rstrip("\n").split("\n")


def _mut_turn(game, view, text, rng):
    """A wrong `turn` where the rules fix it: the derived player is proposed."""
    taken = [c["taken"] for c in view["characters"]]
    r = game_rules(game)
    if r.n < 2 or starter_of(r, view["round"], view["token_holder"], taken[3]) is None:
        return None
    wrong = rng.choice([p for p in range(r.n) if p != view["turn_player"]])
    return ("turn", f"turn {wrong + 1}", f"write {view['turn_player'] + 1} or leave it out")


def _mut_title(game, view, text, rng):
    """A painting's title misspelt (a letter dropped): the closest titles,
    the right one among them."""
    slots = [k for k, pv in enumerate(view["paintings"]) if pv["card"] >= 0]
    if not slots:
        return None
    k = rng.choice(slots)
    title = view["paintings"][k]["name"]
    line = next(ln for ln in _lines(text) if ln.startswith(f"painting {k + 1} "))
    cut = rng.randrange(3, len(title) - 3)
    wrong = title[:cut] + title[cut + 1:]
    return (f"painting {k + 1}", line.replace(title, wrong, 1), title)


def _mut_piece(game, view, text, rng):
    """A Minigogh that is not one on a palette: the letters are proposed."""
    p = rng.randrange(view["players"])
    line = next(ln for ln in _lines(text) if ln.startswith(f"palette {p + 1}:"))
    return (f"palette {p + 1}", line.replace(":", ": XQ", 1), "e.g. BU")


def _mut_score(game, view, text, rng):
    line = next(ln for ln in _lines(text) if ln.startswith("scores "))
    return ("scores", line.replace("scores ", "scores many ", 1).rsplit(" ", 1)[0],
            "a number from 0 to 100000")


def _mut_spaces(game, view, text, rng):
    """A space left out: the card's number of spaces is proposed."""
    slots = [k for k, pv in enumerate(view["paintings"]) if any(pv["occupants"])]
    if not slots:
        return None
    k = rng.choice(slots)
    line = next(ln for ln in _lines(text) if ln.startswith(f"painting {k + 1} "))
    size = len(view["paintings"][k]["occupants"])
    return (f"painting {k + 1}", line.rsplit(" ", 1)[0], f"write {size} spaces")


def _mut_actor(game, view, text, rng):
    """A wrong actor for a primary action: its performer is proposed."""
    pend = view["pending"]
    if view["phase"] != "step" or not pend["act_primary"] or view["players"] < 2:
        return None
    wrong = rng.choice([p for p in range(view["players"]) if p != pend["act_player"]])
    return ("actor", f"actor {wrong + 1}", f"write {pend['act_player'] + 1} or leave it out")


MUTATIONS = (_mut_turn, _mut_title, _mut_piece, _mut_score, _mut_spaces, _mut_actor)


def _mutate(game, view, text, rng, k):
    """Up to k mutations, each on its own line (a mutation that replaces a
    line takes it; `turn` and `actor` lines are added). Returns the text and
    [(keyword, proposal)]."""
    lines = _lines(text)
    expected, used = [], set()
    for mut in rng.sample(MUTATIONS, len(MUTATIONS)):
        if len(expected) == k:
            break
        got = mut(game, view, "\n".join(lines) + "\n", rng)
        if got is None:
            continue
        field, new, propose = got
        head = new.split()[0] + (" " + new.split()[1].rstrip(":") if new.split()[0] in
                                 ("painting", "palette") else "")
        old = next((i for i, ln in enumerate(lines) if ln.split()[0] == new.split()[0]
                    and (new.split()[0] not in ("painting", "palette")
                         or ln.split()[1] == new.split()[1])), None)
        if head in used or field in used:
            continue
        used |= {head, field}
        if old is None or field in ("turn", "actor"):
            lines.insert(1, new)
        else:
            lines[old] = new
        expected.append((field, propose))
    return "\n".join(lines) + "\n", expected


@pytest.mark.parametrize("spec", SPECS)
def test_every_refusal_names_every_wrong_line_and_what_to_write(spec):
    """Positions play reaches, each written and then mutated in one to three
    places (on different lines): the refusal names each wrong line's
    keyword and proposes the consistent value (the derived player, the right
    title among the closest, the card's number of spaces) or what may be
    written."""
    game, states = positions(spec, games=1, seed=1)
    rng = random.Random(spec)
    checked = 0
    for s in states[::3]:
        view = s.to_json()
        text, expected = _mutate(game, view, s.to_notation(), rng, rng.randint(1, 3))
        if not expected:
            continue
        msg = refusal(game, text)
        for field, propose in expected:
            part = next((p for p in re.split(r"; \(\d+\) |: \d+ problems: \(1\) ", msg)
                         if f"({field})" in p), None)
            assert part is not None, f"{field} not named:\n{text}\n{msg}"
            assert propose in part, f"{field}: {propose!r} not proposed in {part!r}\n{text}"
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("spec", ["vangogh", "vangogh(players=3)"])
def test_the_loaders_refusals_name_the_line(spec):
    """A position the notation reads but play cannot reach (a Minigogh
    waiting on a character chosen this round) is refused naming the line
    and keyword it came from."""
    game, states = positions(spec, games=1, seed=2)
    for s in states:
        v = s.to_json()
        taken = [c for c, ch in enumerate(v["characters"]) if ch["taken"]]
        if v["phase"] == "choose" and taken and "waiting" not in s.to_notation():
            text = s.to_notation() + f"waiting {CHAR_WORDS[taken[0]]} YU\n"
            msg = refusal(game, text)
            assert re.search(r"line \d+ \(waiting " + CHAR_WORDS[taken[0]], msg), msg
            return
    pytest.fail("no position with a character chosen and nothing waiting")


def test_the_readable_table_names_players_as_the_notation_does():
    """One numbering (docs/table-notation.md): the state's text names the
    players from 1, as the notation's `token`, `palette` and `turn` do."""
    game, states = positions("vangogh(players=3)", games=1, seed=3)
    s = next(x for x in states if x.to_json()["token_holder"] == 2 and not x.is_chance_node()
             and x.current_player() == 0)
    text = str(s)
    assert "Starting Player token: player 3" in text, text
    assert "to move: player 1" in text and "  player 1 (yellow)" in text, text
    assert "token 3" in s.to_notation()


@pytest.mark.parametrize("impl", ["reference", "core"])
def test_the_loader_names_every_broken_invariant_at_once(impl):
    """Two invariants of play broken in one position (an ability spent with
    none open, a Minigogh waiting on a character chosen this round): the JSON
    loader names both fields, the notation both lines."""
    from easel.engine.errors import UnreachablePositionError
    game, states = positions("vangogh(players=3)", games=1, seed=2)
    game = engine.load_game("vangogh(players=3)", impl)
    s = next(x for x in states if x.to_json()["phase"] == "choose"
             and not x.to_json()["characters"][3]["taken"]
             and any(c["taken"] and not c["waiting"] for c in x.to_json()["characters"]))
    view = s.to_json()
    c = next(i for i, ch in enumerate(view["characters"]) if ch["taken"] and not ch["waiting"])
    bad = dict(view, ability_spent=1,
               characters=[dict(ch, waiting=["yellow-upright"]) if i == c else ch
                           for i, ch in enumerate(view["characters"])])
    bad["bag"] = dict(view["bag"], yellow=view["bag"]["yellow"] - 1)
    with pytest.raises(UnreachablePositionError) as e:
        game.state_from_json(bad)
    fields = [f[0] for f, _, _ in e.value.problems]
    assert "ability_spent" in fields and f"characters[{c}].waiting" in fields, str(e.value)
    msg = refusal(game, s.to_notation() + f"ability spent\nwaiting {CHAR_WORDS[c]} YU\n")
    assert re.search(r"line \d+ \(ability\)", msg) and \
        re.search(rf"line \d+ \(waiting {CHAR_WORDS[c]}\)", msg), msg


@pytest.mark.parametrize("text", [
    "; ".join(["nonsense " + "x" * 50] * 300),             # many bad statements on one line
    "round 1\n" + "x" * 100000,                             # one huge unknown word
    "; ".join(["round 1"] * 1000),                           # past the statement limit
    "vangogh(players=" + "9" * 5000 + ")\nround 1",         # a huge header
])
def test_hostile_text_is_refused_with_a_bounded_message(text):
    """Network input: a refusal's length does not grow with the text (echoes
    are bounded, at most MAX_PROBLEMS problems are listed, the statements are
    capped) and names the limit that refused where one did."""
    game = engine.load_game("vangogh", "reference")
    from easel.engine.tablenotation import MAX_PROBLEMS
    msg = refusal(game, text)
    assert len(msg) < 400 * MAX_PROBLEMS, len(msg)      # as every game's (tablenotation)
    if text.count("round 1") > 400:
        assert "MAX_STATEMENTS" in msg
    if text.count("nonsense") > 40:
        assert "more (the first 40 are listed)" in msg


def test_a_refusal_lists_as_many_problems_as_every_other_games():
    """One limit for every game's notation (tablenotation.MAX_PROBLEMS): 30
    wrong lines are all named, and past the limit the message says how many
    are listed, in the words the other games use."""
    from easel.engine.tablenotation import MAX_ECHO, MAX_PROBLEMS
    from easel.engine.vangogh import notation_words
    assert notation_words.MAX_ECHO == MAX_ECHO
    game = engine.load_game("vangogh", "reference")
    msg = refusal(game, "\n".join(f"nonsense{k} 1" for k in range(30)))
    assert "(30) " in msg and " more" not in msg
    msg = refusal(game, "\n".join(f"nonsense{k} 1" for k in range(MAX_PROBLEMS + 5)))
    assert f"({MAX_PROBLEMS}) " in msg and f"({MAX_PROBLEMS + 1}) " not in msg
    assert f"more (the first {MAX_PROBLEMS} are listed)" in msg


def test_the_loaders_refusals_say_what_to_write_too():
    """The loader's own refusals (invariants of play), not only the reader's,
    propose what to write: the space's orientation for a Minigogh painted
    on it otherwise, the white taken off the table, one value for a
    one-value keyword; Minigoghs named by their letters, as the notation
    writes them."""
    game, states = positions("vangogh(players=3)", games=1, seed=3)
    checked = set()
    for s in states:
        text = s.to_notation()
        m = re.search(r"^painting \d .*?: .*?\b([YBPGV])([LSUD])\b", text, re.M)
        if m and "orientation" not in checked:
            flipped = "LSUD"[("LSUD".index(m.group(2)) + 1) % 4]
            bad = text[:m.start(2)] + flipped + text[m.end(2):]
            msg = refusal(game, bad)
            assert f"paints so (R5): write {m.group(1)}{m.group(2)}" in msg, msg
            checked.add("orientation")
        m = re.search(r"^table (\w\w)", text, re.M)
        if m and "white" not in checked:
            msg = refusal(game, text.replace(m.group(0), "table WU", 1))
            assert "whites never lie on the table: take the white out" in msg, msg
            checked.add("white")
        if "round" not in checked:
            msg = refusal(game, re.sub(r"^round (\d+)", r"round \1 \1", text, count=1, flags=re.M))
            assert re.search(r"round takes one value, 2 written: write one, as 'round \d+'", msg), msg
            checked.add("round")
    assert checked == {"orientation", "white", "round"}
