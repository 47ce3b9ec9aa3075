/*
 * chartopts.js - the value axis of the byte charts: linear or logarithmic,
 * and clipped so that one spike does not flatten the rest. LK.yAxis(values,
 * opts) takes every value the chart draws (stacked: the tops) and opts
 * {log, clip}; it returns {top, clipped, max, scale(v) -> 0..1 of the plot
 * height (above 1: over the top), ticks}. Clipping: when the largest value
 * is over 4 times the 95th percentile of the positive values, the axis
 * ends at 1.5 times that percentile and the chart marks what goes over.
 */
var LK = window.LK || (window.LK = {});
LK.yAxis = function (values, opts, linearStep) {
  'use strict';
  var pos = values.filter(function (v) { return v > 0 && isFinite(v); }).sort(function (a, b) { return a - b; });
  var max = pos.length ? pos[pos.length - 1] : 1, top = max, clipped = false;
  if (opts.clip && pos.length >= 20) {
    var p95 = pos[Math.floor(0.95 * (pos.length - 1))];
    if (p95 > 0 && max > 4 * p95) { top = 1.5 * p95; clipped = true; }
  }
  if (opts.log) {   /* ticks at 1, 10, 100 B, 1, 10, 100 KiB, 1 MiB ... */
    var nice = [];
    for (var e = 0; e < 7; e++) [1, 10, 100].forEach(function (m) { nice.push(m * Math.pow(1024, e)); });
    var least = Math.max(pos.length ? pos[0] : 1, 1), lo = 1, hi = nice[nice.length - 1];
    nice.forEach(function (v) { if (v <= least) lo = v; });
    for (var i = nice.length - 1; i >= 0; i--) if (nice[i] >= Math.max(top, lo * 10)) hi = nice[i];
    var llo = Math.log(lo), lhi = Math.log(hi);
    return { top: hi, clipped: clipped, max: max, log: true,
      ticks: nice.filter(function (v) { return v >= lo && v <= hi; }),
      scale: function (x) { return x <= lo ? 0 : (Math.log(x) - llo) / (lhi - llo); } };
  }
  var step = linearStep(top), t = Math.max(top, Math.ceil(top / step - 1e-9) * step), lt = [];
  for (var k = 0; k * step <= t * (1 + 1e-9) && lt.length < 50; k++) lt.push(k * step);
  return { top: t, clipped: clipped, max: max, log: false, ticks: lt,
    scale: function (x) { return x / t; } };
};
