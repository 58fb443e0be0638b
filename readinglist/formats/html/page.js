"use strict";
(function () {
  // Every string from the data goes into the page through textContent, never as markup; the
  // notes' Markdown arrives as a tree of allowed elements (markup.py) built one by one.
  var data = JSON.parse(document.getElementById("rl-data").textContent);
  var papers = data.papers;
  var main = document.getElementById("papers");
  var q = document.getElementById("q");
  var fStatus = document.getElementById("f-status");
  var fVenue = document.getElementById("f-venue");
  var fYear = document.getElementById("f-year");
  var tagBox = document.getElementById("tags");
  var tagStrip = document.getElementById("tagstrip");
  var countEl = document.getElementById("count");
  var activeTags = new Set();
  var STATUS = { unread: "to read", reading: "reading", read: "read", skipped: "skipped" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function options(select, values) {
    values.forEach(function (v) {
      var o = el("option", null, v[1]);
      o.value = v[0];
      select.appendChild(o);
    });
  }
  function uniq(list) {
    return Array.from(new Set(list));
  }

  // The reader's Markdown: [tag, attrs, ...children] or a string; no other element is made.
  var MARKUP = new Set(["p", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "code", "strong", "em", "a", "br", "hr"]);
  var SAFE_LINK = /^(?:https?:\/\/[^\s"'<>]+|mailto:[^\s"'<>:/]+@[^\s"'<>]+)$/i;
  function build(node, into) {
    if (typeof node === "string") { into.appendChild(document.createTextNode(node)); return; }
    if (!Array.isArray(node)) return;
    var tag = node[0], attrs = node[1] || {}, e = into;
    if (tag === "a" && !SAFE_LINK.test(String(attrs.href || ""))) tag = null; // its text only
    if (tag && MARKUP.has(tag)) {
      e = document.createElement(tag);
      if (tag === "a") { e.href = attrs.href; e.rel = "noopener noreferrer nofollow"; }
      if (tag === "ol" && Number.isInteger(attrs.start)) e.start = attrs.start;
      into.appendChild(e);
    }
    for (var i = 2; i < node.length; i++) build(node[i], e);
  }

  // filter choices
  options(fStatus, Object.keys(STATUS).filter(function (s) {
    return papers.some(function (p) { return p.status === s; });
  }).map(function (s) { return [s, STATUS[s]]; }));
  options(fVenue, uniq(papers.map(function (p) { return p.venue; }).filter(Boolean)).sort().map(function (v) { return [v, v]; }));
  options(fYear, uniq(papers.map(function (p) { return p.year; }).filter(Boolean)).sort().reverse().map(function (y) { return [String(y), String(y)]; }));
  var tagCount = new Map();
  papers.forEach(function (p) { p.tags.forEach(function (t) { tagCount.set(t, (tagCount.get(t) || 0) + 1); }); });
  var tagButtons = new Map();
  Array.from(tagCount.keys()).sort(function (a, b) { return tagCount.get(b) - tagCount.get(a) || (a < b ? -1 : 1); }).forEach(function (t) {
    var b = el("button", "tag", t + " (" + tagCount.get(t) + ")");
    b.type = "button";
    b.dataset.tag = t;
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", function () { toggleTag(t); });
    tagButtons.set(t, b);
    tagBox.appendChild(b);
  });

  // a scroll cue: the strip fades out on the side where more tags are hidden
  function cue() {
    var horizontal = tagBox.scrollWidth > tagBox.clientWidth + 1;
    var before = horizontal ? tagBox.scrollLeft > 1 : tagBox.scrollTop > 1;
    var after = horizontal
      ? tagBox.scrollLeft + tagBox.clientWidth < tagBox.scrollWidth - 1
      : tagBox.scrollTop + tagBox.clientHeight < tagBox.scrollHeight - 1;
    tagStrip.classList.toggle("more-before", before);
    tagStrip.classList.toggle("more-after", after);
    tagStrip.classList.toggle("sideways", horizontal);
  }
  tagBox.addEventListener("scroll", cue, { passive: true });
  window.addEventListener("resize", cue);

  function toggleTag(t) {
    if (activeTags.has(t)) activeTags.delete(t); else activeTags.add(t);
    var b = tagButtons.get(t);
    if (b) b.setAttribute("aria-pressed", activeTags.has(t) ? "true" : "false");
    apply();
  }

  function copy(text, button) {
    function done(ok) {
      var old = button.textContent;
      button.textContent = ok ? "copied" : "select and copy";
      setTimeout(function () { button.textContent = old; }, 1200);
    }
    function fallback() {
      var t = el("textarea");
      t.value = text;
      document.body.appendChild(t);
      t.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      t.remove();
      done(ok);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  // Cards are made when first shown and kept; a filter computes the matching papers and shows
  // the first PAGE of them (more on scrolling or "show more"), so 5,000 papers filter at once.
  var PAGE = 50;
  var cards = new Array(papers.length);
  var matches = [];
  var limit = PAGE;

  function lazyDetails(label, cls, fill) {
    var d = el("details", cls);
    d.appendChild(el("summary", null, label));
    d.addEventListener("toggle", function () {
      if (d.open && d.childNodes.length === 1) d.appendChild(fill());
    });
    return d;
  }

  function card(i) {
    if (cards[i]) return cards[i];
    var p = papers[i];
    var c = el("article", "paper");
    c.dataset.key = p.key;
    var head = el("div", "head");
    // the reading status, as a mark (the page cannot change it: `readinglist mark` does)
    var label = STATUS[p.status] || p.status;
    var mark = el("span", "state");
    mark.dataset.status = p.status;
    mark.setAttribute("role", "img");
    mark.setAttribute("aria-label", "status: " + label);
    mark.title = label;
    head.appendChild(mark);
    var body = el("div", "body");
    var title = el("div", "ptitle");
    if (p.url) {
      var a = el("a", null, p.title);
      a.href = p.url;
      a.rel = "noopener noreferrer";
      title.appendChild(a);
    } else {
      title.textContent = p.title;
    }
    if (p.generated && data.generated === "some") title.appendChild(el("span", "badge", "generated title"));
    body.appendChild(title);
    if (p.authors) body.appendChild(el("div", "meta", p.authors));
    var meta = el("div", "meta");
    meta.appendChild(el("code", null, p.key));
    var bits = [[p.venue, p.year].filter(Boolean).join(" "), label];
    if (p.priority) bits.push("priority " + p.priority);
    if (p.rating) bits.push("rating " + p.rating + "/5");
    meta.appendChild(document.createTextNode(" · " + bits.filter(Boolean).join(" · ") + " "));
    var chips = el("span", "chips");
    p.tags.forEach(function (t) {
      var b = el("button", "tag", t);
      b.type = "button";
      b.addEventListener("click", function () { toggleTag(t); });
      chips.appendChild(b);
    });
    meta.appendChild(chips);
    var copyBtn = el("button", "copy", "copy BibTeX");
    copyBtn.type = "button";
    copyBtn.addEventListener("click", function () { copy(p.bibtex, copyBtn); });
    meta.appendChild(copyBtn);
    body.appendChild(meta);
    if (p.comment) body.appendChild(el("p", "comment", p.comment));
    if (p.notes && p.notes.length) {
      var notes = el("div", "notes");
      p.notes.forEach(function (n) { build(n, notes); });
      body.appendChild(notes);
    }
    if (p.abstract) body.appendChild(lazyDetails("Abstract", "abstract", function () { return el("p", null, p.abstract); }));
    body.appendChild(lazyDetails("BibTeX", "bib", function () { return el("pre", null, p.bibtex); }));
    head.appendChild(body);
    c.appendChild(head);
    cards[i] = c;
    return c;
  }

  var more = el("button", "more", "show more");
  more.type = "button";
  more.addEventListener("click", function () { limit += PAGE; render(); });

  function render() {
    var frag = document.createDocumentFragment();
    var part = null;
    var n = Math.min(limit, matches.length);
    for (var m = 0; m < n; m++) {
      var i = matches[m], p = papers[i];
      if (data.curated && p.part !== part) {
        part = p.part;
        if (p.section) frag.appendChild(el("h2", "section", p.section));
      }
      frag.appendChild(card(i));
    }
    if (n < matches.length) {
      more.textContent = "show more (" + (matches.length - n) + " left)";
      frag.appendChild(more);
    }
    main.replaceChildren(frag);
  }

  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; }) && limit < matches.length) {
        limit += PAGE;
        render();
      }
    }, { rootMargin: "600px" }).observe(more);
  }

  // ------------------------------------------------------------------ filters, kept in the URL fragment

  function treeText(node) {
    if (typeof node === "string") return node;
    return Array.isArray(node) ? node.slice(2).map(treeText).join(" ") : "";
  }
  var haystacks = papers.map(function (p) {
    var notes = (p.notes || []).map(treeText).join("\n");
    return [p.key, p.title, p.abstract, p.tags.join(" "), p.venue, p.year, notes, p.comment || "", p.authors || ""].join("\n").toLowerCase();
  });

  function fragment() {
    var f = new URLSearchParams();
    if (q.value) f.set("q", q.value);
    Array.from(activeTags).forEach(function (t) { f.append("tag", t); });
    if (fStatus.value) f.set("status", fStatus.value);
    if (fVenue.value) f.set("venue", fVenue.value);
    if (fYear.value) f.set("year", fYear.value);
    return f.toString();
  }

  function remember() {
    var f = fragment();
    if (f === location.hash.replace(/^#/, "")) return;
    try {
      history.replaceState(null, "", f ? "#" + f : location.pathname + location.search);
    } catch (e) { /* a browser that refuses: the filters still work, unsaved */ }
  }

  function choose(select, value) {
    var ok = Array.from(select.options).some(function (o) { return o.value === value; });
    select.value = ok ? value : "";
  }

  function restore() {
    var f = new URLSearchParams(location.hash.replace(/^#/, ""));
    q.value = f.get("q") || "";
    choose(fStatus, f.get("status") || "");
    choose(fVenue, f.get("venue") || "");
    choose(fYear, f.get("year") || "");
    activeTags.clear();
    f.getAll("tag").forEach(function (t) { if (tagButtons.has(t)) activeTags.add(t); });
    tagButtons.forEach(function (b, t) { b.setAttribute("aria-pressed", activeTags.has(t) ? "true" : "false"); });
  }

  function apply() {
    var t0 = performance.now();
    var words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    var st = fStatus.value, ve = fVenue.value, ye = fYear.value;
    var tags = Array.from(activeTags);
    matches = [];
    for (var i = 0; i < papers.length; i++) {
      var p = papers[i], ok = true;
      if (st && p.status !== st) ok = false;
      else if (ve && p.venue !== ve) ok = false;
      else if (ye && String(p.year) !== ye) ok = false;
      else {
        for (var j = 0; ok && j < tags.length; j++) if (p.tags.indexOf(tags[j]) < 0) ok = false;
        for (var k = 0; ok && k < words.length; k++) if (haystacks[i].indexOf(words[k]) < 0) ok = false;
      }
      if (ok) matches.push(i);
    }
    limit = PAGE;
    render();
    readinglistCharts(papers, matches); // charts.js: the summary and charts follow the filters
    var shown = matches.length;
    countEl.textContent = shown === papers.length ? papers.length + " papers" : shown + " of " + papers.length + " papers";
    remember();
    window.readinglistLastFilterMs = performance.now() - t0;
    return shown;
  }

  q.addEventListener("input", apply);
  [fStatus, fVenue, fYear].forEach(function (s) { s.addEventListener("change", apply); });
  document.getElementById("clear").addEventListener("click", function () {
    q.value = ""; fStatus.value = ""; fVenue.value = ""; fYear.value = "";
    activeTags.clear();
    tagButtons.forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    apply();
  });
  window.addEventListener("hashchange", function () { restore(); apply(); });
  window.readinglistFilter = apply; // for tests and benchmarks: returns how many papers match
  window.readinglistMatches = function () { return matches.map(function (i) { return papers[i].key; }); };
  restore();
  apply();
  cue();
  window.readinglistReadyMs = performance.now(); // page usable: data parsed, first cards shown
})();
