"""docs/python-api.md runs as written: its Python blocks, in order, in a scratch folder holding
the repository's fixtures/, print what the page says they print; its shell block runs the
`citestore` command pip installed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest
from conftest import ROOT

PAGE = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
BLOCKS: List[str] = re.findall(r"```python\n(.*?)```", PAGE, re.S)
[SHELL] = re.findall(r"```sh\n(.*?)```", PAGE, re.S)


def test_the_page_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(BLOCKS) == 6
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    monkeypatch.chdir(tmp_path)
    scope: Dict[str, Any] = {}

    def run(block: str) -> List[str]:
        exec(block, scope)
        return capsys.readouterr().out.splitlines()

    frameworks = run(BLOCKS[0])
    assert frameworks[0] == "True"
    assert frameworks[1].startswith("{'spec': 'caller', 'chunks': ")

    citing = run(BLOCKS[1])
    assert citing[:2] == ["exact False True", "unknown-chunk False False"]
    assert citing[2] == "intact Enterprise includes unlimited seats"
    unknown = scope["result"].claims[1]["evidence"][0]
    assert (unknown["label"], unknown["chunk_id"], unknown["caller_id"]) == ("nope", None, None)

    importing = run(BLOCKS[2])
    assert importing == [
        "2 ['review'] []",
        "48 ['exact'] []",
        "80 [] ['https://en.wikipedia.org/wiki/Emperor_penguin']",
        "Emperor penguins are the tallest.",
    ]
    assert scope["imported"].summary == {"exact": 1, "review": 1, "external": 1, "uncited": 1}

    verifying = run(BLOCKS[3])
    assert verifying == ["['supported', 'unknown-chunk']", "1.0"]

    reading = run(BLOCKS[4])
    assert reading[0] == "moved"
    assert len(reading) == 4 and reading[1].startswith("urn:citestore:")
    assert reading[2] == "1" and (tmp_path / "report.html").stat().st_size > 1000
    assert reading[3] == "{'moved': 1}"

    keeping = run(BLOCKS[5])
    assert keeping[0] == "1"
    assert keeping[1] == "[{'doc_id': 'plans-haystack.md', 'changed': True}]"
    assert scope["store"].closed

    script = Path(sys.executable).parent / "citestore"
    env = dict(os.environ)
    env.pop("CITESTORE_DB", None)
    env["PATH"] = f"{script.parent}{os.pathsep}{env.get('PATH', '')}"
    shown = subprocess.run(SHELL, shell=True, capture_output=True, text=True, env=env)
    assert shown.returncode == 0, shown.stderr
    assert "moved" in shown.stdout
