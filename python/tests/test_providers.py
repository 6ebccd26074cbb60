"""``Store.import_response(format, ...)`` (issue 28): every provider response of
fixtures/providers/ imported through the package, with the outcome its README gives (answer
spans in ``str`` indices, verdicts, doc spans, ``review`` with a proposal for every source
named without a quote, web sources kept as external citations with their URL); the same
results and citation ids as ``citestore import FORMAT --json`` (the real binary); one import
however the response is held (a dict, JSON text or bytes, an SDK's pydantic object); and a
malformed response refused naming its JSON path, with nothing stored.

The documents are ingested as the README says (``paragraph:2000``: one chunk per document)."""

from __future__ import annotations

import copy
import enum
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

import pytest
from conftest import ROOT, Cli
from openai.types.responses import Response
from pydantic import BaseModel, ConfigDict

import citestore

PROVIDERS = ROOT / "fixtures" / "providers"
DOCS = PROVIDERS / "docs"
CHUNKER = "paragraph:2000"

# The README's contexts: the documents given to `citestore context --doc`, in order.
CONTEXTS: Dict[str, List[str]] = {
    "P3": ["tall-penguins.txt", "penguin-habitats.txt", "animals.txt"],
    "B": ["benefits.txt"],
    "AI": ["ai.txt"],
    "C": ["cheetah.txt"],
    "K": ["kaiserpinguin.txt", "kotei-pengin.txt"],
}


@dataclass(frozen=True)
class Exact:
    """A quote located exactly at ``[start, end)`` of the document."""

    doc: str
    start: int
    end: int


@dataclass(frozen=True)
class Review:
    """A source named without a quote: chunk-level evidence on the document, ``review``."""

    doc: str


@dataclass(frozen=True)
class External:
    """A web source: never located, its URL kept (``url`` a prefix when ``exact`` is false)."""

    kind: str
    url: str
    exact: bool = True


@dataclass(frozen=True)
class Claim:
    """A claim at ``[start, end)`` of the answer (code points), its text when the README gives
    it, its evidence and its external citations, in order."""

    start: int
    end: int
    text: Optional[str]
    evidence: Tuple[Union[Exact, Review], ...] = ()
    external: Tuple[External, ...] = ()


VERTEX = External("web", "https://vertexaisearch.cloud.google.com.....")
AXIOS = External("url_citation", "https://www.axios.com/local/san-francisco/2025/03/", exact=False)
TALL, HABITATS = "tall-penguins.txt", "penguin-habitats.txt"
PENGUINS = "Emperor penguins are the tallest penguins, and they only live in Antarctica."

