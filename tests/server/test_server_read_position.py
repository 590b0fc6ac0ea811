"""Engine.ReadPosition (docs/serving.md): a notation read into the position
with its derived parts, or the game's refusals as an answer, each with its
line and field (the web page's set-up view shows them beside the line); a
request that is no notation at all is INVALID_ARGUMENT; the answer to a
hostile text stays bounded."""
from __future__ import annotations

import re

import grpc
import pytest

from easel.server import positions
from easel.v1 import engine_pb2 as pb
from server_helpers import assert_status

INVALID = grpc.StatusCode.INVALID_ARGUMENT


def initial(game: str) -> str:
    return positions.notation_of(positions.load_game(game, "game").new_initial_state())


def read(stub, game, text):
    return stub.ReadPosition(pb.ReadPositionRequest(notation=pb.TableNotation(game=game,
                                                                              text=text)))


@pytest.mark.parametrize("game", ["vangogh(players=2)", "vangogh(players=1)",
                                  "couleurs_de_paris(players=3)", "starving_artists(players=1)"])
def test_a_notation_that_loads_answers_its_position(stub, game):
    answer = read(stub, game, initial(game))
    assert not answer.refusals
    assert answer.position.notation == initial(game)
    assert answer.position.state.fields        # the JSON view with its derived parts
    assert answer.position.num_players == positions.load_game(game, "g").num_players()


@pytest.mark.parametrize("game", ["couleurs_de_paris(data=placeholder.json)",
                                  "vangogh(deck=paintings-placeholder.json,players=2)"])
def test_a_notation_naming_a_data_file_reads_as_the_game_it_names(stub, game):
    """The game line names the data file as the client does (its bare name);
    the server loads it by its own path, and the two are the same game."""
    spec = positions.load_game(game, "g").spec
    assert "placeholder.json" in spec and "/" not in spec
    text = initial(game)
    if text.splitlines()[0] != spec:            # a notation may leave its game line out
        text = f"{spec}\n{text}"
    answer = read(stub, game, text)
    assert not answer.refusals, answer.refusals


def test_the_derived_parts_come_with_the_state(stub):
    """The bag a Van Gogh notation leaves out is in the answer's state."""
    answer = read(stub, "vangogh(players=2)", initial("vangogh(players=2)"))
    assert "bag" in answer.position.state.fields, sorted(answer.position.state.fields)


# Each game's refusals, of its reader (a word it cannot read) and of its loader
# (a fact play never reaches): every one names its line and field.
CASES = [
    ("vangogh(players=2)", lambda t: t.replace("painting 1 -", "painting zzz -"),
     3, "painting zzz", "not a whole number"),
    ("vangogh(players=2)", lambda t: t.replace("scores 0 0", "scores 5 0"),
     2, "scores", "nobody scores during the setup"),
    ("couleurs_de_paris", lambda t: t.replace("phase deal", "phase zzz"),
     3, "phase", "unknown phase 'zzz'"),
    ("couleurs_de_paris", lambda t: t + "claims rotate player 2\nfirst player 2\n",
     8, "first", "in round 1 the f"),
    ("couleurs_de_paris", lambda t: t + "claims rotate player 2\nfirst player 2\n",
     7, "claims rotate", "player 2 has no assistant lying"),
    ("starving_artists(players=2)",
     lambda t: re.sub(r"^player 1$", "player 1\n  nutrition 3", t, flags=re.M),
     6, "player 1 nutrition", "nutrition falls by 1 each dawn"),
    ("starving_artists(players=1)", lambda t: t.replace("day 1", "day zz"),
     2, "day", "'zz' is not a number"),
]


@pytest.mark.parametrize("game, edit, line, field, words", CASES)
def test_a_refused_notation_is_an_answer_naming_line_and_field(stub, game, edit, line, field,
                                                               words):
    answer = read(stub, game, edit(initial(game)))
    assert not answer.HasField("position")
    found = [(r.line, r.field) for r in answer.refusals if words in r.message]
    assert (line, field) in found, [(r.line, r.field, r.message) for r in answer.refusals]


def test_a_refusal_says_what_to_write(stub):
    answer = read(stub, "couleurs_de_paris", initial("couleurs_de_paris") + "first player 2\n")
    assert any("write player 1" in r.message for r in answer.refusals), answer.refusals


@pytest.mark.parametrize("request_, field", [
    (pb.ReadPositionRequest(), "notation: a table notation is required"),
    (pb.ReadPositionRequest(notation=pb.TableNotation(game="pig", text="x")),
     "notation.game: pig has no table notation"),
    (pb.ReadPositionRequest(notation=pb.TableNotation(game="chess", text="x")),
     "notation.game: "),
    (pb.ReadPositionRequest(notation=pb.TableNotation(game="vangogh",
                                                      text="round 1\n" * 40_000)),
     "notation.text: 320000 characters; limit MAX_NOTATION"),
])
def test_a_request_that_is_no_notation_is_invalid_argument(stub, request_, field):
    with pytest.raises(grpc.RpcError) as e:
        stub.ReadPosition(request_)
    assert_status(e, INVALID, field)


def test_a_hostile_text_gets_a_bounded_answer(stub):
    """Thousands of bad lines: at most MAX_REFUSALS refusals, each short, the
    person's text echoed short."""
    text = "".join(f"zz{'x' * 2000}{k} 1\n" for k in range(12))
    text += "".join(f"canvas {'y' * 12}{k}\n" for k in range(1500))
    assert len(text) < positions.MAX_NOTATION
    answer = read(stub, "starving_artists(players=2)", text)
    assert 0 < len(answer.refusals) <= positions.MAX_REFUSALS + 1
    assert all(len(r.message) <= positions.MAX_REFUSAL_CHARS for r in answer.refusals)
    assert all(len(r.field) <= 80 for r in answer.refusals)
    assert answer.ByteSize() < 64 * 1024


def test_the_python_function_names_the_refusal_too():
    """StateFormatError.refusals, which ReadPosition answers, from the engine itself."""
    from easel.engine.errors import StateFormatError
    game = positions.load_game("couleurs_de_paris", "game")
    with pytest.raises(StateFormatError) as e:
        game.state_from_notation(initial("couleurs_de_paris") + "first player 2\n")
    assert [(line, field) for line, field, _ in e.value.refusals] == [(7, "first")]
