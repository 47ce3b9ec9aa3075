// check_diff.mjs - the page of `leakscope diff --format html` (tests/cli/560,
// two points of the growing leak's trace) in chromium, against the JSON
// diff of the same points: the Added tab lists the sites that added blocks
// with their bytes and blocks; the trees' totals of bytes added and
// removed are the diff's; no timeline tab, no console error, no request.
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
  await page.click('#tab-trees');
  check(+(await page.getAttribute('#tree-total', 'data-value')) === J.added_bytes, `trees: ${J.added_bytes} bytes added`);
  await page.selectOption('#tree-measure', '1');
  check(+(await page.getAttribute('#tree-total', 'data-value')) === J.removed_bytes, `trees: ${J.removed_bytes} bytes removed`);
  await page.screenshot({ path: `${shots}/diff-trees.png`, fullPage: true });
  clean(log, 'diff page');
});
