"use strict";
// The page's summary line and progress charts, drawn for the papers shown (page.js calls
// readinglistCharts(papers, shown) after each filter). Text goes in through textContent only.
var readinglistCharts = (function () {
  var SVG = "http://www.w3.org/2000/svg";
  var papers = [];
  var summaryEl = document.getElementById("summary");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  function summarize(shown) {
    var c = { read: 0, reading: 0, unread: 0, skipped: 0 };
    shown.forEach(function (i) { c[papers[i].status] = (c[papers[i].status] || 0) + 1; });
    var parts = [c.read + " read", c.reading + " reading", c.unread + " to read"];
    if (c.skipped) parts.push(c.skipped + " skipped");
    var of = shown.length === papers.length ? papers.length + " papers" : shown.length + " of " + papers.length + " papers";
    summaryEl.textContent = of + ": " + parts.join(", ") + ".";
    return c;
  }

  function readOverTime(shown) {
    var box = document.getElementById("chart-time");
    var dates = [], undated = 0;
    shown.forEach(function (i) {
      var p = papers[i];
      if (p.status !== "read") return;
      if (p.finished) dates.push(p.finished.slice(0, 10)); else undated++;
    });
    dates.sort();
    var w = 320, h = 120, padL = 30, padB = 22, padT = 10, padR = 10;
    var top = dates.length + undated;
    var chart = svg("svg", { "class": "chart", viewBox: "0 0 " + w + " " + h, role: "img", "aria-labelledby": "ch-time" });
    chart.appendChild(svg("title", { id: "ch-time" }, "Papers read over time: " + top + " of " + shown.length));
    if (!dates.length) {
      chart.appendChild(svg("text", { x: w / 2, y: h / 2, "text-anchor": "middle", "class": "muted" },
        top ? top + " read, no dates recorded" : "no paper read yet"));
      box.replaceChildren(chart);
      return;
    }
    var day = function (d) { return Date.parse(d + "T00:00:00Z") / 86400000; };
    var first = day(dates[0]), span = Math.max(day(dates[dates.length - 1]) - first, 1);
    var x = function (d) { return padL + (w - padL - padR) * ((day(d) - first) / span); };
    var y = function (n) { return h - padB - (h - padB - padT) * (n / Math.max(top, 1)); };
    var pts = [[x(dates[0]), y(undated)]], count = undated;
    dates.forEach(function (d) {
      count++;
      pts.push([x(d), pts[pts.length - 1][1]]);
      pts.push([x(d), y(count)]);
    });
    pts.push([w - padR, y(count)]);
    var path = "M" + pts.map(function (pt) { return pt[0].toFixed(1) + "," + pt[1].toFixed(1); }).join(" L");
    chart.appendChild(svg("line", { x1: padL, y1: h - padB, x2: w - padR, y2: h - padB, "class": "axis" }));
    chart.appendChild(svg("line", { x1: padL, y1: padT, x2: padL, y2: h - padB, "class": "axis" }));
    chart.appendChild(svg("path", { d: path, "class": "line" }));
    chart.appendChild(svg("text", { x: padL - 4, y: padT + 8, "text-anchor": "end", "class": "muted" }, top));
    chart.appendChild(svg("text", { x: padL - 4, y: h - padB, "text-anchor": "end", "class": "muted" }, 0));
    chart.appendChild(svg("text", { x: padL, y: h - 6, "class": "muted" }, dates[0]));
    chart.appendChild(svg("text", { x: w - padR, y: h - 6, "text-anchor": "end", "class": "muted" }, dates[dates.length - 1]));
    box.replaceChildren(chart);
  }

  // progress per tag: HTML rows (a name, a bar, read/total), so no name or count is ever cut
  var TAG_ROWS = 10;
  function perTag(shown) {
    var box = document.getElementById("chart-tags");
    var total = new Map(), read = new Map(), reading = new Map();
    shown.forEach(function (i) {
      var p = papers[i];
      p.tags.forEach(function (t) {
        total.set(t, (total.get(t) || 0) + 1);
        if (p.status === "read") read.set(t, (read.get(t) || 0) + 1);
        if (p.status === "reading") reading.set(t, (reading.get(t) || 0) + 1);
      });
    });
    var tags = Array.from(total.keys()).sort(function (a, b) { return total.get(b) - total.get(a) || (a < b ? -1 : 1); });
    var frag = document.createDocumentFragment();
    if (!tags.length) frag.appendChild(el("p", "muted", "no tags"));
    var biggest = tags.length ? total.get(tags[0]) : 1;
    tags.slice(0, TAG_ROWS).forEach(function (t) {
      var n = total.get(t), r = read.get(t) || 0, g = reading.get(t) || 0;
      var row = el("div", "tagrow");
      row.dataset.tag = t;
      row.appendChild(el("span", "tname", t));
      var bar = el("span", "bar");
      bar.setAttribute("role", "img");
      bar.setAttribute("aria-label", t + ": " + r + " read, " + g + " reading, " + (n - r - g) + " other of " + n);
      var full = el("span", "todo");
      full.style.width = (100 * n / biggest).toFixed(2) + "%";
      var done = el("span", "done");
      done.style.width = (100 * r / n).toFixed(2) + "%";
      var doing = el("span", "doing");
      doing.style.width = (100 * g / n).toFixed(2) + "%";
      full.appendChild(done);
      full.appendChild(doing);
      bar.appendChild(full);
      row.appendChild(bar);
      row.appendChild(el("span", "tcount", r + "/" + n));
      frag.appendChild(row);
    });
    if (tags.length > TAG_ROWS) frag.appendChild(el("p", "muted", "and " + (tags.length - TAG_ROWS) + " more tags"));
    box.replaceChildren(frag);
  }

  function describe(shown) {
    summarize(shown);
    readOverTime(shown);
    perTag(shown);
    var note = shown.length === papers.length ? "" : shown.length === 1 ? " (the paper shown)" : " (the " + shown.length + " papers shown)";
    document.getElementById("cap-time").textContent = "Papers read over time" + note;
    document.getElementById("cap-tags").textContent = "Progress per tag" + note;
  }


  return function (all, shown) {
    papers = all;
    describe(shown);
  };
})();
