/*
 * labels.js - names that tell allocation sites apart. A site is named by
 * its leaf, "function (file:line)"; sites whose leaves read the same are
 * named by the leaf's function and the first caller that differs among
 * them: three sites "dup_str (growleak.c:14)" become "dup_str <- parse_line",
 * "dup_str <- load_config", ...; sites that share that caller too are
 * told apart by the next caller that differs among them ("alloc <- f <-
 * g"), and sites whose frames all read the same by their ids. Every name
 * is unique. LK.siteLabels(items) takes [{label, f, id}] (f: frames
 * innermost first, [function, file, line, module, offset, inlined]) and
 * returns their names in the same order.
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
  /* sites g, all named base so far, with the same frames up to depth d0:
   * split by their caller at the first depth where they differ (its
   * file:line too when two different callers there share a function); a
   * part of several sites is split further down its stacks */
  function split(g, base, d0) {
    var d = d0;
    while (d < 64 && Object.keys(counts(g, d, full)).length < 2) d++;
    if (d >= 64) {   /* no frame tells them apart: their ids do */
      g.forEach(function (i) { out[i] = byId(i, base); });
      return;
    }
    var byFn = {}, parts = {};
    g.forEach(function (i) { var k = full(items[i].f[d]); (parts[k] = parts[k] || []).push(i); });
    Object.keys(parts).forEach(function (k) { var f = fn(items[parts[k][0]].f[d]); byFn[f] = (byFn[f] || 0) + 1; });
    Object.keys(parts).forEach(function (k) {
      var p = parts[k], fr = items[p[0]].f[d], name = base + ' \u2190 ' + fn(fr) + (byFn[fn(fr)] > 1 ? where(fr) : '');
      if (p.length === 1) out[p[0]] = name;
      else split(p, name, d + 1);
    });
  }
  function byId(i, base) { return base + ' [' + (items[i].id != null ? 'site ' + items[i].id : '#' + i) + ']'; }
  /* the leaf's function names a group, or its label when another group's
   * leaf has the same function (another line of it) */
  var leafFns = {};
  Object.keys(groups).forEach(function (label) { var k = fn((items[groups[label][0]].f || [])[0]); leafFns[k] = (leafFns[k] || 0) + 1; });
  Object.keys(groups).forEach(function (label) {
    var g = groups[label];
    if (g.length < 2) return;
    var stacked = g.filter(function (i) { return (items[i].f || []).length; });
    var bare = g.filter(function (i) { return !(items[i].f || []).length; });
    var base = stacked.length ? fn(items[stacked[0]].f[0]) : label;
    if (leafFns[base] > 1) base = label;
    if (stacked.length > 1) split(stacked, base, 1);
    else if (stacked.length === 1 && bare.length) out[stacked[0]] = base + ' \u2190 ' + fn(items[stacked[0]].f[1]);
    if (bare.length > 1) bare.forEach(function (i) { out[i] = byId(i, label); });
  });
  /* what still reads the same (a name made equal to another's label) */
  var seen = {};
  out.forEach(function (name) { seen[name] = (seen[name] || 0) + 1; });
  return out.map(function (name, i) { return seen[name] > 1 ? byId(i, name) : name; });
};