# fixtures/providers/README.md, file by file: the context, then each claim.
EXPECTED: Dict[str, Tuple[str, List[Claim]]] = {
    "cohere/recorded-benefits.json": (
        "B",
        [
            Claim(52, 71, "Automation of tasks", (Review("benefits.txt"),)),
            Claim(75, 97, "Better decision-making", (Review("benefits.txt"),)),
            Claim(101, 115, "Cost reduction", (Review("benefits.txt"),)),
        ],
    ),
    "cohere/docs-auto-ids.json": (
        "P3",
        [
            Claim(0, 16, "Emperor penguins", (Review(TALL),)),
            Claim(25, 42, "tallest penguins.", (Review(TALL),)),
            Claim(61, 72, "Antarctica.", (Review(HABITATS),)),
        ],
    ),
    "cohere/docs-user-ids.json": (
        "P3",
        [
            Claim(4, 41, "tallest penguins are Emperor penguins", (Review(TALL),)),
            Claim(52, 76, "only live in Antarctica.", (Review(HABITATS),)),
        ],
    ),
    "gemini/retrieval-multilingual.json": (
        "K",
        [
            Claim(0, 112, None, (Exact("kaiserpinguin.txt", 0, 89),)),
            Claim(
                113,
                155,
                "Sie leben ausschließlich in der Antarktis.",
                (Review("kaiserpinguin.txt"),),
            ),
            Claim(
                156,
                194,
                "日本語では「コウテイペンギン」と呼ばれ、現生のペンギンの中で最大の種である。",
                (Exact("kotei-pengin.txt", 35, 53),),
            ),
        ],
    ),
    "gemini/google-search-docs.json": (
        "P3",
        [
            Claim(0, 56, "Spain won Euro 2024, defeating England 2-1 in the final.", (), (VERTEX,)),
            Claim(
                57,
                126,
                "This victory marks Spain's record fourth European Championship title.",
                (),
                (VERTEX, VERTEX),
            ),
        ],
    ),
    "openai-responses/recorded-file-search.json": (
        "AI",
        [Claim(154, 349, None, (Exact("ai.txt", 0, 1928),))],
    ),
    "openai-responses/file-search-no-results.json": (
        "P3",
        [
            Claim(0, 42, "Emperor penguins are the tallest penguins.", (Review(TALL),)),
            Claim(43, 72, "They only live in Antarctica.", (Review(HABITATS),)),
        ],
    ),
    "openai-responses/file-search-with-results.json": (
        "P3",
        [
            Claim(0, 42, "Emperor penguins are the tallest penguins.", (Exact(TALL, 0, 33),)),
            Claim(43, 72, "They only live in Antarctica.", (Exact(HABITATS, 0, 41),)),
        ],
    ),
    "openai-responses/recorded-web-search.json": (
        "P3",
        [
            Claim(start, end, None, (), (AXIOS,))
            for start, end in [(486, 606), (912, 1035), (1346, 1472), (1884, 2023), (2404, 2540)]
        ],
    ),
    "langchain-quoted/recorded-quoted.json": (
        "C",
        [
            Claim(
                0,
                64,
                "Cheetahs are capable of running at 93 to 104 km/h (58 to 65 mph)",
                (Exact("cheetah.txt", 444, 618),),
            )
        ],
    ),
    "langchain-quoted/recorded-cited.json": ("C", [Claim(0, 95, None, (Review("cheetah.txt"),))]),
    "langchain-quoted/quoted-penguins.json": (
        "P3",
        [Claim(0, 76, PENGUINS, (Exact(TALL, 0, 33), Exact(HABITATS, 0, 41)))],
    ),
    "langchain-quoted/cited-penguins.json": (
        "P3",
        [Claim(0, 76, PENGUINS, (Review(TALL), Review(HABITATS)))],
    ),
}
# The same outcomes as their twins: the SDK's snake_case dump, the AI SDK's result with steps.
EXPECTED["gemini/retrieval-multilingual.snake.json"] = EXPECTED[
    "gemini/retrieval-multilingual.json"
]
EXPECTED["ai-sdk/generate-text.json"] = (
    "P3",
    [
        Claim(2, 44, "Emperor penguins are the tallest penguins.", (Review(TALL),)),
        Claim(48, 79, "They only live in Antarctica 🧊.", (Exact(HABITATS, 0, 41),)),
        Claim(
            80,
            121,
            "They breed during the Antarctic winter 🥚.",
            (),
            (External("url", "https://en.wikipedia.org/wiki/Emperor_penguin"),),
        ),
    ],
)
EXPECTED["ai-sdk/generate-text-steps.json"] = EXPECTED["ai-sdk/generate-text.json"]

FIXTURES = sorted(EXPECTED)


def fixture_format(name: str) -> citestore.ResponseFormat:
    """The format a fixture is in: its folder's name."""
    formats: Dict[str, citestore.ResponseFormat] = {
        "anthropic": "anthropic",
        "cohere": "cohere",
        "gemini": "gemini",
        "openai-responses": "openai-responses",
        "ai-sdk": "ai-sdk",
        "langchain-quoted": "langchain-quoted",
    }
    return formats[name.split("/")[0]]


def load(name: str) -> Any:
    return json.loads((PROVIDERS / name).read_text(encoding="utf-8"))


def doc_text(doc: str) -> str:
    return (DOCS / doc).read_text(encoding="utf-8")


def ingest(store: citestore.Store) -> None:
    store.ingest(DOCS, chunker=CHUNKER)


def context_of(store: citestore.Store, name: str) -> citestore.Context:
    return store.context(docs=CONTEXTS[EXPECTED[name][0]])


