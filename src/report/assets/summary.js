/*
 * summary.js - the Summary tab of a trace's page: the heap's peak, what
 * was live at the end, the window's allocations, frees, blocks not freed
 * and temporary allocations, the RSS peak, then the top sites by bytes not
 * freed in the window, by allocations in the window, by bytes live at the
 * peak and by temporary allocations in the window, and the sites that grew
 * fastest in it (ctx.growth: [{site, slope}], the slope of the
 * least-squares line of each site's live bytes at the window's samples,
 * for the sites live at its end). LK.summary(ctx) returns
 * the HTML; ctx: {S (the data's summary), win (LK.cells' compute of the
 * window shown), windowed (a window is chosen: the heap at its end gets
 * a card too), flame (site -> values of the flame measures), name(site),
 * fmtBytes, fmtTime, esc}.
 *
 * LK.runSummary(ctx), the Summary tab of a run's page: a card per verdict
 * of the exit scan and for the suppressed blocks, then the largest sites
 * not freed with their verdicts; ctx: {V (the data's verdicts), leaks (its
 * groups), fmtBytes, esc}.
 *
 * LK.diffSummary(ctx), the Summary tab of a diff's page: what was added
 * and removed between A and B, each point's live bytes and blocks and its
 * trace's peak, allocations and temporary allocations up to it, side by
 * side with their difference, then the top sites by bytes added, removed
 * and live at B; ctx: {S (the data's diffSummary), flame (site -> values
 * of the flame measures: added, removed, live at A, live at B, blocks
 * added), name(site), fmtBytes, fmtTime, esc}.
 */
var LK = window.LK || (window.LK = {});
LK.summary = function (ctx) {
  'use strict';
  var S = ctx.S, W = ctx.win, esc = ctx.esc, B = ctx.fmtBytes, T = ctx.fmtTime;
  function num(n) { return Number(n).toLocaleString('en-US'); }
  function card(id, title, value, sub) {
    return '<div class="card" id="sum-' + id + '"><div class="ct">' + esc(title) + '</div><div class="cv">' +
      esc(value) + '</div><div class="cs">' + esc(sub || '') + '</div></div>';
  }
  /* the whole heap at the window's end: its size classes' live blocks */
  function winEnd(sizes) {
    var b = 0, n = 0;
    Object.keys(sizes).forEach(function (c) { b += sizes[c].liveB; n += sizes[c].liveN; });
    return '<div class="card" id="sum-winend" data-bytes="' + b + '" data-blocks="' + n + '"><div class="ct">Live at the window\'s end</div><div class="cv">' +
      esc(B(b)) + '</div><div class="cs">' + esc(num(n)) + ' blocks, at ' + esc(T(W.to)) + '</div></div>';
  }
  var cards = [
    card('peak', 'Peak live', B(S.peak), 'at ' + T(S.peakT)),
    card('final', 'Live at the end', B(S.final), num(S.finalN) + ' blocks'),
    ctx.windowed && W.sizes ? winEnd(W.sizes) : '',
    card('leaked', 'Not freed in the window', B(W ? W.total.leakB : S.leaked), num(W ? W.total.leakN : S.leakedN) + ' blocks'),
    card('allocs', 'Allocations in the window', W ? num(W.total.allocs) : num(S.allocs), B(W ? W.total.allocB : S.bytes) + ' allocated'),
    card('frees', 'Frees in the window', W ? num(W.total.frees) : num(S.frees), W ? B(W.total.freeB) + ' freed' : ''),
    card('temporary', 'Temporary allocations', num(W ? W.total.temps : S.temporaries), 'freed in the window right after, by the thread that made them')
  ];
  if (S.rssPeak != null) cards.push(card('rss', 'RSS peak', B(S.rssPeak), 'at ' + T(S.rssPeakT)));
  function top(id, title, rows, key, fmt) {
    rows = rows.filter(function (r) { return r[key] > 0; })
      .sort(function (a, b) { return b[key] - a[key] || a.site - b.site; }).slice(0, 10);
    var h = '<div class="topsites"><h3>' + esc(title) + '</h3><table class="bands" id="top-' + id + '"><tbody>';
    rows.forEach(function (r) {
      h += '<tr data-site="' + r.site + '" data-v="' + r[key] + '"><td class="num">' + esc(fmt(r[key])) + '</td><td class="label">' + esc(ctx.name(r.site)) + '</td></tr>';
    });
    if (!rows.length) h += '<tr><td>none</td></tr>';
    return h + '</tbody></table></div>';
  }
  var wrows = W ? W.sites : [], frows = [];
  Object.keys(ctx.flame).forEach(function (s) {
    var v = ctx.flame[s];
    frows.push({ site: +s, peak: v[2] });
  });
  return '<div class="cards">' + cards.join('') + '</div><div class="tops">' +
    top('leaked', 'Not freed in the window', wrows, 'leakB', B) +
    top('allocs', 'Allocations in the window', wrows, 'allocs', num) +
    top('peak', ctx.windowed ? 'Live at the peak (of the whole trace)' : 'Live at the peak', frows, 'peak', B) +
    top('temporary', 'Temporary allocations', wrows, 'temps', num) +
    top('growth', 'Growing in the window', ctx.growth || [], 'slope', function (v) { return B(v) + '/s'; }) + '</div>';
};

