"""The shapes of the dicts citestore returns: the CLI's ``--json`` objects, field by field.

Each type mirrors the Rust struct the command's use case returns (docs/json.md lists them per
command): an ``Option`` is ``Optional[...]`` (the key is there, its value may be ``None``); a
field the CLI leaves out when it is empty is a key that may be missing (a ``total=False`` base);
every enum is a ``Literal`` of its serde names. ``tests/test_types.py`` checks real returns
against these types with a runtime type checker, extra keys included.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

__all__ = [
    # Enums.
    "Status",
    "Method",
    "Verdict",
    "ClaimVerdict",
    "Relation",
    "How",
    "Outcome",
    "Agreement",
    "DocumentOutcome",
    "ResponseFormat",
    # Counts.
    "StatusCounts",
    "MethodCounts",
    "CiteSummary",
    "VerifySummary",
    "VerificationCounts",
    # init, migrate.
    "CheckResult",
    "InitResult",
    "MigrateResult",
    # Ingest, chunk, docs, chunks, retire.
    "CallerChunk",
    "ChunkingResult",
    "IngestResult",
    "SkippedFile",
    "IngestReport",
    "RechunkedDocument",
    "ChunkResult",
    "DocInfo",
    "ChunkInfo",
    "ChunksResult",
    "RetiredDocument",
    "RetireResult",
    # locate.
    "LocateResult",
    "LocateHints",
    # context, cite, import.
    "ContextChunk",
    "ContextResult",
    "ApiLocation",
    "ExternalCitation",
    "AnswerSpan",
    "Proposal",
    "Evidence",
    "Claim",
    "CiteOutput",
    # Where a citation is.
    "SourceRef",
    "Citation",
    "Current",
    "LastKnown",
    "ExportLine",
    "CitationLine",
    # W3C Web Annotations.
    "TextualBody",
    "TimeState",
    "TextQuoteSelector",
    "TextPositionSelector",
    "Selector",
    "AnnotationTarget",
    "W3CAnnotation",
    # show.
    "StoredCitation",
    "AnchorRow",
    "VerificationRow",
    "ShowResult",
    # changes, report.
    "ChangeEnd",
    "Change",
    "ChangesResult",
    "ReportResult",
    # sweep, health.
    "SweptDocument",
    "SweepSummary",
    "TrendRow",
    "ShardedRun",
    "DocumentHealth",
    "RetiredHealth",
    "HealthResult",
    # verify, calibrate.
    "JudgeRequest",
    "Judgement",
    "LabelledExample",
    "VerifiedClaim",
    "VerifyResult",
    "CalibrationRow",
    "CalibrationResult",
]


def _doc(alias: object, doc: str) -> None:
    """Gives a type alias its docstring at runtime (``help()``; a docstring after an assignment
    is only read by tools)."""
    alias.__doc__ = doc


# Enums ---------------------------------------------------------------------------------------

Status = Literal["intact", "moved", "degraded", "lost"]
_doc(Status, "A citation's status now (``Status``).")

Method = Literal[
    "same-text",
    "content-hash",
    "exact",
    "folded",
    "diff",
    "fuzzy",
    "none",
    "missing",
    "cited",
]
_doc(Method, "How a citation's current place was found (``Method``); ``cited``: as it was cited.")

Verdict = Literal[
    "exact", "fuzzy", "review", "repaired", "ambiguous", "fabricated", "unknown-chunk"
]
_doc(Verdict, "What citing did with one evidence quote (``citation::Verdict``).")

ClaimVerdict = Literal[
    "supported",
    "contradicted",
    "unsupported",
    "review",
    "fabricated",
    "ambiguous",
    "unknown-chunk",
    "uncited",
    "unjudged",
    "error",
]
_doc(ClaimVerdict, "What verifying a claim decided (``verification::ClaimVerdict``).")

Relation = Literal["supports", "contradicts", "silent"]
_doc(Relation, "What a judge said of a claim and its premise (``verification::Relation``).")

How = Literal["exact", "folded", "fuzzy", "review"]
_doc(How, "How a quote was located (``text::How``).")

Outcome = Literal["new", "revised", "unchanged"]
_doc(Outcome, "What an ingest did to one document (``store::Outcome``).")

Agreement = Literal["agrees", "differs"]
_doc(Agreement, "Whether an API's own citation location agrees with the text citestore holds.")

DocumentOutcome = Literal[
    "re-extracted", "rechunked", "reanchored", "unchanged", "missing", "retired", "failed"
]
_doc(DocumentOutcome, "The one thing a sweep did to a document (``sweep::DocumentOutcome``).")

ResponseFormat = Literal[
    "anthropic", "cohere", "gemini", "openai-responses", "ai-sdk", "langchain-quoted"
]
_doc(
    ResponseFormat,
    "A provider's cited-answer shape, as ``citestore import FORMAT`` names it "
    "(``cite::providers::Format``).",
)

# Counts --------------------------------------------------------------------------------------

StatusCounts = Dict[Status, int]
_doc(StatusCounts, "Citations by status (only the statuses that occur).")

MethodCounts = Dict[Method, int]
_doc(MethodCounts, "Citations by the method that placed them.")

CiteSummary = Dict[Union[Verdict, Literal["uncited", "external"]], int]
_doc(
    CiteSummary,
    "Evidence quotes by verdict, plus ``uncited`` claims and ``external`` citations (web "
    "sources, from ``import_response``).",
)

VerifySummary = Dict[Union[ClaimVerdict, Literal["judge_calls", "decided_without_judge"]], int]
_doc(VerifySummary, "Claims by verdict, plus ``judge_calls`` and ``decided_without_judge``.")

VerificationCounts = Dict[ClaimVerdict, int]
_doc(VerificationCounts, "Claims by their latest verification verdict.")

# init, migrate -------------------------------------------------------------------------------


class CheckResult(TypedDict):
    """``check``: every page read (``pages_checked``; ``False`` on PostgreSQL, whose server
    checks each page as it reads it), when, and how long it took."""

    db: str
    pages_checked: bool
    checked_at: str
    seconds: float


class InitResult(TypedDict):
    """``init``: the database and its schema version after the call."""

    db: str
    schema_version: int


# ``from`` is a keyword: the key is declared in the functional form.
_MigrateFrom = TypedDict("_MigrateFrom", {"from": str})


class MigrateResult(_MigrateFrom):
    """``migrate``: the store copied (``from``), the store copied into, and rows per table."""

    to: str
    rows: int
    tables: Dict[str, int]


# Ingest, chunk, docs, chunks, retire ---------------------------------------------------------


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
    outcome: Outcome
    seq: int
    extractor: str
    chunking: Optional[ChunkingResult]


class SkippedFile(TypedDict):
    """A file a folder walk passed over, and why."""

    path: str
    reason: str


class IngestReport(TypedDict):
    """``ingest``: one entry per document read, and the files skipped."""

    documents: List[IngestResult]
    skipped: List[SkippedFile]


class RechunkedDocument(TypedDict):
    """One document of ``chunk``: its latest revision and current chunking after the call."""

    doc_id: str
    seq: int
    chunking: ChunkingResult


class ChunkResult(TypedDict):
    """``chunk``: one entry per document."""

    documents: List[RechunkedDocument]


class DocInfo(TypedDict):
    """One document of ``docs``: its latest revision and current chunking (``caller`` for
    yours, ``None`` when never chunked)."""

    doc_id: str
    source: str
    revisions: int
    latest_seq: int
    extractor: str
    char_len: int
    chunking: Optional[str]
    chunks: int
    citations: int


class ChunkInfo(TypedDict):
    """One chunk of ``chunks``: its place in the chunking, ids, span, hash and text."""

    ord: int
    chunk_id: str
    caller_id: Optional[str]
    start: int
    end: int
    content_hash: str
    normaliser: str
    text: str


class ChunksResult(TypedDict):
    """``chunks``: a revision's current chunking (``None`` when never chunked), chunk by chunk."""

    doc_id: str
    revision: int
    chunking: Optional[str]
    chunks: List[ChunkInfo]


