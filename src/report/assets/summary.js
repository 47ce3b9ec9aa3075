/*
 * summary.js - the Summary tab of a trace's page: the heap's peak, what
 * was live at the end, the window's allocations, frees, blocks not freed
 * and temporary allocations, the RSS peak, then the top sites by bytes not
 * freed in the window, by allocations in the window, by bytes live at the
 * peak and by temporary allocations in the window. LK.summary(ctx) returns
 * the HTML; ctx: {S (the data's summary), win (LK.cells' compute of the
 * window shown), flame (site -> values of the flame measures), name(site),
 * fmtBytes, fmtTime, esc}.
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
  var cards = [
    card('peak', 'Peak live', B(S.peak), 'at ' + T(S.peakT)),
    card('final', 'Live at the end', B(S.final), num(S.finalN) + ' blocks'),
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
      h += '<tr data-site="' + r.site + '"><td class="num">' + esc(fmt(r[key])) + '</td><td class="label">' + esc(ctx.name(r.site)) + '</td></tr>';
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
    top('peak', 'Live at the peak', frows, 'peak', B) +
    top('temporary', 'Temporary allocations', wrows, 'temps', num) + '</div>';
};
