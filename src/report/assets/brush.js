/*
 * brush.js - a time window chosen by dragging across a chart: LK.brush(svg,
 * geo, onSelect) draws the selection while the pointer moves with a button
 * down over the plot (geo: {x0, x1, left, width} of the plot, in time and
 * in SVG units) and calls onSelect(t0, t1) with the times under its ends
 * when the button is released after a drag of at least 4 pixels.
 */
var LK = window.LK || (window.LK = {});
LK.brush = function (svg, geo, onSelect) {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var overlay = svg.querySelector('.overlay'), rect = null, start = null;
  function px(ev) {
    var r = svg.getBoundingClientRect(), scale = svg.viewBox.baseVal.width / r.width;
    var x = (ev.clientX - r.left) * scale;
    return Math.max(geo.left, Math.min(geo.left + geo.width, x));
  }
  function time(x) { return geo.x0 + (x - geo.left) / geo.width * (geo.x1 - geo.x0); }
  overlay.addEventListener('mousedown', function (ev) {
    if (ev.button !== 0) return;
    ev.preventDefault();
    start = px(ev);
    rect = document.createElementNS(NS, 'rect');
    rect.setAttribute('class', 'brush');
    rect.setAttribute('y', overlay.getAttribute('y'));
    rect.setAttribute('height', overlay.getAttribute('height'));
    rect.setAttribute('x', start);
    rect.setAttribute('width', 0);
    svg.insertBefore(rect, overlay);
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up, { once: true });
  });
  function move(ev) {
    if (start == null) return;
    var x = px(ev);
    rect.setAttribute('x', Math.min(x, start));
    rect.setAttribute('width', Math.abs(x - start));
  }
  function up(ev) {
    if (start == null) return;
    var x = px(ev), a = Math.min(x, start), b = Math.max(x, start);
    start = null;
    if (rect && rect.parentNode) rect.parentNode.removeChild(rect);
    rect = null;
    window.removeEventListener('mousemove', move);
    if (b - a >= 4) onSelect(time(a), time(b));
  }
};
