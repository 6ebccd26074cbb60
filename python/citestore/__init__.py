"""citestore: keep the citations of a RAG system true over time.

A model's evidence quote becomes a citation only when it is found in text the store holds; the
citation (document, content hash, character span, revision) survives re-chunking,
re-extraction and edits, because a nightly sweep re-anchors it and says honestly when it
cannot. This package is the Rust library behind a thin typed layer: results are the dicts the
command-line tool prints with ``--json``, errors carry its one-line messages.

Offsets are Python ``str`` indices (Unicode code points), half-open ``[start, end)``.
"""

from __future__ import annotations

import json
import os
from typing import (
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Union,
    cast,
)

from . import _native
from ._native import locate
from ._types import (
    CallerChunk,
    ChunkingResult,
    Claim,
    ContextChunk,
    Evidence,
    IngestResult,
    LocateResult,
)
from .errors import (
    BadAnswer,
    BadInput,
    DatabaseError,
    Error,
    NotFound,
    SweepIncomplete,
    UnknownChunk,
    UnknownContext,
    UnknownDocument,
)

__all__ = [
    "Store",
    "Context",
    "CiteResult",
    "locate",
    "schema",
    "chunks_from_langchain",
    "CallerChunk",
    "ChunkingResult",
    "IngestResult",
    "ContextChunk",
    "Evidence",
    "Claim",
    "LocateResult",
    "Error",
    "BadInput",
    "BadAnswer",
    "NotFound",
    "UnknownContext",
    "UnknownDocument",
    "UnknownChunk",
    "DatabaseError",
    "SweepIncomplete",
    "__version__",
]

__version__: str = _native.library_version()

PathLike = Union[str, "os.PathLike[str]"]

_CHUNK_KEYS = ("start", "end", "id", "text")


