"""The exceptions citestore raises.

Every exception's message is the one line the command-line tool prints after ``citestore:``
for the same problem, naming the input and saying what to do.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

__all__ = [
    "Error",
    "BadInput",
    "BadAnswer",
    "NotFound",
    "UnknownContext",
    "UnknownDocument",
    "UnknownChunk",
    "DatabaseError",
    "SweepIncomplete",
]


class Error(Exception):
    """Base class of every citestore error."""


class BadInput(Error, ValueError):
    """Input citestore refuses, with nothing stored: a chunk span outside the text or with
    ``start >= end``, an empty or blank quote, a bad chunker spec or doc id, a file that is not
    UTF-8 text, cut-offs that are not scores from 0 to 100."""


class BadAnswer(BadInput):
    """A model's answer (or Anthropic response) that does not fit the ``emit_answer`` schema;
    the message names the JSON path, e.g. ``answer: claims[0].evidence[0].quote: …``."""


class NotFound(Error, LookupError):
    """Something asked for by id that the store does not hold (a citation, a sweep)."""


class UnknownContext(NotFound):
    """A context id that was never recorded (``Store.context`` records one)."""


class UnknownDocument(NotFound):
    """A doc id that is not in the store."""


class UnknownChunk(NotFound):
    """A chunk id (ours, or the caller's own id) that no chunking holds."""


class DatabaseError(Error):
    """The database cannot be used: not SQLite, another program's, a newer schema, read-only
    for a write, or busy."""


class SweepIncomplete(Error):
    """A sweep ran but some documents could not be swept (the CLI exits 2). The other documents
    were committed; ``summary`` is the sweep's summary dict, its ``errors`` name each document
    and why."""

    summary: Dict[str, Any]

    def __init__(self, message: str, summary: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.summary = summary if summary is not None else {}
