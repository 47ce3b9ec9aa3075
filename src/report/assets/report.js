/*
 * report.js - draws a leakscope HTML report from the JSON in #data.
 *
 * Plain JavaScript, inline SVG, no libraries and no network: the page must
 * work from a file on a machine without internet. The data was already
 * reduced by the writer (src/report/html.c): at most ~1000 points per chart
 * series, the top bands one by one plus OTHER, a 60-point sparkline per band.
 */
(function () {
  'use strict';
  var app = document.getElementById('app');
  var SVGNS = 'http://www.w3.org/2000/svg';
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948',
    '#b07aa1', '#ff9da7', '#9c755f', '#5f9ed1', '#d37295', '#8cd17d', '#b6992d',
    '#499894', '#86bcb6'];
  var OTHER_COLOR = '#bab0ac';
  var SERIES_COLORS = { 'heap size': '#1f6feb', 'live bytes': '#2da44e',
    'blocks size': '#cf222e', 'rss': '#8250df' };

  /* ---- formatting ---- */
  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function sig3(x) {
    var a = Math.abs(x);
    return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
  }
  var UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  function fmtBytes(v) {
    if (v == null || !isFinite(v)) return '\u2013';
    var a = Math.abs(v), i = 0;
    while (a >= 1024 && i < UNITS.length - 1) { a /= 1024; i++; }
    if (i === 0) return Math.round(v) + ' B';
    return sig3(v < 0 ? -a : a) + ' ' + UNITS[i];
  }
  function fmtTime(s) {
    if (s == null || !isFinite(s)) return '\u2013';
    var a = Math.abs(s);
    if (a === 0) return '0 s';
    if (a < 1e-3) return sig3(s * 1e6) + ' \u00b5s';
    if (a < 1) return sig3(s * 1e3) + ' ms';
    if (a < 60) return sig3(s) + ' s';
    var sec = Math.round(s), m = Math.floor(sec / 60), hr = Math.floor(m / 60);
    if (hr < 2) return m + ' min' + (sec % 60 ? ' ' + (sec % 60) + ' s' : '');
    return hr + ' h' + (m % 60 ? ' ' + (m % 60) + ' min' : '');
  }
  /* axis labels: "2 s", "50 MiB" rather than "2.00 s", "50.0 MiB" */
  function trimz(str) { return str.replace(/(\.\d*?)0+(?=\D|$)/, '$1').replace(/\.(?=\D|$)/, ''); }
  function fmtRate(v) { return v == null || !isFinite(v) ? '\u2013' : fmtBytes(v) + '/s'; }
  function fmtByteSec(v) { return v == null || !isFinite(v) ? '\u2013' : fmtBytes(v) + '\u00b7s'; }
  function fmtPct(v) { return v == null || !isFinite(v) ? '\u2013' : (v >= 10 || v === 0 ? v.toFixed(0) : v.toFixed(1)) + '%'; }
  function fmtFit(v) { return v == null || !isFinite(v) ? '\u2013' : v.toFixed(3); }

  /* nice tick step for range/n: 1, 2 or 5 times a power of ten */
  function niceStep(raw) {
    if (!(raw > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  /* time ticks land on whole minutes and hours once the run is long */
  function timeStep(raw) {
    if (raw < 30) return niceStep(raw);
    var steps = [30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
    for (var i = 0; i < steps.length; i++) if (raw <= steps[i]) return steps[i];
    return niceStep(raw / 86400) * 86400;
  }
  /* byte ticks land on round numbers of the unit the maximum is shown in */
  function byteStep(max, n) {
    var unit = 1;
    while (max / unit >= 1024) unit *= 1024;
    return niceStep(max / unit / n) * unit;
  }
  function ticks(lo, hi, step) {
    var out = [], v = Math.ceil(lo / step - 1e-9) * step;
    for (; v <= hi + step * 1e-9 && out.length < 50; v += step) out.push(v);
    return out;
  }

  function h(tag, attrs, html) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) if (attrs.hasOwnProperty(k)) e.setAttribute(k, attrs[k]);
    if (html != null) e.innerHTML = html;
    return e;
  }
  function bsearch(xs, x) { /* index of the element of xs nearest to x */
    var lo = 0, hi = xs.length - 1;
    if (hi < 0) return -1;
    while (hi - lo > 1) {
      var mid = (lo + hi) >> 1;
      if (xs[mid] <= x) lo = mid; else hi = mid;
    }
    return Math.abs(xs[hi] - x) < Math.abs(xs[lo] - x) ? hi : lo;
  }

  /*
   * draw(D, keep): the whole page from the data D, replacing what a previous
   * draw made. keep is what the reader chose on the page drawn before
   * (state() of the previous draw), or null: the open tab, the window
   * brushed (by its times), the chart options, the bands left out, the
   * table's order and search, the flame graph's measure and search, the
   * sizes' measure. Returns {state, render}.
   */
  function draw(D, keep) {
    var t_start = (window.performance && performance.now()) || 0;
    /* ---- allocation sites: names that tell them apart (labels.js) ---- */
    var SITES = {};   /* site id -> {label, f (innermost first), leaf} */
    function siteOf(id) { var m = /^site (\d+)$/.exec(id || ''); return m ? +m[1] : null; }
    function leafLabel(f) {
      var fr = f[0];
      if (!fr) return 'no stack';
      if (fr[0] && fr[1]) return fr[0] + ' (' + fr[1].replace(/^.*\//, '') + ':' + fr[2] + ')';
      return fr[0] || ((fr[3] || '?') + '+' + fr[4]);
    }
    (D.bands || []).forEach(function (b) { var k = siteOf(b.id); if (k != null && b.f) SITES[k] = { label: b.label, f: b.f }; });
    (D.leaks || []).forEach(function (r) { SITES[r.site] = { label: r.label, f: r.f }; });
    if (D.flame) D.flame.stacks.forEach(function (st) {
      if (st[2] == null || SITES[st[2]]) return;
      var f = st[1].map(function (fi) { return D.flame.frames[fi]; }).reverse();
      SITES[st[2]] = { label: leafLabel(f), f: f };
    });
    (function () {
      var ids = Object.keys(SITES), names = LK.siteLabels(ids.map(function (k) { return { label: SITES[k].label, f: SITES[k].f, id: k }; }));
      ids.forEach(function (k, i) { SITES[k].leaf = SITES[k].label; SITES[k].label = names[i]; });
      (D.bands || []).forEach(function (b) { var k = siteOf(b.id); if (k != null && SITES[k]) b.label = SITES[k].label; });
      (D.leaks || []).forEach(function (r) { r.label = SITES[r.site].label; });
    })();
    function siteName(k) { return SITES[k] ? SITES[k].label : 'site ' + k; }

    /* ---- the window: a time range brushed on a chart (cells.js) ---- */
    var CELLS = D.cells ? LK.cells(D.cells) : null, WIN = null;
    var windowListeners = [];
    function setWindow(i, j) {
      if (i > j) { var x = i; i = j; j = x; }
      WIN = (i === 0 && j === CELLS.t.length - 1) || i === j ? null : CELLS.compute(i, j);
      windowListeners.forEach(function (f) { f(); });
    }

    /* ---- bands: what is charted ---- */
    var chart = D.chart || { t: [], bands: [], other: null, total: [], top: 0 };
    var layers = [];      /* top bands, then OTHER: {name, color, ys, band, on, hay} */
    function hidden(id) { return !!keep && keep.off.indexOf(id) >= 0; }   /* a band's id, or OTHER */
    chart.bands.forEach(function (ys, i) {
      var b = D.bands[i];
      layers.push({ name: b.label, color: PALETTE[i % PALETTE.length], ys: ys, band: i, on: !hidden(b.id),
        peak: b.s[1], hay: (b.label + ' ' + b.id + ' ' + (b.d || []).join(' ')).toLowerCase() });
    });
    if (chart.other) {
      var nOther = D.bands.length - chart.bands.length;
      var omax = 0;
      chart.other.forEach(function (v) { if (v > omax) omax = v; });
      layers.push({ name: 'OTHER (' + nOther + ' bands)', color: OTHER_COLOR, ys: chart.other,
        band: -1, on: !hidden('OTHER'), peak: omax, hay: 'other' });
    }
    var bandFilter = keep ? keep.filter : '';
    function shown() {
      return layers.filter(function (l) {
        return l.on && (!bandFilter || l.hay.indexOf(bandFilter) >= 0);
      });
    }

    /* ---- charts ---- */
    var HEIGHT = 400;
    /* the byte charts' axis (chartopts.js); stream: the area chart as a streamgraph */
    var CHART = keep ? keep.chart : { log: false, clip: true, stream: false };
    /* a red triangle on the top edge over each sample the clipped axis cuts,
     * its value in the title */
    function spikeMarks(ls, cum, n, top, X, MT) {
      var out = ['<g class="spikes">'], lastX = -10;
      for (var i = 0; i < n; i++) {
        var v = 0;
        if (cum) v = cum[cum.length - 1].hi[i];
        else ls.forEach(function (l) { if ((l.ys[i] || 0) > v) v = l.ys[i]; });
        var x = X(ls[0].xs[i]);
        if (v <= top || x - lastX < 6) continue;
        lastX = x;
        out.push('<path class="spike" d="M' + (x - 5).toFixed(1) + ',' + (MT + 8) + 'L' + x.toFixed(1) + ',' + MT + 'L' + (x + 5).toFixed(1) + ',' + (MT + 8) +
          'Z"><title>' + esc('spike, off the scale: ' + fmtBytes(v) + ' at ' + fmtTime(ls[0].xs[i])) + '</title></path>');
      }
      return out.join('') + '</g>';
    }
    /*
     * drawChart(host, cfg): cfg.layers [{name, color, xs, ys}], cfg.stacked,
     * cfg.yMax (fixed, e.g. 100 for percentages) or computed, cfg.yFmt,
     * cfg.yStep(max) for ticks, cfg.tipFmt for tooltip values, cfg.total.
     */
    function drawChart(host, cfg) {
      var W = Math.max(host.clientWidth || 0, 360), H = HEIGHT;
      var x0 = Math.min(0, D.t0), x1 = D.t1 > x0 ? D.t1 : x0 + 1;
      var ls = cfg.layers;
      host.innerHTML = '';
      /* marker labels: placed greedily in up to 3 rows above the plot */
      var marks = (D.markers || []).filter(function (m) { return m[0] >= x0 && m[0] <= x1; });
      var ML = 78, MR = 18, MB = 34;
      var pw = W - ML - MR;
      function X(t) { return ML + (t - x0) / (x1 - x0) * pw; }
      var rowEnd = [-1e9, -1e9, -1e9], placed = [];
      marks.forEach(function (m) {
        var text = m[1].length > 40 ? m[1].slice(0, 39) + '\u2026' : m[1];
        var x = X(m[0]), w = text.length * 6.6 + 6, anchorEnd = x + w > W - 4;
        var from = anchorEnd ? x - w : x, row = -1;
        for (var r = 0; r < rowEnd.length; r++) if (rowEnd[r] < from) { row = r; break; }
        if (row >= 0) rowEnd[row] = from + w + 6;
        placed.push({ x: x, text: text, full: m[1], t: m[0], row: row, end: anchorEnd });
      });
      var nrows = 0;
      placed.forEach(function (p) { if (p.row + 1 > nrows) nrows = p.row + 1; });
      var MT = 12 + nrows * 14;
      var ph = H - MT - MB;

      var ymax = cfg.yMax, cum = null, n = ls.length ? ls[0].ys.length : 0, tops = [];
      if (cfg.stacked) {
        cum = [];
        var acc = new Array(n).fill(0);
        ls.forEach(function (l) {
          var lo = acc.slice();
          for (var i = 0; i < n; i++) acc[i] += (l.ys[i] || 0);
          cum.push({ lo: lo, hi: acc.slice() });
        });
        tops = acc;
      } else ls.forEach(function (l) { tops = tops.concat(l.ys); });
      /* a streamgraph: every column centred on the middle of the widest one */
      var stream = cfg.stacked && cfg.streamable && CHART.stream, widest = 0;
      if (stream) {
        tops.forEach(function (v) { if (v > widest) widest = v; });
        cum.forEach(function (c) {
          for (var i = 0; i < n; i++) { var off = (widest - tops[i]) / 2; c.lo[i] += off; c.hi[i] += off; }
        });
      }
      /* byte charts: a log or linear axis, clipped above a spike (chartopts.js);
       * percentage charts: 0..yMax */
      var ax = ymax == null ? LK.yAxis(stream ? [widest] : tops, stream ? { log: false, clip: false } : CHART,
        cfg.yStep || function (m) { return niceStep(m / 5); }) : null;
      var step = ax ? 0 : cfg.yStep ? cfg.yStep(ymax) : niceStep(ymax / 5);
      var yTop = ax ? ax.top : Math.max(ymax, Math.ceil(ymax / step - 1e-9) * step);
      function Y(v) { return MT + ph - Math.min(ax ? ax.scale(v) : v / yTop, 1.05) * ph; }
      var clipId = 'clip-' + (host.id || 'chart');

      var s = ['<svg xmlns="' + SVGNS + '" viewBox="0 0 ' + W + ' ' + H + '" height="' + H +
        '" role="img" aria-label="' + esc(cfg.label) + '">'];
      s.push('<defs><clipPath id="' + clipId + '"><rect x="' + ML + '" y="' + MT + '" width="' + pw + '" height="' + ph + '"/></clipPath></defs>');
      s.push('<g class="axis">');
      (ax ? ax.ticks : ticks(0, yTop, step)).forEach(function (v) {
        var y = Y(v).toFixed(1);
        s.push('<line class="grid" x1="' + ML + '" x2="' + (ML + pw) + '" y1="' + y + '" y2="' + y + '"/>');
        if (!stream) /* a streamgraph's heights are its values, not its positions */
          s.push('<text x="' + (ML - 6) + '" y="' + y + '" dy="0.32em" text-anchor="end">' + esc(trimz(cfg.yFmt(v))) + '</text>');
      });
      var nxt = Math.max(2, Math.floor(pw / 90));
      ticks(x0, x1, timeStep((x1 - x0) / nxt)).forEach(function (t) {
        var x = X(t).toFixed(1);
        s.push('<line class="grid" x1="' + x + '" x2="' + x + '" y1="' + MT + '" y2="' + (MT + ph) + '"/>');
        s.push('<text x="' + x + '" y="' + (MT + ph + 16) + '" text-anchor="middle">' + esc(trimz(fmtTime(t))) + '</text>');
      });
      s.push('<text x="' + (ML + pw) + '" y="' + (H - 2) + '" text-anchor="end">time</text>');
      /* eventlog --y-axis: the label of a byte axis */
      if (ax && D.y_axis)
        s.push('<text class="y-axis" transform="translate(12,' + (MT + ph / 2).toFixed(1) +
          ') rotate(-90)" text-anchor="middle">' + esc(D.y_axis) + '</text>');
      s.push('</g>');

      if (!ls.length || !n) {
        s.push('<text class="empty" x="' + (ML + pw / 2) + '" y="' + (MT + ph / 2) +
          '" text-anchor="middle">' + (D.nSamples ? 'no band selected' : 'no samples in this profile') + '</text>');
      }
      s.push('<g class="layers" clip-path="url(#' + clipId + ')">');
      ls.forEach(function (l, k) {
        var xs = l.xs, d = [], i;
        if (cfg.stacked) {
          var c = cum[k];
          for (i = 0; i < n; i++) d.push((i ? 'L' : 'M') + X(xs[i]).toFixed(1) + ',' + Y(c.hi[i]).toFixed(1));
          for (i = n - 1; i >= 0; i--) d.push('L' + X(xs[i]).toFixed(1) + ',' + Y(c.lo[i]).toFixed(1));
          s.push('<path class="layer" data-name="' + esc(l.name) + '" fill="' + l.color +
            '" fill-opacity="0.88" stroke="' + l.color + '" stroke-width="0.5" d="' + d.join('') + 'Z"/>');
        } else {
          for (i = 0; i < l.ys.length; i++) d.push((i ? 'L' : 'M') + X(xs[i]).toFixed(1) + ',' + Y(l.ys[i] || 0).toFixed(1));
          s.push('<path class="layer" data-name="' + esc(l.name) + '" fill="none" stroke="' + l.color +
            '" stroke-width="1.8" stroke-linejoin="round" d="' + d.join('') + '"/>');
        }
      });
      s.push('</g>');
      if (ax && ax.clipped) s.push(spikeMarks(ls, cum, n, ax.top, X, MT));
      if (WIN) s.push('<rect class="winshade" x="' + X(WIN.from).toFixed(1) + '" y="' + MT + '" width="' + Math.max(X(WIN.to) - X(WIN.from), 1).toFixed(1) +
        '" height="' + ph + '"/>');
      s.push('<rect class="frame" x="' + ML + '" y="' + MT + '" width="' + pw + '" height="' + ph + '"/>');
      placed.forEach(function (p) {
        var x = p.x.toFixed(1);
        s.push('<g class="marker"><title>' + esc(fmtTime(p.t) + ': ' + p.full) + '</title>' +
          '<line x1="' + x + '" x2="' + x + '" y1="' + (p.row >= 0 ? 12 + p.row * 14 - 9 : MT) + '" y2="' + (MT + ph) + '"/>');
        if (p.row >= 0)
          s.push('<text x="' + (p.end ? p.x - 4 : p.x + 4).toFixed(1) + '" y="' + (12 + p.row * 14) +
            '" text-anchor="' + (p.end ? 'end' : 'start') + '">' + esc(p.text) + '</text>');
        s.push('</g>');
      });
      s.push('<line class="hover" x1="0" x2="0" y1="' + MT + '" y2="' + (MT + ph) + '" visibility="hidden"/>');
      s.push('<rect class="overlay" x="' + ML + '" y="' + MT + '" width="' + pw + '" height="' + ph + '" fill="transparent"/>');
      s.push('</svg>');
      host.innerHTML = s.join('');
      var tip = h('div', { 'class': 'tip' });
      host.appendChild(tip);

      var svg = host.firstChild, hover = svg.querySelector('.hover'), overlay = svg.querySelector('.overlay');
      if (ax) svg.setAttribute('data-axis', stream ? 'stream' : (ax.log ? 'log' : 'linear') + (ax.clipped ? ' clipped' : ''));
      if (CELLS) LK.brush(svg, { x0: x0, x1: x1, left: ML, width: pw }, function (a, b) { setWindow(CELLS.snap(a), CELLS.snap(b)); });
      function leave() { tip.style.display = 'none'; hover.setAttribute('visibility', 'hidden'); }
      overlay.addEventListener('mouseleave', leave);
      overlay.addEventListener('mousemove', function (ev) {
        if (!ls.length || !n) return;
        var r = svg.getBoundingClientRect(), scale = W / r.width;
        var px = (ev.clientX - r.left) * scale, t = x0 + (px - ML) / pw * (x1 - x0);
        var rows = [], tt = null;
        if (ev.buttons) return leave();   /* brushing */
        ls.forEach(function (l) {
          var i = bsearch(l.xs, t);
          if (i < 0) return;
          if (tt == null) tt = l.xs[i];
          rows.push({ l: l, v: l.ys[i], i: i });
        });
        if (tt == null) return leave();
        var hx = X(tt).toFixed(1);
        hover.setAttribute('x1', hx); hover.setAttribute('x2', hx); hover.setAttribute('visibility', 'visible');
        if (cfg.stacked) rows.reverse(); /* top of the stack first, as drawn */
        var tot = 0;
        rows.forEach(function (r) { tot += r.v || 0; });
        var html = '<div class="t" data-t="' + tt + '">' + esc(fmtTime(tt)) + '</div><table>';
        rows.slice(0, 18).forEach(function (r) {
          html += '<tr data-v="' + (r.v || 0) + '" data-i="' + r.i + '"><td><span class="sw" style="background:' + r.l.color + '"></span></td><td class="n">' +
            esc(r.l.name) + '</td><td class="v">' + esc(cfg.tipFmt(r.v, r.l, r.i)) + '</td></tr>';
        });
        if (rows.length > 18) html += '<tr><td></td><td class="n">\u2026 ' + (rows.length - 18) + ' more</td><td></td></tr>';
        if (cfg.stacked && cfg.showTotal)
          html += '<tr><td></td><td class="n"><b>total shown</b></td><td class="v"><b>' + esc(cfg.tipFmt(tot)) + '</b></td></tr>';
        html += '</table>';
        var near = (D.markers || []).filter(function (m) { return Math.abs(X(m[0]) - X(tt)) < 6; });
        near.slice(0, 3).forEach(function (m) { html += '<div class="mk">\u25C6 ' + esc(m[1]) + '</div>'; });
        tip.innerHTML = html;
        tip.style.display = 'block';
        var hr = host.getBoundingClientRect();
        var left = ev.clientX - hr.left + 16, tw = tip.offsetWidth;
        if (left + tw > hr.width) left = ev.clientX - hr.left - tw - 16;
        tip.style.left = Math.max(0, left) + 'px';
        tip.style.top = Math.max(0, ev.clientY - hr.top - 10) + 'px';
      });
    }

    /* ---- page skeleton ---- */
    if (!document.querySelector('#title .brand'))
      document.getElementById('title').insertAdjacentHTML('beforeend', '<span class="brand">leakscope heap profile</span>');
    var head = document.getElementById('head');
    Array.prototype.forEach.call(head.querySelectorAll(':scope > .meta, :scope > .warnings'), function (e) { e.remove(); });
    var meta = '<dl class="meta">';
    (D.meta || []).forEach(function (kv) { meta += '<div><dt>' + esc(kv[0]) + '</dt><dd title="' + esc(kv[1]) + '">' + esc(kv[1]) + '</dd></div>'; });
    var NOTL = D.run || D.diff;   /* a run's or a diff's page (leak_html.c, tdiff_html.c): no timeline */
    if (!NOTL) {
      meta += '<div><dt>samples</dt><dd>' + D.nSamples + '</dd></div>';
      meta += '<div><dt>duration</dt><dd>' + esc(fmtTime(D.t1 - D.t0)) + '</dd></div>';
      meta += '<div><dt>bands</dt><dd>' + D.nBands + '</dd></div>';
    }
    meta += '</dl>';
    head.insertAdjacentHTML('beforeend', meta);
    if (D.warnings && D.warnings.length) {
      var w = '<div class="warnings" role="alert"><strong>\u26A0 ' + D.warnings.length +
        (D.warnings.length === 1 ? ' warning' : ' warnings') + ' while reading this profile</strong><ul>';
      D.warnings.forEach(function (x) { w += '<li>' + esc(x) + '</li>'; });
      head.insertAdjacentHTML('beforeend', w + '</ul></div>');
    }
    app.innerHTML = '';

    var panes = [];
    var hasSeries = D.series && D.series.some(function (s) { return s.t.length > 0; });
    if (hasSeries) panes.push({ id: 'heap', title: 'Heap', help: 'Memory of the whole program over time: heap size, live bytes and blocks size as reported by the runtime (or the process RSS). Hover for values; dashed red lines are markers.' });
    panes.push({ id: 'area', title: 'Area chart', help: (chart.other ? 'Live bytes of the ' + chart.bands.length + ' largest bands (by integrated size), stacked; everything else is summed as OTHER.' :
      'Live bytes of every band, stacked, largest (by integrated size) at the bottom.') + ' Untick a band in the legend, or filter by name, to leave it out.' });
    panes.push({ id: 'norm', title: 'Normalised', help: 'Each band as a percentage of the total of the shown bands at each sample time.' });
    panes.push({ id: 'line', title: 'Line chart', help: 'Each band relative to its own maximum (100%). A line that keeps climbing is a band that grows slowly \u2014 a leak candidate even when it is small.' });
    panes.push({ id: 'table', title: 'Detailed', help: 'Every band with its statistics. Click a column header to sort (Slope: fastest-growing first), type to search labels' + (D.detailColumns.length ? ' and ' + esc(D.detailColumns.join(', ')) : '') + '.' +
      (D.cells ? ' With a window chosen, the sparklines and statistics are those of the window\'s samples.' : '') });

    if (D.summary) panes.unshift({ id: 'summary', title: 'Summary', help: 'The heap at a glance: its peak, what was live at the end, what the window allocated, freed and left unfreed, temporary allocations, and the sites that matter most. Drag across any chart to choose a window: this tab, the leak table, the leak candidates, the sizes, the detailed table, the trees and the flame graph are recomputed for it.' });
    if (D.diffSummary) panes.unshift({ id: 'summary', title: 'Summary', help: 'The two points at a glance: what was added (live at B, not at A) and removed (live at A, not at B), each point\'s live bytes and blocks and its trace\'s peak, allocations and temporary allocations up to it, with their difference, and the sites that added, removed and held the most.' });
    if (D.run && D.verdicts) panes.unshift({ id: 'summary', title: 'Summary', help: 'The end of the run at a glance: the bytes and blocks of each verdict of the scan made as the processes ended, what the suppressions took, and the largest allocation sites not freed.' });
    if (D.leaks && D.diff) panes.push({ id: 'leaks', title: 'Added', help: 'Blocks live at B and not at A, per allocation site, largest first. The flame graph and the trees also show what was removed (live at A, not at B) and what was live at each point. Click a row for its stack.' });
    else if (D.leaks && D.run) panes.push({ id: 'leaks', title: 'Leaks', help: 'Blocks not freed when the process ended, grouped by allocation stack and by the verdict of the scan made as it ended: lost (definitely, indirectly, possibly), still reachable, or not freed when there was no scan; suppressed groups last. Click a row for its stack.' });
    else if (D.leaks) panes.push({ id: 'leaks', title: 'Leaks', help: 'Blocks allocated in the window and not freed by its end, grouped by allocation stack, largest first, with the times of their first and last allocation: leaks that started early and kept going are the likely true ones. When the window reaches the end of the trace, the verdict of the scan made as the process ended says which are lost (definitely, indirectly, possibly) and which were still reachable, as leakscope run says it. Click a row for its stack.' });
    if (D.candidates) panes.push({ id: 'candidates', title: 'Leak candidates', help: 'Each dot is a block not freed: when it was allocated (x) and its size (y), coloured by its allocation site (the rank in the Leaks table). A horizontal line of dots is a site that leaks the same size over and over.' + (D.cells && D.cells.spans ? ' With a window chosen, the dots are the blocks allocated in it and not freed by its end.' : '') });
    /* Flame graph data: a trace's allocation stacks (D.flame), or the
     * cost-centre stacks of a -hc profile (labels "inner/.../outer"). */
    var FLAME = null;
    if (D.flame) {
      FLAME = { measures: D.flame.measures, other: D.flame.other, stacks: D.flame.stacks.map(function (st) {
        return [st[0], st[1].map(function (fi) { return fi >= 0 ? D.flame.frames[fi] : null; }), st[2]];
      }) };
    } else if ((D.meta || []).some(function (kv) { return kv[0] === 'breakdown' && kv[1].indexOf('(-hc)') >= 0; })) {
      FLAME = { measures: [['integrated', 'Integrated size', 'byte-seconds'], ['peak', 'Peak', 'bytes']], other: 0,
        stacks: D.bands.map(function (b) {
          return [[b.s[0] || 0, b.s[1] || 0], b.label.split('/').reverse().map(function (cc) { return [cc, null, 0, null, '0x0', 0]; })];
        }) };
    }
    if (FLAME) panes.push({ id: 'flame', title: 'Flame graph', help: D.flame ?
      'Allocation stacks merged into one tree: the program\'s entry at the bottom, the function that allocated at the top of each tower; a frame\'s width is its share of the chosen measure. Hover for numbers, click a frame to zoom into it, search to highlight functions.' :
      'Cost-centre stacks merged into one tree: MAIN or a CAF at the bottom, the cost centre that holds the memory at the top of each tower; a frame\'s width is its share of the chosen measure. Hover for numbers, click a frame to zoom into it, search to highlight cost centres.' });
    if (D.flame) panes.push({ id: 'trees', title: 'Trees', help: 'The allocation stacks as trees: top-down (the program\'s entry first), bottom-up (the allocating functions first, their callers under them) and the callers and callees of one function (\u21C4 on a row). Filter by function, file or module: only the stacks with a matching frame count.' });
    if (D.sizes && D.sizes.length) panes.push({ id: 'sizes', title: 'Sizes', help: 'Allocations by size class (powers of two), the whole heap: how many, how many bytes, what was still live at the end and what the window left unfreed. A class that keeps blocks live is where a --size filter narrows the report to a leak. The log scale box keeps small classes visible next to a large one.' + (D.cells ? ' With a window chosen, the numbers are the window\'s.' : '') });
    var TIMECHARTS = ['heap', 'area', 'norm', 'line', 'candidates'];
    var nav = h('nav', { 'class': 'tabs', role: 'tablist' });
    app.appendChild(nav);
    var wbar = h('div', { 'class': 'winbar', id: 'winbar' });
    app.appendChild(wbar);
    function drawWinbar() {
      var txt = !CELLS ? '' : WIN ? 'Window: ' + fmtTime(WIN.from) + ' \u2013 ' + fmtTime(WIN.to) + ' (after ' + fmtTime(WIN.from) + ', up to ' + fmtTime(WIN.to) + ' included) ' +
        '<button type="button" id="win-reset">whole trace</button>' : 'Window: the whole trace \u2014 drag across a chart to choose one';
      wbar.innerHTML = '<span id="win-text"' + (WIN ? ' data-from="' + WIN.from + '" data-to="' + WIN.to + '" data-i="' + WIN.i + '" data-j="' + WIN.j + '"' : '') + '>' + txt + '</span>' +
        '<label><input type="checkbox" id="opt-log"' + (CHART.log ? ' checked' : '') + '> log scale</label>' +
        '<label><input type="checkbox" id="opt-clip"' + (CHART.clip ? ' checked' : '') + '> clip spikes</label>' +
        '<label><input type="checkbox" id="opt-stream"' + (CHART.stream ? ' checked' : '') + '> streamgraph (area chart)</label>';
    }
    wbar.addEventListener('change', function (e) {
      if (e.target.id === 'opt-log') CHART.log = e.target.checked;
      else if (e.target.id === 'opt-clip') CHART.clip = e.target.checked;
      else if (e.target.id === 'opt-stream') CHART.stream = e.target.checked;
      else return;
      if (current) current.render();
    });
    wbar.addEventListener('click', function (e) { if (e.target.id === 'win-reset') setWindow(0, CELLS.t.length - 1); });
    drawWinbar();
    if (NOTL) wbar.style.display = 'none';
    windowListeners.push(function () { drawWinbar(); if (current) current.render(); });
    panes.forEach(function (p) {
      p.btn = h('button', { role: 'tab', id: 'tab-' + p.id, 'aria-selected': 'false', 'data-pane': p.id }, esc(p.title));
      nav.appendChild(p.btn);
      p.sec = h('section', { 'class': 'pane', id: 'pane-' + p.id, role: 'tabpanel', 'aria-labelledby': 'tab-' + p.id },
        '<p class="help">' + p.help + (CELLS && TIMECHARTS.indexOf(p.id) >= 0 ? ' Drag across the chart to choose a time window.' : '') + '</p>');
      app.appendChild(p.sec);
      p.btn.addEventListener('click', function () { show(p.id); });
      if (NOTL && ['area', 'norm', 'line', 'table'].indexOf(p.id) >= 0) p.btn.hidden = true;
    });
    var current = null;
    function show(id) {
      panes.forEach(function (p) {
        var on = p.id === id;
        p.btn.setAttribute('aria-selected', on ? 'true' : 'false');
        p.sec.classList.toggle('active', on);
        if (on) { current = p; p.render(); }
      });
      /* the tab in the address (not in a frame of a page of several: about:srcdoc) */
      try { if (history.replaceState) history.replaceState(null, '', '#' + id); } catch (e) { /* no address */ }
    }
    function pane(id) { for (var i = 0; i < panes.length; i++) if (panes[i].id === id) return panes[i]; return null; }

    /* hovering a legend entry brings its band forward and dims the others */
    function highlight(host, name) {
      var svg = host.querySelector('.chart svg');
      if (!svg) return;
      svg.classList.toggle('dim', name != null);
      var ps = svg.querySelectorAll('path.layer');
      for (var i = 0; i < ps.length; i++) ps[i].classList.toggle('hl', ps[i].getAttribute('data-name') === name);
    }
    /* legend shared by the band charts: ticking, filtering */
    function buildLegend(host, rerender) {
      var box = h('div', { 'class': 'legend' });
      box.innerHTML = '<div class="lhead"><input type="search" class="bandfilter" placeholder="Filter bands by name\u2026" aria-label="filter bands">' +
        '<div class="lbtns"><button type="button" data-a="all">show all</button><button type="button" data-a="none">hide all</button></div></div><ul></ul>' +
        (chart.other ? '<div class="note">Only the ' + chart.bands.length + ' largest bands are charted one by one; see the Detailed tab for all ' + D.nBands + '.</div>' : '');
      var ul = box.querySelector('ul');
      layers.forEach(function (l, i) {
        var li = h('li', { 'data-layer': i }, '<label title="' + esc(l.name) + '"><input type="checkbox"' + (l.on ? ' checked' : '') +
          '><span class="sw" style="background:' + l.color + '"></span><span class="nm">' + esc(l.name) + '</span></label>');
        li.querySelector('input').addEventListener('change', function (e) { l.on = e.target.checked; rerender(); });
        li.addEventListener('mouseenter', function () { highlight(host, l.name); });
        li.addEventListener('mouseleave', function () { highlight(host, null); });
        ul.appendChild(li);
      });
      var input = box.querySelector('input.bandfilter');
      input.value = bandFilter;
      input.addEventListener('input', function () { bandFilter = input.value.trim().toLowerCase(); rerender(); });
      box.querySelector('.lbtns').addEventListener('click', function (e) {
        var a = e.target.getAttribute('data-a');
        if (!a) return;
        layers.forEach(function (l) { l.on = a === 'all'; });
        rerender();
      });
      host.appendChild(box);
      return function sync() {
        var lis = ul.children;
        for (var i = 0; i < lis.length; i++) {
          var l = layers[i];
          lis[i].classList.toggle('off', !l.on);
          lis[i].classList.toggle('nomatch', !!bandFilter && l.hay.indexOf(bandFilter) < 0);
          lis[i].querySelector('input').checked = l.on;
        }
        if (input.value.trim().toLowerCase() !== bandFilter) input.value = bandFilter;
      };
    }

    function bandPane(p, mk) {
      var row = h('div', { 'class': 'chartrow' }), host = h('div', { 'class': 'chart', id: 'chart-' + p.id });
      row.appendChild(host);
      p.sec.appendChild(row);
      var sync = buildLegend(row, function () { p.render(); });
      p.render = function () { sync(); drawChart(host, mk(shown())); };
    }

    if (hasSeries) {
      var hp = pane('heap');
      var hhost = h('div', { 'class': 'chart', id: 'chart-heap' });
      var srow = h('div', { 'class': 'chartrow' });
      srow.appendChild(hhost);
      hp.sec.appendChild(srow);
      var sl = D.series.map(function (se, i) {
        return { name: se.name, color: SERIES_COLORS[se.name] || PALETTE[(i + 5) % PALETTE.length], xs: se.t, ys: se.v };
      });
      var leg = '<div class="legend"><ul>';
      sl.forEach(function (l) { leg += '<li><label><span class="sw" style="background:' + l.color + '"></span><span class="nm">' + esc(l.name) + '</span></label></li>'; });
      srow.insertAdjacentHTML('beforeend', leg + '</ul></div>');
      hp.render = function () {
        drawChart(hhost, { label: 'heap', layers: sl, stacked: false, yFmt: fmtBytes,
          yStep: function (m) { return byteStep(m, 5); }, tipFmt: fmtBytes });
      };
    }
    function withXs(ls, f) {
      return ls.map(function (l) { return { name: l.name, color: l.color, xs: chart.t, ys: f ? f(l) : l.ys }; });
    }
    bandPane(pane('area'), function (ls) {
      return { label: 'area chart', layers: withXs(ls), stacked: true, streamable: true, yFmt: fmtBytes, showTotal: true,
        yStep: function (m) { return byteStep(m, 5); }, tipFmt: fmtBytes };
    });
    bandPane(pane('norm'), function (ls) {
      var n = chart.t.length, tot = new Array(n).fill(0);
      ls.forEach(function (l) { for (var i = 0; i < n; i++) tot[i] += l.ys[i] || 0; });
      var raw = {};
      return { label: 'normalised chart', stacked: true, yMax: 100, yFmt: fmtPct,
        yStep: function () { return 20; },
        layers: withXs(ls, function (l) {
          raw[l.name] = l.ys;
          return l.ys.map(function (v, i) { return tot[i] > 0 ? (v || 0) / tot[i] * 100 : 0; });
        }),
        tipFmt: function (v, l, i) { return l ? fmtPct(v) + '  (' + fmtBytes(raw[l.name][i]) + ')' : fmtPct(v); } };
    });
    bandPane(pane('line'), function (ls) {
      var raw = {};
      return { label: 'line chart', stacked: false, yMax: 100, yFmt: fmtPct,
        yStep: function () { return 20; },
        layers: withXs(ls, function (l) {
          var m = l.peak > 0 ? l.peak : 0;
          l.ys.forEach(function (v) { if (v > m) m = v; });
          raw[l.name] = l.ys;
          return l.ys.map(function (v) { return m > 0 ? (v || 0) / m * 100 : 0; });
        }),
        tipFmt: function (v, l, i) { return l ? fmtPct(v) + '  (' + fmtBytes(raw[l.name][i]) + ')' : fmtPct(v); } };
    });

    /* ---- detailed table ---- */
    var SPARK = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
    var rows = D.bands.map(function (b, i) {
      var sp = [];
      for (var k = 0; k < b.sp.length; k++) sp.push(SPARK.indexOf(b.sp.charAt(k)) / 63);
      return { i: i, b: b, sp: sp, trend: sp.length ? sp[sp.length - 1] - sp[0] : 0,
        hay: (b.label + '\u0001' + b.id + '\u0001' + (b.d || []).join('\u0001')).toLowerCase() };
    });
    var cols = [
      { key: 'rank', title: '#', num: true, get: function (r) { return r.i + 1; }, fmt: function (v) { return v; }, first: 1 },
      { key: 'spark', title: 'Profile', get: function (r) { return rowSpark(r).trend; }, first: -1, tip: 'sparkline of live bytes over the run (or the window); sorts by net growth of the line' },
      { key: 'label', title: 'Label', get: function (r) { return r.b.label.toLowerCase(); }, first: 1 },
      { key: 'integrated', title: 'Integrated size', num: true, s: 0, fmt: fmtByteSec, tip: 'area under the curve' },
      { key: 'peak', title: 'Peak', num: true, s: 1, fmt: fmtBytes },
      { key: 'stddev', title: 'Stddev', num: true, s: 3, fmt: fmtBytes },
      { key: 'intercept', title: 'Intercept', num: true, s: 4, fmt: fmtBytes, tip: 'bytes at t = 0 of the least-squares line' },
      { key: 'slope', title: 'Slope', num: true, s: 5, fmt: fmtRate, tip: 'growth of the least-squares line' },
      { key: 'fit', title: 'Fit', num: true, s: 6, fmt: fmtFit, tip: 'R\u00b2 of the least-squares line, 0..1' }
    ];
    D.detailColumns.forEach(function (name, k) {
      cols.push({ key: 'd' + k, title: name, det: k, first: 1,
        get: function (r) { var v = r.b.d && r.b.d[k]; return v == null ? '' : String(v).toLowerCase(); } });
    });
    cols.forEach(function (c) {
      if (c.s != null) {
        c.first = c.first || -1;
        c.get = (function (si) { return function (r) { var v = rowStats(r)[si]; return v == null ? -Infinity : v; }; })(c.s);
      }
    });
    /* a band's statistics: the report's, or of the window's samples when a
     * window is chosen and the band is a site (bandstats.js, cells.js) */
    var liveBySite = null, statsWin = null;
    function rowStats(r) {
      var site = siteOf(r.b.id);
      if (!WIN || site == null) return r.b.s;
      if (statsWin !== WIN) {
        statsWin = WIN;
        liveBySite = liveBySite || CELLS.liveSeries();
        rows.forEach(function (x) { x.ws = null; x.wsp = null; });
      }
      if (!r.ws) {
        var v = liveBySite[site] || [];
        r.ws = LK.bandStats(CELLS.t.slice(WIN.i, WIN.j + 1), CELLS.t.slice(WIN.i, WIN.j + 1).map(function (x, k) { return v[WIN.i + k] || 0; }));
      }
      return r.ws;
    }
    /* a band's sparkline: the report's, or of the window's samples (its
     * live bytes from the cells) as the writer makes them: SPARK_POINTS
     * bucket maxima, each scaled to the largest in 1/63 steps */
    var SPARK_POINTS = 60;
    function rowSpark(r) {
      var site = siteOf(r.b.id);
      if (!WIN || site == null) return { sp: r.sp, trend: r.trend, max: r.b.s[1] };
      rowStats(r);
      if (!r.wsp) {
        var v = liveBySite[site] || [], n = WIN.j - WIN.i + 1, m = Math.min(n, SPARK_POINTS), pts = [], top = 0;
        for (var b = 0; b < m; b++) {
          var lo = Math.floor(b * n / m), hi = Math.floor((b + 1) * n / m), x = 0;
          for (var k = lo; k < hi; k++) if ((v[WIN.i + k] || 0) > x) x = v[WIN.i + k];
          pts.push(x);
          if (x > top) top = x;
        }
        var sp = pts.map(function (x) { return top > 0 ? Math.round(x / top * 63) / 63 : 0; });
        r.wsp = { sp: sp, trend: sp.length ? sp[sp.length - 1] - sp[0] : 0, max: top };
      }
      return r.wsp;
    }
    var tp = pane('table');
    var kt = keep && keep.table, tstate = kt ? { sort: kt.sort, dir: kt.dir, q: kt.q, page: 0, per: kt.per, open: {} } :
      { sort: 0, dir: 1, q: [], page: 0, per: 50, open: {} };
    tp.sec.insertAdjacentHTML('beforeend',
      '<div class="tools"><input type="search" id="band-search" placeholder="Search label, id' + (D.detailColumns.length ? ', ' + esc(D.detailColumns.join(', ')) : '') +
      '\u2026" aria-label="search bands"><span class="count" id="band-count"></span></div>' +
      '<div class="pager" id="pager-top"></div><div class="tablewrap"><table class="bands" id="bands"><thead><tr></tr></thead><tbody></tbody></table></div><div class="pager" id="pager-bottom"></div>');
    var thr = tp.sec.querySelector('thead tr'), tbody = tp.sec.querySelector('tbody');
    cols.forEach(function (c, ci) {
      var th = h('th', { 'class': c.num ? 'num' : '', 'data-col': c.key, scope: 'col', title: c.tip || ('sort by ' + c.title) }, esc(c.title));
      th.addEventListener('click', function () {
        if (tstate.sort === ci) tstate.dir = -tstate.dir; else { tstate.sort = ci; tstate.dir = c.first || 1; }
        tstate.page = 0;
        tp.render();
      });
      thr.appendChild(th);
    });
    var search = tp.sec.querySelector('#band-search');
    search.value = tstate.q.join(' ');
    search.addEventListener('input', function () {
      tstate.q = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      tstate.page = 0;
      tp.render();
    });
    function sparkSvg(sp, color) {
      var w = 100, ht = 22, n = sp.length;
      if (!n) return '';
      var pts = [];
      for (var i = 0; i < n; i++) pts.push((n === 1 ? w / 2 : i / (n - 1) * w).toFixed(1) + ',' + (ht - 1 - sp[i] * (ht - 3)).toFixed(1));
      return '<svg width="' + w + '" height="' + ht + '" viewBox="0 0 ' + w + ' ' + ht + '"><polyline fill="none" stroke="' +
        color + '" stroke-width="1.4" points="' + pts.join(' ') + '"/></svg>';
    }
    function stackHtml(f) {
      var s = '<table class="stackt">';
      f.forEach(function (fr, k) {
        var where = fr[1] ? fr[1] + (fr[2] > 0 ? ':' + fr[2] : '') : '';
        s += '<tr><td class="mod">#' + k + '</td><td class="fn">' + esc(fr[0] || ('?? +' + fr[4])) + (fr[5] ? ' <span class="mod">(inlined)</span>' : '') +
          '</td><td class="where">' + esc(where) + '</td><td class="mod">' + esc(fr[3] || '') + '</td></tr>';
      });
      return s + '</table>';
    }
    function pagerHtml(total, pages) {
      var p = tstate.page;
      return '<button type="button" data-p="first"' + (p ? '' : ' disabled') + '>\u00ab</button>' +
        '<button type="button" data-p="prev"' + (p ? '' : ' disabled') + '>\u2039 Prev</button>' +
        '<span class="pageinfo">Page ' + (pages ? p + 1 : 0) + ' of ' + pages + '</span>' +
        '<button type="button" data-p="next"' + (p + 1 < pages ? '' : ' disabled') + '>Next \u203a</button>' +
        '<button type="button" data-p="last"' + (p + 1 < pages ? '' : ' disabled') + '>\u00bb</button>' +
        '<select aria-label="rows per page">' + [25, 50, 100, 250].map(function (n) {
          return '<option' + (n === tstate.per ? ' selected' : '') + '>' + n + '</option>';
        }).join('') + '</select> rows per page';
    }
    var filtered = rows;
    /* text columns sort naturally: Bin_5 before Bin_10 */
    var coll = window.Intl ? new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }) :
      { compare: function (x, y) { return x < y ? -1 : x > y ? 1 : 0; } };
    tp.render = function () {
      var c = cols[tstate.sort], q = tstate.q, dir = tstate.dir, get = c.get;
      filtered = q.length ? rows.filter(function (r) {
        for (var k = 0; k < q.length; k++) if (r.hay.indexOf(q[k]) < 0) return false;
        return true;
      }) : rows.slice();
      filtered.sort(function (a, b) {
        var x = get(a), y = get(b);
        var c = typeof x === 'string' ? coll.compare(x, y) : x < y ? -1 : x > y ? 1 : 0;
        return c ? c * dir : a.i - b.i;
      });
      var pages = Math.ceil(filtered.length / tstate.per);
      if (tstate.page >= pages) tstate.page = Math.max(0, pages - 1);
      var from = tstate.page * tstate.per, page = filtered.slice(from, from + tstate.per);
      var ths = thr.children;
      for (var i = 0; i < ths.length; i++)
        if (i === tstate.sort) ths[i].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending'); else ths[i].removeAttribute('aria-sort');
      var html = [];
      page.forEach(function (r) {
        var b = r.b, native = b.f && b.f.length, open = native && tstate.open[r.i], st = rowStats(r);
        var color = r.i < chart.bands.length ? PALETTE[r.i % PALETTE.length] : '#57606a';
        html.push('<tr class="band' + (native ? ' native' : '') + '" data-band="' + r.i + '" data-id="' + esc(b.id) + '">');
        cols.forEach(function (c) {
          if (c.key === 'rank') html.push('<td class="num">' + (r.i + 1) + '</td>');
          else if (c.key === 'spark') { var spk = rowSpark(r); html.push('<td class="spark" data-max="' + spk.max + '" data-trend="' + spk.trend + '">' + sparkSvg(spk.sp, color) + '</td>'); }
          else if (c.key === 'label') html.push('<td class="label" title="' + esc(b.label + (b.id !== b.label ? '\n' + b.id : '')) + '">' +
            (native ? '<span class="tw">' + (open ? '\u25BE' : '\u25B8') + '</span>' : '') +
            (r.i < chart.bands.length ? '<span class="sw" style="background:' + color + '"></span> ' : '') + esc(b.label) + '</td>');
          else if (c.det != null) { var v = b.d && b.d[c.det]; html.push('<td class="det" title="' + esc(v) + '">' + esc(v) + '</td>'); }
          else html.push('<td class="num' + (c.key === 'slope' && st[5] > 0 && st[6] > 0.8 ? ' grow' : '') + '" data-v="' + st[c.s] + '">' + esc(c.fmt(st[c.s])) + '</td>');
        });
        html.push('</tr>');
        if (open) html.push('<tr class="stack"><td colspan="' + cols.length + '"><b>Allocation stack</b>' + stackHtml(b.f) + '</td></tr>');
      });
      if (!page.length) html.push('<tr><td colspan="' + cols.length + '">No band matches.</td></tr>');
      tbody.innerHTML = html.join('');
      var cnt = filtered.length === rows.length ? rows.length + ' bands' :
        filtered.length + ' of ' + rows.length + ' bands match';
      tp.sec.querySelector('#band-count').textContent = page.length ? 'showing ' + (from + 1) + '\u2013' + (from + page.length) + ' \u00b7 ' + cnt : cnt;
      var ph = pagerHtml(filtered.length, pages);
      tp.sec.querySelector('#pager-top').innerHTML = ph;
      tp.sec.querySelector('#pager-bottom').innerHTML = ph;
    };
    tbody.addEventListener('click', function (e) {
      var tr = e.target.closest('tr.native');
      if (!tr) return;
      var i = +tr.getAttribute('data-band');
      tstate.open[i] = !tstate.open[i];
      tp.render();
    });
    tp.sec.addEventListener('click', function (e) {
      var a = e.target.getAttribute && e.target.getAttribute('data-p');
      if (!a) return;
      var pages = Math.ceil(filtered.length / tstate.per);
      tstate.page = a === 'first' ? 0 : a === 'prev' ? tstate.page - 1 : a === 'next' ? tstate.page + 1 : pages - 1;
      tp.render();
    });
    tp.sec.addEventListener('change', function (e) {
      if (e.target.tagName !== 'SELECT') return;
      tstate.per = +e.target.value;
      tstate.page = 0;
      tp.render();
    });

    /* ---- native traces: leak table and leak-candidate chart ---- */
    if (D.leaks) {
      var lp = pane('leaks'), lopen = {};
      var lt = D.leaksTotal || { b: 0, n: 0, groups: 0 }, V = D.verdicts, verdictOf = {};
      var CLASS_TEXT = { 'definitely-lost': 'definitely lost', 'indirectly-lost': 'indirectly lost', 'possibly-lost': 'possibly lost',
        'still-reachable': 'still reachable', 'not-freed': 'not freed', suppressed: 'suppressed' };
      if (V) V.groups.forEach(function (g) {
        (verdictOf[g[0]] = verdictOf[g[0]] || []).push(CLASS_TEXT[g[1]] + ' ' + fmtBytes(g[2]));
      });
      var vsum = '';
      if (V) {
        var parts = [];
        ['definitely-lost', 'indirectly-lost', 'possibly-lost', 'still-reachable', 'not-freed'].forEach(function (c) {
          if (V.classes[c][1]) parts.push(esc(fmtBytes(V.classes[c][0])) + ' ' + CLASS_TEXT[c] + ' (' + V.classes[c][1] + ')');
        });
        if (V.suppressed[1]) parts.push(esc(fmtBytes(V.suppressed[0])) + ' suppressed (' + V.suppressed[1] + ')');
        vsum = '<p class="count" id="leak-verdicts">At the end: ' + (parts.length ? parts.join(', ') : 'no block left') + '</p>' +
          (V.note ? '<p class="note" id="leak-note">' + esc(V.note) + '</p>' : '');
      }
      lp.sec.insertAdjacentHTML('beforeend', '<p class="count" id="leak-total">' + esc(fmtBytes(lt.b)) + ' in ' + lt.n +
        ' blocks not freed, ' + lt.groups + ' allocation sites' + (lt.groups > D.leaks.length ? ' (the ' + D.leaks.length + ' largest shown)' : '') + '</p>' + vsum +
        '<div class="tablewrap"><table class="bands" id="leak-table"><thead><tr><th class="num">#</th><th class="num">Bytes</th><th class="num">Blocks</th>' +
        '<th class="num">First allocated</th><th class="num">Last allocated</th>' + (V ? '<th>Verdict</th>' : '') + '<th>Allocation site</th></tr></thead><tbody></tbody></table></div>');
      var ncol = V ? 7 : 6;
      var lbody = lp.sec.querySelector('#leak-table tbody');
      /* the rows: the report's, or the window's (cells.js) */
      function leakRows() {
        if (!WIN) return D.leaks;
        return WIN.sites.filter(function (r) { return r.leakB > 0; })
          .sort(function (a, b) { return b.leakB - a.leakB || a.site - b.site; }).slice(0, 500)
          .map(function (r) { return { b: r.leakB, n: r.leakN, a: r.allocs, fr: r.frees, site: r.site, label: siteName(r.site), f: SITES[r.site] ? SITES[r.site].f : [] }; });
      }
      var lhead = lp.sec.querySelector('#leak-table thead tr'), lhead0 = lhead.innerHTML;
      lp.render = function () {
        var html = [], rows = leakRows(), atEnd = !WIN || WIN.j === CELLS.t.length - 1;
        lhead.innerHTML = WIN ? lhead0.replace('First allocated', 'Allocations in window').replace('Last allocated', 'Frees in window') : lhead0;
        var tot = lp.sec.querySelector('#leak-total');
        if (WIN) {
          var groups = WIN.sites.filter(function (r) { return r.leakB > 0; }).length;
          tot.textContent = fmtBytes(WIN.total.leakB) + ' in ' + WIN.total.leakN + ' blocks allocated in the window and not freed by its end, ' + groups + ' allocation sites';
        } else tot.textContent = fmtBytes(lt.b) + ' in ' + lt.n + ' blocks not freed, ' + lt.groups + ' allocation sites' + (lt.groups > D.leaks.length ? ' (the ' + D.leaks.length + ' largest shown)' : '');
        tot.setAttribute('data-bytes', WIN ? WIN.total.leakB : lt.b);
        tot.setAttribute('data-blocks', WIN ? WIN.total.leakN : lt.n);
        rows.forEach(function (r, i) {
          html.push('<tr class="band native" data-leak="' + i + '" data-site="' + r.site + '" data-bytes="' + r.b + '" data-blocks="' + r.n + '"><td class="num">' + (i + 1) + '</td><td class="num">' + esc(fmtBytes(r.b)) +
            '</td><td class="num">' + r.n + '</td><td class="num">' + (WIN ? r.a : esc(fmtTime(r.t0))) + '</td><td class="num">' + (WIN ? r.fr : esc(fmtTime(r.t1))) +
            (V ? '</td><td class="verdict">' + esc(atEnd ? (verdictOf[r.site] || []).join(', ') : '') : '') +
            '</td><td class="label"><span class="tw">' + (lopen[r.site] ? '\u25BE' : '\u25B8') + '</span><span class="sw" style="background:' +
            PALETTE[i % PALETTE.length] + '"></span> ' + esc(r.label) + '</td></tr>');
          if (lopen[r.site]) html.push('<tr class="stack"><td colspan="' + ncol + '"><b>Allocation stack</b>' + stackHtml(r.f) + '</td></tr>');
        });
        if (!rows.length) html.push('<tr><td colspan="' + ncol + '">No block of the window was left unfreed.</td></tr>');
        lbody.innerHTML = html.join('');
      };
      lbody.addEventListener('click', function (e) {
        var tr = e.target.closest('tr[data-leak]');
        if (!tr) return;
        var i = +tr.getAttribute('data-site');
        lopen[i] = !lopen[i];
        lp.render();
      });
    }
    if (D.candidates) {
      var cp = pane('candidates');
      var chost = h('div', { 'class': 'chart', id: 'chart-candidates' });
      cp.sec.appendChild(chost);
      /* the dots: [time, size, colour, label, site]: the report's blocks not
       * freed, or the window's (cells.js), coloured by their site's rank in
       * the Leaks table */
      function candPoints() {
        if (!WIN || !WIN.cands) return D.candidates.points.map(function (p) {
          var l = D.leaks[p[2]];
          return [p[0], p[1], p[2], l ? l.label : 'site', l ? l.site : ''];
        });
        var rank = {};
        WIN.sites.filter(function (r) { return r.leakB > 0; }).sort(function (a, b) { return b.leakB - a.leakB || a.site - b.site; })
          .forEach(function (r, k) { rank[r.site] = k; });
        return WIN.cands.map(function (p) { return [p[0], p[1], rank[p[2]] || 0, siteName(p[2]), p[2]]; });
      }
      cp.render = function () {
        var pts = candPoints(), W = Math.max(chost.clientWidth || 0, 360), H = HEIGHT, own = WIN && WIN.cands;
        var ML = 78, MR = 18, MT = 12, MB = 34, pw = W - ML - MR, ph = H - MT - MB;
        var x0 = Math.min(0, D.t0), x1 = D.t1 > x0 ? D.t1 : x0 + 1, smax = 1, smin = Infinity;
        pts.forEach(function (p) { if (p[1] > smax) smax = p[1]; if (p[1] < smin) smin = p[1]; });
        var logy = pts.length && smax / Math.max(smin, 1) > 100;
        var ylo = logy ? Math.log(Math.max(smin, 1)) / Math.LN10 : 0, yhi = logy ? Math.log(smax) / Math.LN10 + 0.05 : smax * 1.06;  /* the largest dots below the frame */
        if (yhi <= ylo) yhi = ylo + 1;
        function X(t) { return ML + (t - x0) / (x1 - x0) * pw; }
        function Y(v) { var y = logy ? Math.log(Math.max(v, 1)) / Math.LN10 : v; return MT + ph - (y - ylo) / (yhi - ylo) * ph; }
        var s = ['<svg xmlns="' + SVGNS + '" viewBox="0 0 ' + W + ' ' + H + '" height="' + H + '" role="img" aria-label="leak candidates"><g class="axis">'];
        var yt = logy ? [] : ticks(0, smax, byteStep(smax, 5));
        if (logy) for (var e = Math.ceil(ylo); e <= Math.floor(yhi); e++) yt.push(Math.pow(10, e));
        yt.forEach(function (v) {
          var y = Y(v).toFixed(1);
          s.push('<line class="grid" x1="' + ML + '" x2="' + (ML + pw) + '" y1="' + y + '" y2="' + y + '"/><text x="' + (ML - 6) + '" y="' + y +
            '" dy="0.32em" text-anchor="end">' + esc(trimz(fmtBytes(v))) + '</text>');
        });
        ticks(x0, x1, timeStep((x1 - x0) / Math.max(2, Math.floor(pw / 90)))).forEach(function (t) {
          var x = X(t).toFixed(1);
          s.push('<line class="grid" x1="' + x + '" x2="' + x + '" y1="' + MT + '" y2="' + (MT + ph) + '"/><text x="' + x + '" y="' + (MT + ph + 16) +
            '" text-anchor="middle">' + esc(trimz(fmtTime(t))) + '</text>');
        });
        s.push('<text x="' + (ML + pw) + '" y="' + (H - 2) + '" text-anchor="end">allocation time</text></g>');
        /* under the dots, so that their titles still show: drag between them */
        if (CELLS) s.push('<rect class="overlay" x="' + ML + '" y="' + MT + '" width="' + pw + '" height="' + ph + '" fill="transparent"/>');
        if (!pts.length) s.push('<text class="empty" x="' + (ML + pw / 2) + '" y="' + (MT + ph / 2) + '" text-anchor="middle">no block left unfreed</text>');
        pts.forEach(function (p) {
          s.push('<circle class="cand" data-t="' + p[0] + '" data-size="' + p[1] + '" data-site="' + p[4] + '" cx="' + X(p[0]).toFixed(1) + '" cy="' + Y(p[1]).toFixed(1) +
            '" r="3" fill="' + PALETTE[p[2] % PALETTE.length] + '" fill-opacity="' + (WIN && !own && ((WIN.i > 0 && p[0] <= WIN.from) || p[0] > WIN.to) ? '0.12' : '0.7') + '"><title>' +
            esc(fmtBytes(p[1]) + ' at ' + fmtTime(p[0]) + ' \u2014 ' + p[3]) + '</title></circle>');
        });
        if (WIN) s.push('<rect class="winshade" x="' + X(WIN.from).toFixed(1) + '" y="' + MT + '" width="' + Math.max(X(WIN.to) - X(WIN.from), 1).toFixed(1) + '" height="' + ph + '"/>');
        s.push('<rect class="frame" x="' + ML + '" y="' + MT + '" width="' + pw + '" height="' + ph + '"/>');
        s.push('</svg>');
        var nAll = own ? WIN.total.leakN : D.candidates.blocks;
        chost.innerHTML = s.join('') + '<p class="help" id="cand-count" data-shown="' + pts.length + '" data-blocks="' + nAll + '">' + pts.length +
          (nAll > pts.length ? ' of ' + nAll + ' blocks (an even sample)' : ' blocks') + (own ? ' allocated in the window and not freed by its end' : '') +
          (logy ? '; sizes on a logarithmic scale' : '') + '</p>';
        if (CELLS) LK.brush(chost.querySelector('svg'), { x0: x0, x1: x1, left: ML, width: pw }, function (a, b) { setWindow(CELLS.snap(a), CELLS.snap(b)); });
      };
    }

    /* ---- native traces: allocation size classes ---- */
    if (D.sizes && D.sizes.length) {
      var sp = pane('sizes');
      /* [title, title in a window, key, bytes] */
      var SZM = [['Allocations', 'Allocations in the window', 'allocs', false], ['Bytes allocated', 'Bytes allocated in the window', 'allocB', true],
        ['Blocks live at the end', 'Blocks live at the window\'s end', 'liveN', false], ['Bytes live at the end', 'Bytes live at the window\'s end', 'liveB', true],
        ['Blocks not freed', 'Blocks not freed in the window', 'leakN', false], ['Bytes not freed', 'Bytes not freed in the window', 'leakB', true]];
      var szk = keep ? keep.sizes : 0;
      sp.sec.insertAdjacentHTML('beforeend', '<div class="tools"><label>Height: <select id="sizes-measure">' +
        SZM.map(function (m, k) { return '<option value="' + k + '">' + esc(m[0]) + '</option>'; }).join('') + '</select></label></div>');
      var shost = h('div', { 'class': 'chart', id: 'chart-sizes' });
      sp.sec.appendChild(shost);
      function szRange(r) { return r.min === r.max ? 'size ' + fmtBytes(r.min) : trimz(fmtBytes(r.min)) + ' \u2264 size < ' + trimz(fmtBytes(r.max + 1)); }
      /* the classes: the report's numbers, or the window's (cells.js) */
      function szRows() {
        return D.sizes.map(function (r) {
          var w = WIN && WIN.sizes ? WIN.sizes[r[0]] || {} : null;
          function v(key, k) { return w ? w[key] || 0 : r[k]; }
          return { c: r[0], min: r[1], max: r[2], allocs: v('allocs', 3), allocB: v('allocB', 4), liveN: v('liveN', 5), liveB: v('liveB', 6),
            leakN: v('leakN', 7), leakB: v('leakB', 8) };
        });
      }
      sp.render = function () {
        var W = Math.max(shost.clientWidth || 0, 360), H = HEIGHT, ML = 78, MR = 18, MT = 12, MB = 46;
        var pw = W - ML - MR, ph = H - MT - MB, m = SZM[szk], rows = szRows(), key = m[2];
        var opts = sp.sec.querySelectorAll('#sizes-measure option');
        SZM.forEach(function (me, k) { opts[k].textContent = WIN ? me[1] : me[0]; });
        /* the log scale box of the byte charts: one large class does not flatten the rest */
        var ax = LK.yAxis(rows.map(function (r) { return r[key]; }), { log: CHART.log, clip: false },
          function (mx) { return m[3] ? byteStep(Math.max(mx, 1), 5) : niceStep(Math.max(mx, 1) / 5); });
        function Y(v) { return MT + ph - Math.min(ax.scale(v), 1) * ph; }
        function num(n) { return n.toLocaleString('en-US'); }
        var bw = pw / rows.length;
        var s = ['<svg xmlns="' + SVGNS + '" viewBox="0 0 ' + W + ' ' + H + '" height="' + H + '" data-axis="' + (ax.log ? 'log' : 'linear') +
          '" role="img" aria-label="allocation sizes"><g class="axis">'];
        ax.ticks.forEach(function (v) {
          var y = Y(v).toFixed(1);
          s.push('<line class="grid" x1="' + ML + '" x2="' + (ML + pw) + '" y1="' + y + '" y2="' + y + '"/><text x="' + (ML - 6) + '" y="' + y +
            '" dy="0.32em" text-anchor="end">' + esc(m[3] ? trimz(fmtBytes(v)) : String(v)) + '</text>');
        });
        rows.forEach(function (r, i) {
          if (rows.length <= 24 || i % 2 === 0)
            s.push('<text x="' + (ML + (i + 0.5) * bw).toFixed(1) + '" y="' + (MT + ph + 16) + '" text-anchor="middle">' + esc(trimz(fmtBytes(r.min))) + '</text>');
        });
        s.push('<text x="' + (ML + pw) + '" y="' + (H - 4) + '" text-anchor="end">size class (from)' + (WIN ? ', in the window' : '') + '</text></g>');
        rows.forEach(function (r, i) {
          var y = Y(r[key]), x = ML + i * bw + bw * 0.1;
          s.push('<rect class="szbar" data-min="' + r.min + '" data-class="' + r.c + '" data-allocs="' + r.allocs + '" data-allocb="' + r.allocB + '" data-liven="' + r.liveN +
            '" data-liveb="' + r.liveB + '" data-leakn="' + r.leakN + '" data-leakb="' + r.leakB + '" x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + (bw * 0.8).toFixed(1) +
            '" height="' + (MT + ph - y).toFixed(1) + '" fill="' + PALETTE[0] + '"><title>' + esc(szRange(r) + ': ' + num(r.allocs) + ' allocations' + (WIN ? ' in the window' : '') +
            ' (' + fmtBytes(r.allocB) + '), ' + num(r.liveN) + (WIN ? ' live at the window\'s end' : ' live at the end') + ' (' + fmtBytes(r.liveB) + '), ' +
            num(r.leakN) + ' not freed' + (WIN ? ' in the window' : '') + ' (' + fmtBytes(r.leakB) + ')') + '</title></rect>');
        });
        s.push('<rect class="frame" x="' + ML + '" y="' + MT + '" width="' + pw + '" height="' + ph + '"/></svg>');
        shost.innerHTML = s.join('');
      };
      sp.sec.querySelector('#sizes-measure').value = String(szk);
      sp.sec.querySelector('#sizes-measure').addEventListener('change', function (e) { szk = +e.target.value; sp.render(); });
    }

    /* a stack's values: the report's, or in a window (cells.js) bytes not
     * freed, live at its end, allocations and bytes allocated in it */
    var WINDOWED = { leaked: 'leakB', live: 'liveB', allocs: 'allocs', allocated: 'allocB', temporary: 'temps' };
    function flameValues(st, other) {
      if (!WIN || !CELLS) return st[0];
      var r = st[2] != null ? WIN.bySite[st[2]] : other;
      return FLAME.measures.map(function (me, k) { var w = WINDOWED[me[0]]; return w ? (r ? r[w] || 0 : 0) : st[0][k]; });
    }
    /* the window's totals less the sites listed: the [other sites] stack */
    function otherOfWindow() {
      var o = {};
      Object.keys(WINDOWED).forEach(function (m) { o[WINDOWED[m]] = WIN.total[WINDOWED[m]]; });
      FLAME.stacks.forEach(function (st) {
        var r = st[2] != null ? WIN.bySite[st[2]] : null;
        if (r) Object.keys(o).forEach(function (w) { o[w] -= r[w]; });
      });
      return o;
    }

    /* ---- native traces: flame graph of the allocation stacks ---- */
    if (FLAME) {
      var fp = pane('flame'), FL = FLAME, NM = FL.measures.length, RH = 18;
      function fnode(parent, name, fr) {
        return { name: name, fr: fr, v: new Array(NM).fill(0), kids: new Map(), parent: parent,
          depth: parent ? parent.depth + 1 : 0, lines: [] };
      }
      var froot = null;
      function fadd(n, vals) { for (var k = 0; k < NM; k++) n.v[k] += vals[k]; }
      function fchild(n, fr) {
        var key = !fr ? '[other sites]' : fr[0] ? fr[0] + '\u0000' + (fr[3] || '') + (fr[5] ? '\u0000i' : '') : (fr[3] || '??') + '+' + fr[4];
        var c = n.kids.get(key);
        if (!c) { c = fnode(n, !fr ? '[other sites]' : fr[0] || ((fr[3] || '??') + ' +' + fr[4]), fr); n.kids.set(key, c); }
        if (fr && fr[1] && c.lines.length < 4) {
          var where = fr[1] + (fr[2] > 0 ? ':' + fr[2] : '');
          if (c.lines.indexOf(where) < 0) c.lines.push(where);
        }
        return c;
      }
      function buildFlame() {
        froot = fnode(null, 'all', null);
        var other = WIN && CELLS ? otherOfWindow() : null;
        FL.stacks.forEach(function (st) {
          var n = froot, v = flameValues(st, other);
          fadd(n, v);
          if (!st[1].length) { n = fchild(n, [ '[no stack]', null, 0, null, '0x0', 0 ]); fadd(n, v); }
          st[1].forEach(function (fr) { n = fchild(n, fr); fadd(n, v); });
        });
      }
      buildFlame();
      var fstate = { m: 0, zoom: froot, q: keep && keep.flame ? keep.flame.q : '', icicle: !!(keep && keep.flame && keep.flame.icicle) };
      FL.measures.forEach(function (me, k) { if (me[0] === 'leaked' && !froot.v[k]) fstate.m = -1; });
      if (fstate.m < 0) FL.measures.forEach(function (me, k) { if (fstate.m < 0 && me[0] === 'allocated') fstate.m = k; });
      if (fstate.m < 0) fstate.m = 0;
      if (keep && keep.flame && keep.flame.m < FL.measures.length) fstate.m = keep.flame.m;
      function fval(v, k) {
        var u = FL.measures[k][2];
        return u === 'bytes' ? fmtBytes(v) : u === 'byte-seconds' ? fmtByteSec(v) : v.toLocaleString('en-US');
      }
      function fhue(name) {
        var x = 0;
        for (var i = 0; i < name.length; i++) x = (x * 31 + name.charCodeAt(i)) >>> 0;
        return 'hsl(' + (x % 55) + ',' + (70 + (x >> 8) % 20) + '%,' + (56 + (x >> 16) % 10) + '%)';
      }
      fp.sec.insertAdjacentHTML('beforeend', '<div class="tools flame-tools"><label>Width: <select id="flame-measure">' +
        FL.measures.map(function (me, k) { return '<option value="' + k + '"' + (k === fstate.m ? ' selected' : '') + '>' + esc(me[1]) + ' (' + esc(fval(froot.v[k], k)) + ')</option>'; }).join('') +
        '</select></label> <input type="search" id="flame-search" placeholder="search functions" aria-label="search functions"> ' +
        '<button type="button" id="flame-reset">Reset zoom</button> <label><input type="checkbox" id="flame-icicle"> icicle (root on top)</label> ' +
        '<span class="count" id="flame-matched"></span></div>' + (FL.other ? '<p class="help">' + FL.other + ' smaller allocation sites are summed as [other sites].</p>' : ''));
      fp.sec.querySelector('#flame-search').value = fstate.q;
      fp.sec.querySelector('#flame-icicle').checked = fstate.icicle;
      var fhost = h('div', { 'class': 'chart flame', id: 'chart-flame' });
      fp.sec.appendChild(fhost);
      var ftip = h('div', { 'class': 'tip' }), fdrawn = [];
      function fmatch(n) { return fstate.q && n.name.toLowerCase().indexOf(fstate.q) >= 0; }
      fp.render = function () {
        if (fdirty) flameOfWindow();
        var W = Math.max(fhost.clientWidth || 0, 360), m = fstate.m, z = fstate.zoom, zt = z.v[m] || 0;
        var anc = [];
        for (var a = z.parent; a; a = a.parent) anc.unshift(a);
        var items = [], deep = 0;
        anc.forEach(function (n, d) { items.push({ n: n, x: 0, w: W, d: d, up: true }); });
        (function walk(n, x, d) {
          var w = zt > 0 ? n.v[m] / zt * W : 0;
          if (w < 0.5 && n !== z) return;
          items.push({ n: n, x: x, w: n === z ? W : w, d: d });
          if (d > deep) deep = d;
          var kids = Array.from(n.kids.values()).filter(function (c) { return c.v[m] > 0; })
            .sort(function (p, q) { return p.name < q.name ? -1 : p.name > q.name ? 1 : 0; });
          var cx = x;
          kids.forEach(function (c) { walk(c, cx, d + 1); cx += zt > 0 ? c.v[m] / zt * W : 0; });
        })(z, 0, anc.length);
        var H = Math.max(deep + 1, 1) * RH + 2;
        var s = ['<svg xmlns="' + SVGNS + '" viewBox="0 0 ' + W + ' ' + H + '" height="' + H + '" role="img" aria-label="flame graph">'];
        fdrawn = [];
        var matched = 0;
        items.forEach(function (it) {
          var n = it.n, y = fstate.icicle ? it.d * RH : H - (it.d + 1) * RH - 1, hit = fmatch(n);
          var cls = 'fr' + (it.up ? ' up' : '') + (hit ? ' match' : '') + (n.fr && n.fr[5] ? ' inl' : '');
          var label = n === froot ? 'all (' + fval(n.v[m], m) + ')' : n.name, fit = Math.floor((it.w - 6) / 6.6);
          s.push('<g class="' + cls + '" data-n="' + fdrawn.length + '"><rect x="' + it.x.toFixed(1) + '" y="' + y + '" width="' + Math.max(it.w - 0.6, 0.4).toFixed(1) +
            '" height="' + (RH - 1) + '" fill="' + (n === froot ? '#c8ccd1' : fhue(n.name)) + '"/>' +
            (fit >= 3 ? '<text x="' + (it.x + 3).toFixed(1) + '" y="' + (y + RH - 5) + '">' + esc(label.length > fit ? label.slice(0, fit - 1) + '\u2026' : label) + '</text>' : '') + '</g>');
          fdrawn.push(n);
        });
        s.push('</svg>');
        fhost.innerHTML = s.join('');
        fhost.appendChild(ftip);
        if (fstate.q) {
          (function sum(n) { if (fmatch(n)) { matched += n.v[m]; return; } n.kids.forEach(sum); })(froot);
          var tot = froot.v[m];
          fp.sec.querySelector('#flame-matched').textContent = 'matched: ' + fval(matched, m) + ' (' + fmtPct(tot > 0 ? matched / tot * 100 : 0) + ' of all)';
        } else fp.sec.querySelector('#flame-matched').textContent = '';
      };
      fhost.addEventListener('mousemove', function (ev) {
        var g = ev.target.closest && ev.target.closest('g.fr');
        if (!g) { ftip.style.display = 'none'; return; }
        var n = fdrawn[+g.getAttribute('data-n')], m = fstate.m, tot = froot.v[m];
        var html = '<div class="t">' + esc(n.name) + (n.fr && n.fr[5] ? ' <span class="mod">(inlined)</span>' : '') + '</div>';
        if (n.lines.length) html += '<div>' + esc(n.lines.join(', ')) + '</div>';
        if (n.fr && n.fr[3]) html += '<div class="mod">' + esc(n.fr[3]) + '</div>';
        html += '<div>' + esc(FL.measures[m][1]) + ': <b>' + esc(fval(n.v[m], m)) + '</b> (' + esc(fmtPct(tot > 0 ? n.v[m] / tot * 100 : 0)) + ' of all)</div>';
        ftip.innerHTML = html;
        ftip.style.display = 'block';
        var r = fhost.getBoundingClientRect(), x = ev.clientX - r.left + 14;
        if (x > r.width - 300) x = Math.max(0, x - 330);
        ftip.style.left = x + 'px';
        ftip.style.top = (ev.clientY - r.top + 14) + 'px';
      });
      fhost.addEventListener('mouseleave', function () { ftip.style.display = 'none'; });
      fhost.addEventListener('click', function (ev) {
        var g = ev.target.closest && ev.target.closest('g.fr');
        if (!g) return;
        fstate.zoom = fdrawn[+g.getAttribute('data-n')];
        fp.render();
      });
      var fdirty = false;   /* the window changed: rebuilt when next drawn */
      windowListeners.unshift(function () { fdirty = true; });
      function flameOfWindow() {
        fdirty = false;
        buildFlame();
        fstate.zoom = froot;
        var opts = fp.sec.querySelectorAll('#flame-measure option');
        FL.measures.forEach(function (me, k) {
          opts[k].textContent = me[1] + (WIN && WINDOWED[me[0]] ? ' (window)' : '') + ' (' + fval(froot.v[k], k) + ')';
        });
      }
      fp.sec.querySelector('#flame-reset').addEventListener('click', function () { fstate.zoom = froot; fp.render(); });
      fp.sec.querySelector('#flame-measure').addEventListener('change', function (e) { fstate.m = +e.target.value; fstate.zoom = froot; fp.render(); });
      fp.sec.querySelector('#flame-search').addEventListener('input', function (e) { fstate.q = e.target.value.trim().toLowerCase(); fp.render(); });
      fp.sec.querySelector('#flame-icicle').addEventListener('change', function (e) { fstate.icicle = e.target.checked; fp.render(); });
    }

    /* ---- a run's page: its summary (summary.js) ---- */
    if (D.run && D.verdicts) {
      var rsp = pane('summary'), rshost = h('div', { id: 'summary-body' });
      rsp.sec.appendChild(rshost);
      rsp.render = function () {
        rshost.innerHTML = LK.runSummary({ V: D.verdicts, leaks: D.leaks || [], fmtBytes: fmtBytes, esc: esc });
      };
    }

    /* ---- a diff's page: its summary (summary.js) ---- */
    if (D.diffSummary) {
      var dsp = pane('summary'), dshost = h('div', { id: 'summary-body' }), dflame = {};
      dsp.sec.appendChild(dshost);
      if (D.flame) D.flame.stacks.forEach(function (st) { if (st[2] != null) dflame[st[2]] = st[0]; });
      dsp.render = function () {
        dshost.innerHTML = LK.diffSummary({ S: D.diffSummary, flame: dflame, name: siteName, fmtBytes: fmtBytes, fmtTime: fmtTime, esc: esc });
      };
    }

    /* ---- native traces: summary and trees (summary.js, trees.js) ---- */
    /* the sites live at the window's end whose live bytes grew over its
     * samples (the slope of their least-squares line, bandstats.js), as the
     * report's growth ranking; computed once a window */
    var growthWin = null, growthRows = [], wholeWin = null;
    function growthOf(w) {
      if (growthWin === w) return growthRows;
      liveBySite = liveBySite || CELLS.liveSeries();
      var ts = CELLS.t.slice(w.i, w.j + 1);
      growthWin = w;
      growthRows = [];
      w.sites.forEach(function (r) {
        if (!(r.liveB > 0)) return;
        var v = liveBySite[r.site] || [], st = LK.bandStats(ts, ts.map(function (x, k) { return v[w.i + k] || 0; }));
        if (st[5] > 0) growthRows.push({ site: r.site, slope: st[5] });
      });
      return growthRows;
    }
    if (D.summary) {
      var smp = pane('summary'), shost2 = h('div', { id: 'summary-body' }), flameBySite = {};
      smp.sec.appendChild(shost2);
      if (D.flame) D.flame.stacks.forEach(function (st) { if (st[2] != null) flameBySite[st[2]] = st[0]; });
      smp.render = function () {
        var sw = WIN || (CELLS ? (wholeWin = wholeWin || CELLS.compute(0, CELLS.t.length - 1)) : null);
        shost2.innerHTML = LK.summary({ S: D.summary, win: sw, windowed: !!WIN, flame: flameBySite, growth: sw ? growthOf(sw) : [],
          name: siteName, fmtBytes: fmtBytes, fmtTime: fmtTime, esc: esc });
      };
    }
    if (D.flame) {
      var trp = pane('trees'), thost = h('div', { id: 'trees-body' });
      trp.sec.appendChild(thost);
      var tree = LK.trees({ measures: FLAME.measures, esc: esc,
        fmt: function (v, k) { return FLAME.measures[k][2] === 'bytes' ? fmtBytes(v) : Number(v).toLocaleString('en-US'); },
        stacks: function () {
          var other = WIN && CELLS ? otherOfWindow() : null;
          return FLAME.stacks.map(function (st) { return { site: st[2], fr: st[1], v: flameValues(st, other) }; });
        } });
      trp.render = function () { tree.render(thost); };
    }

    /* the reader's choices, for the next draw (keep) */
    function state() {
      return { tab: current ? current.id : null, win: WIN ? { from: WIN.from, to: WIN.to } : null,
        chart: { log: CHART.log, clip: CHART.clip, stream: CHART.stream },
        off: layers.filter(function (l) { return !l.on; }).map(function (l) { return l.band < 0 ? 'OTHER' : D.bands[l.band].id; }), filter: bandFilter,
        table: { sort: tstate.sort, dir: tstate.dir, q: tstate.q, per: tstate.per },
        flame: fstate ? { m: fstate.m, q: fstate.q, icicle: fstate.icicle } : null, sizes: szk || 0 };
    }
    if (keep && keep.win && CELLS) setWindow(CELLS.snap(keep.win.from), CELLS.snap(keep.win.to));
    var want = keep && keep.tab ? keep.tab : (location.hash || '').slice(1);
    show(pane(want) ? want : NOTL ? 'leaks' : (D.nBands ? 'area' : panes[0].id));
    document.body.setAttribute('data-ready', '1');
    document.body.setAttribute('data-render-ms', String(Math.round(((window.performance && performance.now()) || 0) - t_start)));
    return { state: state, render: function () { if (current && current.id !== 'table') current.render(); } };
  }

  var page = draw(JSON.parse(document.getElementById('data').textContent), null);
  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(page.render, 120);
  });
  /*
   * leakscopeReport.update(data): draw the page again from new data (what
   * #data would hold; the live page of `leakscope watch --serve`, live.js),
   * keeping what the reader chose and where the page is scrolled to, and
   * the focus of a search box.
   */
  window.leakscopeReport = {
    update: function (data) {
      var x = window.scrollX, y = window.scrollY, focus = document.activeElement, fid = focus && focus.id;
      var sel = fid && focus.selectionStart != null ? [focus.selectionStart, focus.selectionEnd] : null;
      page = draw(data, page.state());
      window.scrollTo(x, y);
      var again = fid && document.getElementById(fid);
      if (again && again !== focus && again.focus) {
        again.focus();
        if (sel && again.setSelectionRange) try { again.setSelectionRange(sel[0], sel[1]); } catch (e) { /* not a text box */ }
      }
    }
  };
})();
