//! `citestore import FORMAT` through the real binary, on every response of
//! `fixtures/providers` (recorded by public test suites where a recording exists, else written
//! from the provider's documented shape; the README there says which): each claim's place in the
//! answer (Gemini's UTF-8 bytes and the AI SDK's UTF-16 code units converted to chars), each
//! source mapped onto the context's chunks, a quote located, a source named without a quote
//! `review` with a proposed sentence, web sources external. JSON output is parsed into the
//! public types.

use crate::common;

use citestore::cli::json::{CiteOutput, ShowOutput};
use common::{count, dump, repo, rows, Scratch};

fn fixture(rel: &str) -> String {
    repo("fixtures/providers").join(rel).display().to_string()
}

/// Every document of `fixtures/providers/docs`, one chunk each.
fn store() -> Scratch {
    let s = Scratch::new();
    s.ingest(&[&fixture("docs"), "--chunker", "paragraph:2000"]);
    s
}

fn import(s: &Scratch, format: &str, ctx: &str, response: &str) -> CiteOutput {
    s.json(&["import", format, response, "--context", ctx, "--json"])
}

const P3: &[&str] = &["tall-penguins.txt", "penguin-habitats.txt", "animals.txt"];
const K: &[&str] = &["kaiserpinguin.txt", "kotei-pengin.txt"];

