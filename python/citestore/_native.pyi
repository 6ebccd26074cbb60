"""Type stubs of the native module (Rust, PyO3). Use the ``citestore`` package, not this."""

from os import PathLike
from typing import Any, Dict, List, Optional, Tuple, Union

from ._types import IngestResult, LocateResult

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

class Store:
    def __new__(
        cls, path: Union[str, PathLike[str]], config: Optional[Union[str, PathLike[str]]] = None
    ) -> Store: ...
    @property
    def path(self) -> str: ...
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
    ) -> Dict[str, Any]: ...
    def context(
        self, docs: List[str], chunks: List[str]
    ) -> Tuple[Dict[str, Any], str]: ...
    def cite(self, context_id: str, answer_json: str) -> Dict[str, Any]: ...
    def import_anthropic(
        self, context_id: str, response_json: str, sent: str = "chunks"
    ) -> Dict[str, Any]: ...
    def sweep(
        self, docs: List[str], chunker: Optional[str] = None, no_extract: bool = False
    ) -> Dict[str, Any]: ...
    def health(self, by_doc: bool = False, sweeps: int = 10) -> Dict[str, Any]: ...
    def changes(self, since: Optional[str] = None) -> Dict[str, Any]: ...
    def citations(self, statuses: List[str], doc: Optional[str] = None) -> List[Dict[str, Any]]: ...
    def docs(self) -> List[Dict[str, Any]]: ...
    def export(self) -> List[Dict[str, Any]]: ...
