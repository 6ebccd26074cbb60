"""Idempotent imports (issue "Python in full", item 4): a response given as a dict, as its JSON
text, or as the SDK's own object (which the package turns into a dict with ``model_dump()``,
adding ``null`` for every unset optional field) is one answer. The first import stores its
citations; every other form is ``already_recorded``, stores nothing, and gives the same
citation ids. Built with the real SDKs, ``anthropic`` and ``openai``, as a user's code gets them.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Optional

import pytest
from anthropic.types import Message
from conftest import ROOT
from openai.types.chat import ChatCompletion, ChatCompletionMessageFunctionToolCall
from openai.types.responses import Response

import citestore

DOC = "grass-and-sky.txt"
TEXT = (ROOT / "fixtures" / "anthropic" / "docs" / DOC).read_text(encoding="utf-8")

# Anthropic's documented Citations API example, as a user writes it by hand: no nulls.
ANTHROPIC: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "text", "text": "According to the document, "},
        {
            "type": "text",
            "text": "the grass is green",
            "citations": [
                {
                    "type": "char_location",
                    "cited_text": "The grass is green.",
                    "document_index": 0,
                    "document_title": "Example Document",
                    "start_char_index": 0,
                    "end_char_index": 20,
                }
            ],
        },
        {"type": "text", "text": " and "},
        {
            "type": "text",
            "text": "the sky is blue",
            "citations": [
                {
                    "type": "char_location",
                    "cited_text": "The sky is blue.",
                    "document_index": 0,
                    "start_char_index": 20,
                    "end_char_index": 36,
                }
            ],
        },
        {"type": "text", "text": "."},
    ],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 610, "output_tokens": 40},
}


def forms(sdk_object: Any, plain: dict[str, Any]) -> list[tuple[str, Any]]:
    """The same response every way a caller may hold it."""
    return [
        ("dict", plain),
        ("JSON text", json.dumps(plain, indent=2)),
        ("SDK object", sdk_object),
        ("model_dump(exclude_none=True)", sdk_object.model_dump(exclude_none=True)),
        ("model_dump()", sdk_object.model_dump()),
        ("to_dict()", sdk_object.to_dict()),
        ("model_dump_json()", sdk_object.model_dump_json()),
    ]


def ids(result: citestore.CiteResult) -> list[Optional[str]]:
    return [ev["citation"] for ev in result.citations]


def assert_one_answer(
    store: citestore.Store,
    cite: Callable[[Any], citestore.CiteResult],
    given: list[tuple[str, Any]],
) -> None:
    """The first form stores citations; each other one stores nothing and gives the same ids."""
    (first_name, first_form), rest = given[0], given[1:]
    first = cite(first_form)
    assert not first.already_recorded, first_name
    assert ids(first), f"{first_name}: some evidence is located"
    stored = list(store.export())
    assert len(stored) == len(ids(first))
    for name, form in rest:
        again = cite(form)
        assert again.already_recorded, f"{name}: the same answer as the {first_name}"
        assert ids(again) == ids(first), name
        assert list(store.export()) == stored, f"{name}: nothing new stored"


@pytest.fixture
def grass(store: citestore.Store) -> citestore.Context:
    store.ingest_text(DOC, TEXT, chunker="paragraph:2000")
    return store.context(docs=[DOC])


def test_the_sdk_object_carries_what_a_dict_leaves_out() -> None:
    """Why this matters: the SDK's dump is not the dict it was built from."""
    dumped = Message.model_validate(ANTHROPIC).model_dump()
    assert dumped != ANTHROPIC
    assert dumped["content"][0]["citations"] is None
    assert dumped["content"][3]["citations"][0]["document_title"] is None
    assert "stop_sequence" in dumped and dumped["stop_sequence"] is None


@pytest.mark.parametrize("reverse", [False, True], ids=["dict first", "SDK object first"])
def test_an_anthropic_response_is_one_import_however_given(
    store: citestore.Store, grass: citestore.Context, reverse: bool
) -> None:
    message = Message.model_validate(ANTHROPIC)
    given = forms(message, ANTHROPIC)
    if reverse:
        given.reverse()
    assert_one_answer(store, lambda r: store.import_anthropic(grass, r, sent="documents"), given)
    again = store.import_anthropic(grass, message, sent="documents")
    evidence = [ev for claim in again.claims for ev in claim["evidence"]]
    assert [ev["verdict"] for ev in evidence] == ["exact", "exact"]
    locations = [ev.get("location") for ev in evidence]
    assert [loc and loc["agreement"] for loc in locations] == ["agrees", "agrees"]


def emit_answer(context: citestore.Context) -> str:
    """The ``emit_answer`` arguments a model returns: a JSON string, as OpenAI sends it."""
    label = context.chunks[0]["label"]
    return json.dumps(
        {
            "claims": [
                {
                    "text": "The sky is blue.",
                    "evidence": [{"chunk_id": label, "quote": "The sky is blue."}],
                },
                {
                    "text": "Grass is green.",
                    "evidence": [{"chunk_id": label, "quote": "The grass is green."}],
                },
            ]
        }
    )


def test_an_openai_chat_completion_is_one_answer_however_given(
    store: citestore.Store, grass: citestore.Context
) -> None:
    tool = citestore.schema("openai")
    plain: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1764720000,
        "model": "gpt-4.1",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {
                                "name": tool["function"]["name"],
                                "arguments": emit_answer(grass),
                            },
                        }
                    ],
                },
            }
        ],
    }
    completion = ChatCompletion.model_validate(plain)
    assert_one_answer(store, lambda a: store.cite(grass, a), forms(completion, plain))
    # The tool call and its arguments on their own are the same answer too.
    calls = completion.choices[0].message.tool_calls
    assert calls is not None
    call = calls[0]
    assert isinstance(call, ChatCompletionMessageFunctionToolCall)
    for name, form in [("tool call", call), ("arguments", call.function.arguments)]:
        assert store.cite(grass, form).already_recorded, name


def test_an_openai_response_is_one_answer_however_given(
    store: citestore.Store, grass: citestore.Context
) -> None:
    tool = citestore.schema("openai-responses")
    plain: dict[str, Any] = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1764720000,
        "status": "completed",
        "model": "gpt-4.1",
        "output": [
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": tool["name"],
                "arguments": emit_answer(grass),
                "status": "completed",
            }
        ],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }
    response = Response.model_validate(plain)
    assert_one_answer(store, lambda a: store.cite(grass, a), forms(response, plain))
    assert store.cite(grass, response.output[0]).already_recorded, "the function_call item"
