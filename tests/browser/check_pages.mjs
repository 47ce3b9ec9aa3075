// check_pages.mjs - several eventlogs as one page (tests/cli/423): a tab per
// file, named by it; each tab shows that file's own report, drawn in its
// frame with the title and top band of its JSON report; no request, no error.
import { readFileSync } from 'node:fs';
import { args, check, clean, open, run } from './harness.mjs';

const [file, ...jsons] = args('node check_pages.mjs PAGE.html JSON...');
const want = jsons.map((j) => JSON.parse(readFileSync(j, 'utf8')));

await run(async (browser) => {
  const { page, log } = await open(browser, file);
  const tabs = await page.$$eval('nav.files button', (bs) => bs.map((b) => b.textContent));
  check(tabs.length === want.length && tabs.every((t) => t.endsWith(".eventlog") && !t.includes("/")), `${want.length} tabs named by their files: ${JSON.stringify(tabs)}`);
  for (let k = 0; k < want.length; k++) {
    await page.click(`nav.files button[data-file="${k}"]`);
    const visible = await page.$$eval('iframe.page', (fs) => fs.map((f) => !f.hidden));
    check(visible.filter(Boolean).length === 1 && visible[k], `tab ${k}: only its frame is shown`);
    const frame = await (await page.$(`#file-${k}`)).contentFrame();
    await frame.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
    const title = await frame.$eval('#title', (t) => t.childNodes[0].textContent.trim());
    check(title === want[k].title, `tab ${k}: the frame's title is ${JSON.stringify(want[k].title)} (${JSON.stringify(title)})`);
    await frame.click('#tab-area');
    const legend = await frame.$$eval('#pane-area .legend li', (ls) => ls.map((l) => l.textContent.trim()));
    const top = want[k].bands[0].label;
    check(legend.some((l) => l.includes(top)), `tab ${k}: the legend lists the top band ${JSON.stringify(top)}`);
    // a frame just shown lays its chart out again on its resize (120 ms
    // later): its width is the one it settles at
    let w = 0;
    for (let i = 0; i < 50 && w <= 600; i++) {
      w = await frame.$eval('#pane-area svg', (s) => s.getBoundingClientRect().width).catch(() => 0);
      if (w <= 600) await page.waitForTimeout(100);
    }
    check(w > 600, `tab ${k}: the chart has the frame's width (${Math.round(w)} px)`);
  }
  clean(log, 'several eventlogs');
});
