"""The Review RPC's work: read the request's game (a record or EGN text),
check its settings against the server's limits, and review its turns one
by one with search/review.py, each turn's search holding a slot of the fair
queue only while it runs (server/queue.py), so that other clients' searches
are served between the turns of a long review. The servicer wires it to
gRPC (server/service.py)."""
from __future__ import annotations

import math

from easel.engine.errors import EaselError
from easel.search import review
from easel.v1 import engine_pb2 as pb

from . import analysis, positions
from .errors import Cancelled, DeadlineExceeded, InvalidArgument, LimitReached

JUDGEMENTS = {"good": pb.JUDGEMENT_GOOD, "inaccuracy": pb.JUDGEMENT_INACCURACY,
              "mistake": pb.JUDGEMENT_MISTAKE, "blunder": pb.JUDGEMENT_BLUNDER}


def game_and_steps(request: pb.ReviewRequest, files, cache):
    """(game, [[player, action], ...]) of the request's game, every step
    checked; INVALID_ARGUMENT naming the field otherwise."""
    source = request.WhichOneof("source")
    if request.game_index < 0:
        raise InvalidArgument("game_index", f"must be 0 or more, got {request.game_index}")
    if source == "record":
        if request.game_index:
            raise InvalidArgument("game_index", "picks a game of egn_text; a record is one game "
                                                "(leave it 0)")
        state, canonical = positions.replay_with_record(request.record, "record", files, cache)
        game = state.get_game()
        ids = [s.id for s in canonical.steps]
    elif source == "egn_text":
        game, ids = _egn_game(request.egn_text, request.game_index, files)
    else:
        raise InvalidArgument("source", "the game to review is required: set 'record' (game "
                                        "string and steps) or 'egn_text'")
    steps, walk = [], game.new_initial_state()
    for a in ids:
        steps.append([walk.current_player(), a])
        walk.apply_action(a)
    return game, steps


def _egn_game(text: str, index: int, files):
    from easel.search import egn
    from easel.search.records import RecordError
    lines = text.encode("utf-8").splitlines(keepends=True)
    games = egn.parse(lines, "core", {})
    count = 0
    try:
        for k, (_, parsed) in enumerate(games):
            count += 1
            if k != index:
                continue
            if isinstance(parsed, RecordError):
                raise InvalidArgument("egn_text", f"game {k}: {parsed}")
            # The game string goes through the server's own loader (its data
            # files, its refusals), as a record's would.
            game = positions.load_game(parsed.record.get("game", ""), "egn_text", files)
            return game, [a for _, a in parsed.record["steps"]]
    except EaselError as e:
        raise InvalidArgument("egn_text", str(e)) from None
    raise InvalidArgument("game_index" if count else "egn_text",
                          f"the text holds {count} game(s); there is no game {index}"
                          if count else "the text holds no game")


def review_settings(settings: pb.SearchSettings, game, limits) -> tuple[review.Settings, str]:
    """The review's search of each turn, checked as a Suggest's is
    (analysis.plan); with no budget, the review's default per turn."""
    if settings.num_candidates < 0:
        raise InvalidArgument("settings.num_candidates",
                              f"must be 0 or more, got {settings.num_candidates}")
    plan = analysis.plan(settings, game, limits)
    if not plan.mcts:
        raise InvalidArgument("settings.bot", "a review searches each turn: give an MCTS spec "
                                              "(or leave it empty)")
    iterations, seconds = plan.iterations, plan.seconds
    if plan.until_apart:        # no budget given: the review's own default per turn, within
        # the server's per-search limits (a slow game stops at max_seconds)
        iterations = min(review.DEFAULT_ITERATIONS, limits.max_iterations)
        seconds = limits.max_seconds
    return (review.Settings(iterations=iterations, seconds=seconds, seed=plan.seed,
                            threads=plan.threads, options=dict(plan.options)), plan.bot)


def check_size(points, limits) -> None:
    if len(points) > limits.max_review_decisions:
        raise LimitReached("max_review_decisions",
                           f"the record has {len(points)} turns to review; this server reviews "
                           f"at most {limits.max_review_decisions} in one call",
                           retry_after=-1.0)


def decision_message(d: review.ReviewedDecision) -> pb.ReviewedDecision:
    def num(x):
        return 0.0 if isinstance(x, float) and math.isnan(x) else x
    return pb.ReviewedDecision(
        step=d.step, move=d.move, player=d.player, played_ids=d.played, played_text=d.played_text,
        played_win_probability=num(d.played_win), played_visits=d.played_visits,
        played_source=d.source, best_ids=d.best, best_text=d.best_text,
        best_win_probability=num(d.best_win), best_visits=d.best_visits, loss=d.loss,
        judgement=JUDGEMENTS[d.classification], accuracy=d.accuracy, forced=d.forced,
        iterations=d.iterations, elapsed_seconds=d.seconds, played_value=num(d.played_value),
        best_value=num(d.best_value), played_margin=d.played_margin,
        best_margin=d.best_margin, loss_cause=d.cause, margin_standard_error=d.margin_se)


def summary_message(game, decisions, bot: str) -> pb.ReviewSummary:
    out = pb.ReviewSummary(game=game.spec, decisions=len(decisions),
                           inaccuracy_threshold=review.INACCURACY,
                           mistake_threshold=review.MISTAKE, blunder_threshold=review.BLUNDER,
                           bot=bot)
    for s in review.summarise(decisions, game.num_players()):
        out.players.add(player=s.player, decisions=s.decisions, accuracy=s.accuracy,
                        mean_loss=s.mean_loss, inaccuracies=s.counts["inaccuracy"],
                        mistakes=s.counts["mistake"], blunders=s.counts["blunder"],
                        biggest=[pb.BiggestLoss(loss=loss, move=m, step=st)
                                 for loss, m, st in s.biggest])
    return out


def run(request, files, cache, limits, acquire, release):
    """Yield the stream's ReviewResponses. `acquire()` takes a slot of the
    search queue for one turn (a SearchControl), `release(control)` gives it
    back."""
    game, steps = game_and_steps(request, files, cache)
    settings, bot = review_settings(request.settings, game, limits)
    points = review.decision_points(steps, game.num_players())
    check_size(points, limits)
    state = game.new_initial_state()
    done, decisions = 0, []
    for point in points:
        for _, action in steps[done:point.step]:
            state.apply_action(action)
        done = point.step
        control = acquire()
        try:
            reviewer = review.Reviewer(game, settings, attach=control.attach)
            try:
                d = reviewer.review_point(state, point)
            except review.ReviewError:
                _raise_if_ended(control)
                raise
            _raise_if_ended(control)
        finally:
            release(control)
        decisions.append(d)
        yield pb.ReviewResponse(decision=decision_message(d))
    yield pb.ReviewResponse(summary=summary_message(game, decisions, bot))


def _raise_if_ended(control) -> None:
    if control.reason == "deadline":
        raise DeadlineExceeded("", "the call's deadline passed during the review")
    if control.reason == "cancelled":
        raise Cancelled("", "the call was cancelled")
