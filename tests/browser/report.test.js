// Opens a citestore report page in headless Chromium (Debian's package, driven by
// playwright-core) and checks what a person would notice. Run by tests/report_browser.rs:
//
//   node tests/browser/report.test.js SPEC.json
//
// SPEC: {"page": "/abs/report.html", "mode": "demo" | "hostile" | "open" (only time the load), "chromium": "/usr/bin/chromium",
//        "expect": {...}, "screenshot": "/abs/out.png" (optional)}
// Prints one JSON line of what it measured; exits 1 with the failed check on stderr.
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const url = "file://" + spec.page;

async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "citestore-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: spec.chromium,
    headless: true,
    timeout: 60000,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  return { context, profile };
}

// Every console error, uncaught exception, dialog and request the page makes.
function watch(page) {
  const seen = { errors: [], dialogs: [], requests: [] };
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") seen.errors.push(m.type() + ": " + m.text()); });
  page.on("pageerror", (e) => seen.errors.push("pageerror: " + e.message));
  page.on("dialog", (d) => { seen.dialogs.push(d.message()); d.dismiss(); });
  page.on("request", (r) => seen.requests.push(r.url()));
  return seen;
}

async function open(page, hash) {
  await page.goto(url + (hash || ""));
  await page.waitForSelector("html[data-ready='1']", { state: "attached" });
}

const visibleCards = (page) =>
  page.$$eval("article.card", (cards) => cards.map((c) => ({
    id: c.id, status: c.getAttribute("data-status"), doc: c.querySelector(".doc-id").textContent,
  })));

async function demo(page) {
  const e = spec.expect;
  const measured = {};
  // Counts: the summary cards and the total.
  for (const [status, n] of Object.entries(e.counts)) {
    const shown = await page.getAttribute(`.count[data-status=${status}]`, "data-count");
    assert.equal(Number(shown), n, `summary count for ${status}`);
  }
  assert.equal(Number(await page.getAttribute("#changed-total", "data-count")), e.total, "total changed");
  let cards = await visibleCards(page);
  assert.equal(cards.length, e.total, "every changed citation is rendered");
  assert.deepEqual(cards.map((c) => c.id).sort(), [...e.ids].sort(), "the cards are the changed citations");
  measured.cards = cards.length;

  // Status filter: only lost.
  for (const s of ["degraded", "moved", "intact"]) await page.uncheck(`input[name=status][value=${s}]`);
  cards = await visibleCards(page);
  assert.equal(cards.length, e.counts.lost, "lost-only filter");
  assert.ok(cards.every((c) => c.status === "lost"), "lost-only filter shows only lost");
  for (const s of ["degraded", "moved", "intact"]) await page.check(`input[name=status][value=${s}]`);
  assert.equal((await visibleCards(page)).length, e.total, "all statuses again");

  // Document filter, from the select and from the documents table.
  for (const [doc, n] of Object.entries(e.docs)) {
    await page.selectOption("#doc-filter", doc);
    cards = await visibleCards(page);
    assert.equal(cards.length, n, `document filter ${doc}`);
    assert.ok(cards.every((c) => c.doc === doc), `only ${doc}`);
  }
  await page.selectOption("#doc-filter", "");
  const [firstDoc, firstN] = Object.entries(e.docs)[0];
  await page.click(`button.doc[data-doc="${firstDoc}"]`);
  assert.equal((await visibleCards(page)).length, firstN, "documents table button filters");
  await page.selectOption("#doc-filter", "");

  // Text search.
  await page.fill("#search", e.search.query);
  cards = await visibleCards(page);
  assert.deepEqual(cards.map((c) => c.id), [e.search.id], `search ${e.search.query}`);
  assert.match(await page.textContent("#shown-count"), /Showing 1 of 1 /);
  await page.fill("#search", "no such text anywhere 0xdeadbeef");
  assert.equal((await visibleCards(page)).length, 0, "search with no match");
  await page.fill("#search", "");

  // Anchors: a pasted link opens the page at that citation, highlighted, in view.
  for (const id of e.ids) {
    await open(page, "#" + id);
    const where = await page.$eval("#" + id, (c) => ({
      target: c.classList.contains("target"), top: c.getBoundingClientRect().top, h: window.innerHeight,
    }));
    assert.ok(where.target, `#${id} is highlighted`);
    // In view, below the sticky filter bar (cards keep a scroll margin for it).
    assert.ok(where.top >= 1 && where.top < where.h - 40, `#${id} is in view (top ${where.top})`);
  }
  // A link to a citation the filters hide clears the filters; the permalink sets the hash.
  await open(page);
  for (const s of ["lost", "degraded", "intact"]) await page.uncheck(`input[name=status][value=${s}]`);
  const hidden = e.ids.find((id) => !e.moved.includes(id));
  await page.evaluate((id) => { location.hash = id; }, hidden);
  await page.waitForSelector("#" + hidden + ".target");
  assert.equal((await visibleCards(page)).length, e.total, "filters cleared for the link");
  await page.click(`#${e.ids[0]} a.permalink`);
  assert.equal(await page.evaluate(() => location.hash), "#" + e.ids[0], "permalink");
  // A link to a citation not in the page says so instead of doing nothing.
  await page.evaluate(() => { location.hash = "c-000000000000"; });
  await page.waitForSelector("#hash-notice:not([hidden])");
  return measured;
}

