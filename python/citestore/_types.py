"""The shapes of the dicts citestore returns: the CLI's ``--json`` objects, field by field."""

from __future__ import annotations

from typing import Dict, List, Optional, TypedDict

__all__ = [
    "CallerChunk",
    "ChunkingResult",
    "IngestResult",
    "ContextChunk",
    "Evidence",
    "Claim",
    "LocateResult",
]


class _CallerChunkRequired(TypedDict):
    start: int
    end: int


class CallerChunk(_CallerChunkRequired, total=False):
    """A chunk you made: ``[start, end)`` in ``str`` indices of the document's text; ``id`` your
    id for it (e.g. a vector-store id); ``text``, when given, must equal the text at the span."""

    id: str
    text: str


class ChunkingResult(TypedDict):
    """The current chunking after an ingest: its spec (``caller`` for yours), chunk count, and
    whether this call made it."""

    spec: str
    chunks: int
    created: bool


class IngestResult(TypedDict):
    """One document's ingest: ``outcome`` is ``new``, ``revised`` or ``unchanged``; ``seq`` the
    latest revision after the call."""

    doc_id: str
    source: str
    outcome: str
    seq: int
    extractor: str
    chunking: Optional[ChunkingResult]


class ContextChunk(TypedDict):
    """A chunk shown to the model: its opaque ``label``, stable ``chunk_id``
    (``{doc_id}@r{seq}#{start}-{end}``), ``[start, end)`` in the revision's text, the text, and
    your own id when you made it (else ``None``)."""

    label: str
    chunk_id: str
    doc_id: str
    revision: int
    content_hash: str
    start: int
    end: int
    text: str
    caller_id: Optional[str]


class Evidence(TypedDict):
    """One evidence quote's verdict: ``exact``, ``fuzzy``, ``review``, ``repaired`` (located,
    stored, with ``citation`` id and span) or ``ambiguous``, ``fabricated``, ``unknown-chunk``
    (rejected, ``citation`` is ``None``)."""

    chunk_id: str
    quote: str
    verdict: str
    citation: Optional[str]
    start: Optional[int]
    end: Optional[int]
    revision: Optional[int]
    score: Optional[float]
    repaired_from: Optional[str]
    text: Optional[str]
    reason: Optional[str]


class Claim(TypedDict):
    """A claim and its evidence, in the answer's order; ``uncited`` when it gave none."""

    text: str
    uncited: bool
    evidence: List[Evidence]


class _LocateRequired(TypedDict):
    start: int
    end: int
    score: float
    how: str
    occurrences: int
    text: str


class LocateResult(_LocateRequired, total=False):
    """Where a quote was found: ``how`` is ``exact``, ``folded``, ``fuzzy`` or ``review`` (with
    ``reason``); ``text`` is the chunk's text at ``[start, end)``."""

    reason: str


Summary = Dict[str, int]