class RetiredDocument(TypedDict):
    """One document of ``retire``: ``changed`` is false when it was already retired."""

    doc_id: str
    changed: bool


class RetireResult(TypedDict):
    """``retire``: one entry per document, in the order given."""

    retired: List[RetiredDocument]


# locate --------------------------------------------------------------------------------------


class _LocateRequired(TypedDict):
    start: int
    end: int
    score: float
    how: How
    occurrences: int
    text: str


class LocateHints(TypedDict):
    """How ``prefix``, ``suffix`` and ``near`` chose among the occurrences of the matched text:
    how many there were, the one taken (1-based, in text order), its context agreement (prefix
    plus suffix similarity, 0 to 2), and whether the context tied (then the one nearest
    ``near``, else the first, was taken)."""

    candidates: int
    chosen: int
    agreement: float
    tied: bool


class LocateResult(_LocateRequired, total=False):
    """Where a quote was found: ``how`` is ``exact``, ``folded``, ``fuzzy`` or ``review`` (with
    ``reason``); ``text`` is the chunk's text at ``[start, end)``; ``hints`` is there when hints
    were given and the matched text occurs more than once."""

    reason: str
    hints: LocateHints


# context, cite, import ----------------------------------------------------------------------


class ContextChunk(TypedDict):
    """A chunk shown to the model: its opaque ``label``, stable ``chunk_id``
    (``{doc_id}@r{seq}#{start}-{end}``), ``[start, end)`` in the revision's text, the text, and
    your own id when you made it (else ``None``)."""

    label: str
    chunk_id: str
    doc_id: str
    revision: int
    content_hash: str
    normaliser: str
    start: int
    end: int
    text: str
    caller_id: Optional[str]


