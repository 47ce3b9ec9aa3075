/*
 * cells.js - a window's analysis redone in the page, from the per-site
 * cells of the data (history_cells.c): for every site, its blocks by the
 * sample interval of their allocation (a, -1: before the report's window)
 * and of their free (f, -1: not freed when the report's window ended),
 * with how many of them were temporary allocations. Interval k ends at t[k]; interval
 * 0 holds what happened up to t[0]. The window from sample i to sample j
 * holds the intervals i+1..j (and 0 when i is 0): the events at times in
 * (t[i], t[j]], as `leakscope report --from t[i]+1us --to t[j]` reads them.
 * Every number is exact for such a window. The cells by size class
 * (data.sizes: class, a, f, blocks, bytes) give the window's size
 * histogram the same way, and the blocks that outlived the interval of
 * their allocation (data.spans: time, size, site, a, f; an even sample
 * when data.spansSampled) its leak candidates.
 */
var LK = window.LK || (window.LK = {});
LK.cells = function (data) {
  'use strict';
  if (!data || !data.t || !data.t.length) return null;
  var t = data.t, sites = data.sites || [], sizes = data.sizes || [];
  function inWin(k, i, j) { return k >= 0 && (k > i || (i === 0 && k === 0)) && k <= j; }
  /* per site of the window from sample i to sample j: allocations and
   * bytes, frees and bytes, temporary allocations freed in it, blocks
   * allocated in it and live at its end (leak), blocks live at its end
   * (live) */
  function compute(i, j) {
    var out = [], tot = { allocs: 0, allocB: 0, frees: 0, freeB: 0, leakN: 0, leakB: 0, liveN: 0, liveB: 0, temps: 0 };
    sites.forEach(function (c) {
      var r = { site: c[0], allocs: 0, allocB: 0, frees: 0, freeB: 0, leakN: 0, leakB: 0, liveN: 0, liveB: 0, temps: 0 };
      for (var k = 1; k + 4 < c.length; k += 5) {
        var a = c[k], f = c[k + 1], n = c[k + 2], b = c[k + 3];
        var allocIn = inWin(a, i, j), liveEnd = a <= j && (f < 0 || f > j);
        if (allocIn) { r.allocs += n; r.allocB += b; }
        if (inWin(f, i, j)) { r.frees += n; r.freeB += b; r.temps += c[k + 4]; }
        if (liveEnd) { r.liveN += n; r.liveB += b; }
        if (allocIn && liveEnd) { r.leakN += n; r.leakB += b; }
      }
      for (var key in tot) if (tot.hasOwnProperty(key)) tot[key] += r[key];
      out.push(r);
    });
    var bySite = {};
    out.forEach(function (r) { bySite[r.site] = r; });
    return { sites: out, bySite: bySite, total: tot, i: i, j: j, from: t[i], to: t[j], sizes: computeSizes(i, j),
      cands: data.spans ? data.spans.filter(function (p) { return inWin(p[3], i, j) && (p[4] < 0 || p[4] > j); }) : null };
  }
  /* per size class of the window (its cells: class, a, f, blocks, bytes):
   * allocations and bytes in it, blocks live at its end, and of those the
   * ones allocated in it; {class: {allocs, allocB, liveN, liveB, leakN, leakB}} */
  function computeSizes(i, j) {
    var m = {};
    sizes.forEach(function (c) {
      var r = { allocs: 0, allocB: 0, liveN: 0, liveB: 0, leakN: 0, leakB: 0 };
      for (var k = 1; k + 3 < c.length; k += 4) {
        var a = c[k], f = c[k + 1], n = c[k + 2], b = c[k + 3];
        var allocIn = inWin(a, i, j), liveEnd = a <= j && (f < 0 || f > j);
        if (allocIn) { r.allocs += n; r.allocB += b; }
        if (liveEnd) { r.liveN += n; r.liveB += b; }
        if (allocIn && liveEnd) { r.leakN += n; r.leakB += b; }
      }
      m[c[0]] = r;
    });
    return m;
  }
  /* live bytes of every site at each sample: {site: [bytes...]} */
  function liveSeries() {
    var m = {};
    sites.forEach(function (c) {
      var d = new Array(t.length + 1).fill(0), v = [], acc = 0;
      for (var k = 1; k + 4 < c.length; k += 5) {
        d[Math.max(c[k], 0)] += c[k + 3];
        if (c[k + 1] >= 0) d[c[k + 1]] -= c[k + 3];
      }
      for (var x = 0; x < t.length; x++) { acc += d[x]; v.push(acc); }
      m[c[0]] = v;
    });
    return m;
  }
  /* the sample nearest to time s */
  function snap(s) {
    var best = 0;
    for (var k = 1; k < t.length; k++) if (Math.abs(t[k] - s) < Math.abs(t[best] - s)) best = k;
    return best;
  }
  return { t: t, compute: compute, liveSeries: liveSeries, snap: snap };
};
