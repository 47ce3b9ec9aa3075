// check_real_trace.mjs - open the HTML report of a real recording (`leakscope
// report --format html` of the leaking server, tests/cli/554) in Debian's
// chromium and check it against what the test expects: the title is the
// program, the area chart draws the sites, the leak table's first row is
// the expected function with its bytes and blocks, a click shows its stack
// with the caller, the leak-candidate chart has one dot per leaked block
// (up to its bound); no console error, no request.
//
//   node check_real_trace.mjs REPORT.html SHOTS_DIR TITLE LEAK_FN CALLER_FN BYTES BLOCKS DOTS
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, shots, title, leakFn, callerFn, bytes, blocks, dots] = process.argv.slice(2);
if (!dots) {
  console.error('usage: node check_real_trace.mjs REPORT.html SHOTS_DIR TITLE LEAK_FN CALLER_FN BYTES BLOCKS DOTS');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
let failures = 0, count = 0;
function check(cond, what) {
  count++;
  if (cond) console.log(`ok ${count} - ${what}`);
  else { failures++; console.log(`not ok ${count} - ${what}`); }
}
const grouped = (n) => Number(n).toLocaleString('en-US');
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
