// check.mjs - open leakscope HTML reports in Debian's chromium and assert
// what a person sees: title, charts with the top bands, markers, tooltips,
// the sortable/searchable/paginated table, native stacks; no console error
// and no request other than the file itself. Screenshots go to SHOTS.
//
//   node check.mjs IPE.html NATIVE.html BIG.html SHOTS_DIR
import { args, check, clean, open as openIn, run } from './harness.mjs';

const [ipeFile, nativeFile, bigFile, shots] = args('node check.mjs IPE.html NATIVE.html BIG.html SHOTS_DIR');

const shot = (page, name) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
const tableLabels = (page) => page.$$eval('#bands tbody tr.band td.label', (tds) => tds.map((td) => td.textContent.trim()));

await run(async (browser) => {
  const open = (file) => openIn(browser, file);
  /* ---- IPE profile ---- */
  {
    const { page, log } = await open(ipeFile);
    check((await page.title()).startsWith('synthetic leaky service'), 'ipe: document title');
    check(await page.isVisible('h1:has-text("synthetic leaky service")'), 'ipe: heading visible');
    check(await page.isVisible('.meta dd:has-text("GHC 9.6.3")'), 'ipe: RTS version shown');
    check(await page.isVisible('.meta dd:has-text("info table (-hi)")'), 'ipe: breakdown shown');
    check(await page.isVisible('.warnings:has-text("offset 1843200")'), 'ipe: warning shown prominently');

    // Area chart is the default pane.
    check(await page.isVisible('#chart-area svg'), 'ipe: area chart visible');
    const layers = await page.$$eval('#chart-area path.layer', (ps) => ps.map((p) => p.getAttribute('data-name')));
    check(layers.length === 16, `ipe: area chart has 15 bands + OTHER (${layers.length})`);
    check(layers.includes('leaky_accumulator') && layers.includes('flat_constant'), 'ipe: top bands are charted');
    check(layers.some((l) => l.startsWith('OTHER (65 bands)')), 'ipe: OTHER sums the rest');
    check(await page.isVisible('#pane-area .legend li:has-text("leaky_accumulator")'), 'ipe: legend lists the top band');
    const marker = page.locator('#chart-area .marker text', { hasText: 'checkpoint' });
    check(await marker.isVisible(), 'ipe: marker text "checkpoint" visible');
    check(await page.locator('#chart-area .marker line').count() === 2, 'ipe: two marker lines');
    await shot(page, 'ipe-area');

    // Hover: tooltip with time and values.
    const box = await page.locator('#chart-area svg .overlay').boundingBox();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    const tip = page.locator('#chart-area .tip');
    check(await tip.isVisible(), 'ipe: tooltip on hover');
    const tipText = await tip.textContent();
    check(/\d(\.\d+)? s/.test(tipText) && /leaky_accumulator/.test(tipText) && /[KMG]iB/.test(tipText),
      'ipe: tooltip shows time, band and bytes');
    await shot(page, 'ipe-area-hover');
    await page.mouse.move(0, 0);

    // Band filter: untick a band, then filter by name.
    await page.locator('#pane-area .legend li:has-text("flat_constant") input').uncheck();
    let names = await page.$$eval('#chart-area path.layer', (ps) => ps.map((p) => p.getAttribute('data-name')));
    check(names.length === 15 && !names.includes('flat_constant'), 'ipe: unticked band leaves the chart');
    await page.fill('#pane-area .bandfilter', 'leaky');
    names = await page.$$eval('#chart-area path.layer', (ps) => ps.map((p) => p.getAttribute('data-name')));
    check(names.length === 1 && names[0] === 'leaky_accumulator', 'ipe: name filter restricts the chart');
    await shot(page, 'ipe-area-filtered');
    await page.fill('#pane-area .bandfilter', '');
    await page.click('#pane-area .lbtns button[data-a="all"]');

    // Other chart panes.
    await page.click('#tab-heap');
    check(await page.locator('#chart-heap path.layer').count() === 3, 'ipe: heap pane has 3 series');
    await shot(page, 'ipe-heap');
    await page.click('#tab-norm');
    check(await page.locator('#chart-norm path.layer').count() === 16, 'ipe: normalised chart drawn');
    check(await page.isVisible('#chart-norm .axis text:text-is("100%")'), 'ipe: normalised axis in percent');
    await shot(page, 'ipe-normalised');
    await page.click('#tab-line');
    check(await page.locator('#chart-line path.layer').count() === 16, 'ipe: line chart drawn');
    check(await page.locator('#chart-line .marker text', { hasText: 'start phase 2' }).isVisible(), 'ipe: markers on line chart');
    await shot(page, 'ipe-line');

    // Detailed table.
    await page.click('#tab-table');
    check(await page.locator('#bands tbody tr.band').count() === 50, 'ipe: table shows 50 rows per page');
    check(await page.isVisible('#pager-top .pageinfo:has-text("Page 1 of 2")'), 'ipe: pager says page 1 of 2');
    check(await page.locator('#bands thead th').count() === 14, 'ipe: 9 stat columns + 5 detail columns');
    check(await page.locator('#bands tbody td.spark svg polyline').count() === 50, 'ipe: sparklines drawn');
    await page.click('#bands thead th:text-is("Slope")');
    let labels = await tableLabels(page);
    check(labels[0] === 'leaky_accumulator', `ipe: sorting by Slope puts the growing band first (${labels[0]})`);
    check(await page.getAttribute('#bands thead th[data-col="slope"]', 'aria-sort') === 'descending', 'ipe: slope sorted descending');
    await shot(page, 'ipe-table-slope');
    await page.click('#bands thead th:text-is("Slope")');
    labels = await tableLabels(page);
    check(labels[0] !== 'leaky_accumulator', 'ipe: second click reverses the order');
    await page.click('#bands thead th:text-is("Label")');
    labels = await tableLabels(page);
    const natural = (a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });
    check(labels.length === 50 && labels.join() === [...labels].sort(natural).join(), 'ipe: sort by label, naturally');
    check(labels.indexOf('Data.Map.Internal.Bin_5') < labels.indexOf('Data.Map.Internal.Bin_10'), 'ipe: Bin_5 before Bin_10');

    // Pagination.
    await page.click('#pager-top button[data-p="next"]');
    check(await page.isVisible('#pager-top .pageinfo:has-text("Page 2 of 2")'), 'ipe: next page');
    check(await page.locator('#bands tbody tr.band').count() === 30, 'ipe: last page has the remaining 30 rows');
    await page.click('#pager-top button[data-p="prev"]');
    check(await page.isVisible('#pager-top .pageinfo:has-text("Page 1 of 2")'), 'ipe: previous page');

    // Search across label and detail columns.
    await page.fill('#band-search', 'flat_const');
    labels = await tableLabels(page);
    check(labels.length === 1 && labels[0].endsWith('flat_constant'), 'ipe: search by label filters rows');
    await page.fill('#band-search', 'app/Main.hs');
    labels = await tableLabels(page);
    check(labels.length === 1 && labels[0].endsWith('leaky_accumulator'), 'ipe: search matches a detail column (location)');
    await page.fill('#band-search', 'thunk main');
    const n = await page.locator('#bands tbody tr.band').count();
    check(n > 0 && n < 50, `ipe: words combine (${n} rows)`);
    await shot(page, 'ipe-table-search');
    await page.fill('#band-search', '');
    check(await page.locator('#bands tbody tr.band').count() === 50, 'ipe: clearing the search restores rows');
    clean(log, 'ipe');
    await page.close();
  }

  /* ---- native profile: stacks ---- */
  {
    const { page, log } = await open(nativeFile);
    check((await page.title()).startsWith('native: ./victim-grow'), 'native: title');
    await page.click('#tab-table');
    await page.click('#bands tbody tr.band:has-text("grow_cache")');
    const stack = page.locator('#bands tr.stack');
    check(await stack.isVisible(), 'native: row expands to its allocation stack');
    const st = await stack.textContent();
    check(st.includes('grow_cache') && st.includes('src/cache.c:41') && st.includes('victim-grow'), 'native: function, file:line, module');
    await page.click('#bands tbody tr.band:has-text("site 2")');
    check(await page.locator('#bands tr.stack:has-text("libfoo.so.1")').isVisible(), 'native: unknown frame shows module and offset');
    await shot(page, 'native-table-stack');
    await page.click('#tab-area');
    await shot(page, 'native-area');
    clean(log, 'native');
    await page.close();
  }

  /* ---- big profile: speed ---- */
  {
    const { page, log } = await open(bigFile);
    const renderMs = +(await page.getAttribute('body', 'data-render-ms'));
    console.log(`# big: load to ready ${log.loadMs} ms, script ${renderMs} ms`);
    check(log.loadMs < 5000, `big: ready in under 5 s (${log.loadMs} ms)`);
    await page.click('#tab-table');
    const t0 = Date.now();
    await page.click('#bands thead th:text-is("Slope")');
    await page.fill('#band-search', 'module42');
    const dt = Date.now() - t0;
    console.log(`# big: sort + search of 10000 rows ${dt} ms`);
    check(dt < 2000, `big: sorting and searching 10,000 bands is quick (${dt} ms)`);
    check(await page.isVisible('#band-count:has-text("of 10000 bands match")'), 'big: search count');
    await shot(page, 'big-table');
    await page.click('#tab-area');
    await shot(page, 'big-area');
    clean(log, 'big');
    await page.close();
  }
});
