// check_brush.mjs - the page of a trace report (tests/cli/561, the growing
// leak of tests/victims/growleak.c) driven in chromium and checked against
// `leakscope report --format json` of the same trace: site labels that tell
// the three callers of one function apart; each band's tooltip value at
// the hovered sample; the axis clipped above the spike, and log scale; a
// window brushed on the Heap chart, after which the leak table, the summary,
// the trees (with their function, file and module filters and the
// caller/callee view), the flame graph, the Sizes and the leak candidates
// hold the numbers of `report --from A --to B --format json`, and the
// Detailed table's sparklines are the window's.
//
//   node check_brush.mjs REPORT.html LEAKSCOPE TRACE SHOTS_DIR
import { execFileSync } from 'node:child_process';
import { args, check, clean, drag, open, run } from './harness.mjs';

const [file, leakscope, trace, shots] = args('node check_brush.mjs REPORT.html LEAKSCOPE TRACE SHOTS_DIR');

// The JSON report of the window (t[i], t[j]] of the page's samples.
function report(from, to) {
  const a = ['report', '--format', 'json', '--top', '0'];
  if (from != null) a.push('--from', (from + 1e-6).toFixed(6));
  if (to != null) a.push('--to', to.toFixed(6));
  return JSON.parse(execFileSync(leakscope, [...a, trace], { encoding: 'utf8' }));
}
const leakList = (j) => j.leaks.map((s) => [s.site, s.leaked_bytes, s.leaked_objects]);

async function leakRows(page) {
  await page.click('#tab-leaks');
  return page.$$eval('#leak-table tbody tr[data-site]', (trs) => trs.map((tr) =>
    [+tr.dataset.site, +tr.dataset.bytes, +tr.dataset.blocks]));
}

// Trees: the total of the measure "not freed" with the filters given.
async function treeTotal(page, filters) {
  await page.click('#tab-trees');
  for (const id of ['tree-fn', 'tree-file', 'tree-mod']) await page.fill(`#${id}`, filters[id] || '');
  return +(await page.getAttribute('#tree-total', 'data-value'));
}

