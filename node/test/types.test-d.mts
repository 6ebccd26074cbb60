// Type-checked, never run: `tsc --strict --noEmit` over the installed package's types
// (test/run.sh). Every `@ts-expect-error` line must be an error, or tsc fails ("unused
// directive"): a claim without a source is not `Cited`, a misspelt status is not a status.

import { Store, locate, schema, citedClaims, chunksFromText, CitestoreError, BadInput, BadAnswer, NotFound, SweepIncomplete } from "citestore";
import type {
  SourceRef,
  Cited,
  CitationStatus,
  Verdict,
  Claim,
  Evidence,
  SweepSummary,
  Health,
  CiteResult,
  ShowResult,
  ExportLine,
  W3CAnnotation,
  Changes,
  LocateResult,
  ContextChunk,
  ProviderFormat,
  AnswerSpan,
  Proposal,
} from "citestore";

/** `true` only when `T` is `any`. */
type IsAny<T> = 0 extends 1 & T ? true : false;

export async function quickStart(text: string, answer: object): Promise<void> {
  const store = await Store.open("cs.db");
  const reader: Store = await Store.open("postgres://citestore@localhost/citestore", { readOnly: true });
  await store.ingestText("guide.md", text, { chunks: [{ start: 0, end: 812, id: "vec-17" }] });
  await store.ingestText("guide.md", text, { chunker: "paragraph:1500" });
  await store.ingest("docs/", { chunker: "paragraph:1500" });
  const ctx = await store.context({ chunks: ["vec-17"] });
  const byDoc = await store.context({ docs: ["guide.md"] });
  const id: string = ctx.id;
  const chunks: readonly ContextChunk[] = byDoc.chunks;
  const prompt: string = ctx.prompt();
  const result: CiteResult = await store.cite(ctx, answer);
  const cited: Cited<{ text: string }>[] = citedClaims(result);
  const first: SourceRef = cited[0]!.sources[0];
  const claims: Cited<Claim>[] = citedClaims(result);
  const summary: SweepSummary = await store.sweep({ chunker: "paragraph:1500" });
  const health: Health = await store.health();
  const lost: number | undefined = health.status.lost;
  const changes: Changes = await store.changes({ since: 3 });
  const lostOnes = await store.citations({ status: "lost" });
  const shown: ShowResult = await store.show(lostOnes[0]!.id);
  const lines: ExportLine[] = await store.export();
  const annotations: W3CAnnotation[] = await store.export({ format: "w3c" });
  const report = await store.report({ out: "report.html" });
  const bytes: number = report.bytes;
  await store.retire("guide.md");
  const imported: CiteResult = await store.importAnthropic(ctx, { content: [] }, { sent: "documents" });
  const fromGemini: CiteResult = await store.importResponse("gemini", ctx, { candidates: [] });
  await store.importResponse("anthropic", ctx.id, "{}", { sent: "documents" });
  await store.importResponse("ai-sdk", ctx, new Uint8Array(), {});
  const someFormat = "cohere" as ProviderFormat;
  await store.importResponse(someFormat, ctx, {});
  const answerText: string | undefined = fromGemini.answer;
  const span: AnswerSpan | undefined = fromGemini.claims[0]!.answerSpan;
  const spanStart: number | undefined = span?.start;
  const proposal: Proposal | undefined = fromGemini.claims[0]!.evidence[0]!.proposal;
  const proposed: string | undefined = proposal?.text;
  const external: string | undefined = fromGemini.claims[0]!.external?.[0]?.url ?? undefined;
  store.close();
  const found: LocateResult | null = locate("chunk text", "quote", { prefix: "a", suffix: "b", near: 3 });
  const tool = schema("anthropic");
  const toolName: string = schema().name;
  const strict: true = schema("openai").function.strict;
  const responsesName: string = schema("openai-responses").name;
  const inputSchema = schema("ai-sdk").inputSchema;
  const format = "openai" as "openai" | "ai-sdk";
  const either = schema(format);
  // @ts-expect-error an AI SDK tool has no name of its own (its key in `tools` names it)
  schema("ai-sdk").name;
  const formatOf = "w3c" as "jsonl" | "w3c";
  const someExport: ExportLine[] | W3CAnnotation[] = await store.export({ format: formatOf });
  const pieces = chunksFromText(text, ["a", { pageContent: "b", id: "doc-1" }]);
  await store.ingestText("guide.md", text, { chunks: pieces });

  const verdict: Verdict = result.claims[0]!.evidence[0]!.verdict;
  const ev: Evidence = result.claims[0]!.evidence[0]!;
  const source: SourceRef | null = ev.source;
  const status: CitationStatus = shown.status;
  const start: number | null = ev.start;
  const method = shown.history[0]!.method;

  // No result field is `any`.
  const noAny: [
    IsAny<typeof summary.status>,
    IsAny<typeof health.trend>,
    IsAny<typeof ev.location>,
    IsAny<typeof shown.apiLocation>,
    IsAny<typeof tool>,
    IsAny<typeof annotations>,
    IsAny<typeof changes.changes>,
    IsAny<typeof method>,
    IsAny<typeof fromGemini.answer>,
    IsAny<typeof span>,
    IsAny<typeof proposal>,
  ] = [false, false, false, false, false, false, false, false, false, false, false];

  const verified = await store.verify({ context: ctx, judge: "command:./judge.py", accept: 0.8 });
  const verdicts: ("supported" | "contradicted" | "unsupported" | "review" | "fabricated" | "ambiguous" | "unknown-chunk" | "uncited" | "unjudged" | "error")[] = verified.claims.map((c) => c.verdict);
  const calls: number | undefined = verified.summary.judgeCalls;
  await store.verify({ all: true });
  await store.verify({ citations: ["c-1"] });
  // @ts-expect-error one scope, not two
  await store.verify({ all: true, context: ctx });
  void [verdicts, calls];

  // @ts-expect-error a claim with no source is not Cited
  const none: Cited<{ text: string }> = { text: "x", sources: [] };
  // @ts-expect-error a Cited claim carries `sources`
  const bare: Cited<{ text: string }> = { text: "x" };
  // @ts-expect-error a misspelt status
  const misspelt: CitationStatus = "Lost";
  // @ts-expect-error a misspelt status, as an option
  await store.citations({ status: "lots" });
  // @ts-expect-error verdicts are kebab-case
  const verdict2: Verdict = "unknown_chunk";
  // @ts-expect-error keys are camelCase
  const snake = ev.chunk_id;
  // @ts-expect-error a SourceRef has its content hash
  const partial: SourceRef = { docId: "d", start: 0, end: 1, revision: 1 };
  // @ts-expect-error chunker or chunks, not both
  await store.ingestText("d", text, { chunker: "paragraph:1500", chunks: [] });
  // @ts-expect-error not a schema format
  schema("gemini");
  // @ts-expect-error a Store is opened with Store.open
  new Store();
  // @ts-expect-error locate may find nothing
  locate("chunk", "quote").start;
  // @ts-expect-error an annotation is not an export line
  annotations[0]!.docId;
  // @ts-expect-error not a provider format
  await store.importResponse("mistral", ctx, {});
  // @ts-expect-error sent is anthropic's only
  await store.importResponse("cohere", ctx, {}, { sent: "chunks" });
  // @ts-expect-error answer spans are camelCase
  fromGemini.claims[0]!.answer_span;
  // @ts-expect-error readOnly, not read_only
  await Store.open("cs.db", { read_only: true });

  void [toolName, strict, responsesName, inputSchema, either, someExport];
  void [reader, id, chunks, prompt, first, claims, lost, bytes, imported, found, verdict, source, status, start, noAny];
  void [none, bare, misspelt, verdict2, snake, partial];
  void [answerText, spanStart, proposed, external];
}

export function errors(err: unknown): string {
  if (err instanceof SweepIncomplete) return String(err.summary.errors.length);
  if (err instanceof BadAnswer || err instanceof BadInput || err instanceof NotFound) return err.code;
  if (err instanceof CitestoreError) return `${err.name}: ${err.code}: ${err.message}`;
  return "";
}
