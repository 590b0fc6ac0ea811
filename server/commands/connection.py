"""The client options of the commands that talk to an `easel serve` (suggest,
play): how to reach a server configured with TLS, client certificates and a
bearer token (docs/serving.md). One parser, one check, so that every client
command accepts and refuses the same things.

    add_arguments(parser)
    kwargs = channel_options(args)       # after parsing; raises ClientOptionsError
    channel = open_channel(args.server, **kwargs)     # or EngineClient(target, **kwargs)
    ... except grpc.RpcError as e: print(f"... {e.details()}{hint(e, args)}")
"""
from __future__ import annotations

from easel.engine.errors import EaselError


class ClientOptionsError(EaselError, ValueError):
    """A bad combination of client options, or a file they name that cannot be
    read; the message names the flag."""


def add_arguments(p) -> None:
    p.add_argument("--tls", action="store_true", help="connect to --server over TLS")
    p.add_argument("--tls-ca", metavar="PEM", default=None,
                   help="CA that signed the server's certificate (implies --tls)")
    p.add_argument("--tls-cert", metavar="PEM", default=None,
                   help="client certificate (mutual TLS; needs --tls-key)")
    p.add_argument("--tls-key", metavar="PEM", default=None, help="client certificate's key")
    p.add_argument("--auth-token-file", metavar="FILE", default=None,
                   help="send the bearer token in this file with every call")


def channel_options(args) -> dict:
    """The keyword arguments of `open_channel`/`EngineClient` (tls, ca, cert,
    key, token) that the parsed `args` ask for, the token read from its file.
    Refuses client-certificate halves, and any of these options without
    --server: the in-process server a command starts without one has no TLS,
    and no token but its own."""
    given = [flag for flag, value in (("--tls", args.tls), ("--tls-ca", args.tls_ca),
                                      ("--tls-cert", args.tls_cert),
                                      ("--tls-key", args.tls_key),
                                      ("--auth-token-file", args.auth_token_file)) if value]
    if given and args.server is None:
        raise ClientOptionsError(f"{given[0]} needs --server (it is for reaching a running "
                                 f"server; the in-process one has no TLS or token of yours)")
    if (args.tls_cert is None) != (args.tls_key is None):
        raise ClientOptionsError("--tls-cert and --tls-key go together (a client certificate "
                                 "and its key)")
    # Read the files now, so that a bad path is named by its flag here
    # rather than when the channel opens.
    from easel.server.auth import check_files, read_token
    try:
        token = (read_token(args.auth_token_file, "--auth-token-file")
                 if args.auth_token_file else None)
        check_files((("--tls-ca", args.tls_ca, "CA"),
                     ("--tls-cert", args.tls_cert, "TLS certificate"),
                     ("--tls-key", args.tls_key, "TLS key")))
    except ValueError as e:
        raise ClientOptionsError(str(e)) from None
    return {"tls": bool(args.tls), "ca": args.tls_ca, "cert": args.tls_cert,
            "key": args.tls_key, "token": token}


def hint(error, args) -> str:
    """What to try when a call to --server failed for want of these options
    ("" when they are not the likely cause), to follow the server's message."""
    if args.server is None:
        return ""
    code = error.code().name
    if code == "UNAUTHENTICATED":
        return (" (the server wants a bearer token: --auth-token-file FILE)"
                if not args.auth_token_file else
                " (the token in --auth-token-file is not the server's)")
    if code == "UNAVAILABLE" and not (args.tls or args.tls_ca or args.tls_cert):
        return " (is it running? a server with TLS needs --tls or --tls-ca PEM)"
    return ""
