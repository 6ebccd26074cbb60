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
from types import TracebackType
from typing import (
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Type,
    Union,
    cast,
    overload,
)

from . import _native
from ._frameworks import caller_chunks, chunk_refs
from ._native import locate, locate_many
from ._types import (
    AnswerSpan,
    CalibrationResult,
    CallerChunk,
    Change,
    CheckResult,
    ChunkingResult,
    ChunkResult,
    ChunksResult,
    Citation,
    CitationLine,
    CiteOutput,
    CiteSummary,
    Claim,
    ClaimVerdict,
    ContextChunk,
    DocInfo,
    Evidence,
    ExportLine,
    ExternalCitation,
    HealthResult,
    IngestReport,
    IngestResult,
    InitResult,
    Judgement,
    JudgeRequest,
    LocateResult,
    MigrateResult,
    Proposal,
    ReportResult,
    ResponseFormat,
    RetireResult,
    ShowResult,
    SourceRef,
    Status,
    SweepSummary,
    Verdict,
    VerifyResult,
    W3CAnnotation,
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
    "locate_many",
    "schema",
    "caller_chunks",
    "chunks_from_langchain",
    "JudgeFunction",
    "JudgeRequest",
    "Judgement",
    "CallerChunk",
    "ChunkingResult",
    "IngestResult",
    "IngestReport",
    "InitResult",
    "CheckResult",
    "ChunkResult",
    "ChunksResult",
    "DocInfo",
    "ContextChunk",
    "Evidence",
    "Claim",
    "CiteOutput",
    "AnswerSpan",
    "Proposal",
    "ExternalCitation",
    "ResponseFormat",
    "Citation",
    "CitationLine",
    "Change",
    "ExportLine",
    "W3CAnnotation",
    "HealthResult",
    "SweepSummary",
    "ShowResult",
    "ReportResult",
    "RetireResult",
    "VerifyResult",
    "CalibrationResult",
    "MigrateResult",
    "LocateResult",
    "SourceRef",
    "Status",
    "Verdict",
    "ClaimVerdict",
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


class JudgeFunction(Protocol):
    """A verification judge written in Python: called with ``{"claim", "premise", "spans"}``
    (the premise is the section around the cited spans, each marked ``⟦…⟧``), it returns
    ``{"relation": "supports" | "contradicts" | "silent", "confidence": 0..1}``. An exception
    it raises, or any other reply, is that claim's ``error`` verdict; the run goes on. It is
    called from worker threads (up to ``[verify] concurrency`` at once)."""

    def __call__(self, request: JudgeRequest, /) -> Mapping[str, Any]: ...


Judge = Union[str, JudgeFunction]
"""A judge: a spec (``"command:PROGRAM [ARGS]"``, ``"openai:MODEL@BASE_URL"``) or a
:class:`JudgeFunction`."""

_STATUSES = ("intact", "moved", "degraded", "lost")


def _sdk_data(value: Any) -> Any:
    """An SDK object as JSON data: a pydantic v2 model (the Anthropic, OpenAI, Cohere and
    google-genai SDKs) by ``model_dump(mode="json")``, whose enums and datetimes come out as
    JSON; else by ``model_dump()`` or ``to_dict()``; anything else as it is."""
    dump: Any = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json")
        except (TypeError, ValueError):  # no ``mode``, or a value JSON mode cannot write
            return dump()
    to_dict: Any = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return value


def _as_json(value: Any, what: str) -> str:
    """An answer or response as JSON text: a str or bytes is taken as JSON text, a mapping (the
    tool call's input) is serialised; an SDK object is turned into a dict first."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, str):
        return value
    data: Any = _sdk_data(value) if not isinstance(value, Mapping) else cast(Any, value)
    try:
        return json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError) as err:
        raise BadAnswer(
            f"{what}: not JSON data ({err}); pass the tool call's input as a dict"
        ) from None


def _chunks_json(chunks: Iterable[Any]) -> str:
    """Caller chunks (dicts or a framework's objects) as JSON for the native layer."""
    return json.dumps(caller_chunks(chunks), ensure_ascii=False)


def _ids(value: Union[str, Sequence[str], None], name: str) -> List[str]:
    """One id or a list of ids as a list (a lone string is one id, not its characters)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    ids: List[Any] = list(value)
    for i, item in enumerate(ids):
        if not isinstance(item, str):
            raise BadInput(f"{name}[{i}]: a {type(item).__name__}; give ids as strings")
    return cast(List[str], ids)


def _statuses(status: Union[str, Sequence[str], None]) -> List[str]:
    statuses = _ids(status, "status")
    for s in statuses:
        if s not in _STATUSES:
            raise BadInput(f"status={s!r}: give one of {', '.join(_STATUSES)}")
    return statuses


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

    ``claims``: per claim ``{"text", "uncited", "evidence": [{"label", "chunk_id",
    "caller_id", "quote", "verdict", "citation", "start", "end", "revision", "score",
    "repaired_from", "text", "reason"}]}`` in the answer's order (``label`` is what the model
    cited, ``chunk_id`` citestore's chunk, ``None`` when it names none, ``caller_id`` your id
    of it); ``summary``: counts by verdict plus ``uncited``; ``already_recorded``: this answer
    was cited before and nothing new was stored. From an import, ``answer`` is the answer's
    text as the provider wrote it (``None`` when it has none) and a claim may have
    ``answer_span`` (``{"start", "end"}``, ``str`` indices of ``answer``) and ``external``
    citations; an evidence the provider named without a quote has a ``proposal``.
    """

    __slots__ = ("context", "answer", "already_recorded", "claims", "summary")

    def __init__(self, data: CiteOutput) -> None:
        self.context: str = data["context"]
        self.answer: Optional[str] = data.get("answer")
        self.already_recorded: bool = data["already_recorded"]
        self.claims: List[Claim] = data["claims"]
        self.summary: CiteSummary = data["summary"]

    @property
    def citations(self) -> List[Evidence]:
        """Every located evidence (it has a ``citation`` id and a span), in answer order."""
        return [ev for claim in self.claims for ev in claim["evidence"] if ev["citation"]]

    def to_dict(self) -> CiteOutput:
        """The whole result as ``cite --json`` (or ``import FORMAT --json``) prints it."""
        data: CiteOutput = {
            "context": self.context,
            "already_recorded": self.already_recorded,
            "claims": self.claims,
            "summary": self.summary,
        }
        if self.answer is not None:
            data["answer"] = self.answer
        return data

    def __repr__(self) -> str:
        return f"CiteResult({self.context!r}, {self.summary!r})"


def _citation(shown: ShowResult) -> Citation:
    """A citation as a reader wants it, from ``show``: the SourceRef it was made with, where
    it is now and the text there."""
    stored = shown["citation"]
    return {
        "id": shown["id"],
        "claim": stored["claim"],
        "quote": stored["quote"],
        "doc_id": stored["doc_id"],
        "status": shown["status"],
        "source": {
            "doc_id": stored["doc_id"],
            "content_hash": stored["content_hash"],
            "start": stored["start"],
            "end": stored["end"],
            "revision": stored["revision"],
        },
        "current": shown["current"],
        "current_text": shown["current_text"],
    }


class Store:
    """A citestore database: a SQLite file, or a PostgreSQL URL (``postgres://…``).

    ``Store(path)`` creates the file when it is missing and upgrades an older schema, as
    ``citestore ingest`` does; another program's SQLite file is refused unless ``force=True``
    (citestore's tables are added beside its own, as ``citestore init --force``). With
    ``read_only=True`` nothing is created, upgraded or written: the file must exist, every
    reading method works (on a read-only file too), and a method that writes raises
    :class:`DatabaseError`. ``config`` names a citestore.toml (its ``[chunker]``, ``[locate]``
    cut-offs, ``[verify]`` judge and ``[[sources]]`` apply as they do for the CLI).

    Each call opens its own connection and releases the GIL while it works, so one thread may
    read (``health``) while another sweeps. ``with Store(path) as store:`` closes it at the
    end; after :meth:`close` every call raises :class:`Error`.
    """

    __slots__ = ("_native_store", "_closed")

    def __init__(
        self,
        path: PathLike,
        *,
        config: Optional[PathLike] = None,
        read_only: bool = False,
        force: bool = False,
    ) -> None:
        if read_only and force:
            raise BadInput("force=True writes citestore's tables; it cannot be read_only=True")
        self._closed = False
        self._native_store = _native.Store(
            os.fspath(path), os.fspath(config) if config is not None else None, read_only, force
        )

    def _check_open(self) -> None:
        if self._closed:
            raise Error(
                f"{self.path}: this Store is closed; open it again with citestore.Store(path)"
            )

    @property
    def _live(self) -> _native.Store:
        self._check_open()
        return self._native_store

    @property
    def path(self) -> str:
        """The database file (or URL)."""
        return os.fspath(self._native_store.path)

    @property
    def read_only(self) -> bool:
        """Opened with ``read_only=True``."""
        return self._native_store.read_only

    @property
    def closed(self) -> bool:
        """:meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Ends the use of this store. Every call opens and closes its own connection, so
        nothing is left open; later calls raise :class:`Error`. Closing twice is fine."""
        self._closed = True

    def __enter__(self) -> Store:
        self._check_open()
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        flags = ", read_only=True" if self.read_only else ""
        return f"citestore.Store({self.path!r}{flags})"

    # The database --------------------------------------------------------------------------

    def init(self, *, force: bool = False) -> InitResult:
        """Creates or upgrades the schema, as ``citestore init``; ``force=True`` adds
        citestore's tables to a SQLite file that holds another program's tables. Returns
        ``{"db", "schema_version"}``."""
        return self._live.init(force)

    def check(self) -> CheckResult:
        """Reads every page of the store now, as ``citestore check``, and records that it is
        sound, so the sweeps of the next ``[sweep] full_check_days`` need not. Raises
        :class:`DatabaseError` naming the file when a page is damaged (nothing recorded).
        Returns ``{"db", "pages_checked", "checked_at", "seconds"}``."""
        return self._live.check()

    def migrate(self, to: PathLike) -> MigrateResult:
        """Copies this store into an empty one at ``to`` (a SQLite path or a PostgreSQL URL),
        as ``citestore migrate``. Returns ``{"from", "to", "rows", "tables"}``."""
        return self._live.migrate(os.fspath(to))

    # Ingest ------------------------------------------------------------------------------

    def ingest_text(
        self,
        doc_id: str,
        text: str,
        *,
        chunker: Optional[str] = None,
        chunks: Optional[Iterable[Any]] = None,
    ) -> IngestResult:
        """Stores ``text`` as the latest revision of ``doc_id`` (nothing when it equals the
        latest), chunked by ``chunker`` (``"paragraph:MAX"`` or ``"chars:SIZE:OVERLAP"``; default
        ``[chunker]`` of the configuration, else the document's previous spec) or, instead, with
        your own ``chunks``: dicts ``{"start", "end", "id"?, "text"?}`` (offsets in ``str``
        indices; overlaps and gaps allowed), LangChain Documents split with
        ``add_start_index=True``, LlamaIndex nodes, or Haystack Documents from
        ``DocumentSplitter`` (see :func:`caller_chunks`). Returns ``{"doc_id", "source",
        "outcome", "seq", "extractor", "chunking"}``.

        A document ingested as text is never re-extracted by a sweep: give its new text here,
        then sweep to re-anchor its citations. New text without ``chunks`` for a document you
        chunked is re-chunked by ``chunker``, the configured chunker, else ``paragraph:1500``.
        Raises :class:`BadInput` (nothing stored) for a span outside the text, ``start >=
        end``, a repeated id, or a chunk's text that differs from the span's.
        """
        if chunker is not None and chunks is not None:
            raise BadInput("give chunker= or chunks=, not both")
        return self._live.ingest_text(
            doc_id, text, chunker, _chunks_json(chunks) if chunks is not None else None
        )

    def ingest(
        self,
        paths: Union[PathLike, Sequence[PathLike]],
        *,
        doc_id: Optional[str] = None,
        chunker: Optional[str] = None,
        chunks: Optional[Iterable[Any]] = None,
        extract_cmd: Optional[str] = None,
        extract_version: Optional[str] = None,
        extract_timeout: Optional[float] = None,
    ) -> IngestReport:
        """Ingests files or folders as ``citestore ingest`` does (a folder's doc ids are paths
        relative to it; a file's is its path, or ``doc_id``); ``chunks`` (one file only) are
        your own chunks of its text. ``extract_cmd`` (a command with ``{}`` for the file, e.g.
        ``"pandoc -t plain {}"``) with ``extract_version`` extracts files citestore does not
        read itself; ``extract_timeout`` bounds any extractor (seconds, default 120). Returns
        ``{"documents", "skipped"}`` as ``ingest --json``.
        """
        if chunker is not None and chunks is not None:
            raise BadInput("give chunker= or chunks=, not both")
        if (extract_cmd is None) != (extract_version is None):
            raise BadInput("extract_cmd= and extract_version= go together: give both or neither")
        extract = (extract_cmd, extract_version) if extract_cmd and extract_version else None
        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        return self._live.ingest(
            [os.fspath(p) for p in paths],
            doc_id,
            chunker,
            _chunks_json(chunks) if chunks is not None else None,
            extract,
            extract_timeout,
        )

    def chunk(self, chunker: str, *, docs: Union[str, Sequence[str], None] = None) -> ChunkResult:
        """Re-chunks documents' latest revisions with ``chunker`` (all documents by default), as
        ``citestore chunk``; citations keep their spans (a sweep re-anchors them to the new
        chunks). Returns ``{"documents": [{"doc_id", "seq", "chunking"}]}``."""
        return self._live.chunk(chunker, _ids(docs, "docs"))

    def docs(self) -> List[DocInfo]:
        """The documents, as ``citestore docs --json`` lists them: ``{"doc_id", "source",
        "revisions", "latest_seq", "extractor", "char_len", "chunking", "chunks",
        "citations"}`` (``chunking`` is ``"caller"`` for your own chunks)."""
        return self._live.docs()

    def chunks(self, doc_id: str, *, revision: Optional[int] = None) -> ChunksResult:
        """A document's chunks as its current chunking holds them (of its latest revision, or
        of ``revision``), each with its text, citestore's ``chunk_id`` and your own
        ``caller_id``: ``{"doc_id", "revision", "chunking", "chunks": [{"ord", "chunk_id",
        "caller_id", "start", "end", "content_hash", "normaliser", "text"}]}``."""
        if revision is not None and (isinstance(revision, bool) or revision < 1):
            raise BadInput(f"revision={revision!r}: give a revision number, 1 or more")
        return self._live.chunks(doc_id, revision)

    def retire(self, doc_ids: Union[str, Sequence[str]]) -> RetireResult:
        """Retires documents that are gone for good, as ``citestore retire``: their citations
        stop counting in ``health`` and are kept with their history. Returns ``{"retired":
        [{"doc_id", "changed"}]}``."""
        ids = _ids(doc_ids, "doc_ids")
        if not ids:
            raise BadInput("retire: give the doc ids to retire")
        return self._live.retire(ids)

    # Citing ------------------------------------------------------------------------------

    def context(
        self,
        *,
        docs: Optional[Sequence[str]] = None,
        chunks: Optional[Sequence[Any]] = None,
    ) -> Context:
        """Records the chunks a model is shown: every chunk of each of ``docs`` (current
        chunking), then each of ``chunks``: citestore's chunk ids, your own ids, or the very
        objects you ingested as chunks (LangChain or Haystack Documents, LlamaIndex nodes,
        dicts with an ``"id"``). The same chunks in the same order are the same context.
        Raises :class:`UnknownDocument` or :class:`UnknownChunk`."""
        if isinstance(docs, str) or isinstance(chunks, str):
            raise BadInput("docs= and chunks= are lists of ids, not one string")
        out, prompt = self._live.context(list(docs or []), list(chunk_refs(chunks or [])))
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
        return CiteResult(self._live.cite(context_id, _as_json(answer, "answer")))

    def import_response(
        self,
        format: ResponseFormat,
        context: Union[str, Context],
        response: Any,
        *,
        sent: Optional[Literal["chunks", "documents"]] = None,
    ) -> CiteResult:
        """Cites a provider's cited answer in its own shape, as ``citestore import FORMAT``
        does: ``"anthropic"`` (Messages with the Citations API), ``"cohere"`` (v2 chat),
        ``"gemini"`` (``generateContent`` with grounding metadata, camelCase or the SDK's
        snake_case), ``"openai-responses"`` (file search, web search), ``"ai-sdk"``
        (``generateText``'s result with ``citations``) or ``"langchain-quoted"``
        (``{answer, citations: [{source_id, quote}]}``). ``response`` is a dict, its JSON text,
        or the SDK's object.

        The provider's sources are mapped onto the context's chunks; each claim keeps where it
        stands in ``answer`` (``answer_span``, ``str`` indices, converted from the provider's
        bytes or UTF-16). A quote the provider gives is located like any quote; a source named
        without one is ``review`` ("the provider gave no quote") with the chunk's best-matching
        sentence as its ``proposal``, never accepted; web sources are ``external``. ``sent``
        (anthropic only): ``"chunks"`` (the default), ``document_index`` i is the context's
        chunk i; ``"documents"``, its distinct documents, whole, in order. The same response
        again stores nothing. Raises :class:`BadAnswer` naming the JSON path of a malformed
        response (nothing stored), :class:`BadInput` for an unknown format or ``sent`` given
        for another format, or :class:`UnknownContext`."""
        context_id = context.id if isinstance(context, Context) else context
        return CiteResult(
            self._live.import_response(format, context_id, _as_json(response, "response"), sent)
        )

    def import_anthropic(
        self,
        context: Union[str, Context],
        response: Any,
        *,
        sent: Literal["chunks", "documents"] = "chunks",
    ) -> CiteResult:
        """Cites an Anthropic Messages response that used the Citations API (as a dict, its
        JSON text, or the SDK's message object), as ``citestore import-anthropic`` does: each
        ``cited_text`` is located again in the stored text and the API's own location is
        checked against it. ``sent="chunks"``: ``document_index`` i is the context's chunk i;
        ``"documents"``: the context's distinct documents, whole, in order. The same as
        ``import_response("anthropic", ...)``."""
        return self.import_response("anthropic", context, response, sent=sent)

    def verify(
        self,
        context: Union[str, Context, None] = None,
        *,
        all: bool = False,
        citations: Optional[Sequence[str]] = None,
        judge: Optional[Judge] = None,
        accept: Optional[float] = None,
        timeout: Optional[float] = None,
    ) -> VerifyResult:
        """Verifies cited claims, as ``citestore verify``: the claims of answers cited against
        ``context``, or ``all=True``, or those owning ``citations``. Evidence never located is
        reported (``fabricated``, ``ambiguous``, ``unknown-chunk``) with no judge call; located
        evidence goes to ``judge`` (a spec or a callable, see :data:`Judge`; default ``[verify]
        judge`` of the configuration; without one, ``unjudged``) and is ``supported``,
        ``contradicted`` or ``unsupported`` at confidence ``accept`` (default 0.7) or more,
        else ``review``. Every verdict is recorded. Returns ``{"judge", "claims", "summary"}``."""
        chosen = sum([context is not None, all, citations is not None])
        if chosen != 1:
            raise BadInput("verify: give exactly one of context, all=True or citations=[...]")
        if timeout is not None and not timeout > 0:
            raise BadInput(f"timeout={timeout!r}: give seconds, more than 0")
        context_id = context.id if isinstance(context, Context) else context
        cited = _ids(citations, "citations")
        return self._live.verify(context_id, all, cited, judge, accept, timeout)

    def calibrate(
        self,
        labels: Union[PathLike, Iterable[Mapping[str, Any]]],
        *,
        judge: Optional[Judge] = None,
        timeout: Optional[float] = None,
    ) -> CalibrationResult:
        """Runs the judge on human-labelled examples, as ``citestore verify --calibrate``:
        ``labels`` is a JSON Lines file or dicts ``{"claim", "premise", "label":
        "supports" | "contradicts" | "silent"}``. Returns agreement and review rate at each
        accept threshold from 0.50 to 0.95."""
        if isinstance(labels, (str, os.PathLike)):
            path = os.fspath(labels)
            try:
                with open(path, encoding="utf-8") as file:
                    text = file.read()
            except OSError as err:
                raise BadInput(
                    f"{path}: {err.strerror}; give a JSON Lines file of labels"
                ) from None
            name = path
        else:
            text = "\n".join(json.dumps(dict(label), ensure_ascii=False) for label in labels)
            name = "labels"
        return self._live.calibrate(text, name, judge, timeout)

    # The nightly job ---------------------------------------------------------------------

    def sweep(
        self,
        *,
        chunker: Optional[str] = None,
        docs: Optional[Sequence[str]] = None,
        no_extract: bool = False,
        shard: Optional[str] = None,
        run: Optional[str] = None,
        extract_timeout: Optional[float] = None,
        full_check: bool = False,
    ) -> SweepSummary:
        """Runs the nightly job, as ``citestore sweep``: re-extracts changed files, re-chunks
        (``chunker``, else the configured one), re-anchors every citation. ``shard="I/N"``
        sweeps one of N disjoint parts (run N workers, each with its shard and the same
        ``run`` name); ``no_extract`` re-anchors the text held without reading files;
        ``full_check`` reads every page of the store first (by default a sweep does so when the
        last full check is ``[sweep] full_check_days`` old, 7; see :meth:`check`). Returns
        the summary dict of ``sweep --json``. Raises :class:`SweepIncomplete` (with
        ``.summary``) when some document could not be swept (the CLI's exit 2); the others are
        committed."""
        summary = self._live.sweep(
            _ids(docs, "docs"), chunker, no_extract, shard, run, extract_timeout, full_check
        )
        errors = summary["errors"]
        if errors:
            lines = "; ".join(f"{e['doc_id']}: not swept: {e.get('error') or ''}" for e in errors)
            raise SweepIncomplete(
                f"sweep {summary['sweep']}: {len(errors)} of {summary['documents']} "
                f"documents not swept: {lines}",
                cast(Dict[str, Any], summary),
            )
        return summary

    def health(self, *, by_doc: bool = False, sweeps: int = 10) -> HealthResult:
        """Citation health as ``citestore health --json``: ``{"status", "retired", "missing",
        "trend", "documents", "verification"}``, read in one snapshot (a sweep committing
        meanwhile is never half-seen)."""
        if sweeps < 0:
            raise BadInput(f"sweeps={sweeps}: give a whole number, 0 or more")
        return self._live.health(by_doc, sweeps)

    def changes(self, *, since: Optional[Union[int, str]] = None) -> Iterator[Change]:
        """Each citation whose status or span changed in the sweeps after ``since`` (a sweep
        id, ``0`` for all, or a date / RFC 3339 time), by default in the latest sweep: dicts as
        in ``citestore changes --json``'s ``changes``."""
        out = self._live.changes(None if since is None else str(since))
        return iter(out["changes"])

    def citations(
        self,
        *,
        status: Union[Status, Sequence[Status], None] = None,
        doc: Optional[str] = None,
    ) -> Iterator[CitationLine]:
        """Citations by current status (``"intact"``, ``"moved"``, ``"degraded"``, ``"lost"``,
        or a list; all by default), optionally of one document: dicts as ``citestore list
        --json`` prints them."""
        return iter(self._live.citations(_statuses(status), doc))

    def show(self, citation: str) -> ShowResult:
        """One citation in full, as ``citestore show --json``: the citation as made, its
        status, where it is now and the text there, what changed, its history of anchors and
        its verifications."""
        return self._live.show(citation)

    def citation(self, citation: str) -> Citation:
        """One citation as a reader needs it: the SourceRef it was made with (``source``),
        where it is now (``current``: revision, span, holding chunk, score, method, reason, as
        in ``export``; ``None`` when lost), the text there (``current_text``) and its
        status."""
        return _citation(self._live.show(citation))

    @overload
    def export(
        self, *, format: Literal["jsonl"] = ..., utf16: bool = ...
    ) -> Iterator[ExportLine]: ...
    @overload
    def export(self, *, format: Literal["w3c"], utf16: bool = ...) -> Iterator[W3CAnnotation]: ...
    def export(
        self, *, format: Literal["jsonl", "w3c"] = "jsonl", utf16: bool = False
    ) -> Union[Iterator[ExportLine], Iterator[W3CAnnotation]]:
        """Every citation and where it is now, as ``citestore export`` prints it (one dict per
        citation, in the order they were made); ``format="w3c"``: as W3C Web Annotations
        (``utf16=True`` adds UTF-16 positions, for JavaScript readers)."""
        if format == "w3c":
            return iter(self._live.export_w3c(utf16))
        if format != "jsonl":
            raise BadInput(f"format={format!r}: give 'jsonl' or 'w3c'")
        if utf16:
            raise BadInput("utf16=True is for format='w3c'; the jsonl export counts code points")
        return iter(self._live.export())

    def report(
        self,
        out: PathLike,
        *,
        sweep: Optional[int] = None,
        since: Optional[Union[int, str]] = None,
        status: Union[Status, Sequence[Status], None] = None,
        docs: Optional[Sequence[str]] = None,
        limit: int = 2000,
    ) -> ReportResult:
        """Writes one self-contained HTML page of what a sweep changed to ``out``, as
        ``citestore report``: the latest sweep, one ``sweep``, or every sweep since a sweep id
        or a date; only citations now in ``status``, of ``docs``; at most ``limit`` citations,
        worst first (0: all). Returns ``{"out", "bytes", "sweeps", "changed", "included",
        "omitted", "status", "documents"}``."""
        if sweep is not None and since is not None:
            raise BadInput("give sweep= or since=, not both")
        if isinstance(limit, bool) or limit < 0:
            raise BadInput(f"limit={limit!r}: give a whole number, 0 (all) or more")
        return self._live.report(
            os.fspath(out),
            sweep,
            None if since is None else str(since),
            _statuses(status),
            _ids(docs, "docs"),
            limit,
        )


def schema(
    format: Literal["anthropic", "openai", "openai-responses", "ai-sdk"] = "anthropic",
) -> Any:
    """The ``emit_answer`` tool the model fills in, in an API's tool shape, for ``tools=[...]``:
    ``"anthropic"`` (``{"name", "description", "input_schema"}``), ``"openai"`` (a Chat
    Completions function tool, strict) or ``"openai-responses"`` (a Responses API function
    tool, strict) or ``"ai-sdk"`` (``{"description", "inputSchema"}`` for the Vercel AI SDK's
    ``jsonSchema()``), as ``citestore schema --format``. Raises :class:`BadInput` naming the
    accepted formats for any other. Typed ``Any``: it goes straight into an SDK's ``tools``,
    whose own types describe it."""
    return _native.schema(format)


def chunks_from_langchain(
    documents: Iterable[Any], *, text: Optional[str] = None
) -> List[CallerChunk]:
    """Chunk dicts for :meth:`Store.ingest_text` from LangChain ``Document``s split with
    ``add_start_index=True``: ``start`` is ``metadata["start_index"]``, ``end`` is ``start +
    len(page_content)``, ``id`` is the document's ``id`` when it has one, and ``text`` is its
    ``page_content`` (checked against the stored text at ingest). With ``text``, the check is
    made here too. (:func:`caller_chunks` takes these and other frameworks' chunks.)"""
    return caller_chunks(documents, text)
