/// The page around an HTML report's data: its styles and its script, inline (no network, no CDN).
enum HTMLReportPage {
    static func page(title: String, data: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
        <title>\(escapeHTML(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <header class="page"><h1>\(escapeHTML(title))</h1><div id="summary"></div></header>
        <main id="report"><noscript>This report draws its maps, timelines and tables with JavaScript: allow scripts for this file.</noscript></main>
        <script type="application/json" id="report-data">\(data)</script>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let style = #"""
    :root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328; background: #fff; }
    header.page { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); background: var(--bg); }
    h1 { font-size: 22px; margin: 0 0 8px; }
    h2 { font-size: 18px; margin: 0; display: flex; gap: 10px; align-items: center; }
    h3 { font-size: 14px; margin: 16px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
    main { padding: 8px 24px 48px; }
    code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
    .tiles { display: flex; flex-wrap: wrap; gap: 12px; margin: 6px 0 10px; }
    .tile { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; background: #fff; min-width: 110px; }
    .tile b { display: block; font-size: 22px; }
    .tile.fail b { color: var(--fail); } .tile.pass b { color: var(--pass); }
    .badge { display: inline-block; border-radius: 10px; padding: 1px 9px; font-size: 12px; font-weight: 600; color: #fff; background: var(--muted); }
    .badge.passed { background: var(--pass); } .badge.failed, .badge.invalid { background: var(--fail); } .badge.unknown { background: var(--muted); }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
    th { background: var(--bg); position: sticky; top: 0; font-weight: 600; }
    table.rows td.num, table.rows th.num { text-align: right; }
    .rows-wrap { max-height: 360px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
    section.scenario { border: 1px solid var(--line); border-radius: 8px; margin: 22px 0; padding: 14px 16px; }
    section.scenario.failed, section.scenario.invalid { border-left: 6px solid var(--fail); }
    section.scenario.passed { border-left: 6px solid var(--pass); }
    .meta { color: var(--muted); margin: 4px 0; }
    .reproduce { background: #1f2328; color: #f6f8fa; padding: 6px 10px; border-radius: 6px; display: inline-block; margin: 4px 0; user-select: all; }
    ol.failures { margin: 6px 0 10px; padding-left: 22px; }
    li.failure { margin: 6px 0; padding: 6px 10px; background: #fff5f5; border: 1px solid #ffcecb; border-radius: 6px; }
    li.failure .loc { font-weight: 600; color: var(--fail); }
    .problem { color: var(--fail); font-weight: 600; }
    a.moment { margin-left: 6px; }
    .viz { display: grid; grid-template-columns: minmax(0, 3fr) minmax(200px, 1fr); gap: 14px; align-items: start; }
    svg.map { width: 100%; height: auto; background: #fbfcfd; border: 1px solid var(--line); border-radius: 6px; display: block; }
    svg.map .hotspot { fill: rgba(46, 160, 67, .13); stroke: #2da44e; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    svg.map .hotspot-label { fill: #116329; font-size: 150px; }
    svg.map .ap { fill: #0969da; }
    svg.map .beacon { fill: #8250df; }
    svg.map .emitters.crowded { opacity: .55; }
    svg.map .track { fill: none; stroke-width: 2.5; vector-effect: non-scaling-stroke; stroke-linejoin: round; stroke-linecap: round; opacity: .85; }
    svg.map .outage { fill: none; stroke: #6e7781; stroke-width: 9; vector-effect: non-scaling-stroke; stroke-dasharray: 4 3; opacity: .55; }
    svg.map .marker { stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
    svg.map .now { pointer-events: none; }
    svg.map .now circle { stroke: #1f2328; stroke-width: 2; vector-effect: non-scaling-stroke; }
    svg.map .now text { font-size: 170px; font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: 40px; }
    svg.map .scale line { stroke: #1f2328; stroke-width: 2.5; vector-effect: non-scaling-stroke; }
    svg.map .scale text { font-size: 170px; }
    .legend { font-size: 13px; }
    .legend ul { list-style: none; margin: 0 0 10px; padding: 0; max-height: 260px; overflow: auto; }
    .legend li { display: flex; gap: 6px; align-items: center; margin: 2px 0; }
    .swatch { width: 14px; height: 14px; border-radius: 3px; display: inline-block; flex: none; }
    .swatch.round { border-radius: 50%; }
    .player { display: flex; gap: 10px; align-items: center; margin: 8px 0; }
    .player input[type=range] { flex: 1; }
    .player .clock { font-variant-numeric: tabular-nums; min-width: 150px; font-weight: 600; }
    svg.timeline { width: 100%; height: auto; display: block; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: crosshair; }
    svg.timeline text { font-size: 12px; fill: #1f2328; }
    svg.timeline .axis text { fill: var(--muted); font-size: 11px; }
    svg.timeline .grid { stroke: #eaeef2; }
    svg.timeline .cursor { stroke: var(--fail); stroke-width: 2; }
    svg.timeline .failure-mark { fill: var(--fail); }
    .note { color: var(--muted); font-size: 12.5px; }
    .filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin: 6px 0; }
    .filters select, .filters input { font: inherit; padding: 2px 6px; }
    .events-wrap { max-height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
    table.events tr { cursor: pointer; } table.events tr:hover td { background: #f3f7ff; }
    table.events td.time { font-variant-numeric: tabular-nums; white-space: nowrap; }
    button { font: inherit; padding: 2px 10px; }
    .tip { position: absolute; display: none; z-index: 10; max-width: 420px; white-space: pre-wrap; pointer-events: none; background: #1f2328; color: #fff; font-size: 12.5px; padding: 5px 8px; border-radius: 5px; box-shadow: 0 2px 8px rgba(0,0,0,.25); }
    @media (max-width: 900px) { .viz { grid-template-columns: 1fr; } }
    """#

    static let script = #"""
    "use strict";
    (function () {
      const data = JSON.parse(document.getElementById("report-data").textContent);
      const parsedMs = performance.now();
      const SVG = "http://www.w3.org/2000/svg";
      const LANES = 40, ROWS_SHOWN = 300;
      const KIND = {
        "gps-off": ["GPS off", "#6e7781", 0], "no-signal": ["no GPS signal", "#8c959f", 0], "no-fix": ["app has no position", "#afb8c1", 0],
        "offline": ["offline", "#cf222e", 1], "wifi-off": ["Wi-Fi off", "#bf8700", 1], "bluetooth-off": ["Bluetooth off", "#8250df", 1],
        "prompt": ["prompt showing", "#0969da", 2]
      };
      const CATEGORY = [
        [/^hotspot\./, "#2da44e", "hotspot entered / left"], [/^(ping|notification)\./, "#fb8500", "pings"],
        [/^(located|locate\.|location\.synced)/, "#0969da", "located"], [/^prompt\./, "#bf8700", "prompts"],
        [/^(objective|game)\./, "#8250df", "objectives"], [/^fence\./, "#1b7c83", "beacon fences"],
        [/(fail|error|unavailable|declined|skipped)/, "#cf222e", "failures and refusals"], [/./, "#57606a", "other events"]
      ];
      function category(name) { for (let i = 0; i < CATEGORY.length; i++) if (CATEGORY[i][0].test(name)) return i; return CATEGORY.length - 1; }
      function colour(i) { return "hsl(" + ((i * 137.508) % 360).toFixed(1) + ",68%," + (i % 2 ? "38%" : "46%") + ")"; }
      function el(tag, attrs, text) {
        const node = document.createElement(tag);
        if (attrs) for (const k in attrs) node.setAttribute(k, attrs[k]);
        if (text !== undefined) node.textContent = text;
        return node;
      }
      function svg(tag, attrs, text) {
        const node = document.createElementNS(SVG, tag);
        if (attrs) for (const k in attrs) node.setAttribute(k, attrs[k]);
        if (text !== undefined) node.textContent = text;
        return node;
      }
      function time(ms) {
        if (ms === null || ms === undefined) return "";
        let s = ms / 1000, out = "";
        const d = Math.floor(s / 86400); s -= d * 86400;
        const h = Math.floor(s / 3600); s -= h * 3600;
        const m = Math.floor(s / 60); s -= m * 60;
        if (d) out += d + "d";
        if (h) out += h + "h";
        if (m) out += m + "m";
        if (s || !out) out += (Math.round(s * 1000) / 1000) + "s";
        return out;
      }
      function niceStep(span, count) {
        const raw = span / count, steps = [1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000, 172800000, 604800000];
        for (const s of steps) if (s >= raw) return s;
        return steps[steps.length - 1];
      }

      // One tooltip for the whole page: elements carry data-tip (or are event markers).
      const tip = el("div", { class: "tip", role: "tooltip" });
      document.body.appendChild(tip);
      function showTip(text, ev) {
        if (!text) { tip.style.display = "none"; return; }
        tip.textContent = text;
        tip.style.display = "block";
        tip.style.left = Math.min(ev.pageX + 14, document.documentElement.scrollWidth - 420) + "px";
        tip.style.top = (ev.pageY + 14) + "px";
      }
      document.addEventListener("mousemove", function (ev) {
        const target = ev.target;
        if (!(target instanceof Element)) return showTip(null);
        const section = target.closest("section.scenario");
        const view = section ? views[Number(section.id.slice(1))] : null;
        if (view && target.classList.contains("marker")) return showTip(view.eventText(Number(target.getAttribute("data-event"))), ev);
        const tipped = target.closest("[data-tip]");
        if (tipped) return showTip(tipped.getAttribute("data-tip"), ev);
        const timeline = target.closest("svg.timeline");
        if (view && timeline) {
          const box = timeline.getBoundingClientRect(), scale = 1200 / box.width;
          const near = view.laneAt((ev.clientX - box.left) * scale, (ev.clientY - box.top) * scale);
          if (near && near.length) return showTip(near.slice(0, 8).map(view.eventText).join("\n") + (near.length > 8 ? "\n… and " + (near.length - 8) + " more" : ""), ev);
        }
        showTip(null);
      });

      // Summary.
      const summary = document.getElementById("summary");
      const c = data.counts, total = c.passed + c.failed + c.invalid + c.unknown;
      const tiles = el("div", { class: "tiles" });
      function tile(label, value, cls) { const t = el("div", { class: "tile " + (cls || "") }); t.appendChild(el("b", null, String(value))); t.appendChild(el("span", null, label)); tiles.appendChild(t); }
      tile("scenarios", total);
      tile("passed", c.passed, "pass");
      tile("failed", c.failed, c.failed ? "fail" : "");
      if (c.invalid) tile("invalid", c.invalid, "fail");
      if (c.unknown) tile("not checked", c.unknown);
      tile("virtual time", time(data.virtual));
      if (data.wall !== null) tile("wall time", data.wall + " s");
      summary.appendChild(tiles);
      const main = document.getElementById("report");
      const rowsWrap = el("div", { class: "rows-wrap" });
      const rowsTable = el("table", { class: "rows" });
      rowsTable.innerHTML = "<thead><tr><th>result</th><th>scenario</th><th>seed</th><th class=num>expectations</th><th class=num>failed</th><th class=num>virtual</th><th class=num>wall (s)</th></tr></thead>";
      const rowsBody = el("tbody");
      for (const row of data.rows) {
        const tr = el("tr", { class: "row " + row.status });
        const badge = el("td"); badge.appendChild(el("span", { class: "badge " + row.status }, row.status === "unknown" ? "not checked" : row.status)); tr.appendChild(badge);
        const name = el("td");
        if (row.section >= 0) { const a = el("a", { href: "#s" + row.section }, row.name); name.appendChild(a); } else name.appendChild(el("span", null, row.name));
        name.appendChild(el("div", { class: "note" }, row.title));
        if (row.problem) name.appendChild(el("div", { class: "problem" }, row.problem));
        if (row.section < 0) for (const f of row.failures) name.appendChild(el("div", { class: "problem" }, f.location + ": expected " + f.expected + "; observed " + f.observed));
        tr.appendChild(name);
        tr.appendChild(el("td", { class: "mono" }, row.seed === null ? "" : row.seed));
        tr.appendChild(el("td", { class: "num" }, String(row.expectations)));
        tr.appendChild(el("td", { class: "num" }, String(row.failures.length)));
        tr.appendChild(el("td", { class: "num" }, time(row.virtual)));
        tr.appendChild(el("td", { class: "num" }, row.wall === null ? "" : row.wall));
        rowsBody.appendChild(tr);
      }
      rowsTable.appendChild(rowsBody);
      rowsWrap.appendChild(rowsTable);
      main.appendChild(el("h3", null, "Scenarios (failed first)"));
      main.appendChild(rowsWrap);
      const shown = data.sections.length, ran = data.rows.filter(function (r) { return r.status !== "invalid"; }).length;
      if (shown < ran) main.appendChild(el("p", { class: "note" }, "Maps, timelines and events are shown for " + shown + " of the " + ran + " scenarios that ran (failed ones first; at most " + data.detailedLimit + "); every scenario has its row above."));

      const views = [];
      data.sections.forEach(function (s, i) { views.push(renderSection(s, i)); });

      function renderSection(s, index) {
        const section = el("section", { class: "scenario " + s.status, id: "s" + index, "data-events": String(s.events.t.length), "data-devices": String(s.devices.length) });
        const h2 = el("h2");
        h2.appendChild(el("span", { class: "badge " + s.status }, s.status === "unknown" ? "not checked" : s.status));
        h2.appendChild(el("span", null, s.title));
        section.appendChild(h2);
        const meta = [s.name];
        if (s.seed !== null) meta.push("seed " + s.seed);
        meta.push(time(s.end) + " virtual");
        if (s.wall !== null) meta.push(s.wall + " s wall");
        meta.push(s.expectations + " expectation" + (s.expectations === 1 ? "" : "s"));
        meta.push(s.devices.length + " device" + (s.devices.length === 1 ? "" : "s"));
        meta.push(s.events.t.length + " events");
        section.appendChild(el("div", { class: "meta" }, meta.join(" · ")));
        if (s.runError) section.appendChild(el("div", { class: "problem" }, "The run stopped early: " + s.runError));
        if (s.failures.length) {
          section.appendChild(el("h3", null, "Failed expectations"));
          const ol = el("ol", { class: "failures" });
          for (const f of s.failures) {
            const li = el("li", { class: "failure" });
            li.appendChild(el("div", { class: "loc mono" }, f.location));
            li.appendChild(el("div", null, "expected " + f.expected));
            li.appendChild(el("div", null, "observed " + f.observed));
            if (f.t !== null) {
              const a = el("a", { class: "moment", href: "#s" + index + "@t=" + f.t / 1000 }, "show " + time(f.t) + " on the map and timeline");
              a.addEventListener("click", function (e) { e.preventDefault(); history.replaceState(null, "", a.getAttribute("href")); view.setTime(f.t); view.player.scrollIntoView({ block: "center" }); });
              li.appendChild(a);
            }
            ol.appendChild(li);
          }
          section.appendChild(ol);
        }
        if (s.reproduce) { const p = el("div"); p.appendChild(el("code", { class: "reproduce", title: "run this scenario again" }, s.reproduce)); section.appendChild(p); }
        main.appendChild(section);
        const view = { section: section, s: s };
        drawMap(view);
        drawPlayer(view);
        drawTimeline(view);
        drawEvents(view);
        view.setTime = function (t) {
          t = Math.max(0, Math.min(s.end, t));
          view.now = t;
          view.slider.value = String(t);
          view.clock.textContent = "t = " + time(t) + " of " + time(s.end);
          moveDevices(view, t);
          const x = view.tx(t);
          view.cursor.setAttribute("x1", x); view.cursor.setAttribute("x2", x);
        };
        view.setTime(0);
        return view;
      }

      function trackPoint(track, t) {
        const n = track.length / 3;
        if (!n) return null;
        if (t <= track[0]) return [track[1], track[2]];
        if (t >= track[(n - 1) * 3]) return [track[(n - 1) * 3 + 1], track[(n - 1) * 3 + 2]];
        let lo = 0, hi = n - 1;
        while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (track[mid * 3] <= t) lo = mid; else hi = mid; }
        const t0 = track[lo * 3], t1 = track[hi * 3], f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
        return [track[lo * 3 + 1] + f * (track[hi * 3 + 1] - track[lo * 3 + 1]), track[lo * 3 + 2] + f * (track[hi * 3 + 2] - track[lo * 3 + 2])];
      }

      function subPath(track, from, to) {
        const n = track.length / 3;
        if (n < 1) return "";
        const a = trackPoint(track, from), b = trackPoint(track, to);
        let d = "M" + a[0].toFixed(0) + " " + a[1].toFixed(0);
        for (let i = 0; i < n; i++) { const t = track[i * 3]; if (t > from && t < to) d += "L" + track[i * 3 + 1] + " " + track[i * 3 + 2]; }
        return d + "L" + b[0].toFixed(0) + " " + b[1].toFixed(0);
      }

      function drawMap(view) {
        const s = view.s, m = s.map;
        const wrap = el("div", { class: "viz" });
        const map = svg("svg", { class: "map", viewBox: "0 0 " + m.w + " " + m.h, role: "img", "aria-label": "map of " + s.title });
        for (const h of m.hotspots) {
          let shape;
          if (h.c) shape = svg("circle", { class: "hotspot", cx: h.c[0], cy: h.c[1], r: Math.max(h.c[2], 1) });
          else { const pts = []; for (let i = 0; i < h.p.length; i += 2) pts.push(h.p[i] + "," + h.p[i + 1]); shape = svg("polygon", { class: "hotspot", points: pts.join(" ") }); }
          shape.setAttribute("data-tip", "hotspot " + h.n);
          map.appendChild(shape);
        }
        if (m.hotspots.length <= 40) for (const h of m.hotspots) {
          let x, y;
          if (h.c) { x = h.c[0]; y = h.c[1] - h.c[2] - 40; } else { x = h.p[0]; y = h.p[1] - 40; for (let i = 1; i < h.p.length; i += 2) if (h.p[i] - 40 < y) { y = h.p[i] - 40; x = h.p[i - 1]; } }
          map.appendChild(svg("text", { class: "hotspot-label", x: x, y: y, "text-anchor": "middle" }, h.n));
        }
        // Access points and beacons: small, and smaller and fainter in a crowded world, so tracks stay readable.
        const crowded = m.aps.length + m.beacons.length > 200, a = crowded ? 14 : 35, b = crowded ? 18 : 45;
        const emitters = svg("g", { class: "emitters" + (crowded ? " crowded" : "") });
        for (const ap of m.aps) { const r = svg("rect", { class: "ap", x: ap[0] - a, y: ap[1] - a, width: 2 * a, height: 2 * a }); r.setAttribute("data-tip", "Wi-Fi access point " + ap[2]); emitters.appendChild(r); }
        for (const bc of m.beacons) { const p = svg("path", { class: "beacon", d: "M" + bc[0] + " " + (bc[1] - b) + "l" + b + " " + b + "l-" + b + " " + b + "l-" + b + " -" + b + "z" }); p.setAttribute("data-tip", "beacon " + bc[2]); emitters.appendChild(p); }
        map.appendChild(emitters);
        const outages = s.intervals.filter(function (iv) { return KIND[iv[1]] && KIND[iv[1]][2] === 0; });
        s.tracks.forEach(function (track, i) {
          if (track.length < 3) return;
          let d = "M" + track[1] + " " + track[2];
          for (let k = 3; k < track.length; k += 3) d += "L" + track[k + 1] + " " + track[k + 2];
          if (track.length === 3) d += "l0 0";
          const path = svg("path", { class: "track", d: d, stroke: colour(i), "data-device": s.devices[i] });
          path.setAttribute("data-tip", "track of " + s.devices[i]);
          map.appendChild(path);
        });
        for (const iv of outages) {
          const track = s.tracks[iv[0]];
          if (!track || track.length < 3) continue;
          const p = svg("path", { class: "outage", d: subPath(track, iv[2], iv[3]), "data-device": s.devices[iv[0]] });
          p.setAttribute("data-tip", KIND[iv[1]][0] + " on " + s.devices[iv[0]] + ", " + time(iv[2]) + " to " + time(iv[3]));
          map.appendChild(p);
        }
        const e = s.events;
        const markerLayer = svg("g", { class: "markers" });
        map.appendChild(markerLayer);
        markerLayer.addEventListener("click", function (ev) { const k = ev.target.getAttribute("data-event"); if (k !== null) view.setTime(e.t[Number(k)]); });
        view.eventText = function (k) { return time(e.t[k]) + " " + (e.d[k] >= 0 ? s.devices[e.d[k]] + ": " : "") + s.names[e.n[k]] + (e.f[k] ? " (" + e.f[k] + ")" : ""); };
        const markerRadius = s.markers.length > 1000 ? 35 : 55;
        for (const k of s.markers) {
          const cat = category(s.names[e.n[k]]);
          markerLayer.appendChild(svg("circle", { class: "marker", cx: e.x[k], cy: e.y[k], r: markerRadius, fill: CATEGORY[cat][1], "data-event": String(k) }));
        }
        view.now = 0;
        view.nowMarkers = s.devices.map(function (id, i) {
          const g = svg("g", { class: "now", "data-device": id });
          g.appendChild(svg("circle", { r: 80, fill: colour(i) }));
          if (s.devices.length <= 20) g.appendChild(svg("text", { x: 110, y: 55 }, id));
          map.appendChild(g);
          return g;
        });
        const scale = svg("g", { class: "scale" });
        const y = m.h - 250;   // inside the map's margin, below everything drawn
        scale.appendChild(svg("line", { x1: 250, y1: y, x2: 250 + m.scale.len, y2: y }));
        scale.appendChild(svg("line", { x1: 250, y1: y - 60, x2: 250, y2: y + 60 }));
        scale.appendChild(svg("line", { x1: 250 + m.scale.len, y1: y - 60, x2: 250 + m.scale.len, y2: y + 60 }));
        scale.appendChild(svg("text", { x: 250 + m.scale.len / 2, y: y + 200, "text-anchor": "middle" }, m.scale.label));
        map.appendChild(scale);
        wrap.appendChild(map);
        const legend = el("div", { class: "legend" });
        legend.appendChild(el("h3", null, "Devices"));
        const ul = el("ul");
        s.devices.slice(0, 200).forEach(function (id, i) { const li = el("li"); li.appendChild(el("span", { class: "swatch", style: "background:" + colour(i) })); li.appendChild(el("span", null, id)); ul.appendChild(li); });
        legend.appendChild(ul);
        if (s.devices.length > 200) legend.appendChild(el("p", { class: "note" }, "and " + (s.devices.length - 200) + " more"));
        legend.appendChild(el("h3", null, "Map"));
        const keys = el("ul");
        function key(cls, colourValue, text) { const li = el("li"); li.appendChild(el("span", { class: "swatch " + cls, style: "background:" + colourValue })); li.appendChild(el("span", null, text)); keys.appendChild(li); }
        if (m.hotspots.length) key("", "rgba(46,160,67,.35)", "hotspot (" + m.hotspots.length + ")");
        if (m.aps.length) key("", "#0969da", "Wi-Fi access point (" + m.aps.length + ")");
        if (m.beacons.length) key("", "#8250df", "beacon (" + m.beacons.length + ")");
        if (outages.length) key("", "#8c959f", "GPS outage on a track");
        const used = {};
        for (const k of s.markers) used[category(s.names[e.n[k]])] = true;
        CATEGORY.forEach(function (cat, i) { if (used[i]) key("round", cat[1], cat[2]); });
        legend.appendChild(keys);
        if (s.markersLeftOut) legend.appendChild(el("p", { class: "note" }, s.markersLeftOut + " more events are in the table but not marked on the map."));
        wrap.appendChild(legend);
        view.section.appendChild(el("h3", null, "Map"));
        view.section.appendChild(wrap);
      }

      function moveDevices(view, t) {
        const s = view.s;
        view.nowMarkers.forEach(function (g, i) {
          const p = trackPoint(s.tracks[i], t);
          if (!p) { g.setAttribute("visibility", "hidden"); return; }
          g.setAttribute("visibility", "visible");
          g.setAttribute("transform", "translate(" + p[0].toFixed(0) + " " + p[1].toFixed(0) + ")");
        });
      }

      function drawPlayer(view) {
        const s = view.s;
        const player = el("div", { class: "player" });
        const play = el("button", { type: "button", title: "play the scenario" }, "▶ play");
        const slider = el("input", { type: "range", min: "0", max: String(s.end), step: "any", value: "0", "aria-label": "time" });
        const clock = el("span", { class: "clock" });
        player.appendChild(play); player.appendChild(slider); player.appendChild(clock);
        view.section.appendChild(player);
        view.player = player; view.slider = slider; view.clock = clock;
        slider.addEventListener("input", function () { view.setTime(Number(slider.value)); });
        let timer = null;
        play.addEventListener("click", function () {
          if (timer) { clearInterval(timer); timer = null; play.textContent = "▶ play"; return; }
          if (view.now >= s.end) view.setTime(0);
          play.textContent = "❚❚ pause";
          const stepMs = Math.max(s.end / 600, 1);
          timer = setInterval(function () {
            view.setTime(view.now + stepMs);
            if (view.now >= s.end) { clearInterval(timer); timer = null; play.textContent = "▶ play"; }
          }, 33);
        });
      }

      function drawTimeline(view) {
        const s = view.s, W = 1200, left = 150, right = 20, laneH = 34, top = 26;
        const chosen = view.laneDevices || s.devices.map(function (_, i) { return i; }).slice(0, LANES);
        const H = top + chosen.length * laneH + 10;
        const tl = svg("svg", { class: "timeline", viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "timeline of " + s.title });
        const span = Math.max(s.end, 1);
        view.tx = function (t) { return left + (W - left - right) * t / span; };
        const axis = svg("g", { class: "axis" });
        const step = niceStep(span, 8);
        for (let t = 0; t <= span; t += step) {
          axis.appendChild(svg("line", { class: "grid", x1: view.tx(t), x2: view.tx(t), y1: top - 6, y2: H }));
          axis.appendChild(svg("text", { x: view.tx(t), y: 14, "text-anchor": "middle" }, time(t)));
        }
        tl.appendChild(axis);
        const lane = {};
        chosen.forEach(function (d, row) { lane[d] = row; });
        chosen.forEach(function (d, row) {
          const y = top + row * laneH;
          tl.appendChild(svg("text", { x: 6, y: y + 19 }, s.devices[d].length > 20 ? s.devices[d].slice(0, 19) + "…" : s.devices[d]));
          tl.appendChild(svg("line", { class: "grid", x1: left, x2: W - right, y1: y + laneH, y2: y + laneH }));
        });
        for (const iv of s.intervals) {
          if (!(iv[0] in lane)) continue;
          const k = KIND[iv[1]]; if (!k) continue;
          const y = top + lane[iv[0]] * laneH + 2 + k[2] * 8;
          const r = svg("rect", { class: "interval " + iv[1], x: view.tx(iv[2]), y: y, width: Math.max(view.tx(iv[3]) - view.tx(iv[2]), 2), height: 7, fill: k[1], rx: 2 });
          r.setAttribute("data-tip", k[0] + " on " + s.devices[iv[0]] + ": " + time(iv[2]) + " to " + time(iv[3]) + (iv[4] ? " — " + iv[4] : ""));
          tl.appendChild(r);
        }
        // Event ticks: one path per lane and kind of event (one tick per pixel), details on hover.
        const e = s.events;
        const tickPaths = {}, laneEvents = {};
        for (let k = 0; k < e.t.length; k++) {
          const d = e.d[k];
          if (!(d in lane)) continue;
          const name = s.names[e.n[k]];
          if (name === "step" || name === "marker.moved") continue;
          (laneEvents[d] = laneEvents[d] || []).push(k);
          const x = Math.round(view.tx(e.t[k]) * 2) / 2, cat = category(name), key = d + ":" + cat;
          const entry = tickPaths[key] || (tickPaths[key] = { d: [], last: -1, cat: cat, y: top + lane[d] * laneH + 25 });
          if (x === entry.last) continue;
          entry.last = x;
          entry.d.push("M" + x + " " + entry.y + "v8");
        }
        for (const key in tickPaths) {
          const entry = tickPaths[key];
          tl.appendChild(svg("path", { class: "ticks", d: entry.d.join(""), stroke: CATEGORY[entry.cat][1], "stroke-width": 2.5 }));
        }
        view.laneAt = function (x, y) {
          const row = Math.floor((y - top) / laneH);
          if (row < 0 || row >= chosen.length) return null;
          const events = laneEvents[chosen[row]] || [], near = [];
          for (const k of events) if (Math.abs(view.tx(e.t[k]) - x) <= 3) near.push(k);
          return near;
        };
        for (const f of s.failures) {
          if (f.t === null) continue;
          const m = svg("path", { class: "failure-mark", d: "M" + view.tx(f.t) + " " + (top - 2) + "l-6 -9h12z" });
          m.setAttribute("data-tip", "failed: expected " + f.expected);
          tl.appendChild(m);
        }
        view.cursor = svg("line", { class: "cursor", x1: left, x2: left, y1: top - 8, y2: H });
        tl.appendChild(view.cursor);
        tl.addEventListener("click", function (ev) {
          const box = tl.getBoundingClientRect();
          const x = (ev.clientX - box.left) * W / box.width;
          if (x >= left) view.setTime((x - left) / (W - left - right) * span);
        });
        const heading = el("h3", null, "Timeline");
        const keys = el("div", { class: "filters note" });
        for (const k in KIND) { const sw = el("span", { class: "swatch", style: "background:" + KIND[k][1] }); keys.appendChild(sw); keys.appendChild(el("span", null, KIND[k][0])); }
        keys.appendChild(el("span", null, "· ticks: events (hover for details) · click to move the time"));
        if (view.timeline) { view.timeline.replaceWith(tl); view.timelineNote.textContent = laneNote(s, chosen); }
        else {
          view.section.appendChild(heading); view.section.appendChild(keys); view.section.appendChild(tl);
          view.timelineNote = el("p", { class: "note" }, laneNote(s, chosen));
          view.section.appendChild(view.timelineNote);
        }
        view.timeline = tl;
      }
      function laneNote(s, chosen) { return chosen.length < s.devices.length ? "Lanes for " + chosen.length + " of " + s.devices.length + " devices: pick a device in the event filter below to see its lane." : ""; }

      function drawEvents(view) {
        const s = view.s, e = s.events;
        view.section.appendChild(el("h3", null, "Events"));
        const filters = el("div", { class: "filters" });
        const device = el("select", { "aria-label": "device", class: "device-filter" });
        device.appendChild(el("option", { value: "" }, "every device"));
        device.appendChild(el("option", { value: "-1" }, "(world)"));
        s.devices.forEach(function (id, i) { device.appendChild(el("option", { value: String(i) }, id)); });
        const name = el("select", { "aria-label": "event", class: "event-filter" });
        name.appendChild(el("option", { value: "" }, "every event"));
        s.names.map(function (n, i) { return [n, i]; }).sort(function (a, b) { return a[0] < b[0] ? -1 : 1; }).forEach(function (p) { name.appendChild(el("option", { value: String(p[1]) }, p[0])); });
        const text = el("input", { type: "search", placeholder: "text in the details", "aria-label": "text" });
        const count = el("span", { class: "note" });
        filters.appendChild(device); filters.appendChild(name); filters.appendChild(text); filters.appendChild(count);
        view.section.appendChild(filters);
        const wrap = el("div", { class: "events-wrap" });
        const table = el("table", { class: "events" });
        table.innerHTML = "<thead><tr><th>time</th><th>device</th><th>event</th><th>details</th></tr></thead>";
        const body = el("tbody");
        table.appendChild(body);
        wrap.appendChild(table);
        view.section.appendChild(wrap);
        const more = el("button", { type: "button" }, "show more");
        view.section.appendChild(more);
        let limit = ROWS_SHOWN, matches = [];
        function refresh() {
          const d = device.value === "" ? null : Number(device.value), n = name.value === "" ? null : Number(name.value), q = text.value.toLowerCase();
          matches = [];
          for (let k = 0; k < e.t.length; k++) {
            if (d !== null && e.d[k] !== d) continue;
            if (n !== null && e.n[k] !== n) continue;
            if (q && e.f[k].toLowerCase().indexOf(q) < 0 && s.names[e.n[k]].indexOf(q) < 0) continue;
            matches.push(k);
          }
          body.textContent = "";
          const frag = document.createDocumentFragment();
          for (let i = 0; i < Math.min(limit, matches.length); i++) {
            const k = matches[i];
            const tr = el("tr", { "data-t": String(e.t[k]) });
            tr.appendChild(el("td", { class: "time" }, time(e.t[k])));
            tr.appendChild(el("td", null, e.d[k] >= 0 ? s.devices[e.d[k]] : ""));
            tr.appendChild(el("td", { class: "mono" }, s.names[e.n[k]]));
            tr.appendChild(el("td", { class: "mono" }, e.f[k]));
            frag.appendChild(tr);
          }
          body.appendChild(frag);
          count.textContent = matches.length + " of " + e.t.length + " events" + (matches.length > limit ? " (first " + limit + " shown)" : "");
          more.style.display = matches.length > limit ? "" : "none";
        }
        body.addEventListener("click", function (ev) { const tr = ev.target.closest("tr"); if (tr) view.setTime(Number(tr.getAttribute("data-t"))); });
        more.addEventListener("click", function () { limit += 1000; refresh(); });
        function filterChanged() {
          limit = ROWS_SHOWN; refresh();
          const d = device.value;
          if (s.devices.length > LANES) { view.laneDevices = d !== "" && d !== "-1" ? [Number(d)] : null; drawTimeline(view); view.setTime(view.now); }
        }
        device.addEventListener("change", filterChanged);
        name.addEventListener("change", filterChanged);
        text.addEventListener("input", filterChanged);
        view.filter = function (deviceId, eventName) {
          if (deviceId !== undefined) { const i = s.devices.indexOf(deviceId); device.value = i >= 0 ? String(i) : ""; }
          if (eventName !== undefined) { const i = s.names.indexOf(eventName); name.value = i >= 0 ? String(i) : ""; }
          filterChanged();
        };
        refresh();
      }

      // #s3@t=12.5&device=alice&event=ping.sent: a moment and a filter in one scenario (links can be shared).
      function applyHash() {
        const m = /^#s(\d+)(?:@(.*))?$/.exec(location.hash);
        if (!m || !views[Number(m[1])]) return;
        const view = views[Number(m[1])];
        const params = new URLSearchParams(m[2] || "");
        if (params.has("device") || params.has("event")) view.filter(params.get("device") || "", params.get("event") || "");
        if (params.has("t")) view.setTime(Number(params.get("t")) * 1000);
        if (view.section.getBoundingClientRect().top > window.innerHeight / 2) view.section.scrollIntoView();
      }
      window.addEventListener("hashchange", applyHash);
      applyHash();
      document.body.setAttribute("data-ready", "true");
      // Milliseconds from the start of navigation until the report was drawn (read by the browser test).
      document.body.setAttribute("data-ready-ms", String(Math.round(performance.now())));
      requestAnimationFrame(function () { requestAnimationFrame(function () { document.body.setAttribute("data-painted-ms", String(Math.round(performance.now()))); }); });
    })();
    """#
}
