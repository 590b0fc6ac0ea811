"""Easel's gRPC service (easel.v1.Engine, easel.v1.Matches) and the `easel`
command line."""
import easel as _easel

_easel.refuse_other_name(__name__)       # first: `import server` would load a second copy
