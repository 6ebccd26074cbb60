"""Chunks as the RAG frameworks make them: LangChain ``Document``s, LlamaIndex nodes, Haystack
``Document``s, or plain dicts, read by duck typing (no framework is imported).

Every converter gives citestore's :class:`CallerChunk` (``start``/``end`` in ``str`` indices of
the document's text, the framework's own id as ``id``, the chunk's text as ``text`` so the
store checks it against the span) and names the offending input in its error.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Mapping, Optional, Tuple, cast

from ._types import CallerChunk
from .errors import BadInput

__all__ = ["caller_chunks", "chunk_ref"]

_CHUNK_KEYS = ("start", "end", "id", "text")


def _llamaindex_node(obj: Any) -> Any:
    """The node inside a LlamaIndex ``NodeWithScore``, else ``obj`` itself."""
    inner = getattr(obj, "node", None)
    if inner is not None and hasattr(inner, "node_id"):
        return inner
    return obj


def _is_llamaindex(obj: Any) -> bool:
    return hasattr(obj, "node_id") and hasattr(obj, "start_char_idx")


def _is_haystack(obj: Any) -> bool:
    return hasattr(obj, "content") and isinstance(getattr(obj, "meta", None), Mapping)


def _is_langchain(obj: Any) -> bool:
    return hasattr(obj, "page_content") and isinstance(getattr(obj, "metadata", None), Mapping)


def _index(value: Any, what: str, name: str, hint: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadInput(f"{what}: {name} is {value!r}; {hint}")
    return value


def _from_llamaindex(node: Any, what: str) -> CallerChunk:
    hint = "give nodes from a node parser (e.g. SentenceSplitter), which sets character offsets"
    start = _index(node.start_char_idx, what, "start_char_idx", hint)
    end = _index(node.end_char_idx, what, "end_char_idx", hint)
    chunk: CallerChunk = {"start": start, "end": end, "id": str(node.node_id)}
    text = getattr(node, "text", None)
    if isinstance(text, str):
        # Checked against the span at ingest: offsets that do not point at the node's text
        # are refused, never stored.
        chunk["text"] = text
    return chunk


def _from_split(content: Any, start: int, doc_id: Any, what: str, kind: str) -> CallerChunk:
    """A split Document's chunk: its text from ``start``, under its id when it has one."""
    if not isinstance(content, str):
        raise BadInput(f"{what}: a {kind} Document with no text content")
    chunk: CallerChunk = {"start": start, "end": start + len(content), "text": content}
    if doc_id is not None:
        chunk["id"] = str(doc_id)
    return chunk


def _from_haystack(doc: Any, what: str) -> CallerChunk:
    start = _index(
        doc.meta.get("split_idx_start"),
        what,
        'meta["split_idx_start"]',
        "give Documents from DocumentSplitter, which records where each split starts",
    )
    return _from_split(doc.content, start, doc.id, what, "Haystack")


def _from_langchain(doc: Any, what: str) -> CallerChunk:
    start = _index(
        doc.metadata.get("start_index"),
        what,
        "metadata['start_index']",
        "split with RecursiveCharacterTextSplitter(add_start_index=True)",
    )
    return _from_split(doc.page_content, start, getattr(doc, "id", None), what, "LangChain")


def _from_mapping(chunk: Mapping[str, Any]) -> CallerChunk:
    plain = {k: chunk[k] for k in _CHUNK_KEYS if k in chunk and chunk[k] is not None}
    return plain  # type: ignore[return-value]  # checked field by field by the store


def caller_chunk(obj: Any, what: str) -> CallerChunk:
    """One chunk for :meth:`Store.ingest_text`, from whichever framework made it."""
    if isinstance(obj, Mapping):
        return _from_mapping(cast(Mapping[str, Any], obj))
    node = _llamaindex_node(obj)
    if _is_llamaindex(node):
        return _from_llamaindex(node, what)
    if _is_langchain(obj):
        return _from_langchain(obj, what)
    if _is_haystack(obj):
        return _from_haystack(obj, what)
    raise BadInput(
        f"{what}: a {type(obj).__name__}; give dicts {{'start', 'end', 'id'}}, LangChain "
        "Documents, LlamaIndex nodes or Haystack Documents"
    )


def caller_chunks(chunks: Iterable[Any], text: Optional[str] = None) -> List[CallerChunk]:
    """Your chunks of a text as citestore takes them: dicts ``{"start", "end", "id"?,
    "text"?}``, LangChain ``Document``s split with ``add_start_index=True``, LlamaIndex
    ``TextNode``/``BaseNode``/``NodeWithScore`` (``node_id``, ``start_char_idx``,
    ``end_char_idx``), or Haystack ``Document``s from ``DocumentSplitter`` (``id``,
    ``meta["split_idx_start"]``), mixed as you like. With ``text``, each chunk's own text is
    checked against ``text[start:end]`` here."""
    out: List[CallerChunk] = []
    for i, obj in enumerate(chunks):
        what = f"chunks[{i}]"
        chunk = caller_chunk(obj, what)
        given = chunk.get("text")
        if text is not None and given is not None:
            start, end = chunk["start"], chunk["end"]
            if text[start:end] != given:
                raise BadInput(
                    f"{what}: its text differs from text[{start}:{end}]; give chunks of this text"
                )
        out.append(chunk)
    return out


def chunk_ref(obj: Any, what: str) -> str:
    """The id :meth:`Store.context` looks a chunk up by: a string as it is (citestore's chunk
    id or your own), a dict's ``"id"`` (else ``"chunk_id"``), a LlamaIndex node's ``node_id``,
    a LangChain or Haystack Document's ``id``."""
    if isinstance(obj, str):
        return obj
    if isinstance(obj, Mapping):
        fields = cast(Mapping[str, Any], obj)
        for key in ("id", "chunk_id", "caller_id"):
            value = fields.get(key)
            if isinstance(value, str):
                return value
        raise BadInput(f"{what}: a dict without an 'id' or 'chunk_id'")
    node = _llamaindex_node(obj)
    for attr in ("node_id", "id"):
        value = getattr(node, attr, None)
        if isinstance(value, str) and value:
            return value
    raise BadInput(
        f"{what}: a {type(obj).__name__} without an id; give chunk ids, or the LangChain, "
        "LlamaIndex or Haystack objects you ingested as chunks"
    )


def chunk_refs(chunks: Iterable[Any]) -> Tuple[str, ...]:
    """:func:`chunk_ref` of each, named ``chunks[i]`` in errors."""
    return tuple(chunk_ref(obj, f"chunks[{i}]") for i, obj in enumerate(chunks))
