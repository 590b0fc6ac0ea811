"""A benchmark's figures, printed and kept in pytest-benchmark's JSON
(`extra_info`), the same way in every bench_* file: the figures are the
measurement (ratios against a baseline of the same run), the timing
pytest-benchmark keeps of the whole function is only its cost."""
from __future__ import annotations


def show(name: str, figures: dict, digits: int = 2) -> None:
    """One line: `name: key=value, ...`, floats to `digits` places."""
    print(f"\n{name}: " + ", ".join(f"{k}={v:,.{digits}f}" if isinstance(v, float) else f"{k}={v}"
                                    for k, v in figures.items()))


def record(benchmark, name: str, figures: dict, digits: int = 2) -> dict:
    """Keep `figures` in the benchmark's JSON and print them."""
    benchmark.extra_info.update(figures)
    show(name, figures, digits)
    return figures


def measure_once(benchmark, fn, name: str, digits: int = 2) -> dict:
    """Run `fn` (which returns its figures) once under pytest-benchmark,
    then record what it measured."""
    return record(benchmark, name, benchmark.pedantic(fn, rounds=1, iterations=1), digits)