LK.runSummary = function (ctx) {
  'use strict';
  var V = ctx.V, B = ctx.fmtBytes, esc = ctx.esc;
  var TEXT = { 'definitely-lost': 'Definitely lost', 'indirectly-lost': 'Indirectly lost',
    'possibly-lost': 'Possibly lost', 'still-reachable': 'Still reachable', 'not-freed': 'Not freed' };
  function num(n) { return Number(n).toLocaleString('en-US'); }
  function card(id, title, c) {
    return '<div class="card" id="sum-' + id + '" data-bytes="' + c[0] + '" data-blocks="' + c[1] + '"><div class="ct">' +
      esc(title) + '</div><div class="cv">' + esc(B(c[0])) + '</div><div class="cs">' + num(c[1]) +
      (c[1] === 1 ? ' block' : ' blocks') + '</div></div>';
  }
  var cards = Object.keys(TEXT).filter(function (k) { return V.classes[k] && (V.classes[k][1] || k !== 'not-freed'); })
    .map(function (k) { return card(k, TEXT[k], V.classes[k]); });
  cards.push(card('suppressed', 'Suppressed', V.suppressed));
  var verdict = {};
  V.groups.forEach(function (g) { (verdict[g[0]] = verdict[g[0]] || []).push(TEXT[g[1]] ? TEXT[g[1]].toLowerCase() : g[1]); });
  var rows = ctx.leaks.slice().sort(function (a, b) { return b.b - a.b; }).slice(0, 10).map(function (l) {
    return '<tr data-bytes="' + l.b + '"><td class="num">' + esc(B(l.b)) + '</td><td class="num">' + num(l.n) + '</td><td>' +
      esc((verdict[l.site] || []).join(', ')) + '</td><td>' + esc(l.label) + '</td></tr>';
  });
  return (V.note ? '<p class="note">' + esc(V.note) + '</p>' : '') + '<div class="cards">' + cards.join('') + '</div>' +
    '<h3>Largest sites not freed</h3>' + (rows.length ? '<div class="tablewrap"><table class="bands" id="sum-top-leaks"><thead><tr>' +
    '<th class="num">Bytes</th><th class="num">Blocks</th><th>Verdict</th><th>Site</th></tr></thead><tbody>' + rows.join('') +
    '</tbody></table></div>' : '<p class="count">none</p>');
};

