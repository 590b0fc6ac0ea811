"""A small Python client for the easel.v1.Engine service.

It needs grpc and the generated easel.v1 code only, so every layer above the
engine may use it (docs/design.md, The layers): the `easel` commands that
talk to a server, and the tournament's remote bot (search/tournament/bots.py).

    >>> from easel.client import EngineClient
    >>> with EngineClient("127.0.0.1:50051") as c:
    ...     pos = c.new_game("connect_four")
    ...     pos = c.apply_action("connect_four", ["x in column 4"], "o in column 4")     # record + one more step
    ...     best = c.suggest("connect_four", ["x in column 4", "o in column 4"], iterations=2000)
    ...     print(best.candidates[0].text, best.candidates[0].win_probability)

A position is given as a game string and a list of steps; a step is an int
(an action id) or a str (its text, as LegalActions writes it). Responses are
the protobuf messages of easel/v1/engine.proto. Errors are raised as
`grpc.RpcError` with the server's status code and message (which names the
bad field).

TLS and a bearer token: `EngineClient(target, tls=True, ca="ca.pem",
token="secret")`. The channel uses the project's retry policy
(easel/client/retry.py), so a full search queue is retried after the server's
pushback delay. `open_channel` makes the same channel for other stubs (the
Matches service of `easel play`): the token rides on every call it carries,
streams included.
"""
from __future__ import annotations

import collections

import grpc

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc

from .credentials import channel_credentials
from .retry import SERVICE_CONFIG_JSON


def step(s) -> pb.Step:
    if isinstance(s, pb.Step):
        return s
    if isinstance(s, bool) or not isinstance(s, (int, str)):
        raise TypeError(f"a step is an action id (int) or its text (str), got {s!r}")
    return pb.Step(id=s) if isinstance(s, int) else pb.Step(text=s)


def record(game: str, steps=(), expected_player: int | None = None) -> pb.GameRecord:
    rec = pb.GameRecord(game=game, steps=[step(s) for s in steps])
    if expected_player is not None:
        rec.expected_player = expected_player
    return rec


def position(game: str, steps=(), expected_player: int | None = None) -> pb.Position:
    return pb.Position(record=record(game, steps, expected_player))


def settings(iterations: int | None = None, seconds: float | None = None,
             seed: int | None = None, num_candidates: int = 0, threads: int = 0,
             bot: str = "", search_from_here: bool = False,
             play_as_bot: bool = False) -> pb.SearchSettings:
    s = pb.SearchSettings(num_candidates=num_candidates, threads=threads, bot=bot,
                          search_from_here=search_from_here, play_as_bot=play_as_bot)
    if iterations is not None:
        s.budget.iterations = iterations
    if seconds is not None:
        s.budget.seconds = seconds
    if seed is not None:
        s.seed = seed
    return s


class _CallDetails(collections.namedtuple(
        "_CallDetails", "method timeout metadata credentials wait_for_ready compression"),
        grpc.ClientCallDetails):
    pass


class _BearerToken(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
                   grpc.StreamUnaryClientInterceptor, grpc.StreamStreamClientInterceptor):
    """Adds "authorization: Bearer <token>" to every call's metadata: a
    channel property, so no stub or call site can forget it."""

    def __init__(self, token: str):
        self.pair = ("authorization", f"Bearer {token}")

    def _with_token(self, details):
        metadata = [m for m in (details.metadata or ()) if m[0] != "authorization"]
        return _CallDetails(details.method, details.timeout, metadata + [self.pair],
                            details.credentials, getattr(details, "wait_for_ready", None),
                            getattr(details, "compression", None))

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._with_token(details), request)

    def intercept_stream_unary(self, continuation, details, requests):
        return continuation(self._with_token(details), requests)

    def intercept_stream_stream(self, continuation, details, requests):
        return continuation(self._with_token(details), requests)


def open_channel(target: str, tls: bool = False, ca: str | None = None, cert: str | None = None,
                 key: str | None = None, token: str | None = None, options=()) -> grpc.Channel:
    """A channel to `target`: TLS if `tls` or a CA or a client certificate is
    given (`ca` checks the server, default the system's roots; `cert`/`key`
    present a client certificate), plaintext otherwise; with `token`, every
    call sends it as a bearer token. Unreadable PEM files raise ValueError
    naming the file."""
    if tls or ca or cert:
        channel = grpc.secure_channel(target, channel_credentials(ca, cert, key),
                                      options=list(options))
    else:
        channel = grpc.insecure_channel(target, options=list(options))
    if token:
        channel = grpc.intercept_channel(channel, _BearerToken(token))
    return channel


