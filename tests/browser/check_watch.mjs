// check_watch.mjs - the page of `leakscope watch --serve` (tests/cli/641):
// opened with its token while the recording runs, it is the HTML report of
// the trace so far (the tabs of the report of the finished trace) with the
// watch's numbers on top. It updates itself without a reload: the live
// bytes grow, a mark sent with `leakscope mark` appears on the Heap chart,
// and the tab, the window brushed and the scroll position are kept across
// an update. Once the trace ended its numbers are those of `leakscope
// report --format json` of it (live bytes, peak, the top growing site, the
// leak table, the marks), its data is what /data answers, and it stops
// asking. Without the token, or with another one, every address answers
// 403; no CORS header.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { args, check, clean, drag, open, run } from './harness.mjs';

// EXPECTED: `leakscope report -f json` of the trace, written once the
// recording ended, and STATIC its `report --format html`
const [url, leakscope, trace, expected, statik, shots] =
  args('node check_watch.mjs URL LEAKSCOPE TRACE EXPECTED STATIC SHOTS_DIR');

async function report() {
  for (let i = 0; i < 300 && !existsSync(expected); i++) await new Promise((r) => setTimeout(r, 100));
  return JSON.parse(readFileSync(expected, 'utf8'));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const attr = (page, sel, name) => page.$eval(sel, (e, n) => e.getAttribute(n), name);
const num = async (page, sel, name) => Number(await attr(page, sel, name));
const tabs = (page) => page.$$eval('nav.tabs button', (bs) => bs.filter((b) => !b.hidden).map((b) => b.id));

// the next page drawn from newer data than the one drawn now
async function nextUpdate(page) {
  const g = await num(page, '#state', 'data-generation');
  await page.waitForFunction((x) => Number(document.querySelector('#state').dataset.generation) > x,
    g, { timeout: 10000 });
}

await run(async (browser) => {
  const origin = new URL(url).origin, token = new URL(url).searchParams.get('token');
  const page = await browser.newPage({ viewport: { width: 1200, height: 600 } });
  const errors = [], elsewhere = [];
  let polls = 0;
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith(origin + '/')) elsewhere.push(r.url());
    if (r.url().startsWith(origin + '/state?')) polls++;
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('#state').dataset.time !== undefined,
    null, { timeout: 15000 });
  await page.evaluate(() => { window.sameDocument = true; });
  const t1 = await num(page, '#state', 'data-time'), l1 = await num(page, '#live-now', 'data-value');
  check(await attr(page, '#state', 'data-ended') === 'false', `the page opened while the program ran (at ${t1} s, ${l1} B live)`);
  const liveTabs = await tabs(page);
  check(liveTabs.includes('tab-heap') && liveTabs.includes('tab-leaks') && liveTabs.includes('tab-flame'),
    `the page is the report: its tabs ${liveTabs.join(' ')}`);

  // a mark sent while the program runs: on the Heap chart after a refresh
  execFileSync(leakscope, ['mark', trace, 'from the test']);
  // the reader's choices: the Heap tab, a window brushed on it, scrolled down
  await page.waitForFunction(() => JSON.parse(document.getElementById('data').textContent).t1 > 0.5,
    null, { timeout: 10000 });
  await page.click('#tab-area');
  const band = await page.textContent('#pane-area .legend li .nm');
  await page.uncheck('#pane-area .legend li input');
  await page.click('#tab-heap');
  await drag(page, '#chart-heap', 0.2, 0.6);
  const w0 = [await num(page, '#win-text', 'data-from'), await num(page, '#win-text', 'data-to')];
  check(w0[1] > w0[0], `a window brushed on the Heap chart: ${w0[0]} .. ${w0[1]} s`);
  await page.evaluate(() => window.scrollTo(0, 150));
  const y0 = await page.evaluate(() => window.scrollY);
  await nextUpdate(page);
  const t2 = await num(page, '#state', 'data-time'), l2 = await num(page, '#live-now', 'data-value');
  check(l2 > l1 && t2 > t1, `the page updated by itself: ${l1} B at ${t1} s, ${l2} B at ${t2} s`);
  const d2 = await page.evaluate(() => JSON.parse(document.getElementById('data').textContent).t1);
  check(d2 > t1 - 0.001, `and its report's data too (to ${d2} s)`);
  check(await page.evaluate(() => window.sameDocument === true), 'without a reload');
  check(await attr(page, '#tab-heap', 'aria-selected') === 'true', 'the Heap tab stayed open');
  const w1 = [await num(page, '#win-text', 'data-from'), await num(page, '#win-text', 'data-to')];
  const slack = 0.05 + 0.02 * t2;   /* the window snaps to the samples of the new data */
  check(Math.abs(w1[0] - w0[0]) <= slack && Math.abs(w1[1] - w0[1]) <= slack,
    `the window brushed stayed: ${w0.join(' .. ')} s, then ${w1.join(' .. ')} s`);
  const off = await page.$$eval('#pane-area .legend li', (ls) => ls.filter((l) => !l.querySelector('input').checked)
    .map((l) => l.querySelector('.nm').textContent));
  check(off.length === 1 && off[0] === band, `the band left out of the area chart stayed out (${band}: ${JSON.stringify(off)})`);
  const y1 = await page.evaluate(() => window.scrollY);
  check(y0 > 0 && y1 === y0, `and where the page was scrolled to (${y0} px, then ${y1} px)`);
  await page.screenshot({ path: `${shots}/watch-running.png` });

  await page.waitForFunction(() => [...document.querySelectorAll('#chart-heap g.marker title')]
    .some((t) => t.textContent.includes('from the test')), null, { timeout: 10000 });
  check(await page.evaluate(() => window.sameDocument === true), 'the mark sent with leakscope mark is on the Heap chart, without a reload');
  await page.click('#win-reset');
  check(await page.$('#win-text[data-from]') === null, 'the window set back to the whole trace');

  // the end: the report's numbers
  await page.waitForFunction(() => document.querySelector('#state').dataset.ended === 'true',
    null, { timeout: 30000 });
  const want = await report();
  await sleep(1500);   /* the last data drawn */
  const before = polls;
  await sleep(2500);
  check(polls === before, `once the trace ended, the page stopped asking (${polls - before} requests in 2.5 s)`);
  const S = want.summary;
  const lend = await num(page, '#live-now', 'data-value'), pend = await num(page, '#live-peak', 'data-value');
  check(lend === S.final_live_bytes, `at the end the page shows the report's live bytes (${lend} = ${S.final_live_bytes})`);
  check(pend === S.peak_live_bytes, `and its peak (${pend} = ${S.peak_live_bytes})`);
  check(await num(page, '#rss-now', 'data-value') > 100000, 'RSS shown');
  const D = await page.evaluate(() => JSON.parse(document.getElementById('data').textContent));
  check(D.summary.final === S.final_live_bytes && D.summary.peak === S.peak_live_bytes,
    `the report drawn is of the whole trace (${D.summary.final}, peak ${D.summary.peak})`);
  const marks = D.markers.map((m) => m[1]).join('|'), wantMarks = want.markers.map((m) => m.text).join('|');
  check(marks === wantMarks && /second 10/.test(marks) && /from the test/.test(marks), `its marks: ${marks}`);
  const top = want.growth[0].site;
  check(await num(page, '#growing-top', 'data-value') === top && /grow_cache/.test(await page.textContent('#growing-top')),
    `the fastest-growing site is the report's (site ${top}: ${await page.textContent('#growing-top')})`);
  await page.click('#tab-summary');
  check(await num(page, '#top-growth tr[data-site]', 'data-site') === top, 'and the first of the Summary\'s growing sites');
  await page.click('#tab-leaks');
  const rows = await page.$$eval('#leak-table tbody tr[data-site]', (trs) => trs.map((tr) =>
    [+tr.dataset.site, +tr.dataset.bytes, +tr.dataset.blocks]));
  const wantRows = want.leaks.map((s) => [s.site, s.leaked_bytes, s.leaked_objects]);
  check(JSON.stringify(rows) === JSON.stringify(wantRows), `the leak table is the report's: ${JSON.stringify(rows)}`);
  await page.screenshot({ path: `${shots}/watch-ended.png` });
  check(errors.length === 0, `no console errors ${errors.length ? JSON.stringify(errors) : ''}`);
  check(elsewhere.length === 0, `no request elsewhere ${JSON.stringify(elsewhere)}`);

  // the same tabs as the report of that trace, from a file
  const st = await open(browser, statik);
  const staticTabs = await tabs(st.page);
  check(JSON.stringify(staticTabs) === JSON.stringify(await tabs(page)),
    `the tabs of \`leakscope report --format html\` of the trace (${staticTabs.join(' ')})`);
  clean(st.log, 'the static report');

  // without the token (or another one): 403, for every address
  for (const path of ['/', '/data', '/state', '/?token=', '/data?token=' + '0'.repeat(token.length),
    '/state?token=' + token.slice(0, -1), '/nothing']) {
    const r = await fetch(origin + path);
    check(r.status === 403, `${path} without the right token: ${r.status}`);
  }
  const ok = await fetch(origin + '/data?token=' + token);
  const text = await ok.text();
  check(ok.status === 200 && text === await page.evaluate(() => document.getElementById('data').textContent),
    `with the token, /data is the data the page drew (${ok.status}, ${text.length} bytes)`);
  const state = await (await fetch(origin + '/state?token=' + token)).json();
  check(state.ended === true && state.live_bytes === S.final_live_bytes && state.generation > 1,
    `and /state the view (generation ${state.generation}, ${state.live_bytes} B)`);
  // a page of another origin cannot read the data: no CORS header
  check(ok.headers.get('access-control-allow-origin') === null, 'no CORS header');
});