def ids(result: citestore.CiteResult) -> List[Optional[str]]:
    """Every evidence's citation id (a review of an unquoted source is stored too)."""
    return [ev["citation"] for claim in result.claims for ev in claim["evidence"]]


def test_every_fixture_has_its_expected_outcome() -> None:
    on_disk = sorted(
        str(p.relative_to(PROVIDERS)) for p in PROVIDERS.glob("*/*.json") if p.parent.name != "docs"
    )
    assert on_disk == FIXTURES


@pytest.mark.parametrize("name", FIXTURES)
def test_each_fixture_imports_as_its_readme_says(store: citestore.Store, name: str) -> None:
    ingest(store)
    result = store.import_response(fixture_format(name), context_of(store, name), load(name))
    claims = EXPECTED[name][1]
    assert not result.already_recorded
    answer = result.answer
    assert isinstance(answer, str)
    assert len(result.claims) == len(claims)
    summary: Dict[str, int] = {}
    for got, want in zip(result.claims, claims):
        assert got.get("answer_span") == {"start": want.start, "end": want.end}
        assert answer[want.start : want.end] == got["text"]
        if want.text is not None:
            assert got["text"] == want.text
        assert len(got["evidence"]) == len(want.evidence), got["evidence"]
        for ev, expected in zip(got["evidence"], want.evidence):
            assert ev["chunk_id"] is not None and ev["chunk_id"].startswith(f"{expected.doc}@r1#")
            assert ev["citation"] is not None
            text = doc_text(expected.doc)
            summary[ev["verdict"]] = summary.get(ev["verdict"], 0) + 1
            if isinstance(expected, Exact):
                assert ev["verdict"] == "exact"
                assert (ev["start"], ev["end"]) == (expected.start, expected.end)
                assert text[expected.start : expected.end] == ev["text"] == ev["quote"]
                assert "proposal" not in ev
            else:
                assert ev["quote"] == ""
                assert ev["verdict"] == "review"
                assert (ev["reason"] or "").startswith("the provider gave no quote"), ev
                proposal = ev.get("proposal")
                assert proposal is not None, "every unquoted source has a proposed sentence"
                assert text[proposal["start"] : proposal["end"]] == proposal["text"]
                assert proposal["text"].strip() and 0 <= proposal["score"] <= 100
                assert ev["start"] is not None and ev["end"] is not None
                assert ev["start"] <= proposal["start"] < proposal["end"] <= ev["end"]
        external = got.get("external", [])
        assert len(external) == len(want.external), external
        for ext, expected_ext in zip(external, want.external):
            assert ext["kind"] == expected_ext.kind
            url = ext["url"]
            assert url is not None
            if expected_ext.exact:
                assert url == expected_ext.url
            else:
                assert url.startswith(expected_ext.url) and url.endswith("?utm_source=chatgpt.com")
        if want.external:
            summary["external"] = summary.get("external", 0) + len(want.external)
        if not want.evidence:
            assert got["uncited"]
            summary["uncited"] = summary.get("uncited", 0) + 1
    assert dict(result.summary) == summary
    # Importing it again stores nothing new.
    stored = list(store.export())
    again = store.import_response(fixture_format(name), context_of(store, name), load(name))
    assert again.already_recorded and ids(again) == ids(result)
    assert list(store.export()) == stored


@pytest.mark.parametrize("name", FIXTURES)
def test_each_fixture_imports_as_the_cli_does(store: citestore.Store, cli: Cli, name: str) -> None:
    ingest(store)
    ctx = context_of(store, name)
    result = store.import_response(fixture_format(name), ctx, load(name))

    cli.run("ingest", str(DOCS), "--chunker", CHUNKER)
    docs = [arg for doc in CONTEXTS[EXPECTED[name][0]] for arg in ("--doc", doc)]
    assert cli.json("context", *docs, "--json")["context"] == ctx.id
    printed = cli.json(
        "import", fixture_format(name), str(PROVIDERS / name), "--context", ctx.id, "--json"
    )
    assert result.to_dict() == printed
    assert ids(result) == [ev["citation"] for c in printed["claims"] for ev in c["evidence"]]