LK.diffSummary = function (ctx) {
  'use strict';
  var S = ctx.S, esc = ctx.esc, B = ctx.fmtBytes, T = ctx.fmtTime;
  function num(n) { return Number(n).toLocaleString('en-US'); }
  function signed(v, f) { return (v > 0 ? '+' : v < 0 ? '\u2212' : '') + f(Math.abs(v)); }
  function card(id, title, bytes, blocks) {
    return '<div class="card" id="sum-' + id + '" data-bytes="' + bytes + '" data-blocks="' + blocks + '"><div class="ct">' + esc(title) +
      '</div><div class="cv">' + esc(B(bytes)) + '</div><div class="cs">' + num(blocks) + (blocks === 1 ? ' block' : ' blocks') + '</div></div>';
  }
  var net = S.b.live - S.a.live;
  var cards = [card('added', 'Added (live at B, not at A)', S.added, S.addedN), card('removed', 'Removed (live at A, not at B)', S.removed, S.removedN),
    '<div class="card" id="sum-net" data-bytes="' + net + '"><div class="ct">Net change of the live bytes</div><div class="cv">' + esc(signed(net, B)) +
    '</div><div class="cs">' + esc(signed(S.b.liveN - S.a.liveN, num)) + ' blocks</div></div>'];
  /* rows: [id, title, key, format, time key] */
  var ROWS = [['live', 'Live bytes', 'live', B], ['liveN', 'Live blocks', 'liveN', num], ['peak', 'Peak live, up to the point', 'peak', B, 'peakT'],
    ['allocs', 'Allocations, up to the point', 'allocs', num], ['bytes', 'Bytes allocated, up to the point', 'bytes', B],
    ['temporary', 'Temporary allocations, up to the point', 'temporaries', num]];
  var t = '<div class="tablewrap"><table class="bands" id="diff-sides"><thead><tr><th></th><th class="num">A (' + esc(T(S.a.t)) + ')</th><th class="num">B (' +
    esc(T(S.b.t)) + ')</th><th class="num">B \u2212 A</th></tr></thead><tbody>';
  ROWS.forEach(function (r) {
    var a = S.a[r[2]], b = S.b[r[2]];
    t += '<tr data-row="' + r[0] + '"><th scope="row">' + esc(r[1]) + '</th><td class="num" data-v="' + a + '">' + esc(r[3](a) + (r[4] ? ' at ' + T(S.a[r[4]]) : '')) +
      '</td><td class="num" data-v="' + b + '">' + esc(r[3](b) + (r[4] ? ' at ' + T(S.b[r[4]]) : '')) + '</td><td class="num" data-v="' + (b - a) + '">' + esc(signed(b - a, r[3])) + '</td></tr>';
  });
  t += '</tbody></table></div>' + (S.exact ? '' : '<p class="help">Two traces: the sites are matched by their symbolized stacks; A\'s numbers are those of its trace up to A, B\'s of its trace up to B.</p>');
  var rows = Object.keys(ctx.flame).map(function (s) { var v = ctx.flame[s]; return { site: +s, added: v[0], removed: v[1], liveB: v[3] }; });
  function top(id, title, key) {
    var r = rows.filter(function (x) { return x[key] > 0; }).sort(function (a, b) { return b[key] - a[key] || a.site - b.site; }).slice(0, 10);
    var h = '<div class="topsites"><h3>' + esc(title) + '</h3><table class="bands" id="top-' + id + '"><tbody>';
    r.forEach(function (x) { h += '<tr data-site="' + x.site + '" data-v="' + x[key] + '"><td class="num">' + esc(B(x[key])) + '</td><td class="label">' + esc(ctx.name(x.site)) + '</td></tr>'; });
    if (!r.length) h += '<tr><td>none</td></tr>';
    return h + '</tbody></table></div>';
  }
  return '<div class="cards">' + cards.join('') + '</div>' + t + '<div class="tops">' + top('added', 'Added', 'added') +
    top('removed', 'Removed', 'removed') + top('liveb', 'Live at B', 'liveB') + '</div>';
};
