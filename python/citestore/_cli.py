"""The ``citestore`` command pip installs: the Rust command-line tool, run in this process
through the native module (the same build as the package, so they can never disagree)."""

from __future__ import annotations

import sys

from . import _native  # pyright: ignore[reportPrivateUsage]  # the package's own module


def main() -> None:
    """Runs ``citestore`` with this process's arguments and exits with its code (0 ok, 1 ran
    but citations need attention, 2 error)."""
    sys.stdout.flush()
    sys.exit(_native.cli_main(["citestore", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
