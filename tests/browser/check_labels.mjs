// check_labels.mjs - the page of a trace report (tests/cli/562, the three
// stacks of tests/victims/sharedcaller.c, two of which share the
// allocating function's caller) in chromium, against the JSON report of
// the same trace: every band, legend entry, leak row and table row has a
// name of its own; the three sites are named by the callers that tell
// them apart; each leak row's bytes are those of the site whose stack
// its name says; each band's tooltip value is the band's at the hovered
// sample.
//
//   node check_labels.mjs REPORT.html REPORT.json SHOTS_DIR
import { readFileSync } from 'node:fs';
import { args, check, clean, open, run } from './harness.mjs';

const [file, json, shots] = args('node check_labels.mjs REPORT.html REPORT.json SHOTS_DIR');
const J = JSON.parse(readFileSync(json, 'utf8'));
const unique = (xs) => xs.filter((x, i) => xs.indexOf(x) !== i).length === 0;
await run(async (browser) => {
  const { page, log } = await open(browser, file);
  const D = await page.evaluate(() => JSON.parse(document.getElementById('data').textContent));
  const legend = await page.$$eval('#pane-area .legend li .nm', (s) => s.map((e) => e.textContent));
  check(unique(legend), `legend names are unique: ${JSON.stringify(legend)}`);
  const want = { via_a: 'make \u2190 helper \u2190 via_a', via_b: 'make \u2190 helper \u2190 via_b', direct: 'make \u2190 direct' };
  for (const n of Object.values(want)) check(legend.includes(n), `a band is named ${n}`);
  // tooltips: each band's value at the hovered sample
  const box = await page.locator('#chart-area rect.overlay').boundingBox();
  let good = 0, all = 0;
  for (const f of [0.3, 0.6, 0.9]) {
    await page.mouse.move(box.x + box.width * f, box.y + box.height / 2);
    const rows = await page.$$eval('#chart-area .tip tr[data-v]', (trs) => trs.map((tr) => [tr.querySelector('.n').textContent, +tr.dataset.v, +tr.dataset.i]));
    for (const [name, v, i] of rows) {
      const k = legend.indexOf(name);
      all++;
      if (k >= 0 && k < D.chart.bands.length && Math.abs(D.chart.bands[k][i] - v) < 0.5) good++;
    }
  }
  check(all >= 6 && good === all, `tooltips: ${good} of ${all} values are their band's`);
  // the leak table: names unique, each row's bytes the site's its name says
  await page.click('#tab-leaks');
  const rows = await page.$$eval('#leak-table tbody tr[data-site]', (trs) => trs.map((tr) => [tr.querySelector('td.label').textContent.replace(/^[\s\u25B8\u25BE]+/, ''), +tr.dataset.site, +tr.dataset.bytes]));
  check(unique(rows.map((r) => r[0])), `leak rows are named apart: ${JSON.stringify(rows.map((r) => r[0]))}`);
  for (const [caller, name] of Object.entries(want)) {
    const site = J.leaks.find((s) => s.stack.some((fr) => fr.function === caller));
    const row = rows.find((r) => r[0] === name);
    check(site && row && row[1] === site.site && row[2] === site.leaked_bytes, `${name}: ${row && row[2]} bytes = the report's ${site && site.leaked_bytes}`);
  }
  await page.click('#tab-table');
  const names = await page.$$eval('#bands td.label', (s) => s.map((e) => e.textContent));
  check(names.length >= 3 && unique(names), `Detailed: ${names.length} rows named apart`);
  await page.click('#tab-area');
  await page.screenshot({ path: `${shots}/labels-area.png`, fullPage: true });
  clean(log, 'labels page');
});
