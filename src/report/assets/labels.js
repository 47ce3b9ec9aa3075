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
  Object.keys(groups).forEach(function (label) {
    var g = groups[label];
    if (g.length < 2) return;
    g.forEach(function (i) {
      var f = items[i].f || [], depth = 1;
      if (!f.length) return;
      /* the first caller depth where another site of the group differs */
      for (; depth < 64; depth++) {
        var mine = fn(f[depth]) + where(f[depth]), differs = g.some(function (o) {
          return o !== i && fn((items[o].f || [])[depth]) + where((items[o].f || [])[depth]) !== mine;
        });
        if (differs) break;
      }
      var caller = f[depth], name = fn(f[0]) + ' \u2190 ' + fn(caller);
      var same = g.some(function (o) { return o !== i && items[o].f && fn(items[o].f[depth]) === fn(caller); });
      out[i] = same ? name + where(caller) : name;
    });
  });
  return out;
};
