"""Easel: an AI-opponent engine for painting board games.

The installed distribution claims this one top-level name. Its parts live at
the top of the repository and are installed beneath it:

    easel.engine   the rules: game cores (Cython) and references (Python)
    easel.search   MCTS, bots, the arena
    easel.server   the gRPC service and the `easel` command line
    easel.client   the Python client of the service (easel/client/)
    easel.v1       protobuf/gRPC code generated from proto/ at build time

In the repository `easel/engine`, `easel/search` and `easel/server` are links
to those folders, so one source tree serves both the build and the editor.
"""


def refuse_other_name(module_name: str) -> None:
    """Called first by easel.engine, easel.search and easel.server: refuse to
    load under any other name. From the repository root their folders are
    importable by their own names too (`import engine`), and a second name
    would load a second copy of every module (every game registered twice,
    two kinds of every object)."""
    part = module_name.rpartition(".")[2]
    if module_name != f"easel.{part}":
        raise ImportError(f"{module_name!r} is Easel's {part} under a second name: write "
                          f"`from easel import {part}` (or `import easel.{part}`)")
