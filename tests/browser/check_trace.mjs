// check_trace.mjs - open the HTML report of a trace (`leakscope report
// --format html`, the `basic` trace of tests/support/gen_trace.c) in
// Debian's chromium and check the parts a trace adds: the leak table
// (largest first, allocation times, stack on click) and the leak-candidate
// chart; the shared charts still draw; no console error, no request.
//
//   node check_trace.mjs REPORT.html SHOTS_DIR
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, shots] = process.argv.slice(2);
if (!shots) {
  console.error('usage: node check_trace.mjs REPORT.html SHOTS_DIR');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
let failures = 0, count = 0;
function check(cond, what) {
  count++;
  if (cond) console.log(`ok ${count} - ${what}`);
  else { failures++; console.log(`not ok ${count} - ${what}`); }
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const url = pathToFileURL(resolve(file)).href;
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
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
  check(errors.length === 0, `no console errors ${errors.length ? JSON.stringify(errors) : ''}`);
  check(requests.length === 0, `no request other than the file ${requests.length ? JSON.stringify(requests) : ''}`);
} catch (e) {
  failures++;
  console.log(`not ok - exception: ${e.message}`);
} finally {
  await browser.close();
}
console.log(`1..${count}`);
process.exit(failures ? 1 : 0);
