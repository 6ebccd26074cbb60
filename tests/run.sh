#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the tools the tests drive when they are
# missing (Debian's poppler-utils for pdftotext, systemd for systemd-analyze, chromium for the
# report's browser tests; playwright-core from npm), then runs `cargo test`. Under CI=true a test
# whose tool is still missing fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v systemd-analyze >/dev/null || missing+=(systemd)
command -v chromium >/dev/null || missing+=(chromium)
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
npm ci --prefix tests/browser --no-audit --no-fund --silent
cargo test "$@"
