"""Easel: an AI-opponent engine for painting board games.

The installed distribution claims this one top-level name. Its parts live at
the top of the repository and are installed beneath it:

    easel.engine   the rules: game cores (Cython) and references (Python)
    easel.search   MCTS, bots, the arena
    easel.server   the gRPC service and the `easel` command line
    easel.v1       protobuf/gRPC code generated from proto/ at build time

In the repository `easel/engine`, `easel/search` and `easel/server` are links
to those folders, so one source tree serves both the build and the editor.
"""