async function hostile(page) {
  const e = spec.expect;
  // Touch everything that could fire a handler: hover and click every card part, every button.
  for (const sel of ["article.card", "button.doc", "a.permalink", "mark", ".doc-id", "b", "p.claim"]) {
    for (const h of await page.$$(sel)) await h.hover({ timeout: 2000 }).catch(() => {});
  }
  for (const b of await page.$$("button.doc")) await b.click();
  await page.selectOption("#doc-filter", "");
  await page.fill("#search", "<script>");
  await page.fill("#search", "");
  await page.waitForTimeout(200);
  const pwned = await page.evaluate(() => window.__pwned);
  assert.equal(pwned, undefined, "an injected payload set window.__pwned");
  const dom = await page.evaluate(() => ({
    scripts: document.scripts.length,
    handlers: Array.from(document.querySelectorAll("*")).filter((n) => Array.from(n.attributes).some((a) => /^on/i.test(a.name))).length,
    jsLinks: document.querySelectorAll("a[href^='javascript' i]").length,
    imgs: document.querySelectorAll("img, iframe, object, embed").length,
    svgs: document.querySelectorAll("svg").length,
    controls: Array.from(document.querySelectorAll(".ctrl")).map((n) => n.textContent),
    text: document.body.innerText,
    cards: document.querySelectorAll("article.card").length,
  }));
  assert.equal(dom.scripts, 2, "only the page's own two script blocks");
  assert.equal(dom.handlers, 0, "no element carries an on* handler");
  assert.equal(dom.jsLinks, 0, "no javascript: link");
  assert.equal(dom.imgs, 0, "no img/iframe/object/embed");
  assert.equal(dom.svgs, 1, "only the trend chart's svg");
  assert.equal(dom.cards, e.cards, "every hostile citation is rendered");
  assert.ok(dom.controls.includes("U+202E"), "the RTL override is shown as a visible token");
  for (const literal of e.literals) {
    assert.ok(dom.text.includes(literal), `the page shows ${JSON.stringify(literal)} as text`);
  }
  return { cards: dom.cards, controls: dom.controls.length };
}

(async () => {
  const { context, profile } = await launch();
  let failed = null;
  let measured = {};
  try {
    const page = await context.newPage();
    const seen = watch(page);
    const started = Date.now();
    await open(page);
    measured.open_ms = Date.now() - started;
    const modes = { demo, hostile, open: async () => ({}) };
    measured = Object.assign(measured, await modes[spec.mode](page));
    if (spec.screenshot) {
      await open(page);
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.screenshot({ path: spec.screenshot, fullPage: true });
    }
    assert.deepEqual(seen.errors, [], "console errors or warnings");
    assert.deepEqual(seen.dialogs, [], "dialogs opened");
    const foreign = seen.requests.filter((r) => r.split("#")[0] !== url);
    assert.deepEqual(foreign, [], "the page loaded something besides itself");
    measured.requests = seen.requests.length;
  } catch (err) {
    failed = err;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  if (failed) {
    console.error(failed.stack || String(failed));
    process.exit(1);
  }
  console.log(JSON.stringify(measured));
})();
