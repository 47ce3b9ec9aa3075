/*
 * live.js - what makes the HTML report the live page of `leakscope watch
 * --serve` (src/cli/watch_serve.c, docs/watch.md): a header with the watch's
 * numbers now (time, RSS, live bytes, the fastest-growing site, the last
 * mark, recording or ended), from /state every second; when the state says
 * the watch made a page of a newer generation than the one drawn, the
 * report's data of it (/data) is drawn again in place
 * (leakscopeReport.update, report.js), keeping what the reader chose. Once
 * the trace ended and its last data is drawn, it stops asking. Only the
 * page's own server is asked, with the page's token.
 */
(function () {
  'use strict';
  var INTERVAL = 1000;
  var data = document.getElementById('data');
  var drawn = Number(data.getAttribute('data-generation') || 0);
  var query = location.search;
  var bar = document.createElement('div');
  bar.className = 'live';
  bar.id = 'live';
  bar.innerHTML = '<span id="state" data-generation="' + drawn + '">live</span>' +
    '<span>RSS <b id="rss-now"></b> <span class="peak" id="rss-peak"></span></span>' +
    '<span>live <b id="live-now"></b> <span class="peak" id="live-peak"></span></span>' +
    '<span id="growing-top"></span><span id="last-mark"></span>';
  document.getElementById('head').insertBefore(bar, document.getElementById('title').nextSibling);
  /* the page keeps its scroll position itself across an update: the
   * browser's scroll anchoring would move it again */
  document.documentElement.style.overflowAnchor = 'none';

  function fmtBytes(v) { return v == null ? '\u2013' : Number(v).toLocaleString('en-US') + ' B'; }
  function set(id, text, value) {
    var e = document.getElementById(id);
    e.textContent = text;
    if (value !== undefined) e.setAttribute('data-value', value == null ? '' : String(value));
  }
  function frame(f) {
    return !f ? '?' : (f.function || '??') + (f.file ? ' ' + f.file.replace(/^.*\//, '') + ':' + f.line : '');
  }
  function header(s) {
    var st = document.getElementById('state');
    st.textContent = (s.ended ? 'ended' : 'recording') + ' \u00b7 ' + s.time.toFixed(1) + ' s';
    st.setAttribute('data-time', String(s.time));
    st.setAttribute('data-ended', s.ended ? 'true' : 'false');
    set('rss-now', fmtBytes(s.rss), s.rss);
    set('rss-peak', s.rss_peak == null ? '' : 'peak ' + fmtBytes(s.rss_peak), s.rss_peak);
    set('live-now', fmtBytes(s.live_bytes), s.live_bytes);
    set('live-peak', 'peak ' + fmtBytes(s.peak_bytes), s.peak_bytes);
    var g = s.growing && s.growing[0];
    set('growing-top', g ? 'fastest growing: ' + frame(g.frame) + (g.caller ? ' < ' + (g.caller.function || '??') : '') : 'no growing site',
      g ? g.site : null);
    var m = s.marks && s.marks.length ? s.marks[s.marks.length - 1] : null;
    set('last-mark', m ? 'last mark: ' + m.text + ' at ' + m.t.toFixed(1) + ' s' : '');
  }
  /* while the program runs, the trace read so far ends in the middle of a
   * chunk: the report's warning that says so is no news on this page */
  function cut(w) { return /^truncated at offset/.test(w); }
  function tidy() {
    var box = document.querySelector('#head .warnings');
    if (box && Array.prototype.every.call(box.querySelectorAll('li'), function (li) { return cut(li.textContent); }))
      box.style.display = 'none';
  }
  function get(path) {
    return fetch(path + query, { cache: 'no-store' }).then(function (r) {
      if (!r.ok) throw new Error(path + ': ' + r.status);
      return r.text();
    });
  }
  var polled = 0;
  function poll() {
    get('/state').then(function (text) {
      var s = JSON.parse(text);
      if (s.waiting) return true;
      if (!polled++ && !s.ended) tidy();
      header(s);
      if (s.generation === drawn) return !s.ended;
      return get('/data').then(function (text) {
        var d = JSON.parse(text);
        if (d.waiting) return true;
        /* #data holds what is drawn: the page saved is the report of now */
        data.textContent = text;
        if (!s.ended) d.warnings = (d.warnings || []).filter(function (w) { return !cut(w); });
        window.leakscopeReport.update(d);
        drawn = s.generation;
        data.setAttribute('data-generation', String(drawn));
        document.getElementById('state').setAttribute('data-generation', String(drawn));
        return true;   /* once more: the data may be newer than the state */
      });
    }).then(function (again) {
      bar.classList.remove('lost');
      if (again) setTimeout(poll, INTERVAL);
    }, function () {
      bar.classList.add('lost');
      document.getElementById('state').textContent = 'leakscope watch does not answer';
      setTimeout(poll, INTERVAL);
    });
  }
  poll();
})();
