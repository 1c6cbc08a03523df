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
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328; background: #fff; overflow-wrap: break-word; }
    header.page { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); background: var(--bg); }
    h1 { font-size: 22px; margin: 0 0 8px; }
    h2 { font-size: 18px; margin: 0; }
    h3 { font-size: 14px; margin: 16px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
    main { padding: 8px 24px 48px; }
    code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
    .tiles { display: flex; flex-wrap: wrap; gap: 10px; margin: 6px 0 10px; }
    .tile { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; background: #fff; min-width: 100px; }
    .tile b { display: block; font-size: 22px; }
    .tile.fail b { color: var(--fail); } .tile.pass b { color: var(--pass); } .tile.warn b { color: var(--warn); }
    .badge { display: inline-block; border-radius: 10px; padding: 1px 9px; font-size: 12px; font-weight: 600; color: #fff; background: var(--muted); white-space: nowrap; }
    .badge.passed { background: var(--pass); } .badge.failed, .badge.invalid, .badge.failing { background: var(--fail); } .badge.flaky { background: var(--warn); }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
    th { background: var(--bg); position: sticky; top: 0; font-weight: 600; white-space: nowrap; }
    td.num, th.num { text-align: right; }
    .rows-wrap { max-height: 360px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
    .toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 10px 0 6px; position: sticky; top: 0; z-index: 5; background: #fff; padding: 6px 0; border-bottom: 1px solid #eaeef2; }
    .toolbar input[type=search] { flex: 1 1 220px; min-width: 0; font: inherit; padding: 4px 8px; }
    .toolbar select, .toolbar button { font: inherit; }
    .filtered-out { display: none !important; }
    section.scenario { border: 1px solid var(--line); border-radius: 8px; margin: 16px 0; padding: 10px 14px; scroll-margin-top: 60px; }
    section.scenario.failed, section.scenario.invalid { border-left: 6px solid var(--fail); }
    section.scenario.passed { border-left: 6px solid var(--pass); }
    section.scenario.collapsed > .body { display: none; }
    button.toggle { all: unset; cursor: pointer; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; width: 100%; }
    button.toggle:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
    button.toggle::before { content: "▾"; color: var(--muted); width: 12px; }
    section.collapsed button.toggle::before { content: "▸"; }
    .meta { color: var(--muted); margin: 4px 0; }
    .reproduce { background: #1f2328; color: #f6f8fa; padding: 6px 10px; border-radius: 6px; display: inline-block; margin: 4px 0; user-select: all; max-width: 100%; white-space: pre-wrap; word-break: break-all; }
    ol.failures { margin: 6px 0 10px; padding-left: 22px; }
    li.failure { margin: 6px 0; padding: 6px 10px; background: #fff5f5; border: 1px solid #ffcecb; border-radius: 6px; }
    li.failure .loc { font-weight: 600; color: var(--fail); }
    .problem { color: var(--fail); font-weight: 600; }
    .first-failure { color: var(--fail); font-size: 12.5px; overflow-wrap: anywhere; }
    a.moment { margin-left: 6px; }
    .steps { border: 1px solid var(--line); border-radius: 6px; max-height: 520px; overflow: auto; }
    .step { display: grid; grid-template-columns: 22px 76px minmax(0, 1fr); gap: 2px 8px; padding: 5px 8px; border-bottom: 1px solid #eaeef2; cursor: pointer; }
    .step:hover, .step.active { background: #f3f7ff; }
    .step .icon { font-weight: 700; text-align: center; }
    .step.done .icon, .step.passed .icon { color: var(--pass); }
    .step.failed .icon { color: var(--fail); } .step.skipped .icon, .step.refused .icon { color: var(--warn); }
    .step .when { font-variant-numeric: tabular-nums; color: var(--muted); }
    .step .what b { font-weight: 600; }
    .step .detail { grid-column: 3; color: var(--muted); font-size: 13px; }
    .step .detail.note { color: var(--warn); } .step.failed .detail.note, .step.check.failed .detail { color: var(--fail); }
    .step details { grid-column: 3; font-size: 12.5px; }
    .step details ul { margin: 4px 0; padding-left: 16px; }
    .step details li { cursor: pointer; }
    .viz { display: grid; grid-template-columns: minmax(0, 3fr) minmax(220px, 1fr); gap: 14px; align-items: start; }
    .map-box { position: relative; }
    .map-tools { position: absolute; top: 6px; right: 6px; display: flex; gap: 4px; }
    .map-tools button { font: 600 14px/1 system-ui, sans-serif; width: 30px; height: 30px; padding: 0; border: 1px solid var(--line); border-radius: 5px; background: rgba(255,255,255,.92); cursor: pointer; }
    svg.map { width: 100%; height: auto; max-height: 78vh; background: #fbfcfd; border: 1px solid var(--line); border-radius: 6px; display: block; touch-action: pan-y; cursor: grab; user-select: none; --k: 1; }
    svg.map.zoomed { touch-action: none; }
    svg.map.dragging { cursor: grabbing; }
    .sized { transform-box: fill-box; transform-origin: center; scale: var(--k, 1); }
    .street { fill: none; vector-effect: non-scaling-stroke; stroke-linecap: round; stroke-linejoin: round; }
    .street.road { stroke: #c9ced6; stroke-width: 2.6; }
    .street.path { stroke: #dde1e6; stroke-width: 1.4; stroke-dasharray: 3 2; }
    svg.map .place { fill: #8c959f; }
    svg.map .place-label { fill: #57606a; font-size: calc(120px * var(--k)); }
    svg.map .hotspot { fill: rgba(46, 160, 67, .13); stroke: #2da44e; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    svg.map .hotspot-label { fill: #116329; font-size: calc(150px * var(--k)); }
    svg.map .ap { fill: #0969da; }
    svg.map .beacon { fill: #8250df; }
    svg.map .emitters.crowded { opacity: .55; }
    svg.map .track { fill: none; stroke-width: 2.5; vector-effect: non-scaling-stroke; stroke-linejoin: round; stroke-linecap: round; opacity: .85; }
    svg.map .marker-trail { fill: none; stroke-width: 1.5; vector-effect: non-scaling-stroke; stroke-dasharray: 2 4; stroke-linecap: round; opacity: .9; }
    svg.map .outage { fill: none; stroke: #6e7781; stroke-width: 9; vector-effect: non-scaling-stroke; stroke-dasharray: 4 3; opacity: .55; }
    svg.map .check-area { stroke-width: 2; vector-effect: non-scaling-stroke; stroke-dasharray: 6 4; }
    svg.map .check.passed .check-area { fill: rgba(26, 127, 55, .08); stroke: var(--pass); }
    svg.map .check.failed .check-area { fill: rgba(207, 34, 46, .1); stroke: var(--fail); }
    svg.map .check.active .check-area { stroke-width: 4; stroke-dasharray: none; }
    svg.map .check .near { stroke: #1f2328; stroke-width: 2; vector-effect: non-scaling-stroke; }
    svg.map .check .seen-line { stroke: var(--fail); stroke-width: 1.5; vector-effect: non-scaling-stroke; stroke-dasharray: 4 3; }
    svg.map .check.passed .seen-line { stroke: var(--pass); }
    svg.map .check .seen { fill: #1f2328; stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
    svg.map .check-label { font-size: calc(130px * var(--k)); font-weight: 700; paint-order: stroke; stroke: #fff; stroke-width: calc(30px * var(--k)); }
    svg.map .check.passed .check-label { fill: var(--pass); } svg.map .check.failed .check-label { fill: var(--fail); }
    svg.map .marker { stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
    svg.map .now, svg.map .app-marker { pointer-events: none; }
    svg.map .now circle { stroke: #1f2328; stroke-width: 2; vector-effect: non-scaling-stroke; }
    svg.map .now text { font-size: calc(170px * var(--k)); font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: calc(40px * var(--k)); }
    svg.map .app-marker path { stroke: #fff; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    svg.map .scale line { stroke: #1f2328; stroke-width: 2.5; vector-effect: non-scaling-stroke; }
    svg.map .scale text { font-size: calc(170px * var(--k)); paint-order: stroke; stroke: #fbfcfd; stroke-width: calc(30px * var(--k)); }
    .legend { font-size: 13px; min-width: 0; }
    .legend ul { list-style: none; margin: 0 0 10px; padding: 0; max-height: 260px; overflow: auto; }
    .legend li { display: flex; gap: 6px; align-items: center; margin: 2px 0; }
    .swatch { width: 14px; height: 14px; border-radius: 3px; display: inline-block; flex: none; }
    .swatch.round { border-radius: 50%; } .swatch.ring { background: none !important; border: 2px dashed; border-radius: 50%; }
    .app-panel { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 0 0 10px; background: #fff; }
    .app-panel .device { margin: 6px 0; }
    .app-panel .device b { display: flex; gap: 6px; align-items: center; }
    .app-panel dl { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 1px 8px; margin: 2px 0 0 20px; }
    .app-panel dt { color: var(--muted); } .app-panel dd { margin: 0; }
    .app-panel .idle { color: var(--muted); margin-left: 20px; }
    .player { display: flex; flex-wrap: wrap; gap: 8px 10px; align-items: center; margin: 8px 0; }
    .player input[type=range] { flex: 1 1 160px; min-width: 0; }
    .player .clock { font-variant-numeric: tabular-nums; font-weight: 600; }
    svg.timeline { width: 100%; height: auto; display: block; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: crosshair; }
    svg.timeline text { font-size: 12px; fill: #1f2328; }
    svg.timeline .axis text { fill: var(--muted); font-size: 11px; }
    svg.timeline .grid { stroke: #eaeef2; }
    svg.timeline .cursor { stroke: var(--fail); stroke-width: 2; }
    svg.timeline .failure-mark { fill: var(--fail); }
    .note { color: var(--muted); font-size: 12.5px; }
    .filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin: 6px 0; }
    .filters select, .filters input { font: inherit; padding: 2px 6px; max-width: 100%; }
    .events-wrap { max-height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
    table.events tr { cursor: pointer; } table.events tr:hover td { background: #f3f7ff; }
    table.events td.time { font-variant-numeric: tabular-nums; white-space: nowrap; }
    table.events td:nth-child(-n+3) { white-space: nowrap; }
    table.events td:nth-child(4) { overflow-wrap: anywhere; min-width: 12em; }
    table.network td:nth-child(3) { white-space: normal; overflow-wrap: anywhere; min-width: 10em; } table.network td:nth-child(4) { min-width: 0; }
    section.comparison { border: 1px solid var(--line); border-left: 4px solid #bf8700; border-radius: 6px; padding: 10px 14px; margin: 14px 0; background: #fff; }
    section.comparison h2 { font-size: 16px; margin: 0 0 4px; } section.comparison h4 { margin: 8px 0 4px; font-size: 13px; }
    .cmp-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
    .cmp-side.pass h4, .cmp-figure.pass figcaption { color: #1a7f37; } .cmp-side.fail h4, .cmp-figure.fail figcaption { color: #cf222e; }
    .cmp-figure { margin: 0; min-width: 0; } .cmp-figure figcaption { font-weight: 600; font-size: 13px; margin: 2px 0; }
    .cmp-events-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
    table.cmp-events td { font-size: 12px; } table.cmp-events td:nth-child(4) { white-space: normal; overflow-wrap: anywhere; min-width: 8em; }
    table.cmp-events tr.diverged td { background: #fff8c5; } table.cmp-events tr.first-diverged td { background: #ffe58f; font-weight: 600; }
    svg.cmp-map { width: 100%; height: auto; max-height: 360px; aspect-ratio: 4 / 3; display: block; border: 1px solid var(--line); border-radius: 6px; background: #fbfcfd; }
    .divergence { margin: 6px 0; font-weight: 600; } .cmp-failure { margin: 6px 0; padding: 6px 8px; background: #fff5f5; border-radius: 6px; overflow-wrap: anywhere; }
    .history-wrap { overflow-x: auto; } table.history { width: auto; min-width: min(100%, 640px); } table.history td.cell { text-align: center; font-weight: 700; min-width: 2.2em; }
    table.history td.cell.passed { color: #1a7f37; } table.history td.cell.failed, table.history td.cell.invalid { color: #cf222e; background: #fff5f5; }
    table.history td.cell.flaky { color: #9a6700; background: #fff8c5; } table.history td.cell.absent { color: var(--muted); }
    table.history td.name { overflow-wrap: anywhere; } .history-runs { margin: 4px 0; padding-left: 2.2em; overflow-wrap: anywhere; }
    @media (max-width: 600px) { .cmp-grid { grid-template-columns: minmax(0, 1fr); } section.comparison { padding: 8px; } }
    table.network tr.lost td { background: #fff5f5; } table.network .lost-part { margin-left: 6px; }
    .step .detail.mono, li.failure .loc { overflow-wrap: anywhere; }
    button { font: inherit; padding: 2px 10px; }
    .tip { position: absolute; display: none; z-index: 10; max-width: min(420px, 90vw); white-space: pre-wrap; pointer-events: none; background: #1f2328; color: #fff; font-size: 12.5px; padding: 5px 8px; border-radius: 5px; box-shadow: 0 2px 8px rgba(0,0,0,.25); }
    @media (max-width: 900px) { .viz { grid-template-columns: minmax(0, 1fr); } }
    @media (max-width: 600px) {
      header.page { padding: 10px 10px 6px; } main { padding: 6px 10px 32px; } h1 { font-size: 19px; }
      section.scenario { padding: 8px 8px; } .tile { min-width: 0; padding: 4px 10px; } .tile b { font-size: 18px; }
      .step { grid-template-columns: 14px 46px minmax(0, 1fr); gap: 2px 6px; padding: 5px 6px; }
      .toolbar { position: static; } section.scenario { scroll-margin-top: 0; }
      th, td { padding: 3px 5px; }
      table.rows .hide-narrow { display: none; }
      table.groups thead { display: none; }
      table.groups tr { display: block; padding: 6px 2px; border-bottom: 1px solid #eaeef2; }
      table.groups td { display: inline-block; border: 0; padding: 1px 4px; text-align: left; }
      table.groups td.name { display: block; }
      table.groups td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-family: system-ui, sans-serif; }
    }
    """#

    static let script = #"""
    "use strict";
    (function () {
      const data = JSON.parse(document.getElementById("report-data").textContent);
      const SVG = "http://www.w3.org/2000/svg";
      const LANES = 40, ROWS_SHOWN = 300, STEPS_SHOWN = 200, PANEL_DEVICES = 6;
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
      const STATUS_ICON = { done: "✓", passed: "✓", failed: "✗", skipped: "⤼", refused: "!" };
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
      // Wall seconds for people: "2.35 s", "14 ms", "0.4 ms", "< 0.1 ms" (never "0 s" for a run that took time).
      function wallText(text) {
        const v = Number(text);
        if (v >= 10) return v.toFixed(1) + " s";
        if (v >= 1) return v.toFixed(2) + " s";
        if (v >= 0.01) return Math.round(v * 1000) + " ms";
        if (v >= 0.0001) return (Math.round(v * 10000) / 10) + " ms";
        return "< 0.1 ms";
      }
      function niceStep(span, count) {
        const raw = span / count, steps = [1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000, 172800000, 604800000];
        for (const s of steps) if (s >= raw) return s;
        return steps[steps.length - 1];
      }
      function plural(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }
      // The entries of `sorted` (increasing numbers) that are > lo and < hi.
      function between(sorted, lo, hi, key) {
        function first(bound) { let a = 0, b = sorted.length; while (a < b) { const m = (a + b) >> 1; if ((key ? key(sorted[m]) : sorted[m]) <= bound) a = m + 1; else b = m; } return a; }
        return sorted.slice(first(lo), first(hi - 1));
      }
      // Per device (and -1 for the world), its events' numbers and its app's displays (entries of s.ui), in order.
      function indexByDevice(view) {
        if (view.byDevice) return;
        const s = view.s, e = s.events;
        view.byDevice = { "-1": [] }; view.uiByDevice = { "-1": [] };
        s.devices.forEach(function (_, i) { view.byDevice[i] = []; view.uiByDevice[i] = []; });
        for (let k = 0; k < e.t.length; k++) view.byDevice[e.d[k]].push(k);
        for (const u of s.ui) view.uiByDevice[e.d[u[0]]].push(u);
        view.closers = {};
        for (const u of s.ui) if (!u[3]) view.closers[u[1] + ":" + u[2]] = true;
      }
      // The fields of an event's details text ("lat=60.1 lon=24.9 accuracy=5"), for the panel.
      function field(text, key) { const m = new RegExp("(?:^| )" + key + "=([^ ]*)").exec(text); return m ? m[1] : null; }

      // One tooltip for the whole page: elements carry data-tip (or are event markers).
      const tip = el("div", { class: "tip", role: "tooltip" });
      document.body.appendChild(tip);
      function showTip(text, ev) {
        if (!text) { tip.style.display = "none"; return; }
        tip.textContent = text;
        tip.style.display = "block";
        tip.style.left = Math.max(0, Math.min(ev.pageX + 14, document.documentElement.clientWidth - tip.offsetWidth - 4)) + "px";
        tip.style.top = (ev.pageY + 14) + "px";
      }
      const views = [];
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
          const box = timeline.getBoundingClientRect(), scale = view.timelineWidth / box.width;
          const near = view.laneAt((ev.clientX - box.left) * scale, (ev.clientY - box.top) * scale);
          if (near && near.length) return showTip(near.slice(0, 8).map(view.eventText).join("\n") + (near.length > 8 ? "\n… and " + (near.length - 8) + " more" : ""), ev);
        }
        showTip(null);
      });

      // Summary tiles.
      const summary = document.getElementById("summary");
      const c = data.counts, total = c.passed + c.failed + c.invalid + c.unknown;
      const tiles = el("div", { class: "tiles" });
      function tile(label, value, cls) { const t = el("div", { class: "tile " + (cls || "") }); t.appendChild(el("b", null, String(value))); t.appendChild(el("span", null, label)); tiles.appendChild(t); }
      const swept = data.groups.length > 0;
      const historyOnly = total === 0 && data.history !== null;
      if (historyOnly) {
        tile("runs in the history", data.history.runs.length);
        tile("scenarios", data.history.scenarios.length);
        const unstable = data.history.scenarios.filter(function (s) { return s.verdict === "unstable"; }).length, failing = data.history.scenarios.filter(function (s) { return s.verdict === "failing"; }).length;
        tile("unstable", unstable, unstable ? "warn" : "");
        tile("always failing", failing, failing ? "fail" : "");
      } else tile(swept ? "runs" : "scenarios", total);
      if (swept) tile("scenarios swept", data.groups.length);
      if (!historyOnly) {
        tile("passed", c.passed, "pass");
        tile("failed", c.failed, c.failed ? "fail" : "");
      }
      if (swept) {
        const flaky = data.groups.filter(function (g) { return g.status === "flaky"; }).length, failing = data.groups.filter(function (g) { return g.status === "failing"; }).length;
        tile("flaky", flaky, flaky ? "warn" : "");
        tile("always failing", failing, failing ? "fail" : "");
      }
      if (c.invalid) tile("invalid", c.invalid, "fail");
      if (c.unknown) tile("not checked", c.unknown);
      if (!historyOnly) tile("virtual time", time(data.virtual));
      if (data.wall !== null) tile("wall time", wallText(data.wall));
      summary.appendChild(tiles);
      const main = document.getElementById("report");

      // The toolbar: a filter over scenarios, and collapsing them all.
      const toolbar = el("div", { class: "toolbar" });
      const search = el("input", { type: "search", class: "scenario-filter", placeholder: "filter scenarios: name, title, seed, status", "aria-label": "filter scenarios" });
      const statusFilter = el("select", { class: "status-filter", "aria-label": "status" });
      for (const o of [["", "any result"], ["failed", "failed"], ["passed", "passed"]].concat(swept ? [["flaky", "flaky"], ["failing", "always failing"]] : [])) statusFilter.appendChild(el("option", { value: o[0] }, o[1]));
      const expandAll = el("button", { type: "button", class: "expand-all" }, "expand all"), collapseAll = el("button", { type: "button", class: "collapse-all" }, "collapse all");
      const shownCount = el("span", { class: "note shown-count" });
      toolbar.appendChild(search); toolbar.appendChild(statusFilter); toolbar.appendChild(expandAll); toolbar.appendChild(collapseAll); toolbar.appendChild(shownCount);
      main.appendChild(toolbar);

      // The summary: one row per scenario run, or per scenario of a sweep with its failing seeds.
      const filterables = [];   // [element, text to match, statuses]
      const rowsWrap = el("div", { class: "rows-wrap" });
      if (data.rows.length) {
        const rowsTable = el("table", { class: "rows" });
        rowsTable.innerHTML = "<thead><tr><th>result</th><th>scenario</th><th>seed</th><th class='num hide-narrow'>expectations</th><th class=num>failed</th><th class='num hide-narrow'>virtual</th><th class='num hide-narrow'>wall</th></tr></thead>";
        const rowsBody = el("tbody");
        for (const row of data.rows) {
          const tr = el("tr", { class: "row " + row.status });
          const badge = el("td"); badge.appendChild(el("span", { class: "badge " + row.status }, row.status === "unknown" ? "not checked" : row.status)); tr.appendChild(badge);
          const name = el("td");
          if (row.section >= 0) name.appendChild(el("a", { href: "#s" + row.section }, row.name)); else name.appendChild(el("span", null, row.name));
          name.appendChild(el("div", { class: "note" }, row.title));
          if (row.problem) name.appendChild(el("div", { class: "problem" }, row.problem));
          if (row.section < 0) for (const f of row.failures) name.appendChild(el("div", { class: "problem" }, f.location + ": expected " + f.expected + "; observed " + f.observed));
          tr.appendChild(name);
          tr.appendChild(el("td", { class: "mono" }, row.seed === null ? "" : row.seed));
          tr.appendChild(el("td", { class: "num hide-narrow" }, String(row.expectations)));
          tr.appendChild(el("td", { class: "num" }, String(row.failures.length)));
          tr.appendChild(el("td", { class: "num hide-narrow" }, time(row.virtual)));
          tr.appendChild(el("td", { class: "num hide-narrow" }, row.wall === null ? "" : wallText(row.wall)));
          rowsBody.appendChild(tr);
          filterables.push([tr, (row.name + " " + row.title + " " + (row.seed || "") + " " + row.status).toLowerCase(), [row.status]]);
        }
        rowsTable.appendChild(rowsBody);
        rowsWrap.appendChild(rowsTable);
      }
      if (swept) {
        const groupsTable = el("table", { class: "groups" });
        groupsTable.innerHTML = "<thead><tr><th>result</th><th>scenario</th><th class=num>runs</th><th class=num>failed</th><th>failing seeds</th></tr></thead>";
        const body = el("tbody");
        for (const g of data.groups) {
          const tr = el("tr", { class: "group " + g.status, "data-name": g.name });
          const badge = el("td"); badge.appendChild(el("span", { class: "badge " + g.status }, g.status === "failing" ? "always fails" : g.status)); tr.appendChild(badge);
          const name = el("td", { class: "name" });
          name.appendChild(el("span", { class: "mono" }, g.name));
          name.appendChild(el("div", { class: "note" }, g.title));
          if (g.problem) name.appendChild(el("div", { class: "problem" }, g.problem));
          if (g.failed.length && g.failed[0].first) {
            const first = "seed " + g.failed[0].seed + ": " + g.failed[0].first;
            name.appendChild(el("div", { class: "first-failure", "data-tip": first }, first.length > 240 ? first.slice(0, 239) + "…" : first));
          }
          tr.appendChild(name);
          tr.appendChild(el("td", { class: "num", "data-label": "runs" }, String(g.runs)));
          tr.appendChild(el("td", { class: "num", "data-label": "failed" }, String(g.failed.length)));
          const seeds = el("td", { class: "seeds mono", "data-label": "failing seeds" });
          g.failed.forEach(function (f, i) {
            if (i) seeds.appendChild(document.createTextNode(", "));
            const seed = f.section >= 0 ? el("a", { href: "#s" + f.section, class: "seed" }, String(f.seed)) : el("span", { class: "seed" }, String(f.seed));
            seed.setAttribute("data-tip", (f.first || "failed") + (f.reproduce ? "\n" + f.reproduce : ""));
            seeds.appendChild(seed);
          });
          if (g.passed) seeds.appendChild(el("div", { class: "note" }, "passed: " + (g.passedSeeds.length > 80 ? plural(g.passed, "seed") : g.passedSeeds)));
          tr.appendChild(seeds);
          body.appendChild(tr);
          filterables.push([tr, (g.name + " " + g.title + " " + g.status + " " + g.failed.map(function (f) { return f.seed; }).join(" ")).toLowerCase(), [g.status, g.status === "passed" ? "passed" : "failed"]]);
        }
        groupsTable.appendChild(body);
        rowsWrap.appendChild(groupsTable);
      }
      if (!historyOnly) {
        main.appendChild(el("h3", null, swept ? "Scenarios swept over seeds (always failing, then flaky, first)" : "Scenarios (failed first)"));
        main.appendChild(rowsWrap);
      }
      if (data.history) drawHistory(data.history);
      data.comparisons.forEach(drawComparison);

      // History: how each scenario came out in each earlier run given.
      function drawHistory(h) {
        const wrap = el("div", { class: "history" });
        wrap.appendChild(el("h3", null, "History across " + plural(h.runs.length, "run") + " (unstable, then failing, first)"));
        const scroll = el("div", { class: "history-wrap" });
        const table = el("table", { class: "history" });
        const head = el("tr");
        head.appendChild(el("th", null, "scenario"));
        head.appendChild(el("th", null, "across runs"));
        h.runs.forEach(function (label, i) { head.appendChild(el("th", { class: "run", title: label }, "#" + (i + 1))); });
        const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
        const body = el("tbody");
        for (const sc of h.scenarios) {
          const tr = el("tr", { class: "history-row " + sc.verdict, "data-name": sc.name });
          tr.appendChild(el("td", { class: "mono name" }, sc.name));
          const v = el("td"); v.appendChild(el("span", { class: "badge " + (sc.verdict === "passing" ? "passed" : sc.verdict === "failing" ? "failing" : "flaky") }, sc.verdict)); tr.appendChild(v);
          sc.cells.forEach(function (cell, i) {
            const td = el("td", { class: "cell " + (cell[0] || "absent"), "data-tip": h.runs[i] + ": " + (cell[0] === null ? "not in this run" : cell[0] + ", " + cell[2] + " of " + plural(cell[1], "run") + " failed" + (cell[3] ? " (seeds " + cell[3] + ")" : "")) },
              cell[0] === null ? "–" : cell[0] === "passed" ? "✓" : cell[0] === "flaky" ? "~" : "✗");
            tr.appendChild(td);
          });
          body.appendChild(tr);
          filterables.push([tr, (sc.name + " " + sc.verdict).toLowerCase(), [sc.verdict === "passing" ? "passed" : "failed"].concat(sc.verdict === "unstable" ? ["flaky"] : [])]);
        }
        table.appendChild(body);
        scroll.appendChild(table);
        wrap.appendChild(scroll);
        const key = el("ol", { class: "note history-runs" });
        h.runs.forEach(function (label) { key.appendChild(el("li", { class: "mono" }, label)); });
        wrap.appendChild(key);
        wrap.appendChild(el("div", { class: "note" }, "✓ passed (every seed) · ✗ failed · ~ flaky (some seeds failed) · – not in that run"));
        main.appendChild(wrap);
      }

      // A flaky scenario: a passing and a failing seed side by side, where their traces part.
      function drawComparison(cmp, n) {
        const box = el("section", { class: "comparison", id: "flaky-" + n, "data-name": cmp.name });
        box.appendChild(el("h2", null, "Why it is flaky: " + cmp.title));
        const links = el("div", { class: "meta" });
        links.appendChild(el("span", { class: "mono" }, cmp.name + " · "));
        for (const side of [["pass", cmp.passSeed, cmp.passSection, "passes"], ["fail", cmp.failSeed, cmp.failSection, "fails"]]) {
          const label = "seed " + side[1] + " " + side[3];
          links.appendChild(side[2] >= 0 ? el("a", { href: "#s" + side[2] + "@t=" + cmp.t / 1000, class: "seed-link " + side[0] }, label) : el("span", null, label));
          if (side[0] === "pass") links.appendChild(document.createTextNode(" · "));
        }
        box.appendChild(links);
        if (cmp.failure) {
          const f = el("div", { class: "failure cmp-failure" });
          f.appendChild(el("div", { class: "loc mono" }, cmp.failure.location));
          f.appendChild(el("div", null, "expected " + cmp.failure.expected));
          f.appendChild(el("div", null, "observed " + cmp.failure.observed));
          box.appendChild(f);
        }
        box.appendChild(el("div", { class: "divergence" }, cmp.index === null
          ? "The two traces are the same event for event: the failed expectation is shown at its moment, " + time(cmp.t) + "."
          : "The traces agree on their first " + plural(cmp.index, "event") + " and part at " + time(cmp.t) + " (event " + (cmp.index + 1) + "):"));
        const grid = el("div", { class: "cmp-grid" });
        for (const side of [["pass", cmp.passSeed, "passes"], ["fail", cmp.failSeed, "fails"]]) {
          const col = el("div", { class: "cmp-side " + side[0] });
          col.appendChild(el("h4", null, "seed " + side[1] + " " + side[2]));
          const t = el("table", { class: "events cmp-events" });
          const tb = el("tbody");
          for (const ev of cmp[side[0]].events) {
            const tr = el("tr", { class: ev[4] ? "diverged" + (ev[5] ? " first-diverged" : "") : "shared" });
            tr.appendChild(el("td", { class: "time" }, time(ev[0])));
            tr.appendChild(el("td", null, ev[1] || ""));
            tr.appendChild(el("td", { class: "mono" }, ev[2]));
            tr.appendChild(el("td", { class: "mono" }, ev[3]));
            tb.appendChild(tr);
          }
          t.appendChild(tb);
          const wrap = el("div", { class: "cmp-events-wrap" }); wrap.appendChild(t); col.appendChild(wrap);
          if (cmp[side[0]].more) col.appendChild(el("div", { class: "note" }, "and " + plural(cmp[side[0]].more, "more event") + " (in its section)"));
          grid.appendChild(col);
        }
        box.appendChild(grid);
        // The two maps, one time for both: where the traces part, the failure's moment, or any time.
        const player = el("div", { class: "player cmp-player" });
        const slider = el("input", { type: "range", min: "0", max: String(cmp.map.end), step: "100", value: String(cmp.t), "aria-label": "time on both maps" });
        const clock = el("span", { class: "clock" });
        const atPart = el("button", { type: "button", class: "at-divergence" }, cmp.index === null ? "at the failure" : "where they part");
        player.appendChild(atPart);
        let atFailure = null;
        if (cmp.failure && cmp.failure.t !== null && cmp.index !== null) { atFailure = el("button", { type: "button", class: "at-failure" }, "at the failure"); player.appendChild(atFailure); }
        player.appendChild(slider); player.appendChild(clock);
        box.appendChild(player);
        const maps = el("div", { class: "cmp-grid cmp-maps" });
        const drawn = [comparisonMap(cmp, "pass"), comparisonMap(cmp, "fail")];
        drawn.forEach(function (d, i) {
          const fig = el("figure", { class: "cmp-figure " + (i ? "fail" : "pass") });
          fig.appendChild(el("figcaption", null, i ? "seed " + cmp.failSeed + " fails" : "seed " + cmp.passSeed + " passes"));
          fig.appendChild(d.svg);
          maps.appendChild(fig);
        });
        box.appendChild(maps);
        box.appendChild(el("div", { class: "note" }, "Left seed " + cmp.passSeed + " (passes), right seed " + cmp.failSeed + " (fails), on the same scale: each device's track (thin), its app's marker track (dashed); ● where the device was, ◆ where its app showed it" + (cmp.map.check ? ", the circle the failed expectation checked" : "") + "."));
        function setTime(t) { slider.value = String(t); clock.textContent = "t = " + time(t); box.setAttribute("data-t", String(t)); drawn.forEach(function (d) { d.move(t); }); }
        slider.addEventListener("input", function () { setTime(Number(slider.value)); });
        atPart.addEventListener("click", function () { setTime(cmp.t); });
        if (atFailure) atFailure.addEventListener("click", function () { setTime(cmp.failure.t); });
        setTime(cmp.t);
        main.appendChild(box);
      }

      // One run's map of a comparison: both runs' maps show the box around everything either drew.
      function comparisonMap(cmp, side) {
        const m = cmp.map, run = m[side];
        if (!m.box) {
          let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
          for (const r of [m.pass, m.fail]) for (const tr of r.tracks.concat(r.markers)) for (let k = 0; k < tr.length; k += 3) { x0 = Math.min(x0, tr[k + 1]); x1 = Math.max(x1, tr[k + 1]); y0 = Math.min(y0, tr[k + 2]); y1 = Math.max(y1, tr[k + 2]); }
          if (m.check) { x0 = Math.min(x0, m.check[0] - m.check[2]); x1 = Math.max(x1, m.check[0] + m.check[2]); y0 = Math.min(y0, m.check[1] - m.check[2]); y1 = Math.max(y1, m.check[1] + m.check[2]); }
          if (!(x0 <= x1)) { x0 = 0; y0 = 0; x1 = m.w; y1 = m.h; }
          const least = 10 * m.upm, w = Math.max(x1 - x0, least), h = Math.max(y1 - y0, least * 0.6), pad = Math.max(w, h) * 0.12;
          m.box = [(x0 + x1) / 2 - w / 2 - pad, (y0 + y1) / 2 - h / 2 - pad, w + 2 * pad, h + 2 * pad];
        }
        const b = m.box, unit = Math.max(b[2], b[3]) / 300;
        const s = svg("svg", { class: "map cmp-map " + side, viewBox: b.join(" "), preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": "map of seed " + (side === "pass" ? cmp.passSeed : cmp.failSeed) });
        if (m.check) s.appendChild(svg("circle", { class: "cmp-check", cx: m.check[0], cy: m.check[1], r: m.check[2], fill: "rgba(207,34,46,.08)", stroke: "#cf222e", "stroke-width": unit, "stroke-dasharray": (3 * unit) + " " + (2 * unit) }));
        function line(track, breaks, i, dashed) {
          if (track.length < 6) return;
          s.appendChild(svg("path", { d: trackPath(track, breaks), fill: "none", stroke: colour(i), "stroke-width": dashed ? unit : unit * 1.5, "stroke-dasharray": dashed ? (4 * unit) + " " + (2 * unit) : "none", opacity: dashed ? 0.9 : 0.55 }));
        }
        run.tracks.forEach(function (tr, i) { line(tr, run.tracksBreaks[i], i, false); });
        run.markers.forEach(function (tr, i) { line(tr, run.markersBreaks[i], i, true); });
        const now = run.tracks.map(function (_, i) { const c = svg("circle", { class: "cmp-now", r: 4 * unit, fill: colour(i), stroke: "#fff", "stroke-width": unit }); s.appendChild(c); return c; });
        const app = run.markers.map(function (_, i) { const r = svg("rect", { class: "cmp-app", width: 6 * unit, height: 6 * unit, fill: "#fff", stroke: colour(i), "stroke-width": 1.5 * unit }); s.appendChild(r); return r; });
        // A round scale bar of at most a fifth of the view.
        const most = b[2] / 5 / m.upm;
        let metres = 1;
        for (let p = 1e-1; p <= most; p *= 10) for (const step of [1, 2, 5]) if (step * p <= most) metres = step * p;
        const sx = b[0] + 0.03 * b[2], sy = b[1] + b[3] - 0.05 * b[3];
        s.appendChild(svg("line", { x1: sx, y1: sy, x2: sx + metres * m.upm, y2: sy, stroke: "#1f2328", "stroke-width": unit }));
        s.appendChild(svg("text", { class: "cmp-scale", x: sx, y: sy - unit * 3, "font-size": 10 * unit }, metres >= 1000 ? (metres / 1000) + " km" : (Math.round(metres * 10) / 10) + " m"));
        function move(t) {
          now.forEach(function (c, i) { const p = run.tracks[i].length && run.tracks[i][0] <= t ? trackPoint(run.tracks[i], t, run.tracksBreaks[i]) : null; c.style.display = p ? "" : "none"; if (p) { c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); } });
          app.forEach(function (r, i) {
            const p = run.markers[i].length && run.markers[i][0] <= t ? trackPoint(run.markers[i], t, run.markersBreaks[i]) : null;
            r.style.display = p ? "" : "none";
            if (p) { r.setAttribute("x", p[0] - 3 * unit); r.setAttribute("y", p[1] - 3 * unit); r.setAttribute("transform", "rotate(45 " + p[0] + " " + p[1] + ")"); r.setAttribute("data-x", p[0].toFixed(1)); r.setAttribute("data-y", p[1].toFixed(1)); }
          });
        }
        return { svg: s, move: move };
      }
      const shown = data.sections.length, ran = total - c.invalid;
      if (shown < ran) main.appendChild(el("p", { class: "note" }, "Maps, timelines and events are shown for " + shown + " of the " + ran + " " + (swept ? "runs" : "scenarios") + " that ran (failed ones first; at most " + data.detailedLimit + "); every " + (swept ? "scenario" : "one") + " has its row above."));

      // The streets, once for all maps (each map places them with a transform).
      if (data.streets.length) {
        const holder = svg("svg", { width: "0", height: "0", style: "position:absolute", "aria-hidden": "true" });
        const defs = svg("defs");
        data.streets.forEach(function (layer, i) {
          const g = svg("g", { id: "streets-" + i });
          g.appendChild(svg("path", { class: "street path", d: layer.paths }));
          g.appendChild(svg("path", { class: "street road", d: layer.roads }));
          defs.appendChild(g);
        });
        holder.appendChild(defs);
        document.body.appendChild(holder);
      }

      const collapseByDefault = data.sections.length > 3;
      const sweepStatusOfSection = {};
      for (const g of data.groups) for (const f of g.failed) if (f.section >= 0) sweepStatusOfSection[f.section] = g.status;
      data.sections.forEach(function (s, i) { views.push(renderSection(s, i)); });

      function applyFilter() {
        const q = search.value.trim().toLowerCase(), st = statusFilter.value;
        function matches(text, statuses) { return (!q || q.split(/\s+/).every(function (w) { return text.indexOf(w) >= 0; })) && (!st || statuses.indexOf(st) >= 0); }
        let visible = 0;
        for (const f of filterables) f[0].classList.toggle("filtered-out", !matches(f[1], f[2]));
        for (const v of views) { const on = matches(v.filterText, v.statuses); v.section.classList.toggle("filtered-out", !on); if (on) visible++; }
        shownCount.textContent = (q || st) ? visible + " of " + views.length + " sections shown" : "";
      }
      search.addEventListener("input", applyFilter);
      statusFilter.addEventListener("change", applyFilter);
      expandAll.addEventListener("click", function () { for (const v of views) if (!v.section.classList.contains("filtered-out")) v.setCollapsed(false); });
      collapseAll.addEventListener("click", function () { for (const v of views) v.setCollapsed(true); });

      function renderSection(s, index) {
        const section = el("section", { class: "scenario " + s.status, id: "s" + index, "data-events": String(s.events.t.length), "data-devices": String(s.devices.length) });
        const h2 = el("h2");
        const toggle = el("button", { type: "button", class: "toggle", "aria-expanded": "true", "aria-controls": "s" + index + "-body" });
        toggle.appendChild(el("span", { class: "badge " + s.status }, s.status === "unknown" ? "not checked" : s.status));
        toggle.appendChild(el("span", null, s.title + (s.seed !== null && swept ? " [seed " + s.seed + "]" : "")));
        h2.appendChild(toggle);
        section.appendChild(h2);
        const meta = [s.name];
        if (s.seed !== null) meta.push("seed " + s.seed);
        meta.push(time(s.end) + " virtual");
        if (s.wall !== null) meta.push(wallText(s.wall) + " wall");
        meta.push(plural(s.expectations, "expectation"));
        meta.push(plural(s.devices.length, "device"));
        meta.push(plural(s.events.t.length, "event"));
        section.appendChild(el("div", { class: "meta" }, meta.join(" · ")));
        const body = el("div", { class: "body", id: "s" + index + "-body" });
        section.appendChild(body);
        main.appendChild(section);
        const view = { section: section, body: body, s: s, index: index };
        view.filterText = (s.name + " " + s.title + " " + (s.seed || "") + " " + s.status).toLowerCase();
        view.statuses = [s.status].concat(index in sweepStatusOfSection ? [sweepStatusOfSection[index]] : []);
        view.setCollapsed = function (collapsed) {
          section.classList.toggle("collapsed", collapsed);
          toggle.setAttribute("aria-expanded", String(!collapsed));
          if (!collapsed) view.rescale();
          if (!collapsed && view.timelineWidth !== timelineWidth()) { drawTimeline(view); view.setTime(view.now); }
        };
        toggle.addEventListener("click", function () { view.setCollapsed(!section.classList.contains("collapsed")); });
        if (s.runError) body.appendChild(el("div", { class: "problem" }, "The run stopped early: " + s.runError));
        if (s.failures.length) {
          body.appendChild(el("h3", null, "Failed expectations"));
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
          body.appendChild(ol);
        }
        if (s.reproduce) { const p = el("div"); p.appendChild(el("code", { class: "reproduce", title: "run this scenario again" }, s.reproduce)); body.appendChild(p); }
        drawSteps(view);
        drawMap(view);
        drawPlayer(view);
        drawTimeline(view);
        drawNetwork(view);
        drawEvents(view);
        view.setTime = function (t) {
          t = Math.max(0, Math.min(s.end, t));
          view.now = t;
          view.slider.value = String(t);
          view.clock.textContent = "t = " + time(t) + " of " + time(s.end);
          moveDevices(view, t);
          drawPanel(view, t);
          const x = view.tx(t);
          view.cursor.setAttribute("x1", x); view.cursor.setAttribute("x2", x);
        };
        view.setTime(0);
        view.setCollapsed(collapseByDefault && s.status === "passed");
        view.rescale();
        return view;
      }

      // Where a track is at t (linear between points, not across a break: before a break it stays put).
      function trackPoint(track, t, breaks) {
        const n = track.length / 3;
        if (!n) return null;
        if (t <= track[0]) return [track[1], track[2]];
        if (t >= track[(n - 1) * 3]) return [track[(n - 1) * 3 + 1], track[(n - 1) * 3 + 2]];
        let lo = 0, hi = n - 1;
        while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (track[mid * 3] <= t) lo = mid; else hi = mid; }
        if (breaks && breaks.indexOf(hi) >= 0) return [track[lo * 3 + 1], track[lo * 3 + 2]];
        const t0 = track[lo * 3], t1 = track[hi * 3], f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
        return [track[lo * 3 + 1] + f * (track[hi * 3 + 1] - track[lo * 3 + 1]), track[lo * 3 + 2] + f * (track[hi * 3 + 2] - track[lo * 3 + 2])];
      }

      // A track's path: a line through each piece, a move across each break.
      function trackPath(track, breaks) {
        const starts = {};
        for (const b of breaks || []) starts[b] = true;
        let d = "";
        for (let i = 0, k = 0; k < track.length; i++, k += 3) d += (i === 0 || starts[i] ? "M" : "L") + track[k + 1] + " " + track[k + 2];
        if (track.length === 3) d += "l0 0";
        return d;
      }

      function subPath(track, from, to, breaks) {
        const n = track.length / 3;
        if (n < 1) return "";
        const a = trackPoint(track, from, breaks), b = trackPoint(track, to, breaks);
        let d = "M" + a[0].toFixed(0) + " " + a[1].toFixed(0);
        for (let i = 0; i < n; i++) { const t = track[i * 3]; if (t > from && t < to) d += ((breaks || []).indexOf(i) >= 0 ? "M" : "L") + track[i * 3 + 1] + " " + track[i * 3 + 2]; }
        return d + "L" + b[0].toFixed(0) + " " + b[1].toFixed(0);
      }

      // The steps of the timeline, with their status and what followed them, and every expectation at its moment.
      function drawSteps(view) {
        const s = view.s, e = s.events;
        if (!s.steps.length && !s.checks.length) return;
        indexByDevice(view);
        const items = [];
        s.steps.forEach(function (st, i) { items.push({ t: e.t[st[0]], order: 0, i: i, step: st }); });
        s.checks.forEach(function (ch, i) { items.push({ t: ch.t === null ? s.end : ch.t, order: 1, i: i, check: ch }); });
        items.sort(function (a, b) { return a.t - b.t || a.order - b.order || a.i - b.i; });
        view.body.appendChild(el("h3", null, "Steps and expectations"));
        const list = el("div", { class: "steps", role: "list" });
        view.body.appendChild(list);
        view.stepRows = [];
        function row(item) {
          const r = el("div", { role: "listitem" });
          const when = el("span", { class: "when" }, time(item.t));
          if (item.step) {
            const st = item.step, k = st[0], device = e.d[k];
            r.className = "step " + st[2];
            r.setAttribute("data-step", String(item.i));
            r.appendChild(el("span", { class: "icon", title: st[2] }, STATUS_ICON[st[2]] || "·"));
            r.appendChild(when);
            const what = el("span", { class: "what" });
            const details = e.f[k].replace(/^do=[^ ]* ?/, "");
            what.appendChild(el("b", null, (device >= 0 ? s.devices[device] + ": " : "") + (field(e.f[k], "do") || s.names[e.n[k]])));
            if (details) what.appendChild(document.createTextNode(" " + details));
            if (st[2] !== "done") what.appendChild(el("span", { class: "badge " + (st[2] === "failed" ? "failed" : "flaky") }, st[2]));
            r.appendChild(what);
            if (st[3]) r.appendChild(el("span", { class: "detail note" }, st[3]));
            const following = between(view.byDevice[device], k, st[1]);
            const showed = between(view.uiByDevice[device], k, st[1], function (u) { return u[0]; }).filter(function (u) { return u[3] === 1; });
            if (showed.length) r.appendChild(el("span", { class: "detail showed" }, "app showed: " + showed.slice(0, 4).map(function (u) { return u[1] === "panel" ? u[2] : u[1] + " " + (u[4].length > 80 ? u[4].slice(0, 79) + "…" : u[4]); }).join(" · ") + (showed.length > 4 ? " · and " + (showed.length - 4) + " more" : "")));
            if (following.length) {
              const det = el("details");
              det.appendChild(el("summary", null, plural(following.length, "event") + " after it on " + (device >= 0 ? s.devices[device] : "the world") + " until its next step"));
              det.addEventListener("toggle", function () {
                if (!det.open || det.querySelector("ul")) return;
                const ul = el("ul");
                for (const j of following.slice(0, 60)) { const li = el("li", { "data-t": String(e.t[j]) }, time(e.t[j]) + " " + s.names[e.n[j]] + (e.f[j] ? " (" + e.f[j] + ")" : "")); ul.appendChild(li); }
                if (following.length > 60) ul.appendChild(el("li", null, "… and " + (following.length - 60) + " more in the event table"));
                det.appendChild(ul);
              });
              det.addEventListener("click", function (ev) { const li = ev.target.closest("li[data-t]"); if (li) { ev.stopPropagation(); view.setTime(Number(li.getAttribute("data-t"))); } });
              r.appendChild(det);
            }
          } else {
            const ch = item.check, n = item.i + 1;
            r.className = "step check " + (ch.passed ? "passed" : "failed");
            r.setAttribute("data-check", String(item.i));
            r.appendChild(el("span", { class: "icon", title: ch.passed ? "passed" : "failed" }, ch.passed ? "✓" : "✗"));
            r.appendChild(when);
            const what = el("span", { class: "what" });
            what.appendChild(el("b", null, "expect #" + n + (ch.kind === "position" ? " (on the map)" : "") + ": "));
            what.appendChild(document.createTextNode(ch.expected));
            r.appendChild(what);
            r.appendChild(el("span", { class: "detail" }, "observed " + ch.observed));
            r.appendChild(el("span", { class: "detail mono" }, ch.location));
          }
          r.addEventListener("click", function (ev) {
            if (ev.target.closest("details")) return;
            view.setTime(item.t);
            if (item.check) view.highlightCheck(item.i);
          });
          return r;
        }
        let limit = STEPS_SHOWN;
        function fill() {
          list.textContent = "";
          for (const item of items.slice(0, limit)) list.appendChild(row(item));
          if (items.length > limit) {
            const more = el("button", { type: "button", class: "more-steps" }, "show all " + items.length);
            more.addEventListener("click", function () { limit = items.length; fill(); });
            list.appendChild(more);
          }
        }
        fill();
        view.stepsList = list;
      }

      function drawMap(view) {
        const s = view.s, m = s.map, e = s.events;
        const wrap = el("div", { class: "viz" });
        const box = el("div", { class: "map-box" });
        const map = svg("svg", { class: "map", viewBox: "0 0 " + m.w + " " + m.h, role: "img", "aria-label": "map of " + s.title });
        view.map = map;
        if (m.streets) {
          const t = m.streets.m;
          map.appendChild(svg("use", { class: "streets", href: "#streets-" + m.streets.i, transform: "matrix(" + t[0] + " 0 0 " + t[1] + " " + t[2] + " " + t[3] + ")" }));
        }
        if (m.places.length) {
          const g = svg("g", { class: "places" });
          for (const p of m.places) {
            const dot = svg("circle", { class: "place sized", cx: p[0], cy: p[1], r: 22 });
            dot.setAttribute("data-tip", "place " + p[2]);
            g.appendChild(dot);
            if (m.places.length <= 40) g.appendChild(svg("text", { class: "place-label", x: p[0] + 40, y: p[1] - 30 }, p[2]));
          }
          map.appendChild(g);
        }
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
        for (const ap of m.aps) { const r = svg("rect", { class: "ap sized", x: ap[0] - a, y: ap[1] - a, width: 2 * a, height: 2 * a }); r.setAttribute("data-tip", "Wi-Fi access point " + ap[2]); emitters.appendChild(r); }
        for (const bc of m.beacons) { const p = svg("path", { class: "beacon sized", d: "M" + bc[0] + " " + (bc[1] - b) + "l" + b + " " + b + "l-" + b + " " + b + "l-" + b + " -" + b + "z" }); p.setAttribute("data-tip", "beacon " + bc[2]); emitters.appendChild(p); }
        map.appendChild(emitters);
        const outages = s.intervals.filter(function (iv) { return KIND[iv[1]] && KIND[iv[1]][2] === 0; });
        s.tracks.forEach(function (track, i) {
          if (track.length < 3) return;
          const path = svg("path", { class: "track", d: trackPath(track, s.tracksBreaks[i]), stroke: colour(i), "data-device": s.devices[i], "data-pieces": String(s.tracksBreaks[i].length + 1) });
          path.setAttribute("data-tip", "track of " + s.devices[i] + (s.tracksBreaks[i].length ? " (broken where it jumps, or where points were left out)" : ""));
          map.appendChild(path);
        });
        s.markerTracks.forEach(function (track, i) {
          if (track.length < 6) return;
          const path = svg("path", { class: "marker-trail", d: trackPath(track, s.markerTracksBreaks[i]), stroke: colour(i), "data-device": s.devices[i] });
          path.setAttribute("data-tip", "where " + s.devices[i] + "'s app showed its marker");
          map.appendChild(path);
        });
        for (const iv of outages) {
          const track = s.tracks[iv[0]];
          if (!track || track.length < 3) continue;
          const p = svg("path", { class: "outage", d: subPath(track, iv[2], iv[3], s.tracksBreaks[iv[0]]), "data-device": s.devices[iv[0]] });
          p.setAttribute("data-tip", KIND[iv[1]][0] + " on " + s.devices[iv[0]] + ", " + time(iv[2]) + " to " + time(iv[3]));
          map.appendChild(p);
        }
        // Position expectations: the place and radius checked, and the position the app reported.
        const checkLayer = svg("g", { class: "checks" });
        view.checkShapes = {};
        s.checks.forEach(function (ch, i) {
          if (ch.kind !== "position") return;
          const g = svg("g", { class: "check " + (ch.passed ? "passed" : "failed"), "data-check": String(i) });
          const n = ch.near;
          g.appendChild(svg("circle", { class: "check-area", cx: n[0], cy: n[1], r: n[2] }));
          g.appendChild(svg("path", { class: "near sized", d: "M" + (n[0] - 40) + " " + n[1] + "h80M" + n[0] + " " + (n[1] - 40) + "v80" }));
          if (ch.judged !== null && e.x[ch.judged] >= 0) {
            const x = e.x[ch.judged], y = e.y[ch.judged];
            g.appendChild(svg("line", { class: "seen-line", x1: n[0], y1: n[1], x2: x, y2: y }));
            g.appendChild(svg("path", { class: "seen sized", d: "M" + x + " " + (y - 45) + "l45 45l-45 45l-45 -45z" }));
          }
          g.appendChild(svg("text", { class: "check-label", x: n[0] + n[2] * 0.72 + 20, y: n[1] - n[2] * 0.72 - 20 }, (ch.passed ? "✓" : "✗") + " #" + (i + 1)));
          g.setAttribute("data-tip", "expect #" + (i + 1) + " (" + ch.location + "): " + ch.expected + "\n" + (ch.passed ? "passed: " : "failed: ") + ch.observed);
          g.addEventListener("click", function (ev) { ev.stopPropagation(); view.highlightCheck(i); if (ch.t !== null) view.setTime(ch.t); });
          checkLayer.appendChild(g);
          view.checkShapes[i] = g;
        });
        map.appendChild(checkLayer);
        view.highlightCheck = function (i) {
          for (const k in view.checkShapes) view.checkShapes[k].classList.toggle("active", Number(k) === i);
          if (view.stepsList) for (const r of view.stepsList.querySelectorAll(".step.check")) r.classList.toggle("active", Number(r.getAttribute("data-check")) === i);
          const shape = view.checkShapes[i];
          if (shape) {
            const n = s.checks[i].near;
            if (n[0] - n[2] < view.vb.x || n[0] + n[2] > view.vb.x + view.vb.w || n[1] - n[2] < view.vb.y || n[1] + n[2] > view.vb.y + view.vb.h) view.fitView();
          }
        };
        const markerLayer = svg("g", { class: "markers" });
        map.appendChild(markerLayer);
        markerLayer.addEventListener("click", function (ev) { const k = ev.target.getAttribute("data-event"); if (k !== null) view.setTime(e.t[Number(k)]); });
        view.eventText = function (k) { return time(e.t[k]) + " " + (e.d[k] >= 0 ? s.devices[e.d[k]] + ": " : "") + s.names[e.n[k]] + (e.f[k] ? " (" + e.f[k] + ")" : ""); };
        const markerRadius = s.markers.length > 1000 ? 35 : 55;
        for (const k of s.markers) {
          const cat = category(s.names[e.n[k]]);
          markerLayer.appendChild(svg("circle", { class: "marker sized", cx: e.x[k], cy: e.y[k], r: markerRadius, fill: CATEGORY[cat][1], "data-event": String(k) }));
        }
        // The app's marker: where each device's app showed it at the time chosen (a pin).
        view.appMarkerEvents = s.devices.map(function () { return []; });
        for (let k = 0; k < e.t.length; k++) { const name = s.names[e.n[k]]; if ((name === "marker.shown" || name === "marker.moved") && e.d[k] >= 0 && e.x[k] >= 0) view.appMarkerEvents[e.d[k]].push(k); }
        view.appMarkers = s.devices.map(function (id, i) {
          if (!view.appMarkerEvents[i].length) return null;
          const g = svg("g", { class: "app-marker", "data-device": id, visibility: "hidden" });
          g.appendChild(svg("path", { class: "sized", d: "M0 0l-55 -110a62 62 0 1 1 110 0z", fill: colour(i) }));
          map.appendChild(g);
          return g;
        });
        view.now = 0;
        view.nowMarkers = s.devices.map(function (id, i) {
          const g = svg("g", { class: "now", "data-device": id });
          g.appendChild(svg("circle", { class: "sized", r: 80, fill: colour(i) }));
          if (s.devices.length <= 20) g.appendChild(svg("text", { x: 110, y: 55 }, id));
          map.appendChild(g);
          return g;
        });
        const scale = svg("g", { class: "scale" });
        const scaleLine = svg("line"), scaleLeft = svg("line"), scaleRight = svg("line"), scaleText = svg("text", { "text-anchor": "middle" });
        scale.appendChild(scaleLine); scale.appendChild(scaleLeft); scale.appendChild(scaleRight); scale.appendChild(scaleText);
        map.appendChild(scale);
        box.appendChild(map);
        // Zoom and pan: the wheel or a pinch zooms where it points, a drag pans, the buttons zoom the middle.
        const tools = el("div", { class: "map-tools" });
        const zoomIn = el("button", { type: "button", class: "zoom-in", title: "zoom in", "aria-label": "zoom in" }, "+");
        const zoomOut = el("button", { type: "button", class: "zoom-out", title: "zoom out", "aria-label": "zoom out" }, "−");
        const fit = el("button", { type: "button", class: "zoom-fit", title: "show everything", "aria-label": "show everything" }, "⤢");
        tools.appendChild(zoomIn); tools.appendChild(zoomOut); tools.appendChild(fit);
        box.appendChild(tools);
        view.vb = { x: 0, y: 0, w: m.w, h: m.h };
        function setView(x, y, w) {
          w = Math.max(m.w / 64, Math.min(m.w, w));
          const h = w * m.h / m.w;
          x = Math.max(-w / 2, Math.min(m.w - w / 2, x)); y = Math.max(-h / 2, Math.min(m.h - h / 2, y));
          view.vb = { x: x, y: y, w: w, h: h };
          map.setAttribute("viewBox", x.toFixed(1) + " " + y.toFixed(1) + " " + w.toFixed(1) + " " + h.toFixed(1));
          const k = w / m.w;
          map.classList.toggle("zoomed", k < 0.999);
          map.setAttribute("data-zoom", (1 / k).toFixed(2));
          rescale();
        }
        // Symbols and labels keep their size on screen, whatever the zoom and however wide the map is
        // drawn: --k is the map units a CSS pixel shows, over the 10 of a map 1,000 px wide unzoomed.
        // (Until the map is laid out, as if it were 1,000 px wide.)
        function pixelsPerUnit() {
          const ctm = map.getScreenCTM();
          return ctm && ctm.a > 0 && map.getBoundingClientRect().width > 0 ? ctm.a : 1000 / view.vb.w;
        }
        function rescale() {
          const f = 1 / pixelsPerUnit() / 10;
          map.style.setProperty("--k", f.toFixed(4));
          // A round scale bar of at most a fifth of the view, at its bottom left.
          const x = view.vb.x, y = view.vb.y, w = view.vb.w, h = view.vb.h;
          const most = w / 5 / m.upm;
          let metres = 1;
          for (let p = 1e-1; p <= most; p *= 10) for (const step of [1, 2, 5]) if (step * p <= most) metres = step * p;
          const len = metres * m.upm, sx = x + 0.025 * w, sy = y + h - 0.07 * h, tick = 60 * f;
          scaleLine.setAttribute("x1", sx); scaleLine.setAttribute("x2", sx + len); scaleLine.setAttribute("y1", sy); scaleLine.setAttribute("y2", sy);
          scaleLeft.setAttribute("x1", sx); scaleLeft.setAttribute("x2", sx); scaleLeft.setAttribute("y1", sy - tick); scaleLeft.setAttribute("y2", sy + tick);
          scaleRight.setAttribute("x1", sx + len); scaleRight.setAttribute("x2", sx + len); scaleRight.setAttribute("y1", sy - tick); scaleRight.setAttribute("y2", sy + tick);
          scaleText.setAttribute("x", sx + len / 2); scaleText.setAttribute("y", sy + 230 * f);
          scaleText.textContent = metres >= 1000 ? (metres / 1000) + " km" : (Math.round(metres * 10) / 10) + " m";
          return f;
        }
        view.rescale = rescale;
        function mapPoint(clientX, clientY) {
          const ctm = map.getScreenCTM();
          if (!ctm) return [view.vb.x + view.vb.w / 2, view.vb.y + view.vb.h / 2];
          const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
          return [p.x, p.y];
        }
        function zoomAt(px, py, factor) {
          const w = Math.max(m.w / 64, Math.min(m.w, view.vb.w * factor)), f = w / view.vb.w;
          setView(px - (px - view.vb.x) * f, py - (py - view.vb.y) * f, w);
        }
        view.zoomAt = zoomAt;
        view.fitView = function () { setView(0, 0, m.w); };
        // Opens on the tracks and checked places (m.focus), the whole world a zoom-out (or ⤢) away.
        view.focusView = function () { if (m.focus) setView(m.focus[0], m.focus[1], m.focus[2]); else setView(0, 0, m.w); };
        zoomIn.addEventListener("click", function () { zoomAt(view.vb.x + view.vb.w / 2, view.vb.y + view.vb.h / 2, 0.5); });
        zoomOut.addEventListener("click", function () { zoomAt(view.vb.x + view.vb.w / 2, view.vb.y + view.vb.h / 2, 2); });
        fit.addEventListener("click", view.fitView);
        map.addEventListener("wheel", function (ev) {
          ev.preventDefault();
          const p = mapPoint(ev.clientX, ev.clientY);
          zoomAt(p[0], p[1], Math.exp(Math.max(-1, Math.min(1, ev.deltaY * (ev.deltaMode ? 0.05 : 0.0015)))));
        }, { passive: false });
        map.addEventListener("dblclick", function (ev) { const p = mapPoint(ev.clientX, ev.clientY); zoomAt(p[0], p[1], 0.5); });
        const pointers = {};
        let drag = null, moved = false;
        map.addEventListener("pointerdown", function (ev) {
          if (ev.button !== 0) return;
          pointers[ev.pointerId] = [ev.clientX, ev.clientY];
          const ids = Object.keys(pointers);
          if (ids.length === 1) { drag = { x: ev.clientX, y: ev.clientY, vb: view.vb, scale: pixelsPerUnit() }; moved = false; }
          else if (ids.length === 2) { const a = pointers[ids[0]], b = pointers[ids[1]]; drag = { pinch: Math.hypot(a[0] - b[0], a[1] - b[1]), vb: view.vb, mid: mapPoint((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) }; }
        });
        map.addEventListener("pointermove", function (ev) {
          if (!drag || !(ev.pointerId in pointers)) return;
          pointers[ev.pointerId] = [ev.clientX, ev.clientY];
          const ids = Object.keys(pointers);
          if (drag.pinch && ids.length === 2) {
            const a = pointers[ids[0]], b = pointers[ids[1]], dist = Math.hypot(a[0] - b[0], a[1] - b[1]);
            if (dist > 0) { view.vb = drag.vb; zoomAt(drag.mid[0], drag.mid[1], drag.pinch / dist); }
            moved = true;
            return;
          }
          const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
          if (!moved && Math.hypot(dx, dy) < 4) return;
          if (!moved) { moved = true; map.setPointerCapture(ev.pointerId); map.classList.add("dragging"); }
          setView(drag.vb.x - dx / drag.scale, drag.vb.y - dy / drag.scale, drag.vb.w);
        });
        function release(ev) { delete pointers[ev.pointerId]; if (!Object.keys(pointers).length) { drag = null; map.classList.remove("dragging"); } }
        map.addEventListener("pointerup", release);
        map.addEventListener("pointercancel", release);
        map.addEventListener("click", function (ev) { if (moved) { ev.stopPropagation(); ev.preventDefault(); moved = false; } }, true);
        view.focusView();
        wrap.appendChild(box);
        const legend = el("div", { class: "legend" });
        view.panelHeading = el("h3", null, "App at t");
        view.panel = el("div", { class: "app-panel", "aria-live": "polite" });
        legend.appendChild(view.panelHeading);
        legend.appendChild(view.panel);
        legend.appendChild(el("h3", null, "Devices"));
        const ul = el("ul");
        s.devices.slice(0, 200).forEach(function (id, i) { const li = el("li"); li.appendChild(el("span", { class: "swatch", style: "background:" + colour(i) })); li.appendChild(el("span", null, id)); ul.appendChild(li); });
        legend.appendChild(ul);
        if (s.devices.length > 200) legend.appendChild(el("p", { class: "note" }, "and " + (s.devices.length - 200) + " more"));
        legend.appendChild(el("h3", null, "Map"));
        const keys = el("ul");
        function key(cls, colourValue, text) { const li = el("li"); li.appendChild(el("span", { class: "swatch " + cls, style: "background:" + colourValue + ";border-color:" + colourValue })); li.appendChild(el("span", null, text)); keys.appendChild(li); }
        if (m.streets) key("", "#c9ced6", "streets (OpenStreetMap); dashed: paths");
        if (m.places.length) key("round", "#8c959f", "place (" + m.places.length + ")");
        if (m.hotspots.length) key("", "rgba(46,160,67,.35)", "hotspot (" + m.hotspots.length + ")");
        if (m.aps.length) key("", "#0969da", "Wi-Fi access point (" + m.aps.length + ")");
        if (m.beacons.length) key("", "#8250df", "beacon (" + m.beacons.length + ")");
        if (outages.length) key("", "#8c959f", "GPS outage on a track");
        if (view.appMarkers.some(Boolean)) key("", "#57606a", "the app's marker (pin) and where it was (dotted)");
        const positions = s.checks.filter(function (ch) { return ch.kind === "position"; });
        if (positions.some(function (ch) { return ch.passed; })) key("ring", "#1a7f37", "position expected: place and radius, passed (◆ the position judged)");
        if (positions.some(function (ch) { return !ch.passed; })) key("ring", "#cf222e", "position expected: place and radius, failed (◆ the position judged)");
        const used = {};
        for (const k of s.markers) used[category(s.names[e.n[k]])] = true;
        CATEGORY.forEach(function (cat, i) { if (used[i]) key("round", cat[1], cat[2]); });
        legend.appendChild(keys);
        if (s.markersLeftOut) legend.appendChild(el("p", { class: "note" }, s.markersLeftOut + " more events are in the table but not marked on the map."));
        wrap.appendChild(legend);
        view.body.appendChild(el("h3", null, "Map"));
        view.body.appendChild(wrap);
      }

      function moveDevices(view, t) {
        const s = view.s, e = s.events;
        view.nowMarkers.forEach(function (g, i) {
          const p = trackPoint(s.tracks[i], t, s.tracksBreaks[i]);
          if (!p) { g.setAttribute("visibility", "hidden"); return; }
          g.setAttribute("visibility", "visible");
          g.setAttribute("transform", "translate(" + p[0].toFixed(0) + " " + p[1].toFixed(0) + ")");
        });
        view.appMarkers.forEach(function (g, i) {
          if (!g) return;
          const k = latestAtOrBefore(view.appMarkerEvents[i], e.t, t);
          if (k === null) { g.setAttribute("visibility", "hidden"); return; }
          g.setAttribute("visibility", "visible");
          g.setAttribute("transform", "translate(" + e.x[k] + " " + e.y[k] + ")");
          g.setAttribute("data-event", String(k));
        });
      }

      // The last of `indices` (event numbers in time order) whose time is at most t, or null.
      function latestAtOrBefore(indices, times, t) {
        let lo = 0, hi = indices.length;
        while (lo < hi) { const mid = (lo + hi) >> 1; if (times[indices[mid]] <= t) lo = mid + 1; else hi = mid; }
        return lo > 0 ? indices[lo - 1] : null;
      }

      // "App at time t": per device, what its app showed then (screen, prompt, form, panels, the latest
      // notification and error, the marker) and the device's state (offline, GPS off, radios off).
      function drawPanel(view, t) {
        const s = view.s, e = s.events;
        view.panelHeading.textContent = "App at t = " + time(t);
        indexByDevice(view);
        if (!view.panelDefault) view.panelDefault = s.devices.map(function (_, i) { return i; }).filter(function (i) { return view.appMarkers[i] || view.uiByDevice[i].length || s.devices.length <= PANEL_DEVICES; }).slice(0, PANEL_DEVICES);
        const chosen = view.panelDevices || view.panelDefault, closers = view.closers;
        view.panel.textContent = "";
        for (const d of chosen) {
          const state = { screen: null, open: {}, last: null, notification: null, error: null };
          for (const u of view.uiByDevice[d]) {
            const k = u[0];
            if (e.t[k] > t) break;
            const id = u[1] + ":" + u[2];
            if (u[1] === "screen") { state.screen = u; state.error = null; }
            else if (u[1] === "notification") state.notification = u;
            else if (u[1] === "error") state.error = u;
            else if (u[3] && (u[1] !== "panel" || closers[id])) state.open[id] = u;
            else if (u[3]) state.last = u;
            else delete state.open[id];
          }
          const box = el("div", { class: "device", "data-device": s.devices[d] });
          const name = el("b");
          name.appendChild(el("span", { class: "swatch", style: "background:" + colour(d) }));
          name.appendChild(el("span", null, s.devices[d]));
          box.appendChild(name);
          const dl = el("dl");
          function row(label, text, at) { dl.appendChild(el("dt", null, label)); dl.appendChild(el("dd", null, text + (at !== undefined && at < t ? " (" + time(t - at) + " ago)" : ""))); }
          const states = s.intervals.filter(function (iv) { return iv[0] === d && iv[1] !== "prompt" && iv[2] <= t && t < iv[3]; }).map(function (iv) { return KIND[iv[1]] ? KIND[iv[1]][0] : iv[1]; });
          if (states.length) row("device", states.join(", "));
          if (state.screen) row("screen", state.screen[4], e.t[state.screen[0]]);
          for (const id in state.open) { const u = state.open[id]; row(u[1] === "panel" ? u[2] : u[1], u[1] === "panel" ? (u[4] || "showing") : u[2] + ": " + u[4], e.t[u[0]]); }
          if (state.last) row("last shown", state.last[2] + (state.last[4] ? ": " + state.last[4] : ""), e.t[state.last[0]]);
          if (state.notification) row("notification", state.notification[4], e.t[state.notification[0]]);
          if (state.error) row("error", state.error[4], e.t[state.error[0]]);
          const mk = view.appMarkers[d] ? latestAtOrBefore(view.appMarkerEvents[d], e.t, t) : null;
          if (mk !== null) row("marker", field(e.f[mk], "lat") + ", " + field(e.f[mk], "lon") + (field(e.f[mk], "accuracy") ? " ±" + field(e.f[mk], "accuracy") + " m" : ""), e.t[mk]);
          if (dl.childNodes.length) box.appendChild(dl); else box.appendChild(el("div", { class: "idle" }, "nothing shown yet"));
          view.panel.appendChild(box);
        }
        if (!chosen.length) view.panel.appendChild(el("div", { class: "note" }, "No device's app showed anything."));
        else if (chosen.length < s.devices.length) view.panel.appendChild(el("div", { class: "note" }, chosen.length + " of " + s.devices.length + " devices: pick one in the event filter below."));
      }

      function drawPlayer(view) {
        const s = view.s;
        const player = el("div", { class: "player" });
        const play = el("button", { type: "button", title: "play the scenario" }, "▶ play");
        const slider = el("input", { type: "range", min: "0", max: String(s.end), step: "any", value: "0", "aria-label": "time" });
        const clock = el("span", { class: "clock" });
        player.appendChild(play); player.appendChild(slider); player.appendChild(clock);
        view.body.appendChild(player);
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

      // The timeline is drawn at the width it has on the page (one unit a CSS pixel), so its text
      // stays readable on a phone; it is drawn again when the width changes.
      function timelineWidth() { return Math.max(300, Math.round(main.clientWidth - (window.innerWidth <= 600 ? 20 : 48) - 32)); }
      function drawTimeline(view) {
        const s = view.s, W = timelineWidth(), narrow = W < 700, left = narrow ? 86 : 150, right = narrow ? 10 : 20, laneH = 34, top = 26;
        view.timelineWidth = W;
        const chosen = view.laneDevices || s.devices.map(function (_, i) { return i; }).slice(0, LANES);
        const H = top + chosen.length * laneH + 10;
        const tl = svg("svg", { class: "timeline", viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "timeline of " + s.title });
        const span = Math.max(s.end, 1);
        view.tx = function (t) { return left + (W - left - right) * t / span; };
        const axis = svg("g", { class: "axis" });
        const step = niceStep(span, narrow ? 3 : 8);
        for (let t = 0; t <= span; t += step) {
          axis.appendChild(svg("line", { class: "grid", x1: view.tx(t), x2: view.tx(t), y1: top - 6, y2: H }));
          axis.appendChild(svg("text", { x: view.tx(t), y: 14, "text-anchor": t === 0 ? "start" : "middle" }, time(t)));
        }
        tl.appendChild(axis);
        const lane = {};
        const nameLength = narrow ? 11 : 20;
        chosen.forEach(function (d, row) { lane[d] = row; });
        chosen.forEach(function (d, row) {
          const y = top + row * laneH;
          tl.appendChild(svg("text", { x: 6, y: y + 19 }, s.devices[d].length > nameLength ? s.devices[d].slice(0, nameLength - 1) + "…" : s.devices[d]));
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
        if (view.timeline) { view.timeline.replaceWith(tl); view.timelineNote.textContent = laneNote(s, chosen); }
        else {
          const heading = el("h3", null, "Timeline");
          const keys = el("div", { class: "filters note" });
          for (const k in KIND) { const sw = el("span", { class: "swatch", style: "background:" + KIND[k][1] }); keys.appendChild(sw); keys.appendChild(el("span", null, KIND[k][0])); }
          keys.appendChild(el("span", null, "· ticks: events (hover for details) · click to move the time"));
          view.body.appendChild(heading); view.body.appendChild(keys); view.body.appendChild(tl);
          view.timelineNote = el("p", { class: "note" }, laneNote(s, chosen));
          view.body.appendChild(view.timelineNote);
        }
        view.timeline = tl;
      }
      function laneNote(s, chosen) { return chosen.length < s.devices.length ? "Lanes for " + chosen.length + " of " + s.devices.length + " devices: pick a device in the event filter below to see its lane." : ""; }
      let resizeTimer = null;
      window.addEventListener("resize", function () {
        clearTimeout(resizeTimer);
        resizeTimer = setTimeout(function () {
          const W = timelineWidth();
          for (const v of views) if (!v.section.classList.contains("collapsed")) { v.rescale(); if (v.timelineWidth !== W) { drawTimeline(v); v.setTime(v.now); } }
        }, 150);
      });

      // The network panel: each request a device sent and what became of it, and what the server handled.
      function drawNetwork(view) {
        const s = view.s, rows = s.network || [];
        if (!rows.length) return;
        const lost = rows.filter(function (r) { return r[7] !== null; }).length, failed = rows.filter(function (r) { return r[2] !== "server" && !/^[23]/.test(r[6]); }).length;
        view.body.appendChild(el("h3", null, "Network"));
        view.body.appendChild(el("div", { class: "note network-summary" }, plural(rows.length, "request") + (failed ? " · " + failed + " without an answer" : "") + (lost ? " · " + lost + " lost in the network" : "") + (rows.some(function (r) { return r[2] === "server"; }) ? " · server rows: what the scenario's server handled (a request that went through is traced there)" : "")));
        const wrap = el("div", { class: "events-wrap network-wrap" });
        const table = el("table", { class: "events network" });
        table.innerHTML = "<thead><tr><th title='when the device sent it; a server row: when the server handled it'>sent</th><th>device</th><th>request</th><th class=num>arrived</th><th class=num>answer</th><th>outcome</th></tr></thead>";
        const body = el("tbody");
        const shown = Math.min(rows.length, 1000);
        for (let i = 0; i < shown; i++) {
          const r = rows[i];
          const tr = el("tr", { class: "exchange " + r[2] + (r[7] !== null ? " lost" : ""), "data-t": String(r[0]) });
          tr.appendChild(el("td", { class: "time" }, time(r[0])));
          tr.appendChild(el("td", null, r[1] >= 0 ? s.devices[r[1]] : (r[2] === "server" ? "server" : "")));
          tr.appendChild(el("td", { class: "mono" }, r[3]));
          tr.appendChild(el("td", { class: "num" }, r[4] === null ? "" : r[2] === "server" ? "" : "+" + time(r[4] - r[0])));
          tr.appendChild(el("td", { class: "num" }, r[5] === null ? "" : "+" + time(r[5] - r[0])));
          const outcome = el("td", { class: "outcome" });
          outcome.appendChild(el("span", { class: "mono" }, r[6]));
          if (r[7] !== null) outcome.appendChild(el("span", { class: "badge failed lost-part" }, r[7] + " lost"));
          tr.appendChild(outcome);
          body.appendChild(tr);
        }
        table.appendChild(body);
        wrap.appendChild(table);
        view.body.appendChild(wrap);
        if (shown < rows.length) view.body.appendChild(el("div", { class: "note" }, "The first " + shown + " of " + rows.length + " requests: the event table below has them all."));
        body.addEventListener("click", function (ev) { const tr = ev.target.closest("tr"); if (tr) view.setTime(Number(tr.getAttribute("data-t"))); });
      }

      function drawEvents(view) {
        const s = view.s, e = s.events;
        view.body.appendChild(el("h3", null, "Events"));
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
        view.body.appendChild(filters);
        const wrap = el("div", { class: "events-wrap" });
        const table = el("table", { class: "events" });
        table.innerHTML = "<thead><tr><th>time</th><th>device</th><th>event</th><th>details</th></tr></thead>";
        const body = el("tbody");
        table.appendChild(body);
        wrap.appendChild(table);
        view.body.appendChild(wrap);
        const more = el("button", { type: "button" }, "show more");
        view.body.appendChild(more);
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
          view.panelDevices = d !== "" && d !== "-1" ? [Number(d)] : null;
          if (s.devices.length > LANES) { view.laneDevices = d !== "" && d !== "-1" ? [Number(d)] : null; drawTimeline(view); }
          view.setTime(view.now);
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

      // #s3@t=12.5&device=alice&event=ping.sent: a moment and a filter in one scenario (links can be shared);
      // #filter=roads: the scenario filter.
      function applyHash() {
        const f = /^#filter=(.*)$/.exec(location.hash);
        if (f) { search.value = decodeURIComponent(f[1]); applyFilter(); return; }
        const m = /^#s(\d+)(?:@(.*))?$/.exec(location.hash);
        if (!m || !views[Number(m[1])]) return;
        const view = views[Number(m[1])];
        view.section.classList.remove("filtered-out");
        view.setCollapsed(false);
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
