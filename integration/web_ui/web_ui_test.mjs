// End-to-end test of the RM's web UI in a real browser: starts a cell
// (`spindle rm` with every port 0, its web port included, and one
// `spindle nm`), opens the UI in headless Chromium (Debian's, driven by
// playwright-core; no browser is downloaded), runs a `spindle shell`
// application and checks that it appears and finishes in the applications
// table, that the summary, nodes, queues and pool charts render, that a
// failing endpoint raises the error banner and the page recovers, and that
// the page loads nothing from other hosts. Saves screenshots (the overview
// is web_ui.png) in the artefacts directory and prints their paths.
//
// It fails (never skips) when Chromium or the UI's node_modules are missing.
//
//   node web_ui_test.mjs --spindle BIN --node-modules DIR --artefacts DIR
//        [--chromium /usr/bin/chromium] [--keep]
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith('--')) args[a.slice(2)] = true;
  else args[a.slice(2)] = process.argv[++i];
}
const CHROMIUM = args.chromium || '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const APP_TIMEOUT_MS = 120_000;

let passed = 0;
let failed = 0;
const children = [];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spindle-web-ui.'));
let keepWork = !!args.keep;

function log(...m) {
  console.log(`[web_ui ${new Date().toISOString().slice(11, 23)}]`, ...m);
}

async function check(name, fn) {
  try {
    await fn();
    passed++;
    log(`ok   ${name}`);
  } catch (e) {
    failed++;
    log(`FAIL ${name}: ${e.stack || e.message}`);
    throw e;
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function poll(what, fn, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(name, argv, env = {}) {
  const out = fs.openSync(path.join(work, `${name}.log`), 'w');
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', out, out], env: { ...process.env, ...env } });
  child.exitCode_ = null;
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    child.exitCode_ = code ?? signal;
    resolve(code ?? signal);
  }));
  child.name = name;
  children.push(child);
  log(`started ${name} (pid ${child.pid})`);
  return child;
}

