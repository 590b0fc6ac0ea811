"""The server's log lines, made safe at the sink: whatever a message holds,
each record is one line of at most LINE_CHARS characters (control characters
escaped), and a traceback's lines are indented under it, so no text can
pass for a record of its own.

Every client value a handler logs is already quoted short where it is
logged (server/errors.py `quote`); this is the second wall, for whatever
reaches a message some other way (an exception's text, a library's log).

    configure("INFO")         # `easel serve`'s logging
"""
from __future__ import annotations

import logging

from .errors import bounded

LINE_CHARS = 2000              # one record's message
TRACE_CHARS = 20_000           # one record's traceback
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class SafeFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        safe = logging.makeLogRecord(record.__dict__)
        safe.msg, safe.args = bounded(record.getMessage(), LINE_CHARS), None
        safe.exc_info, safe.exc_text, safe.stack_info = None, None, None
        line = super().format(safe)
        extra = []
        if record.exc_info:
            extra.append(self.formatException(record.exc_info))
        elif record.exc_text:
            extra.append(record.exc_text)
        if record.stack_info:
            extra.append(self.formatStack(record.stack_info))
        if not extra:
            return line
        trace = "\n".join(extra)
        if len(trace) > TRACE_CHARS:
            trace = trace[:TRACE_CHARS] + f"... ({len(trace)} chars in all)"
        # Indented and escaped: a line of an exception's text cannot start
        # a line of its own that looks like a record.
        return line + "".join("\n    | " + bounded(t, LINE_CHARS) for t in trace.split("\n"))


def configure(level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(SafeFormatter(FORMAT))
    logging.basicConfig(level=level.upper(), handlers=[handler])
