"""Chunks made by LangChain's RecursiveCharacterTextSplitter(add_start_index=True), stored as
they are and cited against, with the splitter's offsets (Python str indices) as the spans."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest
from conftest import ROOT
from langchain_core.documents import Document
from langchain_text_splitters import RecursiveCharacterTextSplitter

import citestore

# Real text, plus characters whose UTF-8 and UTF-16 lengths differ from one str index.
TEXT = (ROOT / "fixtures" / "corpus" / "001_6c4cdf5166de66e1.txt").read_text(encoding="utf-8")
TEXT = TEXT.replace("citations", "citations ✅ (naïve 𝔼)", 3)


def split(text: str) -> List[Document]:
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=400, chunk_overlap=80, add_start_index=True
    )
    documents = splitter.create_documents([text])
    for n, doc in enumerate(documents):
        doc.id = f"vec-{n}"  # as a vector store would assign
    return documents


def test_langchain_chunks_are_stored_found_by_their_ids_and_cited(store: citestore.Store) -> None:
    documents = split(TEXT)
    chunks = citestore.chunks_from_langchain(documents, text=TEXT)
    assert len(chunks) == len(documents) > 40
    assert chunks[1] == {
        "start": documents[1].metadata["start_index"],
        "end": documents[1].metadata["start_index"] + len(documents[1].page_content),
        "text": documents[1].page_content,
        "id": "vec-1",
    }
    rev = store.ingest_text("guide.md", TEXT, chunks=chunks)
    assert rev["chunking"] == {"spec": "caller", "chunks": len(chunks), "created": True}

    # The retriever returned these vector ids; the model sees those chunks.
    retrieved = [documents[7], documents[3], documents[20]]
    ctx = store.context(chunks=[d.id for d in retrieved])
    assert [c["caller_id"] for c in ctx.chunks] == ["vec-7", "vec-3", "vec-20"]
    assert [c["text"] for c in ctx.chunks] == [d.page_content for d in retrieved]

    # The model quotes a sentence of each (one with its typography changed).
    answer: Dict[str, List[Dict[str, Any]]] = {"claims": []}
    for chunk, doc in zip(ctx.chunks, retrieved):
        quote = doc.page_content[40:140].strip()
        answer["claims"].append(
            {"text": "claim", "evidence": [{"chunk_id": chunk["label"], "quote": quote}]}
        )
    result = store.cite(ctx, answer)
    for claim, doc in zip(result.claims, retrieved):
        ev = claim["evidence"][0]
        assert ev["verdict"] == "exact"
        start = doc.metadata["start_index"] + doc.page_content.index(ev["quote"])
        assert (ev["start"], ev["end"]) == (start, start + len(ev["quote"]))
        assert TEXT[ev["start"] : ev["end"]] == ev["text"] == ev["quote"]


def test_ids_are_optional_and_full_chunk_ids_work_too(store: citestore.Store) -> None:
    documents = RecursiveCharacterTextSplitter(
        chunk_size=300, chunk_overlap=0, add_start_index=True
    ).create_documents([TEXT])
    chunks = citestore.chunks_from_langchain(documents)
    assert all("id" not in c for c in chunks)
    store.ingest_text("guide.md", TEXT, chunks=chunks)
    ctx = store.context(docs=["guide.md"])
    assert [(c["start"], c["end"]) for c in ctx.chunks] == [(c["start"], c["end"]) for c in chunks]
    assert all(c["caller_id"] is None for c in ctx.chunks)
    again = store.context(chunks=[ctx.chunks[2]["chunk_id"]])
    assert again.chunks[0]["text"] == documents[2].page_content


def test_offsets_from_another_text_are_refused(store: citestore.Store) -> None:
    documents = split(TEXT)
    with pytest.raises(citestore.BadInput, match=r"chunks\[0\]: its text differs from text\[0:"):
        citestore.chunks_from_langchain(documents, text="x" + TEXT)
    chunks = citestore.chunks_from_langchain(documents)
    with pytest.raises(
        citestore.BadInput, match=r"chunks\[0\]: its text differs from guide.md's text"
    ):
        store.ingest_text("guide.md", "x" + TEXT, chunks=chunks)
    with pytest.raises(citestore.UnknownDocument):
        store.context(docs=["guide.md"])  # nothing was stored


def test_documents_without_start_index_are_refused() -> None:
    documents = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=0).create_documents(
        [TEXT]
    )
    with pytest.raises(citestore.BadInput, match=r"add_start_index=True"):
        citestore.chunks_from_langchain(documents)


def test_a_file_with_caller_chunks(store: citestore.Store, tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(TEXT, encoding="utf-8")
    chunks = citestore.chunks_from_langchain(split(TEXT), text=TEXT)
    report = store.ingest(path, doc_id="guide.md", chunks=chunks)
    chunking = report["documents"][0]["chunking"]
    assert chunking is not None and chunking["spec"] == "caller"
    ctx = store.context(chunks=["vec-5"])
    assert ctx.chunks[0]["doc_id"] == "guide.md"