async function stopAll() {
  for (const c of children.reverse()) {
    if (c.exitCode_ !== null) continue;
    c.kill('SIGTERM');
    const done = await Promise.race([c.exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
    if (done === 'timeout') {
      log(`${c.name} did not stop on SIGTERM; killing it`);
      c.kill('SIGKILL');
      await c.exited;
    }
  }
}

function tail(name, lines = 30) {
  const f = path.join(work, `${name}.log`);
  if (!fs.existsSync(f)) return '';
  return fs.readFileSync(f, 'utf8').split('\n').slice(-lines).join('\n');
}

const property = (k, v) => `  <property><name>${k}</name><value>${v}</value></property>\n`;
const site = (props) => `<configuration>\n${Object.entries(props).map(([k, v]) => property(k, v)).join('')}</configuration>\n`;

async function startCell() {
  fs.mkdirSync(path.join(work, 'rm-conf'));
  fs.mkdirSync(path.join(work, 'nm-conf'));
  fs.mkdirSync(path.join(work, 'nm/local'), { recursive: true });
  fs.mkdirSync(path.join(work, 'nm/logs'), { recursive: true });
  fs.writeFileSync(path.join(work, 'rm-conf/yarn-site.xml'), site({
    'yarn.resourcemanager.address': '127.0.0.1:0',
    'yarn.resourcemanager.scheduler.address': '127.0.0.1:0',
    'yarn.resourcemanager.resource-tracker.address': '127.0.0.1:0',
    'yarn.resourcemanager.admin.address': '127.0.0.1:0',
    'yarn.resourcemanager.webapp.address': '127.0.0.1:0',
    'yarn.scheduler.minimum-allocation-mb': 64,
    'spindle.scheduler.count': 4,
    'spindle.scheduler.partitions': 4,
    'spindle.store.path': path.join(work, 'rmstore'),
  }));
  fs.writeFileSync(path.join(work, 'rm-conf/capacity-scheduler.xml'), site({
    'yarn.scheduler.capacity.root.queues': 'default,batch',
    'yarn.scheduler.capacity.root.default.capacity': 70,
    'yarn.scheduler.capacity.root.batch.capacity': 30,
    'yarn.scheduler.capacity.root.batch.maximum-capacity': 50,
  }));
  const portsFile = path.join(work, 'rm.ports');
  const rm = start('rm', [args.spindle, 'rm', '--conf', path.join(work, 'rm-conf'), '--ports-file', portsFile]);
  const ports = await poll('the RM to write its ports file', () => {
    if (rm.exitCode_ !== null) throw new Error(`spindle rm exited (${rm.exitCode_}):\n${tail('rm')}`);
    if (!fs.existsSync(portsFile)) return null;
    return Object.fromEntries(fs.readFileSync(portsFile, 'utf8').trim().split('\n').map((l) => l.split('=')));
  }, 30_000);
  assert(ports.web, `the RM's ports file has no web= line (does spindle rm serve HTTP?): ${JSON.stringify(ports)}`);
  fs.writeFileSync(path.join(work, 'nm-conf/yarn-site.xml'), site({
    'yarn.resourcemanager.resource-tracker.address': `127.0.0.1:${ports['resource-tracker']}`,
    'yarn.nodemanager.hostname': '127.0.0.1',
    'yarn.nodemanager.address': '127.0.0.1:0',
    'yarn.nodemanager.webapp.address': '127.0.0.1:0',
    'yarn.nodemanager.resource.memory-mb': 4096,
    'yarn.nodemanager.resource.cpu-vcores': 4,
    'yarn.nodemanager.local-dirs': path.join(work, 'nm/local'),
    'yarn.nodemanager.log-dirs': path.join(work, 'nm/logs'),
  }));
  start('nm', [args.spindle, 'nm', '--conf', path.join(work, 'nm-conf')]);
  return ports;
}

async function main() {
  // Fail, never skip, when a prerequisite is missing.
  assert(args['node-modules'] && args.artefacts, 'usage: --spindle BIN --node-modules DIR --artefacts DIR');
  assert(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/setup.sh (installs Debian's chromium)`);
  let chromium;
  try {
    ({ chromium } = createRequire(path.join(path.resolve(args['node-modules']), 'noop.js'))('playwright-core'));
  } catch (e) {
    throw new Error(`playwright-core is not in ${args['node-modules']} (the web/ui build runs npm ci): ${e.message}`);
  }
  fs.mkdirSync(args.artefacts, { recursive: true });

  let base = args.url;
  let ports = null;
  if (!base) {
    assert(args.spindle && fs.existsSync(args.spindle), `no spindle binary at ${args.spindle}`);
    ports = await startCell();
    base = `http://127.0.0.1:${ports.web}`;
  }
  log(`UI at ${base}/cluster; work dir ${work}`);

  const profile = path.join(work, 'chromium-profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
    timeout: 60_000,
  });
  const pageErrors = [];
  const foreign = [];
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(base) && !url.startsWith('data:')) foreign.push(url);
  });
  page.setDefaultTimeout(30_000);
  const shot = async (name) => {
    const file = path.resolve(args.artefacts, name);
    await page.screenshot({ path: file, fullPage: true });
    log(`screenshot: ${file}`);
    return file;
  };

  try {
    await check('the overview loads from the RM with its assets', async () => {
      const response = await page.goto(`${base}/cluster`);
      assert(response.status() === 200, `GET /cluster answered ${response.status()}`);
      assert((response.headers()['content-type'] || '').startsWith('text/html'), 'index.html is not text/html');
      await page.locator('#summary .card').nth(4).waitFor();
      assert(await page.locator('nav a.active').innerText() === 'Overview', 'Overview is not the active tab');
    });

    await check('the node registers and shows as RUNNING on the nodes page', async () => {
      await page.click('nav a[data-nav="nodes"]');
      assert(new URL(page.url()).pathname === '/cluster/nodes', `navigated to ${page.url()}`);
      await page.locator('#nodes-table tbody tr', { has: page.locator('.badge', { hasText: /^RUNNING$/ }) })
        .first().waitFor({ timeout: 30_000 });
      const text = await page.locator('#nodes-table tbody').innerText();
      assert(/127\.0\.0\.1:\d+/.test(text), `no 127.0.0.1 node in the table:\n${text}`);
      assert(/4 GB/.test(text), `the node's 4 GB do not show:\n${text}`);
    });

    let shell = null;
    await check('an application appears in the apps table and finishes', async () => {
      await page.click('nav a[data-nav="apps"]');
      await page.locator('#apps-table tbody tr').first().waitFor();
      if (ports) {
        shell = start('shell', [args.spindle, 'shell', '--rm', `127.0.0.1:${ports.client}`,
          '--rm-scheduler', `127.0.0.1:${ports.scheduler}`, '--num-containers', '2', '--memory-mb', '128',
          '--am-memory-mb', '128', '--timeout-seconds', '100', '--command', 'sleep 5']);
      }
      const row = page.locator('#apps-table tbody tr[data-key^="application_"]').first();
      await row.waitFor({ timeout: 60_000 });
      const id = await row.getAttribute('data-key');
      const seen = [];
      await poll(`application ${id} to finish in the table`, async () => {
        const state = await page.locator(`#apps-table tr[data-key="${id}"] td:nth-child(5)`).innerText();
        if (seen[seen.length - 1] !== state) seen.push(state);
        if (shell && shell.exitCode_ !== null && shell.exitCode_ !== 0) {
          throw new Error(`spindle shell failed (${shell.exitCode_}):\n${tail('shell')}`);
        }
        return state === 'FINISHED';
      }, APP_TIMEOUT_MS);
      log(`${id}: states seen in the table: ${seen.join(' -> ')}`);
      assert(seen.length >= 2, `the application was never seen before it finished (${seen.join(', ')})`);
      const final = await page.locator(`#apps-table tr[data-key="${id}"] td:nth-child(6)`).innerText();
      assert(final === 'SUCCEEDED', `final status ${final}`);
      const cls = await page.locator(`#apps-table tr[data-key="${id}"] td:nth-child(5) .badge`).getAttribute('class');
      assert(cls.includes('st-ok'), `a FINISHED badge is not coloured as success: ${cls}`);
      if (shell) assert((await shell.exited) === 0, `spindle shell exited ${shell.exitCode_}:\n${tail('shell')}`);
      // Filtering: no KILLED application; text search finds it.
      await page.selectOption('select[aria-label="states"]', 'KILLED');
      await page.locator('#apps-table td.empty').waitFor();
      await page.selectOption('select[aria-label="states"]', '');
      await page.fill('input[aria-label="Search applications"]', id.slice(-4));
      await page.locator(`#apps-table tr[data-key="${id}"]`).waitFor();
      await page.fill('input[aria-label="Search applications"]', '');
      await shot('web_ui_apps.png');
      if (shell) {
        // `spindle shell` prints the final status as Hadoop does.
        const out = tail('shell', 200);
        assert(/final status SUCCEEDED\b/.test(out) && !out.includes('APP_SUCCEEDED'),
          `spindle shell's final status line:\n${out}`);
      }
      // The user filter offers the application's user (its options are real
      // <option>s, not the text of an array).
      const user = await page.locator(`#apps-table tr[data-key="${id}"] td:nth-child(3)`).innerText();
      const users = await page.$$eval('select[aria-label="users"] option', (os) => os.map((o) => o.value));
      assert(users.includes(user), `the users filter offers ${JSON.stringify(users)}, not ${user}`);
      // The application's own page.
      await page.click(`#apps-table tr[data-key="${id}"] a`);
      await page.locator('.view.app table.kv').first().waitFor();
      await page.locator('.view.app table.grid tbody tr td a').first().waitFor();
      const details = await page.locator('.view.app').innerText();
      assert(details.includes('SUCCEEDED'), `the app page does not say SUCCEEDED:\n${details}`);
      assert(!/\bnull\b|undefined|APP_/.test(details), `stray text on the app page:\n${details}`);
      // The tracking link goes through the RM's proxy on the port it bound.
      const tracking = await page.locator('.view.app table.kv a').first().getAttribute('href');
      assert(tracking === `${base}/proxy/${id}/`, `tracking link ${tracking}, expected ${base}/proxy/${id}/`);
      // The AM's log link answers: the node's page lists its files, and a
      // file's page answers too (fetched outside the page: another host:port).
      const logs = await page.locator('.view.app table.grid tbody tr td a', { hasText: 'logs' }).first()
        .getAttribute('href');
      assert(/^http:\/\/127\.0\.0\.1:\d+\/node\/containerlogs\/container_\w+\/[^/]+$/.test(logs),
        `AM log link ${logs}`);
      assert(!logs.includes(':0/') && !logs.includes(':8042/'), `the log link names the configured port: ${logs}`);
      const listing = await fetch(logs);
      const listingText = await listing.text();
      assert(listing.status === 200, `GET ${logs} answered ${listing.status}: ${listingText}`);
      const fileLink = /href="([^"]+)"/.exec(listingText);
      assert(fileLink && /Total file length is \d+ bytes\./.test(listingText), `no log files listed:\n${listingText}`);
      const file = await fetch(new URL(fileLink[1].replace(/&amp;/g, '&'), logs));
      assert(file.status === 200, `GET ${fileLink[1]} answered ${file.status}`);
      log(`AM logs at ${logs}: ${listingText.match(/Total file length/g).length} file(s)`);
      await shot('web_ui_app.png');
      // The node's log page in a browser tab of its own (the main page's
      // request log stays about the RM).
      const nmPage = await context.newPage();
      try {
        const answer = await nmPage.goto(logs);
        assert(answer.status() === 200, `the node's log page answered ${answer.status()}`);
        await nmPage.locator('a', { hasText: /^stderr : Total file length is \d+ bytes\.$/ }).waitFor();
        await nmPage.click('a:text-matches("^stderr :")');
        await nmPage.locator('pre').waitFor();
        const logShot = path.resolve(args.artefacts, 'web_ui_nm_logs.png');
        await nmPage.screenshot({ path: logShot, fullPage: true });
        log(`screenshot: ${logShot}`);
      } finally {
        await nmPage.close();
      }
    });

    await check('the scheduler page shows the queue tree and the pool', async () => {
      await page.click('nav a[data-nav="scheduler"]');
      for (const q of ['root', 'default', 'batch']) await page.locator(`#queues tr[data-queue="${q}"]`).waitFor();
      await page.locator('#pool tbody tr[data-key]').nth(3).waitFor();
      const placements = await page.$$eval('#pool tbody tr[data-key] td:nth-child(4)',
        (cells) => cells.reduce((sum, c) => sum + Number(c.textContent.replace(/,/g, '')), 0));
      assert(placements >= 3, `the pool table counts ${placements} placements (AM + 2 containers expected)`);
      await shot('web_ui_scheduler.png');
    });

    await check('the overview shows the summary, queues and live charts', async () => {
      await page.click('nav a[data-nav="overview"]');
      await poll('the Applications card to count the finished app', async () => {
        const text = await page.locator('#summary .card').first().innerText();
        return /1 completed/.test(text) ? text : null;
      }, 20_000);
      const nodes = await page.locator('#summary .card').nth(4).locator('.card-big').innerText();
      assert(nodes === '1', `the Nodes card shows ${nodes} active nodes`);
      await page.locator('#queues tr[data-queue="default"]').waitFor();
      assert(await page.locator('#charts canvas').count() === 3, 'expected 3 chart canvases');
      // Two polls give the first rate point; the delay chart has the pool's series.
      await poll('the charts to have data', async () => page.$$eval('#charts .chart-empty',
        (els) => els.every((e) => e.hidden)), 20_000);
    });

    await check('a failing endpoint raises the banner; the page recovers', async () => {
      await page.click('nav a[data-nav="nodes"]');
      await page.locator('#nodes-table tbody tr[data-key]').first().waitFor();
      await context.route('**/ws/v1/cluster/nodes', (route) => route.fulfill({
        status: 503, contentType: 'text/plain', body: 'down for the test' }));
      await page.locator('#banner:not([hidden])').waitFor({ timeout: 10_000 });
      const banner = await page.locator('#banner').innerText();
      assert(banner.includes('/ws/v1/cluster/nodes') && banner.includes('503'), `banner says: ${banner}`);
      assert(await page.locator('#nodes-table tbody tr[data-key]').count() === 1, 'the last good rows were dropped');
      await shot('web_ui_banner.png');
      await context.unroute('**/ws/v1/cluster/nodes');
      await page.locator('#banner').waitFor({ state: 'hidden', timeout: 10_000 });
    });

    await check('the page raised no script error and fetched nothing from other hosts', async () => {
      assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
      assert(foreign.length === 0, `requests to other hosts: ${foreign.join(', ')}`);
    });

    await page.click('nav a[data-nav="overview"]');
    await page.locator('#charts canvas').first().waitFor();
    await page.waitForTimeout(2500); // one more poll: the charts' latest point
    const file = await shot('web_ui.png');
    console.log(`web UI screenshot: ${file}`);
  } finally {
    await context.close();
  }
}

let status = 0;
try {
  await main();
} catch (e) {
  if (failed === 0) {
    failed++;
    log(`FAIL ${e.stack || e.message}`);
  }
  status = 1;
  keepWork = true;
  for (const name of ['rm', 'nm', 'shell']) {
    const t = tail(name, 15);
    if (t) log(`--- ${name}.log (last lines)\n${t}`);
  }
} finally {
  await stopAll();
  if (keepWork) log(`work dir kept: ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(status || (failed ? 1 : 0));
