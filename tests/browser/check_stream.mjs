// check_stream.mjs - the area chart as a streamgraph (tests/cli/422): with
// the option ticked, every column of the stack is centred on one line, so
// the bottom of the lowest band and the top of the highest are symmetric
// about it at every sample; unticked, the stack stands on the axis again.
import { args, check, clean, open, run } from './harness.mjs';

const [file] = args('node check_stream.mjs PAGE.html');

// The y of the bottom band's lower edge and of the top band's upper edge,
// sample by sample, from the drawn paths (upper edge forward, lower back).
async function edges(page) {
  return page.$$eval('#pane-area svg .layers path.layer', (ps) => {
    const pts = (p) => p.getAttribute('d').replace(/Z$/, '').split(/[ML]/).filter(Boolean)
      .map((xy) => Number(xy.split(',')[1]));
    const bottom = pts(ps[0]), top = pts(ps[ps.length - 1]), n = bottom.length / 2;
    return { lo: bottom.slice(n).reverse(), hi: top.slice(0, n), n: ps.length };
  });
}

function spread(e) {
  const sums = e.lo.map((y, i) => y + e.hi[i]);
  return Math.max(...sums) - Math.min(...sums);
}

await run(async (browser) => {
  const { page, log } = await open(browser, file);
  await page.click('#tab-area');
  const flat = await edges(page);
  check(flat.n >= 2 && flat.lo.length > 4, `the area chart draws ${flat.n} bands over ${flat.lo.length} samples`);
  check(spread(flat) > 5, `stacked on the axis, the edges are not symmetric (spread ${spread(flat).toFixed(1)} px)`);
  await page.check('#opt-stream');
  const axis = await page.getAttribute('#pane-area svg', 'data-axis');
  check(axis === 'stream', `the axis says stream (${axis})`);
  const st = await edges(page);
  check(spread(st) < 0.5, `streamgraph: edges symmetric about one line at every sample (spread ${spread(st).toFixed(2)} px)`);
  const labels = await page.$$eval('#pane-area svg .axis text', (ts) => ts.map((t) => t.textContent).filter((t) => /B$/.test(t)));
  check(labels.length === 0, `no byte tick labels on a streamgraph (${labels.join(', ')})`);
  await page.uncheck('#opt-stream');
  const back = await edges(page);
  check(Math.abs(spread(back) - spread(flat)) < 0.01, 'unticked: the stack stands on the axis again');
  clean(log, 'streamgraph');
});
