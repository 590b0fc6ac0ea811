"""The blocks of a tournament, in the order they are played.

For each game: its fields (config: head-to-head, round-robin, gauntlet, ladder,
optionally a seeded sample), and for each field `ceil(games_per_field /
block size)` blocks, each playing every seating of the fair design
(tournament.schedule). Blocks are listed round by round (block 0 of every
game and field, then block 1, ...), so that every pairing advances together
and an SPRT sees its blocks in order.

A block's id names its game, field and number; its seed derives from the
master seed and the same three. Both are stable: the same configuration
plans the same blocks, which is what makes a rerun or a resume idempotent.
"""
from __future__ import annotations

import itertools
import math
import random

from ..arena import derive_seed
from .config import TournamentConfig
from .play import BlockTask
from .schedule import fair_orders


def fields_of(cfg: TournamentConfig, game_spec: str, num_players: int) -> list[tuple]:
    names = list(cfg.bots)
    if cfg.format == "head-to-head":
        fields = [tuple(names[:2])]
    elif cfg.format == "gauntlet":
        others = [b for b in names if b != cfg.challenger]
        fields = [(cfg.challenger,) + rest
                  for rest in itertools.combinations(others, num_players - 1)]
    elif cfg.format == "ladder":            # neighbours: a field spans at most `reach` places
        fields = [tuple(names[i] for i in idx)
                  for idx in itertools.combinations(range(len(names)), num_players)
                  if idx[-1] - idx[0] <= cfg.reach]
    else:
        fields = list(itertools.combinations(names, num_players))
    if cfg.field_sample is not None and cfg.field_sample < len(fields):
        rng = random.Random(derive_seed(cfg.seed, "fields", game_spec))
        fields = [fields[i] for i in sorted(rng.sample(range(len(fields)), cfg.field_sample))]
    return fields


def block_id(game_spec: str, field, block: int) -> str:
    return f"{game_spec}|{'+'.join(field)}|{block}"


def plan(cfg: TournamentConfig) -> list[BlockTask]:
    from easel import engine
    per_game = []
    for game_spec in cfg.games:
        n = engine.load_game(game_spec, cfg.implementation).num_players()
        orders = tuple(fair_orders(n, cfg.seating))
        per_game.append((game_spec, fields_of(cfg, game_spec, n), orders,
                         max(1, math.ceil(cfg.games_per_field / len(orders)))))
    tasks = []
    for block in range(max(n_blocks for *_, n_blocks in per_game)):
        for game_spec, fields, orders, n_blocks in per_game:
            if block >= n_blocks:
                continue
            for field in fields:
                tasks.append(BlockTask(
                    id=block_id(game_spec, field, block), game=game_spec,
                    implementation=cfg.implementation,
                    field=tuple((name, cfg.bots[name]) for name in field),
                    block=block, seed=derive_seed(cfg.seed, "block", game_spec, field, block),
                    orders=orders, move_seconds=cfg.move_seconds))
    return tasks
