"""Tournaments: configured events of many bots and games, played in duplicate
blocks with fair seatings, journaled game by game and block by block so that a run survives a
crash, rated (Elo for pairs, Plackett-Luce with a seat term for fields of 3-5),
reported as HTML, JSON and CSV, on local processes or a Ray cluster.

Modules: config (the TOML/JSON event), schedule (fair seatings), plan (the
blocks), play (one block, with faults recorded), journal (append-only JSONL),
runner (local processes, Ray), ratings, results, report. The command is
`easel tournament` (server/commands/tournament.py); docs/tournament.md
describes the configuration and the results schema, docs/scaling.md the Ray
cluster.
"""
