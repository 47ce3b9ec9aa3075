// check_y_axis.mjs - an eventlog page made with --y-axis TEXT (tests/cli/421):
// the byte axis of the chart shown is labelled TEXT, as text (markup in it
// is not markup), and a page made without it has no such label.
import { args, check, clean, open, run } from './harness.mjs';

const [withLabel, without, label] = args('node check_y_axis.mjs WITH.html WITHOUT.html LABEL');

await run(async (browser) => {
  const a = await open(browser, withLabel);
  const texts = await a.page.$$eval('svg text.y-axis', (ts) => ts.map((t) => t.textContent));
  check(texts.length >= 1, `a drawn chart has a y-axis label (${texts.length})`);
  check(texts.every((t) => t === label), `the label reads ${JSON.stringify(label)}: ${JSON.stringify(texts)}`);
  const injected = await a.page.$$eval('svg b', (bs) => bs.length);
  check(injected === 0, 'markup in the label stays text');
  clean(a.log, 'with --y-axis');
  const b = await open(browser, without);
  const none = await b.page.$$eval('svg text.y-axis', (ts) => ts.length);
  check(none === 0, `no y-axis label without the option (${none})`);
  clean(b.log, 'without --y-axis');
});
