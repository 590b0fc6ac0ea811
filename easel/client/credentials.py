"""What a client of easel.v1 presents or checks: TLS credentials from PEM
files, read with `read_file`, which the server uses as well for its own key,
certificate and token files (server/auth.py).

`read_file` refuses what could hang or flood a process reading a path it
was given: a FIFO or a device (which could block or never end), and a file
over MAX_FILE_BYTES. Each refusal is a ValueError naming the file.
"""
from __future__ import annotations

import os
import stat

import grpc

MAX_FILE_BYTES = 1 << 20          # a key, a certificate chain, a token list


def read_file(path: str, what: str) -> bytes:
    """A small regular file's bytes: a FIFO or a device (which could block
    or never end) and a file over MAX_FILE_BYTES are refused, naming it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise ValueError(f"cannot read the {what} {path!r}: {e.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):      # before fdopen, which refuses a directory itself
        os.close(fd)
        raise ValueError(f"the {what} {path!r} is not a regular file")
    with os.fdopen(fd, "rb") as f:
        if st.st_size > MAX_FILE_BYTES:
            raise ValueError(f"the {what} {path!r} is over {MAX_FILE_BYTES} bytes")
        try:
            return f.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES]
        except OSError as e:
            raise ValueError(f"cannot read the {what} {path!r}: {e.strerror}") from None


def channel_credentials(ca: str | None = None, cert: str | None = None, key: str | None = None):
    """Client TLS: `ca` to check the server (default: the system's roots),
    `cert` and `key` to present a client certificate."""
    return grpc.ssl_channel_credentials(
        root_certificates=read_file(ca, "CA") if ca else None,
        private_key=read_file(key, "TLS key") if key else None,
        certificate_chain=read_file(cert, "TLS certificate") if cert else None)
