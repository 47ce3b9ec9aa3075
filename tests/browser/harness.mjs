// harness.mjs - what the browser checks share: TAP-style checks, Debian's
// chromium launched headless through playwright-core, and pages that record
// their console errors and every request other than the file itself.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

let failures = 0, count = 0;

// The script's arguments, named in usage ("node x.mjs A B SHOTS_DIR"): all
// of them or exit 2 with the usage; the one named SHOTS_DIR is created.
export function args(usage) {
  const names = usage.split(' ').slice(2), a = process.argv.slice(2);
  if (a.length < names.length) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const shots = names.indexOf('SHOTS_DIR');
  if (shots >= 0) mkdirSync(a[shots], { recursive: true });
  return a;
}

export function check(cond, what) {
  count++;
  if (cond) console.log(`ok ${count} - ${what}`);
  else { failures++; console.log(`not ok ${count} - ${what}`); }
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

// Open file in a new page and wait until the report has drawn.
export async function open(browser, file) {
  const url = pathToFileURL(resolve(file)).href;
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const log = { errors: [], requests: [], url };
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') log.errors.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => log.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => { if (r.url() !== url) log.requests.push(r.url()); });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
  log.loadMs = Date.now() - t0;
  return { page, log };
}

// The page logged no error and asked for nothing.
export function clean(log, name) {
  check(log.errors.length === 0, `${name}: no console errors ${log.errors.length ? JSON.stringify(log.errors) : ''}`);
  check(log.requests.length === 0, `${name}: no request other than the file ${log.requests.length ? JSON.stringify(log.requests) : ''}`);
}

// Run body(browser); an exception is a failure. Prints the plan and exits.
export async function run(body) {
  const browser = await launch();
  try {
    await body(browser);
  } catch (e) {
    failures++;
    console.log(`not ok - exception: ${e.stack || e}`);
  } finally {
    await browser.close();
  }
  console.log(`1..${count}`);
  process.exit(failures ? 1 : 0);
}

// Brush a chart: drag across the overlay of chart sel from fraction f0 to f1
// of its width.
export async function drag(page, sel, f0, f1) {
  const box = await page.locator(`${sel} rect.overlay`).boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * f0, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((f0 + f1) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * f1, y, { steps: 4 });
  await page.mouse.up();
}
