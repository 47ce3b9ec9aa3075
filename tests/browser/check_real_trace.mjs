// check_real_trace.mjs - open the HTML report of a real recording (`leakscope
// report --format html` of the leaking server, tests/cli/554) in Debian's
// chromium and check it against what the test expects: the title is the
// program, the area chart draws the sites, the leak table's first row is
// the expected function with its bytes and blocks, a click shows its stack
// with the caller, the leak-candidate chart has one dot per leaked block
// (up to its bound); no console error, no request.
//
//   node check_real_trace.mjs REPORT.html SHOTS_DIR TITLE LEAK_FN CALLER_FN BYTES BLOCKS DOTS
import { mkdirSync } from 'node:fs';
import { check, clean, open, run } from './harness.mjs';

const [file, shots, title, leakFn, callerFn, bytes, blocks, dots] = process.argv.slice(2);
if (!dots) {
  console.error('usage: node check_real_trace.mjs REPORT.html SHOTS_DIR TITLE LEAK_FN CALLER_FN BYTES BLOCKS DOTS');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const grouped = (n) => Number(n).toLocaleString('en-US');
await run(async (browser) => {
  const { page, log } = await open(browser, file);
  const t = await page.title();
  check(t.includes(title), `document title names the program: ${t}`);
  check((await page.$$('#chart-area path.layer')).length >= 2, 'area chart draws the sites');
  await page.screenshot({ path: `${shots}/real-trace-area.png`, fullPage: true });
  await page.click('#tab-leaks');
  const rows = await page.$$eval('#leak-table tbody tr[data-leak]', (trs) => trs.map((tr) => tr.textContent.replace(/\s+/g, ' ').trim()));
  check(rows.length >= 1 && rows[0].includes(leakFn), `first leak row is ${leakFn}: ${JSON.stringify(rows[0])}`);
  const shown = [`${grouped(bytes)} B`, `${(bytes / 1024).toFixed(1)} KiB`, `${(bytes / 1048576).toFixed(1)} MiB`];
  const cells = await page.$$eval('#leak-table tbody tr[data-leak="0"] td', (tds) => tds.map((td) => td.textContent.trim()));
  check(cells.some((c) => shown.includes(c)) && cells.includes(String(blocks)),
    `first leak row has ${shown.join(' or ')} in ${blocks} blocks: ${JSON.stringify(cells)}`);
  await page.click('#leak-table tbody tr[data-leak="0"]');
  const stack = await page.textContent('#leak-table tr.stack');
  check(stack.includes(leakFn) && stack.includes(callerFn), `stack of the first leak shows ${leakFn} and ${callerFn}`);
  await page.screenshot({ path: `${shots}/real-trace-leaks.png`, fullPage: true });
  await page.click('#tab-candidates');
  const n = (await page.$$('#chart-candidates circle.cand')).length;
  check(n === Number(dots), `leak-candidate chart: ${n} dots, want ${dots}`);
  await page.screenshot({ path: `${shots}/real-trace-candidates.png`, fullPage: true });
  clean(log, 'real trace');
});
