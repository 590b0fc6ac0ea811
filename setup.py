"""Build: every .pyx under engine/ and search/ is a compiled extension.

One set of compiler directives for the whole build (docs/design.md, Build: no per-file
`# cython:` headers, where a typo is silently ignored).

Environment switches:
  EASEL_DEBUG=1     bounds, wraparound and initialisation checks back on, -O0 -g
  EASEL_ANNOTATE=1  write Cython's HTML annotation next to each .pyx
The protobuf/gRPC modules are generated from proto/ into easel/v1/ at build
time, so generated code is never edited or committed.
"""
import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
DEBUG = os.environ.get("EASEL_DEBUG") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}
CFLAGS = ["-O0", "-g"] if DEBUG else ["-O3"]


def extensions():
    exts = []
    # Compiled through the easel/ links, so module names and cimports read
    # easel.engine.*, the names the installed package has.
    for pattern in ("easel/engine/**/*.pyx", "easel/search/**/*.pyx"):
        for path in sorted(glob.glob(os.path.join(HERE, pattern), recursive=True)):
            rel = os.path.relpath(path, HERE)
            name = rel[:-4].replace(os.sep, ".")
            exts.append(Extension(name, [rel], extra_compile_args=CFLAGS))
    return exts


def generate_protos():
    """protoc via grpcio-tools: proto/easel/v1/*.proto -> easel/v1/*_pb2*.py(i)."""
    protos = sorted(glob.glob(os.path.join(HERE, "proto", "easel", "v1", "*.proto")))
    if not protos:
        return
    from grpc_tools import protoc  # build requirement (pyproject.toml)
    import grpc_tools

    out = HERE
    os.makedirs(os.path.join(out, "easel", "v1"), exist_ok=True)
    init = os.path.join(out, "easel", "v1", "__init__.py")
    if not os.path.exists(init):
        with open(init, "w") as fh:
            fh.write('"""Generated protobuf/gRPC code (from proto/). Do not edit."""\n')
    well_known = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    args = ["grpc_tools.protoc", f"-I{os.path.join(HERE, 'proto')}", f"-I{well_known}",
            f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}"]
    args += [os.path.relpath(p, os.path.join(HERE, "proto")) for p in protos]
    cwd = os.getcwd()
    os.chdir(os.path.join(HERE, "proto"))
    try:
        if protoc.main(args) != 0:
            sys.exit("protoc failed on " + ", ".join(protos))
    finally:
        os.chdir(cwd)


generate_protos()

setup(
    ext_modules=cythonize(
        extensions(),
        compiler_directives=DIRECTIVES,
        annotate=os.environ.get("EASEL_ANNOTATE") == "1",
        nthreads=int(os.environ.get("EASEL_BUILD_JOBS", "2")),
    ),
    zip_safe=False,
)
