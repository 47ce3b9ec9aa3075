// check_real_trace.mjs - open the HTML report of a real recording (`leakscope
// report --format html` of the leaking server, tests/cli/554) in Debian's
// chromium and check it against what the test expects: the title is the
// program, the area chart draws the sites, the leak table's first row is
// the expected function with its bytes, blocks and verdict (definitely
// lost: a leak the scan at the end confirms), a click shows its stack
// with the caller, the leak-candidate chart has one dot per leaked block
// (up to its bound); the flame graph draws the leaking function with its
// share of the bytes not freed, its tooltip, zoom, search and the
// allocation-count measure; the size-class chart's tallest bar by live
// bytes is the leaked blocks' class; no console error, no request.
//
//   node check_real_trace.mjs REPORT.html SHOTS_DIR TITLE LEAK_FN CALLER_FN BYTES BLOCKS DOTS
import { args, check, clean, open, run } from './harness.mjs';

const [file, shots, title, leakFn, callerFn, bytes, blocks, dots] = args('node check_real_trace.mjs REPORT.html SHOTS_DIR TITLE LEAK_FN CALLER_FN BYTES BLOCKS DOTS');
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
  check(cells.some((c) => shown.some((b) => c === `definitely lost ${b}`)),
    `first leak row's verdict: definitely lost, all of it: ${JSON.stringify(cells)}`);
  const verdicts = await page.textContent('#leak-verdicts');
  check(/^At the end: .* definitely lost \(\d+\)/.test(verdicts), `verdicts of the scan at the end: ${verdicts}`);
  await page.click('#leak-table tbody tr[data-leak="0"]');
  const stack = await page.textContent('#leak-table tr.stack');
  check(stack.includes(leakFn) && stack.includes(callerFn), `stack of the first leak shows ${leakFn} and ${callerFn}`);
  await page.screenshot({ path: `${shots}/real-trace-leaks.png`, fullPage: true });
  await page.click('#tab-candidates');
  const n = (await page.$$('#chart-candidates circle.cand')).length;
  check(n === Number(dots), `leak-candidate chart: ${n} dots, want ${dots}`);
  await page.screenshot({ path: `${shots}/real-trace-candidates.png`, fullPage: true });

  // Flame graph: the leaking function's frame is as wide as its share of
  // every block not freed (the page's own total), like a person reads it.
  await page.click('#tab-flame');
  const total = await page.evaluate(() => JSON.parse(document.getElementById('data').textContent).leaksTotal.b);
  const leakFrame = `#chart-flame g.fr:has(text:text-matches("^${leakFn}"))`;
  const svgW = await page.$eval('#chart-flame svg', (svg) => svg.viewBox.baseVal.width);
  const w = await page.$eval(`${leakFrame} rect`, (r) => +r.getAttribute('width'));
  const share = bytes / total;
  check(Math.abs(w / svgW - share) < 0.01, `flame: ${leakFn} is ${(w / svgW * 100).toFixed(1)}% wide, its share of not freed is ${(share * 100).toFixed(1)}%`);
  await page.hover(leakFrame);
  const tip = await page.textContent('#chart-flame .tip');
  check(tip.includes(leakFn) && tip.includes('leakserver.c:') && tip.includes((bytes / 1024).toFixed(1) + ' KiB'),
    `flame tooltip names ${leakFn}, its line and ${bytes} bytes: ${tip}`);
  await page.screenshot({ path: `${shots}/real-trace-flame.png`, fullPage: true });
  await page.click(leakFrame);
  const zw = await page.$eval(`${leakFrame} rect`, (r) => +r.getAttribute('width'));
  check(Math.abs(zw - svgW) < 1, `flame: a click zooms ${leakFn} to the full width (${zw} of ${svgW})`);
  await page.screenshot({ path: `${shots}/real-trace-flame-zoom.png`, fullPage: true });
  await page.click('#flame-reset');
  await page.fill('#flame-search', callerFn);
  const hits = await page.$$eval('#chart-flame g.fr.match text', (ts) => ts.map((t) => t.textContent));
  const matched = await page.textContent('#flame-matched');
  check(hits.length >= 1 && hits.every((t) => t.startsWith(callerFn.slice(0, 3))) && /matched: .*% of all/.test(matched),
    `flame search highlights ${callerFn}: ${JSON.stringify(hits)}, ${matched}`);
  await page.fill('#flame-search', '');
  const allocs = await page.$eval('#flame-measure', (sel) => [...sel.options].find((o) => o.text.startsWith('Allocations')).value);
  await page.selectOption('#flame-measure', allocs);
  await page.hover(leakFrame);
  const tip2 = await page.textContent('#chart-flame .tip');
  check(tip2.includes(`Allocations: ${blocks} `), `flame by allocations: ${leakFn} made ${blocks}: ${tip2}`);
  await page.click('#flame-icicle');
  const yLeak = await page.$eval(`${leakFrame} rect`, (r) => +r.getAttribute('y'));
  const yRoot = await page.$eval('#chart-flame g.fr:has(text:text-matches("^all "))  rect', (r) => +r.getAttribute('y'));
  check(yRoot < yLeak, 'icicle: the root on top');
  await page.screenshot({ path: `${shots}/real-trace-flame-icicle.png`, fullPage: true });

  // Sizes: by bytes live at the end, the tallest bar is the class of the
  // leaked blocks (640 bytes: 512 to 1 KiB), holding at least all of them.
  await page.click('#tab-sizes');
  await page.selectOption('#sizes-measure', { label: 'Bytes live at the end' });
  const bars = await page.$$eval('#chart-sizes rect.szbar', (rs) => rs.map((r) => ({ min: +r.getAttribute('data-min'), h: +r.getAttribute('height'), t: r.querySelector('title').textContent })));
  const tallest = bars.reduce((a, b) => (b.h > a.h ? b : a), bars[0]);
  const live = Number((tallest.t.match(/, ([\d,]+) live at the end/) || ['', '0'])[1].replace(/,/g, ''));
  check(tallest.min === 512 && live >= Number(blocks), `sizes: the tallest bar by live bytes is 512 B..1 KiB with ${live} blocks: ${tallest.t}`);
  await page.screenshot({ path: `${shots}/real-trace-sizes.png`, fullPage: true });
  clean(log, 'real trace');
});