class ContextResult(TypedDict):
    """``context``: the context id to cite against, and its chunks in retrieval order."""

    context: str
    chunks: List[ContextChunk]


class ApiLocation(TypedDict):
    """An API's own citation location (``api``, as received) checked against our text."""

    kind: str
    agreement: Agreement
    note: Optional[str]
    api: Dict[str, Any]


class ExternalCitation(TypedDict):
    """A citation outside the store (a web source), reported as the provider gave it: ``kind``
    is the provider's (``web_search_result_location``, ``web``, ``url``, ``url_citation``,
    ``container_file_citation``)."""

    kind: str
    url: Optional[str]
    title: Optional[str]
    cited_text: str


class AnswerSpan(TypedDict):
    """Where a claim stands in the answer: ``[start, end)`` in ``str`` indices of the result's
    ``answer`` (imports of providers that cite the answer's text)."""

    start: int
    end: int


class Proposal(TypedDict):
    """The chunk's sentence that best matches the claim, proposed for evidence the provider
    named without a quote: ``[start, end)`` in ``str`` indices of the revision's text, the text
    there, and the share of the claim's words it holds (0 to 100). Never a located quote: a
    person confirms it."""

    start: int
    end: int
    text: str
    score: float


class _EvidenceRequired(TypedDict):
    label: str
    chunk_id: Optional[str]
    caller_id: Optional[str]
    quote: str
    verdict: Verdict
    citation: Optional[str]
    start: Optional[int]
    end: Optional[int]
    revision: Optional[int]
    score: Optional[float]
    repaired_from: Optional[str]
    text: Optional[str]
    reason: Optional[str]


class Evidence(_EvidenceRequired, total=False):
    """One evidence quote's verdict: ``exact``, ``fuzzy``, ``review``, ``repaired`` (located,
    stored, with ``citation`` id and span) or ``ambiguous``, ``fabricated``, ``unknown-chunk``
    (rejected, ``citation`` is ``None``); ``location`` only from an Anthropic import;
    ``proposal`` only when the provider named the chunk without a quote (``quote`` is ``""``,
    the verdict ``review``, the reason "the provider gave no quote: …")."""

    location: ApiLocation
    proposal: Proposal


class _ClaimRequired(TypedDict):
    text: str
    uncited: bool
    evidence: List[Evidence]


