"""The frameworks' own chunk types, end to end: LlamaIndex nodes from SentenceSplitter and
Haystack Documents from DocumentSplitter are ingested as they are, retrieved objects make the
context, the model's quotes are cited, a new revision is split and ingested again, and the
sweep re-anchors every citation. The frameworks' ids stay beside citestore's throughout."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from conftest import ROOT
from haystack import Document as HaystackDocument
from haystack.components.preprocessors import DocumentSplitter
from llama_index.core import Document as LlamaDocument
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import NodeWithScore

import citestore

# Real text, with characters whose UTF-8 and UTF-16 lengths differ from one str index.
TEXT = (ROOT / "fixtures" / "corpus" / "001_6c4cdf5166de66e1.txt").read_text(encoding="utf-8")
TEXT = TEXT.replace("citations", "citations ✅ (naïve 𝔼)", 3)
# The next release: a paragraph added at the top, everything after it moves.
REVISED = "A new opening paragraph, added in the next release of these docs.\n\n" + TEXT


def answer_quoting(ctx: citestore.Context, texts: Sequence[str]) -> Dict[str, Any]:
    """An emit_answer input quoting a sentence-sized piece of each retrieved chunk."""
    claims: List[Dict[str, Any]] = []
    for chunk, text in zip(ctx.chunks, texts):
        quote = text[20:110].strip()
        claims.append({"text": "claim", "evidence": [{"chunk_id": chunk["label"], "quote": quote}]})
    return {"claims": claims}


def llama_nodes(text: str) -> List[Any]:
    document = LlamaDocument(text=text, id_="guide.md")
    return SentenceSplitter(chunk_size=120, chunk_overlap=20).get_nodes_from_documents([document])


def test_a_llamaindex_flow(store: citestore.Store) -> None:
    nodes = llama_nodes(TEXT)
    assert len(nodes) > 20
    rev = store.ingest_text("guide.md", TEXT, chunks=nodes)
    assert rev["chunking"] == {"spec": "caller", "chunks": len(nodes), "created": True}
    held = store.chunks("guide.md")["chunks"]
    assert [c["caller_id"] for c in held] == [n.node_id for n in nodes]
    assert [(c["start"], c["end"]) for c in held] == [
        (n.start_char_idx, n.end_char_idx) for n in nodes
    ]

    # The retriever hands back scored nodes; they are the context as they are.
    retrieved = [NodeWithScore(node=nodes[i], score=0.9 - i / 100) for i in (9, 2, 15)]
    ctx = store.context(chunks=retrieved)
    assert [c["caller_id"] for c in ctx.chunks] == [r.node.node_id for r in retrieved]
    result = store.cite(ctx, answer_quoting(ctx, [r.node.get_content() for r in retrieved]))
    evidence = [claim["evidence"][0] for claim in result.claims]
    assert [ev["verdict"] for ev in evidence] == ["exact"] * 3
    assert [ev["caller_id"] for ev in evidence] == [r.node.node_id for r in retrieved]
    for ev in evidence:
        assert TEXT[ev["start"] : ev["end"]] == ev["quote"]

    # The next release, split again: new node ids, every citation moved with its text.
    new_nodes = llama_nodes(REVISED)
    store.ingest_text("guide.md", REVISED, chunks=new_nodes)
    summary = store.sweep()
    assert summary["status"] == {"moved": 3}
    for ev in evidence:
        assert ev["citation"] is not None
        citation = store.citation(ev["citation"])
        current = citation["current"]
        assert current is not None and current["revision"] == 2
        assert REVISED[current["start"] : current["end"]] == ev["quote"]
    holders = {line["current"]["chunk_id"] for line in store.citations() if line["current"]}
    # Keyed by Optional[str], as holders are: a citation held by no chunk is a KeyError.
    by_chunk: Dict[Optional[str], Optional[str]] = {
        c["chunk_id"]: c["caller_id"] for c in store.chunks("guide.md")["chunks"]
    }
    assert {by_chunk[h] for h in holders} <= {n.node_id for n in new_nodes}


def haystack_splits(text: str) -> List[Any]:
    splitter = DocumentSplitter(split_by="word", split_length=40, split_overlap=8)
    return list(splitter.run(documents=[HaystackDocument(content=text)])["documents"])


def test_a_haystack_flow(store: citestore.Store) -> None:
    splits = haystack_splits(TEXT)
    assert len(splits) > 20
    store.ingest_text("guide.md", TEXT, chunks=splits)
    retrieved = [splits[4], splits[11]]
    ctx = store.context(chunks=retrieved)
    assert [c["caller_id"] for c in ctx.chunks] == [d.id for d in retrieved]
    assert [c["text"] for c in ctx.chunks] == [d.content for d in retrieved]
    result = store.cite(ctx, answer_quoting(ctx, [d.content for d in retrieved]))
    evidence = [claim["evidence"][0] for claim in result.claims]
    assert [ev["verdict"] for ev in evidence] == ["exact", "exact"]
    assert [ev["caller_id"] for ev in evidence] == [d.id for d in retrieved]

    store.ingest_text("guide.md", REVISED, chunks=haystack_splits(REVISED))
    assert store.sweep()["status"] == {"moved": 2}
    for ev in evidence:
        assert ev["citation"] is not None
        citation = store.citation(ev["citation"])
        assert citation["current_text"] == ev["quote"]


def test_mixed_and_plain_chunks_and_what_is_refused(store: citestore.Store) -> None:
    nodes = llama_nodes(TEXT)
    plain = [{"start": n.start_char_idx, "end": n.end_char_idx, "id": n.node_id} for n in nodes]
    assert citestore.caller_chunks(plain, TEXT) == [
        {"start": n.start_char_idx, "end": n.end_char_idx, "id": n.node_id} for n in nodes
    ]
    shifted = llama_nodes("x" + TEXT)
    try:
        store.ingest_text("guide.md", TEXT, chunks=shifted)
    except citestore.BadInput as err:
        assert "chunks[0]" in str(err) and "differs" in str(err)
    else:
        raise AssertionError("nodes of another text were stored")
    assert store.docs() == []
    unsplit = HaystackDocument(content="no split offsets here")
    try:
        store.ingest_text("guide.md", TEXT, chunks=[unsplit])
    except citestore.BadInput as err:
        assert "split_idx_start" in str(err) and "DocumentSplitter" in str(err)
    else:
        raise AssertionError("a Document without offsets was stored")
