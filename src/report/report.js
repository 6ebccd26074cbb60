// citestore report: renders the changed citations from the inline JSON, and filters them.
// Every string from the store is put into the page with textContent (never as HTML), and
// invisible direction controls are shown as visible "U+202E" tokens.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var items = data.citations;
  var PAGE = 200;
  var shown = PAGE;
  var list = document.getElementById("citations");
  var countEl = document.getElementById("shown-count");
  var more = document.getElementById("show-more");
  var notice = document.getElementById("hash-notice");
  var search = document.getElementById("search");
  var docSelect = document.getElementById("doc-filter");
  var boxes = Array.prototype.slice.call(document.querySelectorAll("input[name=status]"));
  var CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

  function put(parent, text) {
    var last = 0;
    text = String(text);
    text.replace(CONTROLS, function (ch, at) {
      if (at > last) parent.appendChild(document.createTextNode(text.slice(last, at)));
      var mark = document.createElement("span");
      mark.className = "ctrl";
      mark.title = "invisible text-direction control character";
      mark.textContent = "U+" + ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
      parent.appendChild(mark);
      last = at + ch.length;
      return ch;
    });
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
    return parent;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) put(e, text);
    return e;
  }

  function labelled(label, text, cls) {
    var p = el("p", cls);
    p.appendChild(el("span", "label", label));
    put(p, text);
    return p;
  }

  function context(view, changedTag) {
    var box = el("div", "ctx");
    box.appendChild(el("span", "dim", (view.before ? "\u2026" : "") + view.before));
    var mark = el("mark");
    view.pieces.forEach(function (piece) {
      if (piece.changed) mark.appendChild(el(changedTag, null, piece.text));
      else put(mark, piece.text);
    });
    box.appendChild(mark);
    box.appendChild(el("span", "dim", view.after + (view.after ? "\u2026" : "")));
    return box;
  }

  function side(title, view, changedTag) {
    var s = el("section");
    s.appendChild(el("h4", null, title + " \u00b7 r" + view.revision + " [" + view.start + ", " + view.end + ")"));
    s.appendChild(context(view, changedTag));
    return s;
  }

  function card(item) {
    var c = el("article", "card " + item.status);
    c.id = item.anchor;
    c.setAttribute("data-status", item.status);
    var h = el("header");
    h.appendChild(el("span", "badge " + item.status, item.status));
    if (item.was !== item.status) h.appendChild(el("span", "was", "was " + item.was));
    h.appendChild(el("span", "doc-id", item.doc_id));
    var link = el("a", "permalink cid", "#" + item.anchor);
    link.href = "#" + item.anchor;
    link.title = "link to this citation (paste into a ticket)";
    h.appendChild(link);
    h.appendChild(el("span", "meta", "sweep " + item.sweep + " \u00b7 " + item.method + " \u00b7 score " + item.score.toFixed(1)));
    c.appendChild(h);
    c.appendChild(labelled("claim", item.claim, "claim"));
    c.appendChild(labelled("quote", "\u201c" + item.quote + "\u201d", "quote"));
    if (item.reason) c.appendChild(labelled("reason", item.reason, "reason"));
    var sides = el("div", "sides");
    if (item.new) {
      sides.appendChild(side("before", item.old, "del"));
      sides.appendChild(side("now", item.new, "ins"));
    } else {
      sides.appendChild(side("last known text", item.old, "del"));
      var gone = el("section");
      gone.appendChild(el("h4", null, "now"));
      gone.appendChild(el("div", "ctx", "lost: no candidate at or above the review cut-off in the current revision"));
      sides.appendChild(gone);
    }
    c.appendChild(sides);
    return c;
  }

  var hay = items.map(function (it) {
    var texts = [it.claim, it.quote, it.doc_id, it.citation_id, it.reason || "", it.method];
    [it.old, it.new].forEach(function (v) {
      if (v) texts.push(v.before, v.pieces.map(function (p) { return p.text; }).join(""), v.after);
    });
    return texts.join("\n").toLowerCase();
  });

  function statusOn() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    return on;
  }

  function matching() {
    var on = statusOn();
    var doc = docSelect.value;
    var q = search.value.trim().toLowerCase();
    var out = [];
    for (var i = 0; i < items.length; i++) {
      if (!on[items[i].status]) continue;
      if (doc && items[i].doc_id !== doc) continue;
      if (q && hay[i].indexOf(q) < 0) continue;
      out.push(i);
    }
    return out;
  }

  function render() {
    var idx = matching();
    var frag = document.createDocumentFragment();
    idx.slice(0, shown).forEach(function (i) { frag.appendChild(card(items[i])); });
    list.textContent = "";
    list.appendChild(frag);
    var n = Math.min(shown, idx.length);
    countEl.textContent = "Showing " + n + " of " + idx.length + " matching citations";
    countEl.setAttribute("data-shown", String(n));
    countEl.setAttribute("data-matching", String(idx.length));
    more.hidden = idx.length <= shown;
    return idx;
  }

  function refilter() {
    shown = PAGE;
    render();
  }

  function reveal() {
    notice.hidden = true;
    var id = decodeURIComponent(location.hash.slice(1));
    if (!/^c-/.test(id)) return;
    var at = -1;
    for (var i = 0; i < items.length; i++) if (items[i].anchor === id) at = i;
    if (at < 0) {
      notice.textContent = "Citation " + id + " is not in this report (unchanged in these sweeps, filtered out, or left out by --limit); `citestore show " + id + "` tells its story.";
      notice.hidden = false;
      return;
    }
    var idx = matching();
    if (idx.indexOf(at) < 0) {
      boxes.forEach(function (b) { b.checked = true; });
      docSelect.value = "";
      search.value = "";
      idx = matching();
    }
    var pos = idx.indexOf(at);
    if (pos >= shown) shown = (Math.floor(pos / PAGE) + 1) * PAGE;
    render();
    var target = document.getElementById(id);
    target.classList.add("target");
    target.scrollIntoView({ block: "start" });
  }

  boxes.forEach(function (b) { b.addEventListener("change", refilter); });
  docSelect.addEventListener("change", refilter);
  search.addEventListener("input", refilter);
  more.addEventListener("click", function () { shown += PAGE; render(); });
  Array.prototype.slice.call(document.querySelectorAll("button.doc")).forEach(function (b) {
    b.addEventListener("click", function () {
      docSelect.value = b.getAttribute("data-doc");
      refilter();
      document.getElementById("filters").scrollIntoView({ block: "start" });
    });
  });
  window.addEventListener("hashchange", reveal);
  render();
  reveal();
  document.documentElement.setAttribute("data-ready", "1");
})();