class Claim(_ClaimRequired, total=False):
    """A claim and its evidence, in the answer's order; ``uncited`` when it gave none;
    ``external`` (web sources) only from an import, when there are any; ``answer_span`` only
    from an import of a provider that cites the answer's text."""

    external: List[ExternalCitation]
    answer_span: AnswerSpan


class _CiteOutputRequired(TypedDict):
    context: str
    already_recorded: bool
    claims: List[Claim]
    summary: CiteSummary


class CiteOutput(_CiteOutputRequired, total=False):
    """``cite`` and ``import``: the claims and their evidence, counts by verdict, and whether
    this answer was recorded before; ``answer``, the answer's text as the provider wrote it,
    only from an import that has one (each claim's ``answer_span`` indexes it)."""

    answer: str


# Where a citation is -------------------------------------------------------------------------


class SourceRef(TypedDict):
    """A span of a document's revision: ``[start, end)`` in its text, and the content hash of
    the chunk it was cited from."""

    doc_id: str
    content_hash: str
    start: int
    end: int
    revision: int


class Citation(TypedDict):
    """One citation as a reader needs it: the SourceRef it was made with, where it is now
    (``current``, as in ``export``: span, holding chunk, score, method, reason; ``None`` when
    lost) and the text there."""

    id: str
    claim: str
    quote: str
    doc_id: str
    status: Status
    source: SourceRef
    current: Optional[Current]
    current_text: Optional[str]


class _CurrentRequired(TypedDict):
    revision: int
    start: int
    end: int
    chunk_id: Optional[str]
    score: float
    method: Method
    reason: Optional[str]


class Current(_CurrentRequired, total=False):
    """Where a citation is now: revision, span, the chunk holding it (``caller_id``: your id of
    it, present only for a chunk you made), score, method, reason."""

    caller_id: str


class LastKnown(TypedDict):
    """Where a lost citation's text was last known, and why it is lost."""

    revision: int
    start: int
    end: int
    reason: Optional[str]


class _ExportLineRequired(TypedDict):
    id: str
    doc_id: str
    revision: int
    chunk_id: str
    content_hash: str
    normaliser: str
    start: int
    end: int
    quote: str
    status: Status
    current: Optional[Current]


class ExportLine(_ExportLineRequired, total=False):
    """One line of ``export``: the citation as made, its status, where it is now, and for a
    lost one only, ``last_known``."""

    last_known: LastKnown


class CitationLine(TypedDict):
    """One line of ``list`` (``citations()``): ``id`` and ``current``, then the state under its
    older names (``found_*``: the last span where the text was found, also for lost)."""

    id: str
    current: Optional[Current]
    row: int
    citation_id: str
    doc_id: str
    quote: str
    cited_text: str
    status: Status
    revision: int
    found_revision: int
    found_start: int
    found_end: int
    found_chunk_id: str
    score: float
    method: Method
    reason: Optional[str]


# W3C Web Annotations -------------------------------------------------------------------------
# Keys such as ``type``, ``@context`` and ``citestore:status`` are declared in the functional form.


class TextualBody(TypedDict):
    """An annotation's body: the claim as plain text."""

    type: Literal["TextualBody"]
    value: str
    format: Literal["text/plain"]
    purpose: Literal["describing"]


_TimeStateKeys = TypedDict(
    "_TimeStateKeys",
    {"type": Literal["TimeState"], "sourceDate": str, "citestore:revision": int},
)


class TimeState(_TimeStateKeys):
    """The revision an annotation's selectors describe, and when it was stored."""


class TextQuoteSelector(TypedDict):
    """The revision's text at the anchor, with the text right before and after it."""

    type: Literal["TextQuoteSelector"]
    exact: str
    prefix: str
    suffix: str


class _TextPositionRequired(TypedDict):
    type: Literal["TextPositionSelector"]
    start: int
    end: int


_TextPositionUtf16 = TypedDict(
    "_TextPositionUtf16",
    {"citestore:utf16Start": int, "citestore:utf16End": int},
    total=False,
)