def test_gemini_camel_case_and_the_sdks_snake_case_are_one_import(
    store: citestore.Store,
) -> None:
    ingest(store)
    ctx = context_of(store, "gemini/retrieval-multilingual.json")
    camel = store.import_response("gemini", ctx, load("gemini/retrieval-multilingual.json"))
    stored = list(store.export())
    snake = store.import_response("gemini", ctx, load("gemini/retrieval-multilingual.snake.json"))
    assert not camel.already_recorded and snake.already_recorded
    assert ids(snake) == ids(camel) and all(ids(camel))
    assert list(store.export()) == stored


# One import however it is held -----------------------------------------------------------------


class FinishReason(enum.Enum):
    """An enum as an SDK holds one: ``json.dumps`` cannot write it."""

    STOP = "STOP"


class GeminiCandidate(BaseModel):
    """A candidate in google-genai's snake_case, its finish reason an enum."""

    model_config = ConfigDict(extra="allow")
    finish_reason: Optional[FinishReason] = None


class GeminiResponse(BaseModel):
    """The part of google-genai's ``GenerateContentResponse`` that ``model_dump()`` cannot give
    ``json.dumps``: a datetime and enums (the rest kept as given)."""

    model_config = ConfigDict(extra="allow")
    candidates: List[GeminiCandidate]
    create_time: Optional[datetime] = None


def gemini_sdk_object() -> GeminiResponse:
    response = load("gemini/retrieval-multilingual.snake.json")
    response["create_time"] = "2026-01-02T03:04:05Z"
    made = GeminiResponse.model_validate(response)
    assert made.create_time == datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    assert made.candidates[0].finish_reason is FinishReason.STOP
    return made


def openai_sdk_object(name: str) -> Response:
    """The openai SDK's ``Response``. Its ``usage`` is left out: this SDK version requires
    ``usage.input_tokens_details.cache_write_tokens``, which the 2025 recordings predate, and
    the import reads only ``output``."""
    response = load(name)
    del response["usage"]
    return Response.model_validate(response)


def test_an_sdk_object_needs_model_dump_in_json_mode() -> None:
    """Why ``model_dump(mode="json")``: the plain dump holds values JSON cannot write."""
    with pytest.raises(TypeError):
        json.dumps(gemini_sdk_object().model_dump())


@pytest.mark.parametrize(
    "name",
    [
        "gemini/retrieval-multilingual.snake.json",
        "openai-responses/recorded-file-search.json",
        "openai-responses/recorded-web-search.json",
    ],
)
@pytest.mark.parametrize("sdk_first", [False, True], ids=["dict first", "SDK object first"])
def test_a_response_is_one_import_however_held(
    store: citestore.Store, name: str, sdk_first: bool
) -> None:
    ingest(store)
    ctx = context_of(store, name)
    plain = load(name)
    sdk: BaseModel = gemini_sdk_object() if name.startswith("gemini/") else openai_sdk_object(name)
    forms: List[Tuple[str, Any]] = [
        ("dict", plain),
        ("JSON text", json.dumps(plain, indent=2)),
        ("JSON bytes", json.dumps(plain).encode("utf-8")),
        ("SDK object", sdk),
        ("SDK object's model_dump_json()", sdk.model_dump_json()),
    ]
    if sdk_first:
        forms.reverse()
    (first_name, first), rest = forms[0], forms[1:]
    imported = store.import_response(fixture_format(name), ctx, first)
    assert not imported.already_recorded, first_name
    stored = list(store.export())
    assert len(stored) == len(ids(imported))
    for form_name, form in rest:
        again = store.import_response(fixture_format(name), ctx, form)
        assert again.already_recorded, f"{form_name}: the same response as the {first_name}"
        assert ids(again) == ids(imported), form_name
        assert again.to_dict() == {**imported.to_dict(), "already_recorded": True}, form_name
        assert list(store.export()) == stored, f"{form_name}: nothing new stored"


# Refused ---------------------------------------------------------------------------------------


