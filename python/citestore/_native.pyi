"""Type stubs of the native module (Rust, PyO3). Use the ``citestore`` package, not this."""

from os import PathLike
from typing import Any, Dict, List, Optional, Tuple, Union

from ._types import (
    CalibrationResult,
    ChangesResult,
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
    accept: float = 95.0,
    review: float = 85.0,
    meaning_guard: bool = True,
) -> Optional[LocateResult]:
    """Finds ``quote`` in ``chunk``: exactly, then after folding typography, then by fuzzy
    alignment. Returns ``{"start", "end", "score", "how", "occurrences", "text"}`` (plus
    ``"reason"`` for a review) as ``citestore locate --json``, or ``None`` when the quote has no
    span. Offsets are ``str`` indices into ``chunk``. Raises :class:`citestore.BadInput` for an
    empty or blank quote, or cut-offs that are not scores from 0 to 100 with review <= accept."""

def cli_main(argv: List[str]) -> int: ...

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
    ) -> IngestReport: ...
    def context(self, docs: List[str], chunks: List[str]) -> Tuple[ContextResult, str]: ...
    def cite(self, context_id: str, answer_json: str) -> CiteOutput: ...
    def import_anthropic(
        self, context_id: str, response_json: str, sent: str = "chunks"
    ) -> CiteOutput: ...
    def sweep(
        self, docs: List[str], chunker: Optional[str] = None, no_extract: bool = False
    ) -> SweepSummary: ...
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
        scope: str,
        ids: List[str],
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
