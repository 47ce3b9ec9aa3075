// check_run.mjs - the page of `leakscope run --format html` (tests/cli/155,
// the chains victim: one group definitely lost, one indirectly lost) in
// chromium, against the JSON report of the same run: the Leaks tab opens
// first, one row per group with its bytes, blocks and verdict; a click
// shows the stack with its source lines; the trees' total and the flame
// graph's root hold the bytes not freed; the Summary tab's cards hold the
// JSON's classes and its table the largest groups; no timeline tab, no console
// error, no request.
//
//   node check_run.mjs REPORT.html REPORT.json SHOTS_DIR
import { readFileSync } from 'node:fs';
import { args, check, clean, open, run } from './harness.mjs';

const [file, json, shots] = args('node check_run.mjs REPORT.html REPORT.json SHOTS_DIR');
const J = JSON.parse(readFileSync(json, 'utf8'));
const groups = J.processes.flatMap((p) => p.leaks).map((l) => [l.bytes, l.objects]).sort((a, b) => b[0] - a[0]);
const total = groups.reduce((a, g) => a + g[0], 0);
await run(async (browser) => {
  const { page, log } = await open(browser, file);
  check(await page.getAttribute('#tab-leaks', 'aria-selected') === 'true', 'the Leaks tab opens first');
  check(!(await page.isVisible('#tab-area')) && !(await page.isVisible('#tab-heap')), 'no timeline tab');
  const rows = await page.$$eval('#leak-table tbody tr[data-leak]', (trs) => trs.map((tr) => [+tr.dataset.bytes, +tr.dataset.blocks]));
  check(JSON.stringify(rows.slice().sort((a, b) => b[0] - a[0])) === JSON.stringify(groups), `leak rows = JSON groups: ${JSON.stringify(rows)} vs ${JSON.stringify(groups)}`);
  const verdicts = await page.$$eval('#leak-table td.verdict', (tds) => tds.map((td) => td.textContent));
  check(verdicts.some((v) => v.startsWith('definitely lost')) && verdicts.some((v) => v.startsWith('indirectly lost')), `verdicts: ${JSON.stringify(verdicts)}`);
  await page.click('#leak-table tbody tr[data-leak="0"]');
  const stack = await page.textContent('#leak-table tr.stack');
  check(/chains\.c:\d+/.test(stack) && stack.includes('main'), 'a row\'s stack has source lines and main');
  await page.screenshot({ path: `${shots}/run-leaks.png`, fullPage: true });
  await page.click('#tab-summary');
  const cls = J.processes.reduce((a, p) => {
    for (const [k, v] of Object.entries(p.classes)) { a[k] = a[k] || [0, 0]; a[k][0] += v.bytes; a[k][1] += v.objects; }
    return a;
  }, {});
  for (const k of ['definitely-lost', 'indirectly-lost', 'possibly-lost', 'still-reachable']) {
    const c = await page.$(`#sum-${k}`);
    const got = c ? [+(await c.getAttribute('data-bytes')), +(await c.getAttribute('data-blocks'))] : null;
    check(c && cls[k] && got[0] === cls[k][0] && got[1] === cls[k][1], `summary card ${k} = JSON ${JSON.stringify(cls[k])}: ${JSON.stringify(got)}`);
  }
  const topRows = await page.$$eval('#sum-top-leaks tbody tr', (trs) => trs.map((tr) => +tr.dataset.bytes));
  check(JSON.stringify(topRows) === JSON.stringify(groups.slice(0, 10).map((g) => g[0])), `summary's largest sites = JSON's: ${JSON.stringify(topRows)}`);
  await page.click('#tab-trees');
  check(+(await page.getAttribute('#tree-total', 'data-value')) === total, `trees' total = ${total} bytes not freed`);
  await page.click('#tab-flame');
  check((await page.$$('#chart-flame g.fr')).length >= 2, 'flame graph drawn');
  clean(log, 'run page');
});
