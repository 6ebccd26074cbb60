// Type-checked, never run: the CommonJS entry point's types are the same API.
import citestore = require("citestore");

export async function main(): Promise<citestore.Health> {
  const store = await citestore.Store.open("cs.db", { readOnly: true });
  const cited: citestore.Cited<{ text: string }>[] = citestore.citedClaims(await store.cite("ctx-1", "{}"));
  // @ts-expect-error a misspelt status
  const status: citestore.CitationStatus = "intakt";
  void [cited, status];
  return store.health();
}