class TextPositionSelector(_TextPositionRequired, _TextPositionUtf16):
    """The anchor in code points, and with ``utf16`` in UTF-16 code units too."""


Selector = Union[TextQuoteSelector, TextPositionSelector]
_doc(Selector, "A W3C selector, told apart by ``type``.")


class AnnotationTarget(TypedDict):
    """An annotation's target: the document id, the revision, and the selectors."""

    source: str
    state: TimeState
    selector: List[Selector]


_W3CAnnotationKeys = TypedDict(
    "_W3CAnnotationKeys",
    {
        "@context": List[Union[str, Dict[str, str]]],
        "id": str,
        "type": Literal["Annotation"],
        "body": TextualBody,
        "target": AnnotationTarget,
        "citestore:status": Status,
    },
)

_W3CAnnotationLost = TypedDict("_W3CAnnotationLost", {"citestore:lost": str}, total=False)


class W3CAnnotation(_W3CAnnotationKeys, _W3CAnnotationLost):
    """One citation as a W3C Web Annotation (``export(format="w3c")``); ``citestore:lost`` only
    for a lost citation, whose selectors are its last known place."""


# show ----------------------------------------------------------------------------------------


class StoredCitation(TypedDict):
    """A citation as stored: claim, quote, the SourceRef it was made with, the text there and
    around it, and its citing verdict."""

    row: int
    citation_id: str
    claim: str
    claim_row: int
    doc_id: str
    revision: int
    chunk_id: str
    content_hash: str
    normaliser: str
    start: int
    end: int
    quote: str
    span_text: str
    prefix: str
    suffix: str
    verdict: Verdict


class AnchorRow(TypedDict):
    """One anchor a sweep wrote for a citation (for lost, the last known span, in
    ``from_revision``)."""

    sweep: int
    revision: int
    status: Status
    start: int
    end: int
    from_revision: int
    chunk_id: Optional[str]
    score: float
    method: Method
    reason: Optional[str]
    created_at: str


class VerificationRow(TypedDict):
    """One verification of a claim: the judge, what it said, the verdict and why."""

    judge: str
    relation: Optional[Relation]
    confidence: Optional[float]
    verdict: ClaimVerdict
    reason: Optional[str]
    created_at: str


class _ShowResultRequired(TypedDict):
    id: str
    citation: StoredCitation
    status: Status
    current: Optional[Current]
    current_text: Optional[str]
    changes: Optional[str]
    history: List[AnchorRow]
    verifications: List[VerificationRow]
    report_anchor: str


class ShowResult(_ShowResultRequired, total=False):
    """``show``: one citation, where it is now, its history and verifications; ``api_location``
    only for a citation imported from an API response."""

    api_location: ApiLocation


# changes, report -----------------------------------------------------------------------------


class ChangeEnd(TypedDict):
    """A citation's status and span before or after a range of sweeps."""

    status: Status
    revision: int
    start: int
    end: int


class Change(TypedDict):
    """One citation whose status or span a range of sweeps changed."""

    id: str
    row: int
    citation_id: str
    doc_id: str
    claim: str
    quote: str
    cited_text: str
    before: ChangeEnd
    after: ChangeEnd
    sweep: int
    score: float
    method: Method
    reason: Optional[str]


class ChangesResult(TypedDict):
    """``changes``: the sweeps looked at, the citations changed, and those only carried to a
    new revision."""

    from_sweep: int
    to_sweep: int
    changes: List[Change]
    revision_only: List[Change]


class ReportResult(TypedDict):
    """``report``: the page written, its size, and what it covers."""

    out: str
    bytes: int
    sweeps: List[int]
    changed: int
    included: int
    omitted: int
    status: StatusCounts
    documents: int


# sweep, health -------------------------------------------------------------------------------


class SweptDocument(TypedDict):
    """What a sweep did to one document (``errors`` lists those that failed, with ``error``)."""

    doc_id: str
    outcome: DocumentOutcome
    extracted: bool
    reanchored: int
    unchanged_citations: int
    anchors_written: int
    changed_citations: int
    carried_citations: int
    reanchored_status: StatusCounts
    method: MethodCounts
    error: Optional[str]


