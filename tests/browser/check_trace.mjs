// check_trace.mjs - open the HTML report of a trace (`leakscope report
// --format html`, the `basic` trace of tests/support/gen_trace.c) in
// Debian's chromium and check the parts a trace adds: the leak table
// (largest first, allocation times, stack on click) and the leak-candidate
// chart; the shared charts still draw; no console error, no request.
//
//   node check_trace.mjs REPORT.html SHOTS_DIR
import { args, check, clean, open, run } from './harness.mjs';

const [file, shots] = args('node check_trace.mjs REPORT.html SHOTS_DIR');
await run(async (browser) => {
  const { page, log } = await open(browser, file);
  check((await page.title()).startsWith('genprog --serve'), 'document title is the program');
  check((await page.$$('#chart-area path.layer')).length >= 3, 'area chart draws the sites');
  await page.click('#tab-leaks');
  const rows = await page.$$eval('#leak-table tbody tr[data-leak] td.label', (tds) => tds.map((td) => td.textContent.trim()));
  check(rows.length === 3 && rows[0].includes('leak_early') && rows[2].includes('make_node'),
    `leak table largest first: ${JSON.stringify(rows)}`);
  const total = await page.textContent('#leak-total');
  check(/38,?800 B|37\.9 KiB/.test(total) && total.includes('29 blocks'), `leak total: ${total}`);
  await page.click('#leak-table tbody tr[data-leak="2"]');
  const stack = await page.textContent('#leak-table tr.stack');
  check(stack.includes('make_node') && stack.includes('(inlined)') && stack.includes('leak_late'), 'stack of a leak with its inlined frame');
  await page.screenshot({ path: `${shots}/trace-leaks.png`, fullPage: true });
  await page.click('#tab-candidates');
  const dots = await page.$$('#chart-candidates circle.cand');
  check(dots.length === 29, `leak-candidate chart: ${dots.length} dots`);
  await page.screenshot({ path: `${shots}/trace-candidates.png`, fullPage: true });
  clean(log, 'trace');
});
