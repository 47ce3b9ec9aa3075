// check_diff.mjs - the page of `leakscope diff --format html` (tests/cli/560,
// two points of the growing leak's trace) in chromium, against the JSON
// diff of the same points: the Added tab lists the sites that added blocks
// with their bytes and blocks; the Summary tab's cards, each point's live
// bytes and blocks, peak, allocations and temporary allocations and their
// differences, and its top sites are the diff's; the trees' totals of
// bytes added and removed, with the function, file and module filters, the
// bottom-up tree and the callers of dup_str are the diff's; no timeline
// tab, no console error, no request.
//
//   node check_diff.mjs REPORT.html DIFF.json SHOTS_DIR
import { readFileSync } from 'node:fs';
import { args, check, clean, open, run } from './harness.mjs';

const [file, json, shots] = args('node check_diff.mjs REPORT.html DIFF.json SHOTS_DIR');
const J = JSON.parse(readFileSync(json, 'utf8'));
const added = J.sites.filter((s) => s.added_objects > 0).map((s) => [s.added_bytes, s.added_objects]).sort((a, b) => b[0] - a[0]);
await run(async (browser) => {
  const { page, log } = await open(browser, file);
  check(await page.getAttribute('#tab-leaks', 'aria-selected') === 'true' && (await page.textContent('#tab-leaks')) === 'Added', 'the Added tab opens first');
  check(!(await page.isVisible('#tab-area')), 'no timeline tab');
  const rows = await page.$$eval('#leak-table tbody tr[data-leak]', (trs) => trs.map((tr) => [+tr.dataset.bytes, +tr.dataset.blocks]));
  check(JSON.stringify(rows.slice().sort((a, b) => b[0] - a[0])) === JSON.stringify(added), `added rows = JSON: ${JSON.stringify(rows)} vs ${JSON.stringify(added)}`);
  await page.click('#tab-summary');
  check(await page.isVisible('#pane-summary'), 'the Summary tab opens');
  for (const [id, b, n] of [['added', J.added_bytes, J.added_objects], ['removed', J.removed_bytes, J.removed_objects]]) {
    const got = [+(await page.getAttribute(`#sum-${id}`, 'data-bytes')), +(await page.getAttribute(`#sum-${id}`, 'data-blocks'))];
    check(got[0] === b && got[1] === n, `summary: ${id} ${b} B in ${n} blocks, page ${got}`);
  }
  check(+(await page.getAttribute('#sum-net', 'data-bytes')) === J.b.live_bytes - J.a.live_bytes, 'summary: the net change is B - A');
  const sides = await page.$$eval('#diff-sides tbody tr', (trs) => Object.fromEntries(trs.map((tr) =>
    [tr.dataset.row, [...tr.querySelectorAll('td')].map((td) => +td.dataset.v)])));
  for (const [row, key] of [['live', 'live_bytes'], ['liveN', 'live_objects'], ['peak', 'peak_bytes'], ['allocs', 'allocations'],
    ['bytes', 'bytes_allocated'], ['temporary', 'temporary_allocations']]) {
    const want = [J.a[key], J.b[key], J.b[key] - J.a[key]];
    check(JSON.stringify(sides[row]) === JSON.stringify(want), `summary: ${key} at A, at B and B - A = ${want}, page ${sides[row]}`);
  }
  check(J.b.allocations > J.a.allocations && J.b.temporary_allocations > J.a.temporary_allocations, 'the JSON: B counts more allocations and temporaries than A');
  const peakText = await page.textContent('#diff-sides tr[data-row="peak"] td');
  check(peakText.indexOf(' at ') > 0, `summary: the peak says its time (${peakText})`);
  for (const [id, key] of [['added', 'added_bytes'], ['removed', 'removed_bytes'], ['liveb', 'bytes_b']]) {
    const want = J.sites.map((s) => s[key]).filter((v) => v > 0).sort((a, b) => b - a).slice(0, 10);
    const got = await page.$$eval(`#top-${id} tr[data-site]`, (trs) => trs.map((tr) => +tr.dataset.v));
    check(JSON.stringify(got) === JSON.stringify(want), `summary: top sites by ${key} ${JSON.stringify(want)}, page ${JSON.stringify(got)}`);
  }
  const names = await page.$$eval('#top-added td.label', (tds) => tds.map((td) => td.textContent));
  check(names.length > 0 && names.every((n) => /dup_str/.test(n)), `summary: the added sites are named (${names})`);
  await page.screenshot({ path: `${shots}/diff-summary.png`, fullPage: true });
  await page.click('#tab-trees');
  check(+(await page.getAttribute('#tree-total', 'data-value')) === J.added_bytes, `trees: ${J.added_bytes} bytes added`);
  await page.selectOption('#tree-measure', '1');
  check(+(await page.getAttribute('#tree-total', 'data-value')) === J.removed_bytes, `trees: ${J.removed_bytes} bytes removed`);
  // the filters and the views, in bytes removed, against the JSON's stacks
  const sum = (pred) => J.sites.filter((x) => x.stack.some(pred)).reduce((a, x) => a + x.removed_bytes, 0);
  const total = async (fn, file, mod) => {
    await page.fill('#tree-fn', fn); await page.fill('#tree-file', file); await page.fill('#tree-mod', mod);
    return +(await page.getAttribute('#tree-total', 'data-value'));
  };
  const cfg = sum((fr) => fr.function === 'load_config');
  check(cfg > 0 && await total('load_config', '', '') === cfg, `trees: function filter load_config = ${cfg} removed`);
  check(await total('', 'growleak.c', '') === sum((fr) => /growleak\.c/.test(fr.file || '')), 'trees: file filter growleak.c');
  check(await total('', '', 'libc.so') === sum((fr) => /libc\.so/.test(fr.module || '')), 'trees: module filter libc.so');
  check(await total('parse_line', '', '') === sum((fr) => fr.function === 'parse_line'), 'trees: function filter parse_line');
  await total('', '', '');
  await page.selectOption('#tree-view', 'bottom-up');
  const dup = J.sites.filter((x) => x.stack[0].function === 'dup_str').reduce((a, x) => a + x.removed_bytes, 0);
  const roots = await page.$$eval('#tree-table tbody tr.tnode', (trs) => trs.map((tr) => [tr.dataset.name, +tr.dataset.value]));
  check(roots.some(([n, v]) => n === 'dup_str' && v === dup), `trees: bottom-up: dup_str removed ${dup}: ${JSON.stringify(roots)}`);
  await page.click('#tree-table tbody tr.tnode[data-name="dup_str"] button.ccb');
  const callers = await page.$$eval('#cc-callers tr.cc', (trs) => trs.map((tr) => [tr.dataset.name, +tr.dataset.value]));
  check(callers.some(([n, v]) => n === 'load_config' && v === cfg), `trees: the callers of dup_str: ${JSON.stringify(callers)}`);
  await page.screenshot({ path: `${shots}/diff-trees.png`, fullPage: true });
  clean(log, 'diff page');
});