def malformed_gemini() -> Any:
    response = load("gemini/retrieval-multilingual.json")
    supports = response["candidates"][0]["groundingMetadata"]["groundingSupports"]
    supports[1]["segment"]["endIndex"] = str(supports[1]["segment"]["endIndex"])
    return response


def malformed_cohere() -> Any:
    response = copy.deepcopy(load("cohere/docs-auto-ids.json"))
    # "penguins" occurs twice in the answer, and not at [30, 40).
    response["message"]["citations"][1].update(start=30, end=40, text="penguins")
    return response


@pytest.mark.parametrize(
    "name, malformed, path",
    [
        (
            "gemini/retrieval-multilingual.json",
            malformed_gemini,
            "response: candidates[0].groundingMetadata.groundingSupports[1].segment.endIndex: "
            '"165" is not an integer',
        ),
        (
            "cohere/docs-auto-ids.json",
            malformed_cohere,
            "response: message.citations[1].start: [30, 40) is not where the citation's text "
            '"penguins" stands in the answer',
        ),
    ],
)
def test_a_malformed_response_names_its_path_and_stores_nothing(
    store: citestore.Store, name: str, malformed: Any, path: str
) -> None:
    ingest(store)
    ctx = context_of(store, name)
    with pytest.raises(citestore.BadAnswer) as err:
        store.import_response(fixture_format(name), ctx, malformed())
    message = str(err.value)
    assert message.startswith(path) and message.endswith("nothing was stored"), message
    assert "\n" not in message
    assert list(store.export()) == []
    # The response as received is a first import: nothing of the malformed one was kept.
    assert not store.import_response(fixture_format(name), ctx, load(name)).already_recorded


def test_a_format_it_does_not_know_and_sent_for_another_format_are_bad_input(
    store: citestore.Store,
) -> None:
    ingest(store)
    ctx = context_of(store, "cohere/docs-auto-ids.json")
    response = load("cohere/docs-auto-ids.json")
    with pytest.raises(citestore.BadInput) as err:
        store.import_response("mistral", ctx, response)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert str(err.value) == (
        'format: unknown response format "mistral"; expected one of anthropic, cohere, '
        "gemini, openai-responses, ai-sdk, langchain-quoted"
    )
    with pytest.raises(citestore.BadInput, match=r"^sent=\"documents\" applies to anthropic"):
        store.import_response("cohere", ctx, response, sent="documents")
    with pytest.raises(citestore.UnknownContext):
        store.import_response("cohere", "ctx-000000000000", response)
    assert list(store.export()) == []


def test_import_anthropic_is_import_response_anthropic(store: citestore.Store) -> None:
    """The alias: the same import, so the second is already recorded with the same ids."""
    text = (ROOT / "fixtures" / "anthropic" / "docs" / "grass-and-sky.txt").read_text(
        encoding="utf-8"
    )
    store.ingest_text("grass-and-sky.txt", text, chunker=CHUNKER)
    ctx = store.context(docs=["grass-and-sky.txt"])
    response: Dict[str, Any] = {
        "content": [
            {
                "type": "text",
                "text": "the grass is green",
                "citations": [
                    {
                        "type": "char_location",
                        "cited_text": "The grass is green.",
                        "document_index": 0,
                        "start_char_index": 0,
                        "end_char_index": 20,
                    }
                ],
            }
        ]
    }
    first = store.import_anthropic(ctx, response, sent="documents")
    again = store.import_response("anthropic", ctx, response, sent="documents")
    assert not first.already_recorded and again.already_recorded
    assert ids(again) == ids(first) and all(ids(first))
    assert [ev["verdict"] for ev in first.citations] == ["exact"]


def test_the_fixture_folder_is_the_readmes(tmp_path: Path) -> None:
    """Each document is one chunk with paragraph:2000, as the README says."""
    store = citestore.Store(tmp_path / "chunks.db")
    ingest(store)
    for doc in {d for docs in CONTEXTS.values() for d in docs}:
        chunks = store.chunks(doc)["chunks"]
        assert len(chunks) == 1 and chunks[0]["text"] == doc_text(doc), doc