/// What one evidence string of a claim should become.
#[derive(Debug, Clone, PartialEq)]
enum Want {
    /// Located verbatim: the document and the span in it.
    Exact(&'static str, usize, usize),
    /// The provider named the document's chunk but quoted nothing.
    Review(&'static str),
    /// A web page, kept with its URL (the URL's start).
    External(&'static str),
}

/// (format, file, context, [(answer span in chars, what each citation becomes)]): the
/// expected outcomes of fixtures/providers/README.md.
type Case = (
    &'static str,
    &'static str,
    &'static [&'static str],
    Vec<((usize, usize), Vec<Want>)>,
);

fn cases() -> Vec<Case> {
    use Want::*;
    let web = "https://vertexaisearch.cloud.google.com";
    let axios = "https://www.axios.com/local/san-francisco/2025/03/";
    vec![
        (
            "cohere",
            "recorded-benefits.json",
            &["benefits.txt"],
            vec![
                ((52, 71), vec![Review("benefits.txt")]),
                ((75, 97), vec![Review("benefits.txt")]),
                ((101, 115), vec![Review("benefits.txt")]),
            ],
        ),
        (
            "cohere",
            "docs-auto-ids.json",
            P3,
            vec![
                ((0, 16), vec![Review("tall-penguins.txt")]),
                ((25, 42), vec![Review("tall-penguins.txt")]),
                ((61, 72), vec![Review("penguin-habitats.txt")]),
            ],
        ),
        (
            "cohere",
            "docs-user-ids.json",
            P3,
            vec![
                ((4, 41), vec![Review("tall-penguins.txt")]),
                ((52, 76), vec![Review("penguin-habitats.txt")]),
            ],
        ),
        (
            "gemini",
            "retrieval-multilingual.json",
            K,
            vec![
                ((0, 112), vec![Exact("kaiserpinguin.txt", 0, 89)]),
                ((113, 155), vec![Review("kaiserpinguin.txt")]),
                ((156, 194), vec![Exact("kotei-pengin.txt", 35, 53)]),
            ],
        ),
        (
            "gemini",
            "google-search-docs.json",
            P3,
            vec![
                ((0, 56), vec![External(web)]),
                ((57, 126), vec![External(web), External(web)]),
            ],
        ),
        (
            "openai-responses",
            "recorded-file-search.json",
            &["ai.txt"],
            vec![((154, 349), vec![Exact("ai.txt", 0, 1928)])],
        ),
        (
            "openai-responses",
            "file-search-no-results.json",
            P3,
            vec![
                ((0, 42), vec![Review("tall-penguins.txt")]),
                ((43, 72), vec![Review("penguin-habitats.txt")]),
            ],
        ),
        (
            "openai-responses",
            "file-search-with-results.json",
            P3,
            vec![
                ((0, 42), vec![Exact("tall-penguins.txt", 0, 33)]),
                ((43, 72), vec![Exact("penguin-habitats.txt", 0, 41)]),
            ],
        ),
        (
            "openai-responses",
            "recorded-web-search.json",
            P3,
            [
                (486, 606),
                (912, 1035),
                (1346, 1472),
                (1884, 2023),
                (2404, 2540),
            ]
            .into_iter()
            .map(|span| (span, vec![External(axios)]))
            .collect(),
        ),
        (
            "ai-sdk",
            "generate-text.json",
            P3,
            vec![
                ((2, 44), vec![Review("tall-penguins.txt")]),
                ((48, 79), vec![Exact("penguin-habitats.txt", 0, 41)]),
                (
                    (80, 121),
                    vec![External("https://en.wikipedia.org/wiki/Emperor_penguin")],
                ),
            ],
        ),
        (
            "langchain-quoted",
            "recorded-quoted.json",
            &["cheetah.txt"],
            vec![((0, 64), vec![Exact("cheetah.txt", 444, 618)])],
        ),
        (
            "langchain-quoted",
            "recorded-cited.json",
            &["cheetah.txt"],
            vec![((0, 95), vec![Review("cheetah.txt")])],
        ),
        (
            "langchain-quoted",
            "quoted-penguins.json",
            P3,
            vec![(
                (0, 76),
                vec![
                    Exact("tall-penguins.txt", 0, 33),
                    Exact("penguin-habitats.txt", 0, 41),
                ],
            )],
        ),
        (
            "langchain-quoted",
            "cited-penguins.json",
            P3,
            vec![(
                (0, 76),
                vec![Review("tall-penguins.txt"), Review("penguin-habitats.txt")],
            )],
        ),
    ]
}

/// What each claim of `out` became, as [`Want`]s, with its answer span.
fn outcome(out: &CiteOutput) -> Vec<((usize, usize), Vec<Want>)> {
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    out.claims
        .iter()
        .map(|claim| {
            let span = claim
                .answer_span
                .expect("every provider claim has its answer span");
            let mut got: Vec<Want> = claim
                .evidence
                .iter()
                .map(|ev| {
                    let doc = ev
                        .chunk_id
                        .as_deref()
                        .unwrap_or("-")
                        .split('@')
                        .next()
                        .unwrap();
                    match ev.verdict.as_str() {
                        "exact" => Want::Exact(leak(doc), ev.start.unwrap(), ev.end.unwrap()),
                        "review" if ev.quote.is_empty() => Want::Review(leak(doc)),
                        other => panic!("unexpected verdict {other}: {ev:?}"),
                    }
                })
                .collect();
            for ext in &claim.external {
                let url = ext.url.as_deref().unwrap_or_default();
                got.push(Want::External(leak(url)));
            }
            ((span.start, span.end), got)
        })
        .collect()
}

fn matches(got: &[((usize, usize), Vec<Want>)], want: &[((usize, usize), Vec<Want>)]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|((gs, ge), (ws, we))| {
            gs == ws
                && ge.len() == we.len()
                && ge.iter().zip(we).all(|(g, w)| match (g, w) {
                    (Want::External(g), Want::External(w)) => g.starts_with(w),
                    _ => g == w,
                })
        })
}

#[test]
fn every_fixture_lands_where_its_readme_says() {
    let s = store();
    for (format, file, docs, want) in cases() {
        let ctx = s.context(docs);
        let out = import(&s, format, &ctx, &fixture(&format!("{format}/{file}")));
        let got = outcome(&out);
        assert!(
            matches(&got, &want),
            "{format}/{file}:\n got {got:?}\nwant {want:?}"
        );
        // Each claim is the answer's text at its span (chars of the answer).
        let answer = out.answer.as_deref().expect("the answer's text");
        for claim in &out.claims {
            let span = claim.answer_span.unwrap();
            let at: String = answer
                .chars()
                .skip(span.start)
                .take(span.end - span.start)
                .collect();
            assert_eq!(at, claim.text, "{format}/{file}");
        }
        // The same response again stores nothing new and gives the same ids.
        let before = dump(&s.db());
        let again = import(&s, format, &ctx, &fixture(&format!("{format}/{file}")));
        assert!(again.already_recorded, "{format}/{file}");
        assert_eq!(ids(&again), ids(&out), "{format}/{file}");
        assert_eq!(dump(&s.db()), before, "{format}/{file}: nothing new stored");
    }
}

fn ids(out: &CiteOutput) -> Vec<Option<String>> {
    out.claims
        .iter()
        .flat_map(|c| c.evidence.iter().map(|e| e.citation.clone()))
        .collect()
}

/// A source named without a quote is `review` with the provider's silence as its reason,
/// never `exact` or `fuzzy`; the sentence proposed is the document's text at its offsets and
/// is never stored as the quote.
#[test]
fn a_source_without_a_quote_is_review_with_a_proposal_never_a_located_quote() {
    let s = store();
    let ctx = s.context(P3);
    let out = import(&s, "cohere", &ctx, &fixture("cohere/docs-auto-ids.json"));
    let evidence: Vec<_> = out.claims.iter().flat_map(|c| &c.evidence).collect();
    assert_eq!(evidence.len(), 3);
    for ev in evidence {
        assert_eq!(ev.verdict, "review", "{ev:?}");
        assert_eq!(ev.quote, "");
        assert!(ev
            .reason
            .as_deref()
            .unwrap()
            .starts_with("the provider gave no quote"));
        let proposal = ev.proposal.as_ref().expect("a proposal");
        let doc = ev.chunk_id.as_deref().unwrap().split('@').next().unwrap();
        let text = std::fs::read_to_string(fixture(&format!("docs/{doc}"))).unwrap();
        let at: String = text
            .chars()
            .skip(proposal.start)
            .take(proposal.end - proposal.start)
            .collect();
        assert_eq!(at, proposal.text);
    }
    assert_eq!(out.summary.get("review"), Some(&3));
    assert_eq!(out.summary.get("exact"), None);
    // Stored as such: the evidence's quote empty, the proposal beside it, the claim's span.
    let stored = rows(
        &s.db(),
        "SELECT e.verdict, e.quote, e.proposal_text, CAST(cl.answer_start AS TEXT), \
         CAST(cl.answer_end AS TEXT) FROM evidence e JOIN claims cl ON cl.id = e.claim_id \
         ORDER BY cl.id, e.ord",
    );
    assert_eq!(
        stored[0],
        ["review", "", "Emperor penguins are the tallest.", "0", "16"]
    );
    // `show` says so instead of printing the chunk's text as a quote.
    let id = out.claims[0].evidence[0].citation.clone().unwrap();
    let shown: ShowOutput = s.json(&["show", &id, "--json"]);
    assert!(shown.unquoted);
    let proposal = shown.proposal.expect("the proposal");
    assert_eq!(proposal.text, "Emperor penguins are the tallest.");
    let human = s.succeeds(&["show", &id]);
    assert!(
        human.contains("quote    (the provider gave no quote; the whole chunk is cited"),
        "{human}"
    );
    // A quoted citation's `show` is as before.
    let quoted = import(
        &s,
        "langchain-quoted",
        &ctx,
        &fixture("langchain-quoted/quoted-penguins.json"),
    );
    let id = quoted.claims[0].evidence[0].citation.clone().unwrap();
    let shown: ShowOutput = s.json(&["show", &id, "--json"]);
    assert!(!shown.unquoted && shown.proposal.is_none());
}

/// Gemini's REST JSON and the google-genai SDK's `model_dump(mode="json")` of the same
/// response (snake_case, every unset field `null`) are one import.
#[test]
fn the_sdk_dump_and_the_rest_json_are_one_import() {
    let s = store();
    let ctx = s.context(K);
    let rest = import(
        &s,
        "gemini",
        &ctx,
        &fixture("gemini/retrieval-multilingual.json"),
    );
    let before = dump(&s.db());
    let dumped = import(
        &s,
        "gemini",
        &ctx,
        &fixture("gemini/retrieval-multilingual.snake.json"),
    );
    assert!(dumped.already_recorded);
    assert_eq!(ids(&dumped), ids(&rest));
    assert_eq!(dump(&s.db()), before);
    // The AI SDK's flat result and its `steps` form, likewise.
    let ctx = s.context(P3);
    let flat = import(&s, "ai-sdk", &ctx, &fixture("ai-sdk/generate-text.json"));
    let steps = import(
        &s,
        "ai-sdk",
        &ctx,
        &fixture("ai-sdk/generate-text-steps.json"),
    );
    assert!(steps.already_recorded);
    assert_eq!(ids(&steps), ids(&flat));
}

/// `import-anthropic` is `import anthropic` under its older name: one import, the same ids.
#[test]
fn import_anthropic_is_the_same_import() {
    let s = Scratch::new();
    s.ingest(&[
        &repo("fixtures/anthropic/docs").display().to_string(),
        "--chunker",
        "paragraph:2000",
    ]);
    let ctx = s.context(&["grass-and-sky.txt"]);
    let response = repo("fixtures/anthropic/docs-example.json")
        .display()
        .to_string();
    let new: CiteOutput = s.json(&[
        "import",
        "anthropic",
        &response,
        "--context",
        &ctx,
        "--sent",
        "documents",
        "--json",
    ]);
    let old: CiteOutput = s.json(&[
        "import-anthropic",
        "--context",
        &ctx,
        "--sent",
        "documents",
        &response,
        "--json",
    ]);
    assert!(!new.already_recorded && old.already_recorded);
    assert_eq!(ids(&old), ids(&new));
    assert!(ids(&new).iter().all(Option::is_some));
}

/// A malformed response: one line naming the input and the JSON path, exit 2, nothing stored.
#[test]
fn bad_shapes_name_the_json_path_and_store_nothing() {
    let s = store();
    let ctx = s.context(P3);
    let before = dump(&s.db());
    // (format, response, what the line names)
    let cases = [
        ("cohere", r#"{"message": {"content": [{"type": "text", "text": "Penguins are tall."}],
           "citations": [{"start": 0, "end": 8, "text": "Emperors", "sources": [{"type": "document", "id": "doc:0"}]}]}}"#,
         "message.citations[0].start: [0, 8) is not where the citation's text \"Emperors\" stands"),
        ("cohere", r#"{"message": {"content": [{"type": "text", "text": "Penguins"}],
           "citations": [{"start": 0, "end": 8, "text": "Penguins", "sources": [{"type": "document"}]}]}}"#,
         "message.citations[0].sources[0].id: missing"),
        ("gemini", r#"{"candidates": [{"content": {"parts": [{"text": "Tall."}]},
           "groundingMetadata": {"groundingChunks": [], "groundingSupports": [
             {"segment": {"endIndex": "4"}, "groundingChunkIndices": [0]}]}}]}"#,
         "candidates[0].groundingMetadata.groundingSupports[0].segment.endIndex: \"4\" is not an integer"),
        ("gemini", r#"{"candidates": [{"content": {"parts": [{"text": "Tall."}]},
           "groundingMetadata": {"groundingChunks": [], "groundingSupports": [
             {"segment": {"endIndex": 4}, "groundingChunkIndices": [3]}]}}]}"#,
         "groundingSupports[0].groundingChunkIndices[0]: 3 is past the 0 grounding chunks"),
        ("gemini", r#"{"candidates": [{"content": {"parts": [{"text": "caf\u00e9"}]},
           "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://x"}}], "groundingSupports": [
             {"segment": {"endIndex": 4}, "groundingChunkIndices": [0]}]}}]}"#,
         "segment.endIndex: bytes [0, 4) of part 0 (5 bytes) are not the segment's text"),
        ("gemini", r#"{"candidates": []}"#, "candidates: missing or empty"),
        ("openai-responses", r#"{"output": [{"type": "message", "content": [{"type": "output_text",
           "text": "Tall.", "annotations": [{"type": "file_citation", "file_id": "f", "index": 9}]}]}]}"#,
         "output[0].content[0].annotations[0].index: 9 is past the end of the text (5 chars)"),
        ("openai-responses", r#"{"output": [{"type": "message", "content": [{"type": "output_text",
           "text": "Tall.", "annotations": [{"type": "quote_citation"}]}]}]}"#,
         "output[0].content[0].annotations[0].type: unknown annotation type \"quote_citation\""),
        ("openai-responses", r#"{"id": "resp_1"}"#, "output: missing"),
        ("ai-sdk", r#"{"text": "\ud83d\udc27 tall", "sources": [{"type": "source", "sourceType": "document", "id": "d", "title": "tall-penguins.txt"}],
           "citations": [{"source": "d", "startIndex": 1, "endIndex": 4}]}"#,
         "citations[0].endIndex: [1, 4) is not a stretch of the answer in UTF-16 code units"),
        ("ai-sdk", r#"{"text": "tall", "sources": [], "citations": [{"source": "nope"}]}"#,
         "citations[0].source: no source has id \"nope\""),
        ("langchain-quoted", r#"{"answer": "Tall.", "citations": [{"source_id": -1, "quote": "x"}]}"#,
         "citations[0].source_id: -1 is not a source id"),
        ("langchain-quoted", r#"{"answer": "Tall.", "citations": [{"source_id": 0, "quote": " "}]}"#,
         "citations[0].quote: the quote has no visible characters"),
        ("langchain-quoted", r#"{"citations": []}"#, "answer: missing"),
        ("cohere", "not json", "$: expected ident at line 1 column 2; expected a cohere response as JSON"),
    ];
    for (format, response, names) in cases {
        let path = s.write("bad.json", response);
        let out = s
            .cmd()
            .args([
                "import",
                format,
                &path.display().to_string(),
                "--context",
                &ctx,
            ])
            .output()
            .unwrap();
        let line = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {line}");
        assert_eq!(
            line.trim_end().lines().count(),
            1,
            "{format}: one line: {line}"
        );
        assert!(line.contains(names), "{format}: {line}");
        assert!(
            line.contains("bad.json"),
            "{format}: names the input: {line}"
        );
        assert!(line.contains("nothing was stored"), "{format}: {line}");
        assert_eq!(dump(&s.db()), before, "{format}: nothing stored");
    }
    // --sent is Anthropic's: refused for the others, nothing stored.
    let response = fixture("cohere/docs-auto-ids.json");
    let line = s.fails(&[
        "import",
        "cohere",
        &response,
        "--context",
        &ctx,
        "--sent",
        "documents",
    ]);
    assert!(
        line.contains("--sent applies to anthropic responses only"),
        "{line}"
    );
    assert_eq!(dump(&s.db()), before);
}

