#!/usr/bin/env bash
# Every accuracy harness of issue 24 through one `citestore` binary, two at a time (2 cores):
# the PDF extractor switches (pypdf, pdfminer; seeds 1 and 2), the HTML loader switches
# (html2text, inscriptis, trafilatura seeds 1-5) and the releases (Django, Sphinx). Each
# harness's table goes to OUT/NAME.md, its work dir (cases, misses, the store) to OUT/w-NAME.
#
#   bash bench/accuracy_all.sh target/release/citestore /tmp/acc/now    # about 5 minutes
#
# bench/pdf_accuracy.py must have run once (it fetches the PDFs the PDF harnesses share).
# Exits 1 when a harness failed (its stderr is OUT/NAME.err).
set -uo pipefail
bin=$(realpath "$1")
out=$2
mkdir -p "$out"
cd "$(dirname "$0")/.."
failed=0
run() {
    local name=$1
    shift
    if python3 "$@" --binary "$bin" --work "$out/w-$name" >"$out/$name.md" 2>"$out/$name.err"; then
        echo "$name: ok"
    else
        echo "$name: FAILED (see $out/$name.err)"
        return 1
    fi
}
both() { # waits for the two jobs started before it
    wait "$1" || failed=1
    wait "$2" || failed=1
}
html=bench/html_accuracy.py
run pypdf1 $html --pdf pypdf --docs 12 --spans 100 --seed 1 & a=$!
run pypdf2 $html --pdf pypdf --docs 12 --spans 100 --seed 2 & both $a $!
run pdfminer1 $html --pdf pdfminer --docs 12 --spans 100 --seed 1 & a=$!
run pdfminer2 $html --pdf pdfminer --docs 12 --spans 100 --seed 2 & both $a $!
run html2text $html --new html2text & a=$!
run inscriptis $html --new inscriptis & both $a $!
run traf1 $html --new trafilatura --seed 1 & a=$!
run traf2 $html --new trafilatura --seed 2 & both $a $!
run traf3 $html --new trafilatura --seed 3 & a=$!
run traf4 $html --new trafilatura --seed 4 & both $a $!
run traf5 $html --new trafilatura --seed 5 & a=$!
run django bench/releases_accuracy.py & both $a $!
run sphinx bench/releases_accuracy.py --project sphinx
[ $? -eq 0 ] || failed=1
exit $failed