class _SweepSummaryRequired(TypedDict):
    sweep: int
    documents: int
    re_extracted: int
    rechunked: int
    reanchored_documents: int
    unchanged_documents: int
    sources_missing: List[str]
    retired: int
    errors: List[SweptDocument]
    extractions: int
    citations_reanchored: int
    citations_unchanged: int
    anchors_written: int
    citations_changed: int
    citations_carried: int
    status: StatusCounts
    reanchored_status: StatusCounts
    method: MethodCounts
    seconds: float
    prepare_seconds: float
    anchor_seconds: float


class SweepSummary(_SweepSummaryRequired, total=False):
    """``sweep``: what the sweep did to documents and citations; ``shard`` (``"I/N"``) and
    ``run`` only for a shard sweep; ``full_check_seconds`` only when it read every page of the
    store first."""

    shard: str
    run: str
    full_check_seconds: float


class _TrendRowRequired(TypedDict):
    id: int
    started_at: str
    finished_at: Optional[str]
    planned: Optional[int]
    documents: int
    re_extracted: int
    rechunked: int
    reanchored: int
    unchanged: int
    missing: int
    retired: int
    failed: int
    extractions: int
    changed: int
    citations: int
    citations_changed: int
    citations_carried: int
    intact: int
    moved: int
    degraded: int
    lost: int
    seconds: Optional[float]


class TrendRow(_TrendRowRequired, total=False):
    """One sweep of ``health``'s trend (its row's counters); ``run`` and ``shard`` only for a
    shard sweep."""

    run: str
    shard: str


class ShardedRun(TypedDict):
    """The shard sweeps of one run, as one event: ``latest`` is ``(shard, sweep id)`` per
    shard, ``totals`` their counters summed."""

    run: str
    shards: int
    finished: int
    latest: List[Tuple[int, int]]
    sweeps: List[int]
    finished_at: Optional[str]
    totals: TrendRow


class DocumentHealth(TypedDict):
    """One document's citations by status."""

    doc_id: str
    status: StatusCounts


class RetiredHealth(TypedDict):
    """Retired documents, and how many citations they hold."""

    documents: List[str]
    citations: int


class _HealthResultRequired(TypedDict):
    status: StatusCounts
    retired: RetiredHealth
    missing: List[str]
    trend: List[TrendRow]
    documents: List[DocumentHealth]
    verification: VerificationCounts


class HealthResult(_HealthResultRequired, total=False):
    """``health``: counts by status, retired and missing documents, the last sweeps (newest
    first), the worst documents, claims by verdict; ``runs`` only when sweeps were sharded."""

    runs: List[ShardedRun]


# verify, calibrate ---------------------------------------------------------------------------


class JudgeRequest(TypedDict):
    """What a judge callable is given: the claim, the premise (spans marked ``⟦…⟧``), the
    spans' texts."""

    claim: str
    premise: str
    spans: List[str]


class Judgement(TypedDict):
    """What a judge callable returns: the relation, and its confidence from 0 to 1."""

    relation: Relation
    confidence: float


class LabelledExample(TypedDict):
    """One labelled example for calibration: a claim, a premise, and what a person said."""

    claim: str
    premise: str
    label: Relation


class VerifiedClaim(TypedDict):
    """One claim of ``verify``: its verdict, what the judge said, the citation ids read."""

    text: str
    verdict: ClaimVerdict
    relation: Optional[Relation]
    confidence: Optional[float]
    citations: List[str]
    reason: Optional[str]


class VerifyResult(TypedDict):
    """``verify``: the judge, each claim's verdict, and counts."""

    judge: str
    claims: List[VerifiedClaim]
    summary: VerifySummary


class CalibrationRow(TypedDict):
    """At one accept threshold: the share decided, the share sent to review, agreement."""

    threshold: float
    decided: float
    review_rate: float
    agreement: float


class CalibrationResult(TypedDict):
    """``calibrate``: examples judged, judge failures, and each threshold's figures."""

    examples: int
    judge_failures: int
    thresholds: List[CalibrationRow]
