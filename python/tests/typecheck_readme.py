"""Writes the Python examples of the READMEs and docs/python.md to files a type checker can read
(tests/run.sh runs ``mypy --strict`` and ``pyright`` over them): one file per document, its
``python`` blocks in order and dedented, since a document's later blocks use what its earlier
ones made (test_readme.py runs them the same way).

Usage: ``python python/tests/typecheck_readme.py [OUT_DIR]`` (default ``target/readme-typecheck``
at the repository's root); prints each file written."""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parents[2]

# Each document, and the module name its examples are written under.
DOCUMENTS: Dict[str, str] = {
    "README.md": "readme",
    "python/README.md": "python_readme",
    "docs/python.md": "docs_python",
    "docs/python-api.md": "docs_python_api",
}

# A fenced block, its fence indented as far as its first line (a block inside a list item).
BLOCK = re.compile(r"^([ \t]*)```python[ \t]*\n(.*?)^\1```", re.M | re.S)


def blocks(markdown: str) -> List[str]:
    """The ``python`` blocks of ``markdown``, in order, each dedented."""
    return [textwrap.dedent(code) for _, code in BLOCK.findall(markdown)]


def write(out: Path) -> List[Path]:
    """Writes one module per document that has Python examples; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.py"):
        stale.unlink()
    written: List[Path] = []
    for document, module in DOCUMENTS.items():
        path = ROOT / document
        if not path.is_file():
            continue
        found = blocks(path.read_text(encoding="utf-8"))
        if not found:
            continue
        header = (
            f'"""The Python examples of {document}, in order (made by typecheck_readme.py)."""\n'
        )
        target = out / f"{module}.py"
        target.write_text(header + "\n".join(found), encoding="utf-8")
        written.append(target)
    return written


def main(argv: List[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "target" / "readme-typecheck"
    written = write(out)
    if not written:
        print("typecheck_readme.py: no python blocks found", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
