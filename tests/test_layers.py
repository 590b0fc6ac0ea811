"""The layers of docs/design.md, checked on the source: every module of
engine/, search/ and server/ (and of the client, easel/client/) imports only
its own layer and the layers beneath it.

Imports are read with `ast` from every .py file, those inside functions
included (a deferred import is an import all the same), and from the import
and cimport lines of every .pyx and .pxd file. A dotted module name written as
a whole string ("easel.server.client", "easel.engine.pig.core:X") counts too:
it is what `importlib` is handed."""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Each layer's folder (or file) in the repository and the layers it may import
# (docs/design.md, The layers). The client of the service sits beside
# easel.v1: it needs grpc and the generated code only, and the search's remote
# bot plays through it.
SOURCES = {"engine": ROOT / "engine", "client": ROOT / "easel" / "client",
           "search": ROOT / "search", "server": ROOT / "server"}
MAY_IMPORT = {
    "engine": {"engine"},
    "client": {"client", "v1"},
    "search": {"search", "engine", "client"},
    "server": {"server", "search", "engine", "client", "v1"},
}
# (module, imported module) -> the reason it is allowed. Empty: no exception.
EXCEPTIONS: dict[tuple[str, str], str] = {}

_DOTTED = re.compile(r"easel(\.[A-Za-z_]\w*)+(:[A-Za-z_]\w*)?")
_CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+c?import\b|c?import\s+([\w.]+))", re.M)


def _modules():
    """(module name, path, layer) of every source file of the layers."""
    for layer, where in SOURCES.items():
        for path in sorted(p for p in where.rglob("*") if p.suffix in (".py", ".pyx", ".pxd")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts) if rel.parts[0] == "easel" else ["easel", *rel.parts]
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path, layer


def _package(module: str, path: pathlib.Path) -> str:
    return module if path.stem == "__init__" else module.rsplit(".", 1)[0]


def _absolute(module: str, path: pathlib.Path, name: str | None, level: int) -> str:
    if not level:
        return name or ""
    base = _package(module, path).split(".")
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imported_names(module: str, path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a source file."""
    text = path.read_text(encoding="utf-8")
    found = []
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.Import):
                found += [(node.lineno, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, path, node.module, node.level)
                found.append((node.lineno, base))
                # `from easel import engine` imports the module easel.engine
                found += [(node.lineno, f"{base}.{a.name}") for a in node.names if base == "easel"]
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and _DOTTED.fullmatch(node.value)):
                found.append((node.lineno, node.value.split(":")[0]))
    else:
        for m in _CYTHON_IMPORT.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            if m.group(1) is not None:
                level = len(m.group(1)) - len(m.group(1).lstrip("."))
                found.append((line, _absolute(module, path, m.group(1).lstrip(".") or None,
                                              level)))
            else:
                found.append((line, m.group(2)))
    return found


def layer_of(name: str) -> str | None:
    """The layer an absolute module name belongs to (None: not Easel's, or the root)."""
    parts = name.split(".")
    if parts[0] != "easel" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in MAY_IMPORT or parts[1] == "v1" else None


def violations():
    for module, path, layer in _modules():
        for line, name in imported_names(module, path):
            target = layer_of(name)
            if target is None or target in MAY_IMPORT[layer]:
                continue
            if (module, name) not in EXCEPTIONS:
                yield f"{path.relative_to(ROOT)}:{line}: {layer} imports {name} ({target})"


def test_no_module_imports_a_higher_layer():
    found = list(violations())
    assert not found, "modules importing a higher layer:\n" + "\n".join(found)


def test_every_exception_names_a_reason_and_is_still_needed():
    for (module, name), reason in EXCEPTIONS.items():
        assert len(reason.split()) >= 5, f"{module} -> {name}: say why it is allowed"
        paths = [p for m, p, _ in _modules() if m == module]
        assert paths and name in {n for _, n in imported_names(module, paths[0])}, \
            f"{module} no longer imports {name}: drop its exception"


@pytest.mark.parametrize("source, expected", [
    ("def f():\n    from easel.server.client import EngineClient\n", "easel.server.client"),
    ("from easel import search\n", "easel.search"),
    ("from ...search import records\n", "easel.search"),
    ("HOOK = 'easel.server.client:EngineClient'\n", "easel.server.client"),
])
def test_the_scan_sees_every_form_of_import(tmp_path, source, expected):
    """The checker reads deferred, package-level, relative and string imports."""
    path = tmp_path / "engine" / "pig" / "fake.py"
    path.parent.mkdir(parents=True)
    path.write_text(source)
    names = [n for _, n in imported_names("easel.engine.pig.fake", path)]
    assert expected in names and layer_of(expected) not in MAY_IMPORT["engine"]


def test_the_scan_reads_cython_cimports(tmp_path):
    path = tmp_path / "core.pyx"
    path.write_text("from libc.string cimport memcpy\n"
                    "from easel.engine.contract cimport GameC\n"
                    "    from ..rng cimport RngC\n")
    names = [n for _, n in imported_names("easel.search.core", path)]
    assert names == ["libc.string", "easel.engine.contract", "easel.rng"]
