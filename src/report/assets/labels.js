/*
 * labels.js - names that tell allocation sites apart. A site is named by
 * its leaf, "function (file:line)"; sites whose leaves read the same are
 * named by the leaf's function and the first caller that differs among
 * them: three sites "dup_str (growleak.c:14)" become "dup_str <- parse_line",
 * "dup_str <- load_config", ... LK.siteLabels(items) takes [{label, f}]
 * (f: frames innermost first, [function, file, line, module, offset,
 * inlined]) and returns their names in the same order.
 */
var LK = window.LK || (window.LK = {});
LK.siteLabels = function (items) {
  'use strict';
  function fn(fr) { return !fr ? '(end of stack)' : fr[0] || ((fr[3] || '??') + ' +' + fr[4]); }
  function where(fr) { return fr && fr[1] ? ' (' + fr[1].replace(/^.*\//, '') + (fr[2] > 0 ? ':' + fr[2] : '') + ')' : ''; }
  var groups = {};
  items.forEach(function (it, i) { (groups[it.label] = groups[it.label] || []).push(i); });
  var out = items.map(function (it) { return it.label; });
  /* how many sites of group g have each key at caller depth d */
  function counts(g, d, key) {
    var m = {};
    g.forEach(function (i) { var k = key((items[i].f || [])[d]); m[k] = (m[k] || 0) + 1; });
    return m;
  }
  function full(fr) { return fn(fr) + where(fr); }
  Object.keys(groups).forEach(function (label) {
    var g = groups[label], byFull = [], byFn = [];
    if (g.length < 2) return;
    g.forEach(function (i) {
      var f = items[i].f || [], depth = 1;
      if (!f.length) return;
      /* the first caller depth where another site of the group differs */
      for (; depth < 64; depth++) {
        byFull[depth] = byFull[depth] || counts(g, depth, full);
        if (byFull[depth][full(f[depth])] < g.length) break;
      }
      byFn[depth] = byFn[depth] || counts(g, depth, fn);
      var caller = f[depth], name = fn(f[0]) + ' \u2190 ' + fn(caller);
      out[i] = byFn[depth][fn(caller)] > 1 ? name + where(caller) : name;
    });
  });
  return out;
};