await run(async (browser) => {
  const { page, log } = await open(browser, file);
  const D = await page.evaluate(() => JSON.parse(document.getElementById('data').textContent));
  const whole = report(null, null);

  // labels: the three sites of dup_str named by their callers
  const legend = await page.$$eval('#pane-area .legend li .nm', (s) => s.map((e) => e.textContent));
  for (const caller of ['parse_line', 'load_config', 'cache_name'])
    check(legend.includes(`dup_str \u2190 ${caller}`), `a band is named dup_str \u2190 ${caller}: ${JSON.stringify(legend)}`);

  // tooltips: every band's value at the hovered sample
  const box = await page.locator('#chart-area rect.overlay').boundingBox();
  let tipsOk = 0, tipsAll = 0;
  for (const f of [0.2, 0.45, 0.55, 0.8, 0.995]) {
    await page.mouse.move(box.x + box.width * f, box.y + box.height / 2);
    const rows = await page.$$eval('#chart-area .tip tr[data-v]', (trs) => trs.map((tr) =>
      [tr.querySelector('.n').textContent, +tr.dataset.v, +tr.dataset.i]));
    for (const [name, v, i] of rows) {
      const k = legend.indexOf(name);
      const want = k < D.chart.bands.length ? D.chart.bands[k][i] : D.chart.other[i];
      tipsAll++;
      if (k >= 0 && Math.abs((want || 0) - v) < 0.5) tipsOk++;
      else console.log(`# tooltip ${name} at ${i}: ${v}, data ${want}`);
    }
  }
  check(tipsAll >= 10 && tipsOk === tipsAll, `tooltips: ${tipsOk} of ${tipsAll} band values are the band's at the hovered sample`);

  // the heap chart: the spike clipped and marked, lines clipped to the plot,
  // the frees at exit in the live bytes, log scale on demand
  const axis = await page.getAttribute('#chart-area svg', 'data-axis');
  check(axis === 'linear clipped' && (await page.$$('#chart-area path.spike')).length >= 1, `the spike is clipped and marked: ${axis}`);
  await page.click('#tab-heap');
  check(await page.$$eval('#chart-heap g.layers', (g) => g.length === 1 && /^url\(#/.test(g[0].getAttribute('clip-path'))), 'chart lines are clipped to the plot');
  const live = D.series.find((s) => s.name === 'live bytes').v;
  check(live[live.length - 1] === whole.summary.final_live_bytes && Math.max(...live.slice(-10)) > live[live.length - 1],
    `the live bytes drop at exit to ${whole.summary.final_live_bytes}: ${live.slice(-3)}`);
  await page.check('#opt-log');
  check((await page.getAttribute('#chart-heap svg', 'data-axis')).startsWith('log'), 'log scale');
  await page.uncheck('#opt-log');
  await page.screenshot({ path: `${shots}/brush-heap.png`, fullPage: true });

  // the whole trace first: the page's leak table is the report's, and so
  // are the temporary allocations
  await page.click('#tab-summary');
  const grow0 = await page.$$eval('#top-growth tr[data-site]', (trs) => trs.map((tr) => +tr.dataset.site));
  check(JSON.stringify(grow0) === JSON.stringify(whole.growth.map((x) => x.site).slice(0, 10)), `summary: the growing sites of the whole trace ${JSON.stringify(grow0)}`);
  const temps = (await page.textContent('#sum-temporary .cv')).replace(/,/g, '');
  check(+temps === whole.summary.temporary_allocations, `summary: ${temps} temporary allocations = the report's`);
  check(JSON.stringify(await leakRows(page)) === JSON.stringify(leakList(whole)), 'leak table = report\'s leaks (whole trace)');

  for (const [f0, f1] of [[0.3, 0.7], [0.05, 0.5], [0.6, 0.999]]) {
    await page.click('#tab-heap');
    await drag(page, '#chart-heap', f0, f1);
    const w = await page.$eval('#win-text', (e) => ({ from: +e.dataset.from, to: +e.dataset.to, i: +e.dataset.i, j: +e.dataset.j }));
    const j = report(w.i === 0 ? null : w.from, w.to);
    const tag = `window ${w.from}..${w.to}`;
    const rows = await leakRows(page);
    check(rows.length > 0 || j.leaks.length === 0, `${tag}: leak rows`);
    check(JSON.stringify(rows) === JSON.stringify(leakList(j)), `${tag}: leak table = report --from --to: ${JSON.stringify(rows)} vs ${JSON.stringify(leakList(j))}`);
    const tot = await page.$eval('#leak-total', (e) => [+e.dataset.bytes, +e.dataset.blocks]);
    check(tot[0] === j.summary.leaked_bytes && tot[1] === j.summary.leaked_objects, `${tag}: total ${tot} = ${j.summary.leaked_bytes}, ${j.summary.leaked_objects}`);
    await page.click('#tab-summary');
    const card = await page.textContent('#sum-leaked .cs');
    check(card === `${j.summary.leaked_objects.toLocaleString('en-US')} blocks`, `${tag}: summary card ${card}`);
    const grow = await page.$$eval('#top-growth tr[data-site]', (trs) => trs.map((tr) => +tr.dataset.site));
    check(grow.length > 0 && JSON.stringify(grow) === JSON.stringify(j.growth.map((x) => x.site).slice(0, 10)),
      `${tag}: summary: the growing sites in the report's order ${JSON.stringify(j.growth.map((x) => x.site))}, page ${JSON.stringify(grow)}`);
    const end = await page.$eval('#sum-winend', (e) => [+e.dataset.bytes, +e.dataset.blocks]);
    const wantEnd = [j.sizes.reduce((a, c) => a + c.window.live_bytes, 0), j.sizes.reduce((a, c) => a + c.window.live_objects, 0)];
    check(JSON.stringify(end) === JSON.stringify(wantEnd), `${tag}: summary: live at the window's end ${end} = ${wantEnd}`);
    const all = await treeTotal(page, {});
    check(all === j.summary.leaked_bytes, `${tag}: trees' total ${all}`);
    const parse = j.leaks.filter((s) => s.stack.some((fr) => fr.function === 'parse_line')).reduce((a, s) => a + s.leaked_bytes, 0);
    check(await treeTotal(page, { 'tree-fn': 'parse_line' }) === parse, `${tag}: function filter parse_line = ${parse}`);
    check(await treeTotal(page, { 'tree-file': 'growleak.c' }) === j.summary.leaked_bytes, `${tag}: file filter growleak.c`);
    check(await treeTotal(page, { 'tree-mod': 'no-such-module' }) === 0, `${tag}: module filter that matches nothing`);
    const dup = j.leaks.filter((s) => s.stack[0].function === 'dup_str').reduce((a, s) => a + s.leaked_bytes, 0);
    if (dup > 0) {
      await treeTotal(page, {});
      await page.selectOption('#tree-view', 'bottom-up');
      const roots = await page.$$eval('#tree-table tbody tr.tnode', (trs) => trs.map((tr) => [tr.dataset.name, +tr.dataset.value]));
      check(roots.some(([n, v]) => n === 'dup_str' && v === dup), `${tag}: bottom-up: dup_str allocated ${dup} of it: ${JSON.stringify(roots)}`);
      await page.click('#tree-table tbody tr.tnode[data-name="dup_str"] button.ccb');
      const callers = await page.$$eval('#cc-callers tr.cc', (trs) => trs.map((tr) => [tr.dataset.name, +tr.dataset.value]));
      check(callers.some(([n, v]) => n === 'parse_line' && v === parse), `${tag}: callers of dup_str: ${JSON.stringify(callers)}`);
      await page.selectOption('#tree-view', 'top-down');
    }
    // the Detailed table: load_config's peak in the window, from the cells
    const cfg = whole.top_allocations.find((s) => s.stack[1] && s.stack[1].function === 'load_config').site;
    const cells = D.cells.sites.find((c) => c[0] === cfg), live = new Array(D.cells.t.length).fill(0);
    for (let k = 1; k < cells.length; k += 5)
      for (let x = cells[k]; x < (cells[k + 1] < 0 ? live.length : cells[k + 1]); x++) live[x] += cells[k + 3];
    const peak = Math.max(...live.slice(w.i, w.j + 1));
    await page.click('#tab-table');
    const shown = +(await page.getAttribute(`#bands tr[data-id="site ${cfg}"] td[data-v]:nth-of-type(5)`, 'data-v'));
    check(shown === peak, `${tag}: Detailed: load_config's peak in the window ${shown} = ${peak}`);
    // its sparkline: the window's samples, scaled to their largest
    const spark = await page.$eval(`#bands tr[data-id="site ${cfg}"] td.spark`, (td) => [+td.dataset.max, td.querySelectorAll('polyline').length]);
    check(spark[0] === peak && spark[1] === 1, `${tag}: Detailed: load_config's sparkline peaks at ${spark[0]} = ${peak}`);
    await page.click('#tab-flame');
    const opt = await page.$eval('#flame-measure option', (o) => o.textContent);
    check(opt.includes('(window)'), `${tag}: flame graph of the window: ${opt}`);
    // the Sizes: each class's allocations, live and not-freed blocks of the window
    await page.click('#tab-sizes');
    const bars = await page.$$eval('#chart-sizes rect.szbar', (rs) => rs.map((r) => [+r.dataset.min, +r.dataset.allocs, +r.dataset.allocb,
      +r.dataset.liven, +r.dataset.liveb, +r.dataset.leakn, +r.dataset.leakb]));
    const wantBars = j.sizes.map((c) => [c.min, c.window.allocations, c.window.bytes, c.window.live_objects, c.window.live_bytes,
      c.window.leaked_objects, c.window.leaked_bytes]);
    check(JSON.stringify(bars) === JSON.stringify(wantBars), `${tag}: sizes = the report's window: ${JSON.stringify(bars)} vs ${JSON.stringify(wantBars)}`);
    check(wantBars.some((b) => b[1] > 0) && JSON.stringify(wantBars) !== JSON.stringify(whole.sizes.map((c) => [c.min, c.allocations, c.bytes,
      c.live_objects, c.live_bytes, c.live_objects, c.live_bytes])), `${tag}: the window's sizes are not the whole trace's`);
    const opt2 = await page.$eval('#sizes-measure option', (o) => o.textContent);
    check(opt2 === 'Allocations in the window', `${tag}: sizes measure says the window: ${opt2}`);
    // the leak candidates: the blocks allocated in the window and not freed by its end
    await page.click('#tab-candidates');
    const dots = (await page.$$eval('#chart-candidates circle.cand', (cs) => cs.map((c) => [Math.round(+c.dataset.t * 1e9), +c.dataset.size, +c.dataset.site])))
      .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    const wantDots = j.leak_candidates.points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    check(j.leak_candidates.shown === j.leak_candidates.blocks && JSON.stringify(dots) === JSON.stringify(wantDots),
      `${tag}: leak candidates = the report's ${wantDots.length} points (page ${dots.length})`);
    const count = await page.$eval('#cand-count', (p) => [+p.dataset.shown, +p.dataset.blocks]);
    check(count[0] === j.leak_candidates.shown && count[1] === j.leak_candidates.blocks, `${tag}: leak candidates count ${count}`);
    if (f0 === 0.3) await page.screenshot({ path: `${shots}/brush-candidates.png`, fullPage: true });
  }
  await page.click('#tab-leaks');
  await page.screenshot({ path: `${shots}/brush-leaks.png`, fullPage: true });
  // the leak-candidate chart is a place to brush too
  await page.click('#tab-candidates');
  await drag(page, '#chart-candidates', 0.1, 0.4);
  const wc = await page.$eval('#win-text', (e) => [+e.dataset.i, +e.dataset.j]);
  check(wc[0] < wc[1] && (await page.$$('#chart-candidates rect.winshade')).length === 1, `brushed on the leak candidates: samples ${wc}`);
  await page.click('#win-reset');
  await page.click('#tab-summary');
  check((await page.$$('#sum-winend')).length === 0, 'reset: no card for a window\'s end');
  check(JSON.stringify(await leakRows(page)) === JSON.stringify(leakList(whole)), 'reset: the whole trace again');
  await page.click('#tab-sizes');
  const wbars = await page.$$eval('#chart-sizes rect.szbar', (rs) => rs.map((r) => [+r.dataset.min, +r.dataset.allocs, +r.dataset.liveb]));
  check(JSON.stringify(wbars) === JSON.stringify(whole.sizes.map((c) => [c.min, c.allocations, c.live_bytes])), 'reset: the sizes of the whole heap');
  // the log scale box: the spike's 4 MiB class no longer flattens the 32-byte one
  await page.selectOption('#sizes-measure', '1');
  const heights = async () => page.$$eval('#chart-sizes rect.szbar', (rs) => rs.map((r) => [+r.dataset.min, +r.getAttribute('height')]));
  const ratio = (hs) => hs.find((x) => x[0] === 32)[1] / Math.max(...hs.map((x) => x[1]));
  const lin = ratio(await heights());
  await page.check('#opt-log');
  const lg = ratio(await heights());
  check(await page.getAttribute('#chart-sizes svg', 'data-axis') === 'log' && lin < 0.01 && lg > 0.1, `sizes on a log scale: the 32-byte class ${lin.toFixed(4)} of the tallest, then ${lg.toFixed(2)}`);
  await page.screenshot({ path: `${shots}/brush-sizes-log.png`, fullPage: true });
  await page.uncheck('#opt-log');
  await page.click('#tab-candidates');
  check((await page.$$('#chart-candidates circle.cand')).length === whole.leak_candidates.shown, 'reset: the report\'s leak candidates');
  clean(log, 'brush page');
});
