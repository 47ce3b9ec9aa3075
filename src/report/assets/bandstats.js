/*
 * bandstats.js - the statistics of a band's timeline, as the writer
 * computes them (lk_band_stats_compute, src/analyze/timeline.c), for the
 * samples of a window: LK.bandStats(t, v) returns [integrated, peak, mean,
 * stddev, intercept, slope, fit] of the piecewise-linear curve through
 * (t[k], v[k]): the trapezoids' area, the time-weighted mean and standard
 * deviation, the least-squares line of v against t and its R^2.
 */
var LK = window.LK || (window.LK = {});
LK.bandStats = function (t, v) {
  'use strict';
  var n = v.length;
  if (!n) return [0, 0, 0, 0, 0, 0, 0];
  var peak = v[0], sum = v[0], tsum = t[0], area2 = 0, k;
  for (k = 1; k < n; k++) {
    if (v[k] > peak) peak = v[k];
    sum += v[k];
    tsum += t[k];
    area2 += (t[k] - t[k - 1]) * (v[k] + v[k - 1]);
  }
  var area = area2 / 2, span = t[n - 1] - t[0], amean = sum / n, tmean = tsum / n;
  var mean = span > 0 ? area / span : amean, sq3 = 0, stt = 0, stv = 0, svv = 0;
  for (k = 0; k < n; k++) {
    var dt = t[k] - tmean, dv = v[k] - amean;
    stt += dt * dt;
    stv += dt * dv;
    svv += dv * dv;
    if (k > 0) {
      var a = v[k - 1] - mean, b = v[k] - mean;
      sq3 += (t[k] - t[k - 1]) * (a * a + a * b + b * b);
    }
  }
  var sd = span > 0 ? Math.sqrt(sq3 > 0 ? sq3 / 3 / span : 0) : Math.sqrt(svv / n);
  if (n < 2 || stt <= 0) return [area, peak, mean, sd, amean, 0, 0];
  var slope = stv / stt, r2 = svv > 0 ? (stv * stv) / (stt * svv) : 0;
  return [area, peak, mean, sd, amean - slope * tmean, slope, r2 < 0 ? 0 : r2 > 1 ? 1 : r2];
};
