/*
 * trees.js - the Trees tab of a trace's page: the allocation stacks as a
 * top-down tree (the program's entry first, callees below), a bottom-up
 * tree (the allocating functions first, their callers below) and a
 * caller/callee view of one function (its callers and callees, with the
 * value of the stacks through it). Filters by function, file and module
 * keep the stacks that have a frame matching each filter given.
 * LK.trees(ctx) returns {render(host)}; ctx: {stacks: () -> [{site, fr
 * (frames outermost first), v (values of the measures)}], measures
 * [[key, title, unit]], fmt(v, k), esc, onChange()}.
 */
var LK = window.LK || (window.LK = {});
LK.trees = function (ctx) {
  'use strict';
  var esc = ctx.esc, st = { view: 'top-down', m: 0, fn: '', file: '', mod: '', open: {}, focus: null };
  function fname(fr) { return !fr ? '[other sites]' : fr[0] || ((fr[3] || '??') + ' +' + fr[4]); }
  function has(s, q) { return !q || (s || '').toLowerCase().indexOf(q) >= 0; }
  function keep(s) {
    function any(p) { return s.fr.some(p); }
    return any(function (f) { return has(fname(f), st.fn); }) &&
      (!st.file || any(function (f) { return f && has(f[1], st.file); })) &&
      (!st.mod || any(function (f) { return f && has(f[3], st.mod); }));
  }
  function node(name, fr) { return { name: name, fr: fr, v: 0, kids: new Map() }; }
  function build(stacks, bottomUp) {
    var root = node('all', null);
    stacks.forEach(function (s) {
      var v = s.v[st.m], n = root, fr = s.fr.length ? s.fr : [null];
      if (!(v > 0)) return;
      root.v += v;
      (bottomUp ? fr.slice().reverse() : fr).forEach(function (f) {
        var name = fname(f), c = n.kids.get(name);
        if (!c) { c = node(name, f); n.kids.set(name, c); }
        c.v += v;
        n = c;
      });
    });
    return root;
  }
  function where(fr) { return fr && fr[1] ? fr[1].replace(/^.*\//, '') + (fr[2] > 0 ? ':' + fr[2] : '') : (fr && fr[3]) || ''; }
  function rowsOf(root, total) {
    var out = [];
    (function walk(n, path, d) {
      Array.from(n.kids.values()).sort(function (a, b) { return b.v - a.v || (a.name < b.name ? -1 : 1); }).forEach(function (c) {
        var p = path + '\u0001' + c.name, open = !!st.open[p];
        out.push('<tr class="tnode" data-path="' + esc(p) + '" data-name="' + esc(c.name) + '" data-value="' + c.v + '"><td class="label" style="padding-left:' +
          (4 + d * 14) + 'px"><span class="tw">' + (c.kids.size ? (open ? '\u25BE' : '\u25B8') : '\u00a0') + '</span> ' + esc(c.name) +
          ' <span class="mod">' + esc(where(c.fr)) + '</span> <button type="button" class="ccb" title="callers and callees">\u21C4</button></td><td class="num">' + esc(ctx.fmt(c.v, st.m)) + '</td><td class="num">' +
          (total > 0 ? (c.v / total * 100).toFixed(1) : '0') + '%</td></tr>');
        if (open) walk(c, p, d + 1);
      });
    })(root, '', 0);
    return out.join('');
  }
  function callerCallee(stacks) {
    var f = st.focus, through = 0, self = 0, callers = new Map(), callees = new Map();
    stacks.forEach(function (s) {
      var v = s.v[st.m], k = -1;
      if (!(v > 0)) return;
      for (var i = 0; i < s.fr.length; i++) if (fname(s.fr[i]) === f) { k = i; break; }
      if (k < 0) return;
      through += v;
      if (k === s.fr.length - 1) self += v;
      var up = k > 0 ? fname(s.fr[k - 1]) : '(entry)', down = k + 1 < s.fr.length ? fname(s.fr[k + 1]) : '(allocates)';
      callers.set(up, (callers.get(up) || 0) + v);
      callees.set(down, (callees.get(down) || 0) + v);
    });
    function list(id, title, m) {
      var h = '<h3>' + esc(title) + '</h3><table class="bands" id="' + id + '"><tbody>';
      Array.from(m.entries()).sort(function (a, b) { return b[1] - a[1]; }).forEach(function (e) {
        h += '<tr class="cc" data-name="' + esc(e[0]) + '" data-value="' + e[1] + '"><td class="label">' + esc(e[0]) + '</td><td class="num">' +
          esc(ctx.fmt(e[1], st.m)) + '</td></tr>';
      });
      return h + '</tbody></table>';
    }
    return '<p class="count" id="cc-focus" data-value="' + through + '">' + esc(f) + ': ' + esc(ctx.fmt(through, st.m)) + ' through it, ' +
      esc(ctx.fmt(self, st.m)) + ' allocated by it</p>' + list('cc-callers', 'Callers', callers) + list('cc-callees', 'Callees', callees);
  }
  function render(host) {
    if (!host.firstChild) setup(host);
    var stacks = ctx.stacks().filter(keep), out = host.querySelector('.treebody');
    var total = 0, held = 0;
    stacks.forEach(function (s) { if (s.v[st.m] > 0) { total += s.v[st.m]; held++; } });
    host.querySelector('#tree-total').textContent = held + (held === 1 ? ' stack, ' : ' stacks, ') + ctx.fmt(total, st.m);
    host.querySelector('#tree-total').setAttribute('data-value', total);
    if (st.view === 'caller-callee') {
      out.innerHTML = st.focus ? callerCallee(stacks) : '<p class="help">Click a function in the top-down or bottom-up tree to see its callers and callees.</p>';
      return;
    }
    out.innerHTML = '<table class="bands" id="tree-table"><thead><tr><th>Function</th><th class="num">' + esc(ctx.measures[st.m][1]) +
      '</th><th class="num">Share</th></tr></thead><tbody>' + rowsOf(build(stacks, st.view === 'bottom-up'), total) + '</tbody></table>';
  }
  function setup(host) {
    host.innerHTML = '<div class="tools"><label>View: <select id="tree-view"><option value="top-down">top-down</option>' +
      '<option value="bottom-up">bottom-up</option><option value="caller-callee">caller / callee</option></select></label> ' +
      '<label>Measure: <select id="tree-measure">' + ctx.measures.map(function (me, k) { return '<option value="' + k + '">' + esc(me[1]) + '</option>'; }).join('') +
      '</select></label> <input type="search" id="tree-fn" placeholder="function" aria-label="filter by function"> ' +
      '<input type="search" id="tree-file" placeholder="file" aria-label="filter by file"> ' +
      '<input type="search" id="tree-mod" placeholder="module" aria-label="filter by module"> <span class="count" id="tree-total"></span></div>' +
      '<div class="treebody"></div>';
    host.querySelector('#tree-measure').value = String(st.m);
    host.addEventListener('change', function (e) {
      if (e.target.id === 'tree-view') st.view = e.target.value;
      else if (e.target.id === 'tree-measure') st.m = +e.target.value;
      else return;
      render(host);
    });
    host.addEventListener('input', function (e) {
      var k = { 'tree-fn': 'fn', 'tree-file': 'file', 'tree-mod': 'mod' }[e.target.id];
      if (!k) return;
      st[k] = e.target.value.trim().toLowerCase();
      render(host);
    });
    host.addEventListener('click', function (e) {
      var tr = e.target.closest('tr.tnode, tr.cc');
      if (!tr) return;
      if (tr.classList.contains('cc') || e.target.closest('.ccb')) {
        st.focus = tr.getAttribute('data-name');
        st.view = 'caller-callee';
        host.querySelector('#tree-view').value = st.view;
      } else {
        var p = tr.getAttribute('data-path');
        st.open[p] = !st.open[p];
      }
      render(host);
    });
  }
  return { render: render, state: st };
};
