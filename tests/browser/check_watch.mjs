// check_watch.mjs - the page of `leakscope watch --serve` (tests/cli/641):
// opened with its token while the recording runs, its numbers and charts
// change from one second to the next; once the trace ended they are the
// report's (live bytes at the end, the peak), with the growing site and
// the marks; the HTML report it links to is drawn, of the trace so far;
// without the token, or with another one, every address
// answers 403.
import { existsSync, readFileSync } from 'node:fs';
import { args, check, run } from './harness.mjs';

// EXPECTED: "LIVE PEAK" from the report, written once the recording ended
const [url, expected, shots] = args('node check_watch.mjs URL EXPECTED SHOTS_DIR');

async function report() {
  for (let i = 0; i < 300 && !existsSync(expected); i++) await new Promise((r) => setTimeout(r, 100));
  return readFileSync(expected, 'utf8').trim().split(/\s+/);
}

const value = (page, id) => page.$eval(id, (e) => Number(e.dataset.value));
const seconds = (page) => page.$eval('#state', (e) => Number(e.dataset.time || -1));
const points = (page, id) => page.$eval(id + ' polyline', (p) => p.getAttribute('points').split(' ').length)
  .catch(() => 0);

await run(async (browser) => {
  const origin = new URL(url).origin, token = new URL(url).searchParams.get('token');
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = [], elsewhere = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => { if (!r.url().startsWith(origin + '/')) elsewhere.push(r.url()); });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('#state').dataset.time !== undefined,
    null, { timeout: 15000 });
  const t1 = await seconds(page), l1 = await value(page, '#live-now'), n1 = await points(page, '#live-chart');
  const ended1 = await page.$eval('#state', (e) => e.dataset.ended === 'true');
  check(!ended1, `the page opened while the program ran (at ${t1} s, ${l1} B live)`);
  await page.waitForFunction((t) => Number(document.querySelector('#state').dataset.time) > t + 0.9,
    t1, { timeout: 10000 });
  const t2 = await seconds(page), l2 = await value(page, '#live-now'), n2 = await points(page, '#live-chart');
  check(l2 > l1, `a second later the live bytes grew by themselves: ${l1} B at ${t1} s, ${l2} B at ${t2} s`);
  check(n2 > n1 && n1 > 1, `the live-bytes chart grew: ${n1} -> ${n2} points`);
  await page.screenshot({ path: `${shots}/watch-running.png` });
  const mid = await fetch(origin + '/report?token=' + token);
  const midText = await mid.text();
  check(mid.status === 200 && /<html/i.test(midText) && /watch-grow/.test(midText),
    `the HTML report of the trace so far, while it is written (${mid.status}, ${midText.length} bytes)`);

  await page.waitForFunction(() => document.querySelector('#state').dataset.ended === 'true',
    null, { timeout: 30000 });
  const [live, peak] = await report();
  const lend = await value(page, '#live-now'), pend = await value(page, '#live-peak');
  check(lend === Number(live), `at the end the page shows the report's live bytes (${lend} = ${live})`);
  check(pend === Number(peak), `and its peak (${pend} = ${peak})`);
  const rss = await value(page, '#rss-now');
  check(rss > 100000, `RSS shown (${rss} B)`);
  check(await points(page, '#rss-chart') > 2, 'the RSS chart is drawn');
  const rows = await page.$$eval('#growing tbody tr', (rs) => rs.map((r) => r.textContent));
  check(rows.length >= 1 && /grow_cache watch-grow\.c:\d+ < main/.test(rows[0]),
    `the first growing site is grow_cache (${rows[0]})`);
  const marks = await page.$$eval('#marks tbody tr', (rs) => rs.map((r) => r.cells[2].textContent));
  check(marks.join('|') === 'second 1|second 2|second 3|second 4|second 5|second 6',
    `the marks are listed in order (${marks.join(', ')})`);
  const lines = await page.$$eval('#live-chart line.mark', (ls) => ls.length);
  check(lines === 6, `each mark is a line on the live-bytes chart (${lines})`);
  await page.screenshot({ path: `${shots}/watch-ended.png` });
  check(errors.length === 0, `no console errors ${errors.length ? JSON.stringify(errors) : ''}`);
  check(elsewhere.length === 0, `no request elsewhere ${JSON.stringify(elsewhere)}`);

  // the page's link: the HTML report of the whole trace, its charts drawn
  const href = await page.$eval('#report', (a) => a.href);
  check(href === origin + '/report?token=' + token, `the page links to the report (${href})`);
  const rep = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const repErrors = [];
  rep.on('pageerror', (e) => repErrors.push(e.message));
  await rep.goto(href, { waitUntil: 'load' });
  await rep.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
  const meta = await rep.$$eval('dd', (ds) => ds.map((d) => d.textContent).join(' | '));
  const peakText = Number(peak).toLocaleString('en-US') + ' B';
  check(meta.includes(peakText), `the report says the peak the page says (${peakText} in ${meta})`);
  check(repErrors.length === 0, `the report draws without errors ${JSON.stringify(repErrors)}`);
  await rep.screenshot({ path: `${shots}/watch-report.png` });

  // without the token (or another one): 403, for the page and the data
  for (const path of ['/', '/data', '/report', '/?token=', '/data?token=' + '0'.repeat(token.length),
    '/data?token=' + token.slice(0, -1), '/nothing']) {
    const r = await fetch(origin + path);
    check(r.status === 403, `${path} without the right token: ${r.status}`);
  }
  const ok = await fetch(origin + '/data?token=' + token);
  const d = await ok.json();
  check(ok.status === 200 && d.ended === true && d.live_bytes === Number(live),
    `with the token, /data is the view (${ok.status}, ${d.live_bytes} B)`);
  // a page of another origin cannot read the data: no CORS header
  check(ok.headers.get('access-control-allow-origin') === null, 'no CORS header');
});
