"""Type stubs of the native module (Rust, PyO3). Use the ``citestore`` package, not this."""

from os import PathLike
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union, final

from ._types import (
    CalibrationResult,
    ChangesResult,
    CheckResult,
    ChunkResult,
    ChunksResult,
    CitationLine,
    CiteOutput,
    ContextResult,
    DocInfo,
    ExportLine,
    HealthResult,
    IngestReport,
    IngestResult,
    InitResult,
    LocateResult,
    MigrateResult,
    ReportResult,
    RetireResult,
    ShowResult,
    SweepSummary,
    VerifyResult,
    W3CAnnotation,
)

def library_version() -> str: ...
def schema(format: str) -> Dict[str, Any]: ...
def locate(
    chunk: str,
    quote: str,
    *,
    prefix: Optional[str] = None,
    suffix: Optional[str] = None,
    near: Optional[int] = None,
    accept: float = 95.0,
    review: float = 85.0,
    meaning_guard: bool = True,
) -> Optional[LocateResult]:
    """Finds ``quote`` in ``chunk``: exactly, then after folding typography, then by fuzzy
    alignment. Returns ``{"start", "end", "score", "how", "occurrences", "text"}`` (plus
    ``"reason"`` for a review, ``"hints"`` when the hints chose among occurrences) as
    ``citestore locate --json``, or ``None`` when the quote has no span. ``prefix``, ``suffix``
    and ``near`` are the CLI's ``--prefix``, ``--suffix`` and ``--near``. Offsets, ``near``
    too, are ``str`` indices into ``chunk``. Raises :class:`citestore.BadInput` for an empty or
    blank quote, a negative ``near``, or cut-offs that are not scores from 0 to 100 with review
    <= accept."""

def locate_many(
    pairs: Iterable[Union[Tuple[str, str], Mapping[str, Any]]],
    *,
    accept: float = 95.0,
    review: float = 85.0,
    meaning_guard: bool = True,
) -> List[Optional[LocateResult]]:
    """Locates every quote of ``pairs`` in its chunk and returns the results in order: what
    :func:`locate` returns for each (a dict, or ``None``). A pair is a ``(chunk, quote)`` tuple
    or a dict ``{"chunk", "quote"}`` with optional ``"prefix"``, ``"suffix"`` and ``"near"``
    (as :func:`locate` takes them). Consecutive pairs with the same chunk fold it once; a batch
    with much text works with the GIL released. Every pair is checked first: a blank quote, a
    negative ``near`` or a pair of another shape raises :class:`citestore.BadInput` naming its
    index (``pairs[3]: …``), and nothing is located."""

def cli_main(argv: List[str]) -> int: ...

__all__ = ["Store", "locate", "locate_many", "schema", "library_version", "cli_main"]

@final
class Store:
    def __new__(
        cls,
        path: Union[str, PathLike[str]],
        config: Optional[Union[str, PathLike[str]]] = None,
        read_only: bool = False,
        force: bool = False,
    ) -> Store: ...
    @property
    def path(self) -> str: ...
    @property
    def read_only(self) -> bool: ...
    def ingest_text(
        self,
        doc_id: str,
        text: str,
        chunker: Optional[str] = None,
        chunks_json: Optional[str] = None,
    ) -> IngestResult: ...
    def ingest(
        self,
        paths: List[str],
        doc_id: Optional[str] = None,
        chunker: Optional[str] = None,
        chunks_json: Optional[str] = None,
        extract: Optional[Tuple[str, str]] = None,
        extract_timeout: Optional[float] = None,
    ) -> IngestReport: ...
    def context(self, docs: List[str], chunks: List[str]) -> Tuple[ContextResult, str]: ...
    def cite(self, context_id: str, answer_json: str) -> CiteOutput: ...
    def import_response(
        self,
        format: str,
        context_id: str,
        response_json: str,
        sent: Optional[str] = None,
    ) -> CiteOutput: ...
    def sweep(
        self,
        docs: List[str],
        chunker: Optional[str] = None,
        no_extract: bool = False,
        shard: Optional[str] = None,
        run: Optional[str] = None,
        extract_timeout: Optional[float] = None,
        full_check: bool = False,
    ) -> SweepSummary: ...
    def check(self) -> CheckResult: ...
    def health(self, by_doc: bool = False, sweeps: int = 10) -> HealthResult: ...
    def changes(self, since: Optional[str] = None) -> ChangesResult: ...
    def citations(self, statuses: List[str], doc: Optional[str] = None) -> List[CitationLine]: ...
    def docs(self) -> List[DocInfo]: ...
    def export(self) -> List[ExportLine]: ...
    def export_w3c(self, utf16: bool = False) -> List[W3CAnnotation]: ...
    def init(self, force: bool = False) -> InitResult: ...
    def chunks(self, doc_id: str, revision: Optional[int] = None) -> ChunksResult: ...
    def chunk(self, chunker: str, docs: List[str]) -> ChunkResult: ...
    def show(self, citation: str) -> ShowResult: ...
    def retire(self, docs: List[str]) -> RetireResult: ...
    def report(
        self,
        out: str,
        sweep: Optional[int] = None,
        since: Optional[str] = None,
        statuses: List[str] = ...,
        docs: List[str] = ...,
        limit: int = 2000,
    ) -> ReportResult: ...
    def verify(
        self,
        context: Optional[str],
        all: bool,
        citations: List[str],
        judge: Optional[Any] = None,
        accept: Optional[float] = None,
        timeout: Optional[float] = None,
    ) -> VerifyResult: ...
    def calibrate(
        self,
        labels_jsonl: str,
        input: str,
        judge: Optional[Any] = None,
        timeout: Optional[float] = None,
    ) -> CalibrationResult: ...
    def migrate(self, to: str) -> MigrateResult: ...