def _as_json(value: Any, what: str) -> str:
    """An answer or response as JSON text: a str or bytes is taken as JSON text, a mapping (the
    tool call's input) is serialised; an SDK object is turned into a dict first."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, str):
        return value
    for method in ("model_dump", "to_dict"):
        dump = getattr(value, method, None)
        if callable(dump) and not isinstance(value, Mapping):
            value = dump()
            break
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as err:
        raise BadAnswer(
            f"{what}: not JSON data ({err}); pass the tool call's input as a dict"
        ) from None


def _chunks_json(chunks: Iterable[Mapping[str, Any]]) -> str:
    """Caller chunks as JSON for the native layer, only the keys citestore reads."""
    plain: List[Dict[str, Any]] = []
    for i, chunk in enumerate(chunks):
        if not isinstance(chunk, Mapping):
            raise BadInput(
                f"chunks[{i}]: a {type(chunk).__name__}, not a dict; give "
                '{"start": int, "end": int, "id": str}'
            )
        plain.append({k: chunk[k] for k in _CHUNK_KEYS if k in chunk and chunk[k] is not None})
    return json.dumps(plain, ensure_ascii=False)


class Context:
    """A recorded retrieval context: the chunks the model is shown, each under a short opaque
    label it cites by.

    ``id`` is the context id to cite against; ``chunks`` are dicts ``{"label", "chunk_id",
    "doc_id", "revision", "content_hash", "start", "end", "text", "caller_id"}`` in retrieval
    order (``caller_id`` is your own id of a chunk you made, else ``None``).
    """

    __slots__ = ("id", "chunks", "_prompt")

    def __init__(self, id: str, chunks: List[ContextChunk], prompt: str) -> None:
        self.id = id
        self.chunks = chunks
        self._prompt = prompt

    def prompt(self) -> str:
        """The labelled context block for the model: each chunk's text, exactly as stored,
        inside ``<chunk label="…">…</chunk>`` (a text that holds ``</chunk`` gets a tag name it
        cannot close)."""
        return self._prompt

    def to_dict(self) -> Dict[str, Any]:
        """``{"context", "chunks"}``, as ``citestore context --json`` prints it."""
        return {"context": self.id, "chunks": self.chunks}

    def __repr__(self) -> str:
        return f"Context({self.id!r}, {len(self.chunks)} chunks)"


class CiteResult:
    """What citing an answer did, as ``citestore cite --json`` prints it.

    ``claims``: per claim ``{"text", "uncited", "evidence": [{"chunk_id", "quote", "verdict",
    "citation", "start", "end", "revision", "score", "repaired_from", "text", "reason"}]}`` in
    the answer's order; ``summary``: counts by verdict plus ``uncited``; ``already_recorded``:
    this answer was cited before and nothing new was stored.
    """

    __slots__ = ("context", "already_recorded", "claims", "summary")

    def __init__(self, data: Dict[str, Any]) -> None:
        self.context: str = data["context"]
        self.already_recorded: bool = data["already_recorded"]
        self.claims: List[Claim] = data["claims"]
        self.summary: Dict[str, int] = data["summary"]

    @property
    def citations(self) -> List[Evidence]:
        """Every located evidence (it has a ``citation`` id and a span), in answer order."""
        return [ev for claim in self.claims for ev in claim["evidence"] if ev["citation"]]

    def to_dict(self) -> Dict[str, Any]:
        """The whole result as ``cite --json`` prints it."""
        return {
            "context": self.context,
            "already_recorded": self.already_recorded,
            "claims": self.claims,
            "summary": self.summary,
        }

    def __repr__(self) -> str:
        return f"CiteResult({self.context!r}, {self.summary!r})"


class Store:
    """A citestore database (one SQLite file), as the CLI's ``--db`` names it.

    ``Store(path)`` creates the file when it is missing and upgrades an older schema, as
    ``citestore ingest`` does; another program's SQLite file is refused. ``config`` names a
    citestore.toml (its ``[chunker]``, ``[locate]`` cut-offs and ``[[sources]]`` apply as they
    do for the CLI). Each call opens its own connection and releases the GIL while it works, so
    one thread may read (``health``) while another sweeps.
    """

    __slots__ = ("_native",)

    def __init__(self, path: PathLike, *, config: Optional[PathLike] = None) -> None:
        self._native = _native.Store(
            os.fspath(path), os.fspath(config) if config is not None else None
        )

    @property
    def path(self) -> str:
        """The database file."""
        return os.fspath(self._native.path)

    def __repr__(self) -> str:
        return f"citestore.Store({self.path!r})"

    # Ingest ------------------------------------------------------------------------------

    def ingest_text(
        self,
        doc_id: str,
        text: str,
        *,
        chunker: Optional[str] = None,
        chunks: Optional[Iterable[Mapping[str, Any]]] = None,
    ) -> IngestResult:
        """Stores ``text`` as the latest revision of ``doc_id`` (nothing when it equals the
        latest), chunked by ``chunker`` (``"paragraph:MAX"`` or ``"chars:SIZE:OVERLAP"``; default
        ``[chunker]`` of the configuration, else the document's previous spec) or, instead, with
        your own ``chunks`` (``[{"start", "end", "id"?, "text"?}]``, offsets in ``str``
        indices; overlaps and gaps allowed). Returns ``{"doc_id", "source", "outcome", "seq",
        "extractor", "chunking"}``.

        A document ingested as text is never re-extracted by a sweep: give its new text here,
        then sweep to re-anchor its citations. New text without ``chunks`` for a document you
        chunked is re-chunked by ``chunker``, the configured chunker, else ``paragraph:1500``.
        Raises :class:`BadInput` (nothing stored) for a span outside the text, ``start >=
        end``, a repeated id, or a ``text`` that differs from the span's.
        """
        if chunker is not None and chunks is not None:
            raise BadInput("give chunker or chunks, not both")
        return cast(
            IngestResult,
            self._native.ingest_text(
                doc_id, text, chunker, _chunks_json(chunks) if chunks is not None else None
            ),
        )

    def ingest(
        self,
        paths: Union[PathLike, Sequence[PathLike]],
        *,
        doc_id: Optional[str] = None,
        chunker: Optional[str] = None,
        chunks: Optional[Iterable[Mapping[str, Any]]] = None,
    ) -> Dict[str, Any]:
        """Ingests files or folders as ``citestore ingest`` does (a folder's doc ids are paths
        relative to it; a file's is its path, or ``doc_id``); ``chunks`` (one file only) are
        your own chunks of its text. Returns ``{"documents", "skipped"}`` as ``ingest --json``.
        """
        if chunker is not None and chunks is not None:
            raise BadInput("give chunker or chunks, not both")
        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        return cast(
            Dict[str, Any],
            self._native.ingest(
                [os.fspath(p) for p in paths],
                doc_id,
                chunker,
                _chunks_json(chunks) if chunks is not None else None,
            ),
        )

    def docs(self) -> List[Dict[str, Any]]:
        """The documents, as ``citestore docs --json`` lists them: ``{"doc_id", "source",
        "revisions", "latest_seq", "extractor", "char_len", "chunking", "chunks",
        "citations"}`` (``chunking`` is ``"caller"`` for your own chunks)."""
        return cast(List[Dict[str, Any]], self._native.docs())

    # Citing ------------------------------------------------------------------------------

    def context(
        self,
        *,
        docs: Optional[Sequence[str]] = None,
        chunks: Optional[Sequence[str]] = None,
    ) -> Context:
        """Records the chunks a model is shown: every chunk of each of ``docs`` (current
        chunking), then each of ``chunks`` by chunk id or by your own id. The same chunks in the
        same order are the same context. Raises :class:`UnknownDocument` or
        :class:`UnknownChunk`."""
        if isinstance(docs, str) or isinstance(chunks, str):
            raise BadInput("docs and chunks are lists of ids, not one string")
        out, prompt = self._native.context(list(docs or []), list(chunks or []))
        return Context(out["context"], out["chunks"], prompt)

    def cite(self, context: Union[str, Context], answer: Any) -> CiteResult:
        """Cites a model's answer against a recorded context and stores its citations, as
        ``citestore cite`` does: ``answer`` is the ``emit_answer`` tool call's input as a dict,
        or whatever holds it (an Anthropic ``tool_use`` block or Messages response, an OpenAI
        Chat Completions response or ``tool_calls`` entry, a Responses API item or response; a
        dict, its JSON text, or the SDK's object). Citing the same answer again stores nothing.
        Raises :class:`BadAnswer` (naming the JSON path, nothing stored) or
        :class:`UnknownContext`."""
        context_id = context.id if isinstance(context, Context) else context
        return CiteResult(self._native.cite(context_id, _as_json(answer, "answer")))

    def import_anthropic(
        self, context: Union[str, Context], response: Any, *, sent: str = "chunks"
    ) -> CiteResult:
        """Cites an Anthropic Messages response that used the Citations API (as a dict, its
        JSON text, or the SDK's message object), as ``citestore import-anthropic`` does: each
        ``cited_text`` is located again in the stored text and the API's own location is
        checked against it. ``sent="chunks"``: ``document_index`` i is the context's chunk i;
        ``"documents"``: the context's distinct documents, whole, in order."""
        context_id = context.id if isinstance(context, Context) else context
        return CiteResult(
            self._native.import_anthropic(context_id, _as_json(response, "response"), sent)
        )

    # The nightly job ---------------------------------------------------------------------

    def sweep(
        self,
        *,
        chunker: Optional[str] = None,
        docs: Optional[Sequence[str]] = None,
        no_extract: bool = False,
    ) -> Dict[str, Any]:
        """Runs the nightly job, as ``citestore sweep``: re-extracts changed files, re-chunks
        (``chunker``, else the configured one), re-anchors every citation. Returns the summary
        dict of ``sweep --json``. Raises :class:`SweepIncomplete` (with ``.summary``) when some
        document could not be swept (the CLI's exit 2); the others are committed."""
        summary: Dict[str, Any] = self._native.sweep(list(docs or []), chunker, no_extract)
        errors = summary.get("errors") or []
        if errors:
            lines = "; ".join(f"{e['doc_id']}: not swept: {e.get('error') or ''}" for e in errors)
            raise SweepIncomplete(
                f"sweep {summary['sweep']}: {len(errors)} of {summary['documents']} "
                f"documents not swept: {lines}",
                summary,
            )
        return summary

    def health(self, *, by_doc: bool = False, sweeps: int = 10) -> Dict[str, Any]:
        """Citation health as ``citestore health --json``: ``{"status", "retired", "missing",
        "trend", "documents", "verification"}``, read in one snapshot (a sweep committing
        meanwhile is never half-seen)."""
        if sweeps < 0:
            raise BadInput(f"sweeps={sweeps}: give a whole number, 0 or more")
        return cast(Dict[str, Any], self._native.health(by_doc, sweeps))

    def changes(self, *, since: Optional[Union[int, str]] = None) -> Iterator[Dict[str, Any]]:
        """Each citation whose status or span changed in the sweeps after ``since`` (a sweep
        id, ``0`` for all, or a date / RFC 3339 time), by default in the latest sweep: dicts as
        in ``citestore changes --json``'s ``changes``."""
        out = self._native.changes(None if since is None else str(since))
        return iter(out["changes"])

    def citations(
        self,
        *,
        status: Optional[Union[str, Sequence[str]]] = None,
        doc: Optional[str] = None,
    ) -> Iterator[Dict[str, Any]]:
        """Citations by current status (``"intact"``, ``"moved"``, ``"degraded"``, ``"lost"``,
        or a list; all by default), optionally of one document: dicts as ``citestore list
        --json`` prints them."""
        statuses = [status] if isinstance(status, str) else list(status or [])
        known = ("intact", "moved", "degraded", "lost")
        for s in statuses:
            if s not in known:
                raise BadInput(f"status {s!r}: give one of {', '.join(known)}")
        return iter(self._native.citations(statuses, doc))

    def export(self) -> Iterator[Dict[str, Any]]:
        """Every citation and where it is now, as ``citestore export`` prints it (one dict per
        citation, in the order they were made)."""
        return iter(self._native.export())


def schema(format: str = "anthropic") -> Dict[str, Any]:
    """The ``emit_answer`` tool the model fills in, in an API's tool shape, for ``tools=[...]``:
    ``"anthropic"`` (``{"name", "description", "input_schema"}``), ``"openai"`` (a Chat
    Completions function tool, strict) or ``"openai-responses"`` (a Responses API function
    tool, strict), as ``citestore schema --format``. Raises :class:`BadInput` naming the
    accepted formats for any other."""
    return cast(Dict[str, Any], _native.schema(format))


def chunks_from_langchain(
    documents: Iterable[Any], *, text: Optional[str] = None
) -> List[CallerChunk]:
    """Chunk dicts for :meth:`Store.ingest_text` from LangChain ``Document``s split with
    ``add_start_index=True``: ``start`` is ``metadata["start_index"]``, ``end`` is ``start +
    len(page_content)``, ``id`` is the document's ``id`` when it has one, and ``text`` is its
    ``page_content`` (checked against the stored text at ingest). With ``text``, the check is
    made here too."""
    out: List[CallerChunk] = []
    for i, doc in enumerate(documents):
        metadata = getattr(doc, "metadata", None) or {}
        content = getattr(doc, "page_content", None)
        start = metadata.get("start_index")
        if not isinstance(content, str):
            raise BadInput(f"documents[{i}]: no page_content; give LangChain Documents")
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise BadInput(
                f"documents[{i}]: metadata['start_index'] is {start!r}; split with "
                "RecursiveCharacterTextSplitter(add_start_index=True)"
            )
        end = start + len(content)
        if text is not None and text[start:end] != content:
            raise BadInput(
                f"documents[{i}]: its page_content differs from text[{start}:{end}]; "
                "split this text, with add_start_index=True"
            )
        chunk: CallerChunk = {"start": start, "end": end, "text": content}
        doc_id = getattr(doc, "id", None)
        if doc_id is not None:
            chunk["id"] = str(doc_id)
        out.append(chunk)
    return out