/// A source the context does not hold (a file never sent, an index past its chunks) is
/// `unknown-chunk`, naming the provider's name for it; nothing is placed on another chunk.
#[test]
fn a_source_the_context_does_not_hold_is_unknown() {
    let s = store();
    let ctx = s.context(P3);
    let response = r#"{"answer": "Penguins are tall.", "citations": [
        {"source_id": 7, "quote": "Emperor penguins are the tallest."}]}"#;
    let path = s.write("r.json", response);
    let out = import(&s, "langchain-quoted", &ctx, &path.display().to_string());
    let ev = &out.claims[0].evidence[0];
    assert_eq!(
        (ev.verdict.as_str(), ev.citation.as_deref()),
        ("unknown-chunk", None)
    );
    assert_eq!(ev.label, "source_id 7");
    let response = r#"{"message": {"content": [{"type": "text", "text": "Penguins are tall."}],
        "citations": [{"start": 0, "end": 8, "text": "Penguins",
                       "sources": [{"type": "document", "id": "seals.txt"}]}]}}"#;
    let path = s.write("r.json", response);
    let out = import(&s, "cohere", &ctx, &path.display().to_string());
    let ev = &out.claims[0].evidence[0];
    assert_eq!(ev.verdict, "unknown-chunk");
    assert!(
        ev.reason.as_deref().unwrap().contains("\"seals.txt\""),
        "{ev:?}"
    );
    assert_eq!(count(&s.db(), "SELECT COUNT(*) FROM citations"), 0);
}