class EngineClient:
    def __init__(self, target: str, timeout: float | None = 60.0,
                 max_message_bytes: int = 4 * 1024 * 1024, tls: bool = False,
                 ca: str | None = None, cert: str | None = None, key: str | None = None,
                 token: str | None = None, retry: bool = True):
        self.target = target
        self.timeout = timeout
        options = [("grpc.max_receive_message_length", max_message_bytes),
                   ("grpc.max_send_message_length", max_message_bytes)]
        if retry:
            options += [("grpc.service_config", SERVICE_CONFIG_JSON), ("grpc.enable_retries", 1)]
        self.channel = open_channel(target, tls=tls, ca=ca, cert=cert, key=key, token=token,
                                    options=options)
        self.stub = pb_grpc.EngineStub(self.channel)

    def close(self):
        self.channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        grpc.channel_ready_future(self.channel).result(timeout=timeout)

    def _timeout(self, timeout):
        return self.timeout if timeout is None else timeout

    def list_games(self, timeout=None) -> list[pb.GameInfo]:
        return list(self.stub.ListGames(pb.ListGamesRequest(),
                                        timeout=self._timeout(timeout)).games)

    def new_game(self, game: str, timeout=None) -> pb.PositionInfo:
        return self.stub.NewGame(pb.NewGameRequest(game=game),
                                 timeout=self._timeout(timeout)).position

    def read_position(self, game: str, text: str, timeout=None) -> pb.ReadPositionResponse:
        """The position a table notation describes, or its refusals (line, field, message)."""
        return self.stub.ReadPosition(
            pb.ReadPositionRequest(notation=pb.TableNotation(game=game, text=text)),
            timeout=self._timeout(timeout))

    def legal_actions(self, game: str, steps=(), timeout=None) -> pb.LegalActionsResponse:
        return self.stub.LegalActions(pb.LegalActionsRequest(position=position(game, steps)),
                                      timeout=self._timeout(timeout))

    def apply_action(self, game: str, steps, action, timeout=None) -> pb.ApplyActionResponse:
        return self.stub.ApplyAction(
            pb.ApplyActionRequest(position=position(game, steps), action=step(action)),
            timeout=self._timeout(timeout))

    def suggest(self, game: str, steps=(), timeout=None, position_msg: pb.Position | None = None,
                **search) -> pb.Analysis:
        """search: iterations, seconds, seed, num_candidates, threads, bot,
        search_from_here, play_as_bot (see SearchSettings).
        position_msg: the position as a message (a notation, a structured
        state) instead of game and steps."""
        return self.suggest_response(game, steps, timeout, position_msg, **search).analysis

    def suggest_response(self, game: str, steps=(), timeout=None,
                         position_msg: pb.Position | None = None,
                         **search) -> pb.SuggestResponse:
        """As `suggest`, the whole SuggestResponse (stop reason, played_as_bot)."""
        pos = position_msg if position_msg is not None else position(game, steps)
        return self.stub.Suggest(
            pb.SuggestRequest(position=pos, settings=settings(**search)),
            timeout=self._timeout(timeout))

    def analyze(self, game: str, steps=(), report_interval_ms: int = 0, timeout=None,
                position_msg: pb.Position | None = None, report_candidates: int = 0,
                until_cancelled: bool = False, **search):
        """The stream of AnalyzeResponse messages (call .cancel() on it to stop).
        position_msg: as for `suggest`; report_candidates, until_cancelled: see
        AnalyzeRequest."""
        pos = position_msg if position_msg is not None else position(game, steps)
        return self.stub.Analyze(
            pb.AnalyzeRequest(position=pos, settings=settings(**search),
                              report_interval_ms=report_interval_ms,
                              report_candidates=report_candidates,
                              until_cancelled=until_cancelled),
            timeout=self._timeout(timeout))

    def review(self, game: str = "", steps=(), egn_text: str | None = None,
               game_index: int = 0, timeout=None, **search):
        """The stream of ReviewResponse messages of a recorded game (a
        ReviewedDecision per turn, then the ReviewSummary; docs/review.md):
        the game as game and steps, or as EGN text (game_index picks one of
        its games). search: as for `suggest`, the budget per turn."""
        request = pb.ReviewRequest(settings=settings(**search), game_index=game_index)
        if egn_text is not None:
            request.egn_text = egn_text
        else:
            request.record.CopyFrom(record(game, steps))
        return self.stub.Review(request, timeout=self._timeout(timeout))
