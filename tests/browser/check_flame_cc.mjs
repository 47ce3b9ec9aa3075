// check_flame_cc.mjs - open the HTML report of a -hc heap profile (GHC
// cost-centre stacks) in Debian's chromium and check its flame graph: the
// stacks are split at '/' and merged, outermost centre at the bottom; the
// innermost centre NAME is drawn as wide as SHARE of the whole (0..1,
// computed by the caller from the JSON report); hovering names it;
// no console error, no request.
//
//   node check_flame_cc.mjs REPORT.html SHOTS_DIR NAME SHARE
import { args, check, clean, open, run } from './harness.mjs';

const [file, shots, name, share] = args('node check_flame_cc.mjs REPORT.html SHOTS_DIR NAME SHARE');
await run(async (browser) => {
  const { page, log } = await open(browser, file);
  await page.click('#tab-flame');
  const frame = `#chart-flame g.fr:has(text:text-matches("^${name.replace(/\./g, '\\.')}$"))`;
  const svgW = await page.$eval('#chart-flame svg', (svg) => svg.viewBox.baseVal.width);
  const w = await page.$eval(`${frame} rect`, (r) => +r.getAttribute('width'));
  check(Math.abs(w / svgW - Number(share)) < 0.01, `${name} is ${(w / svgW * 100).toFixed(1)}% wide, its share is ${(share * 100).toFixed(1)}%`);
  const yTop = await page.$eval(`${frame} rect`, (r) => +r.getAttribute('y'));
  const yRoot = await page.$eval('#chart-flame g.fr:has(text:text-matches("^all "))  rect', (r) => +r.getAttribute('y'));
  check(yTop < yRoot, 'the innermost centre is above the root');
  await page.hover(frame);
  const tip = await page.textContent('#chart-flame .tip');
  check(tip.includes(name) && tip.includes('Integrated size'), `tooltip: ${tip}`);
  await page.screenshot({ path: `${shots}/cost-centres-flame.png`, fullPage: true });
  clean(log, 'cost centres');
});
