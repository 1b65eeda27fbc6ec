// A bare Chrome DevTools Protocol client for benchmarks that must not change what they measure.
// Playwright enables the Network domain (and Runtime, Page, ...) on every page it drives: DevTools
// then keeps every request and response of the page in the renderer (blink::NetworkResourcesData,
// up to ~100 MB), which a user's browser without DevTools open never does. This launches Chromium
// itself with a remote-debugging port and only ever calls Runtime.evaluate (no domain enabled),
// Page.reload, and the browser's Tracing domain for memory dumps.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require_ = createRequire(new URL('../e2e/lib.mjs', import.meta.url));
// The `ws` implementation bundled in playwright-core (its package exports do not list the file).
const { ws: WebSocket } = require_(path.join(path.dirname(require_.resolve('playwright-core/package.json')), 'lib', 'utilsBundle.js'));

class Connection {
  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
        else p.resolve(msg.result);
      } else {
        for (const fn of this.listeners.get(`${msg.sessionId || ''}|${msg.method}`) || []) fn(msg.params);
      }
    });
  }
  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
  }
  on(method, fn, sessionId = '') {
    const key = `${sessionId}|${method}`;
    if (!this.listeners.has(key)) this.listeners.set(key, []);
    this.listeners.get(key).push(fn);
    return () => this.listeners.set(key, this.listeners.get(key).filter((f) => f !== fn));
  }
}

// A page driven by Runtime.evaluate only. `evaluate(fn, arg)` runs `fn(arg)` in the page (it may
// return a promise) and returns its JSON value.
class RawPage {
  constructor(conn, sessionId) { this.conn = conn; this.sessionId = sessionId; }
  async evaluate(fn, arg) {
    const expression = `(${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)})`;
    const r = await this.conn.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, this.sessionId);
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
    return r.result.value;
  }
  async waitForFunction(fn, arg, { timeout = 60000, polling = 100 } = {}) {
    const end = Date.now() + timeout;
    let last = 'false';
    for (;;) {
      try { if (await this.evaluate(fn, arg)) return; last = 'false'; } catch (err) { last = err.message; /* the page may be loading */ }
      if (Date.now() > end) throw new Error(`waitForFunction timed out after ${timeout} ms (last: ${last.slice(0, 200)}): ${fn.toString().slice(0, 120)}`);
      await new Promise((r) => setTimeout(r, polling));
    }
  }
  async waitForTimeout(ms) { await new Promise((r) => setTimeout(r, ms)); }
  async reload() { await this.conn.send('Page.reload', {}, this.sessionId); }
}

// Launches Chromium (same switches as tests/e2e/lib.mjs launchBrowser plus what Playwright adds
// that matters here) on `url`; returns { page, browserPid, memoryDump, close }.
export async function launchRaw(url, extraArgs = []) {
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaiba-raw-'));
  const args = ['--headless', '--remote-debugging-port=0', `--user-data-dir=${userDir}`, '--no-sandbox',
    '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--use-gl=swiftshader', '--enable-unsafe-swiftshader',
    '--ignore-gpu-blocklist', '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows', '--disable-dev-shm-usage', '--no-default-browser-check',
    '--disable-extensions', '--mute-audio', '--hide-scrollbars', '--window-size=1280,800', ...extraArgs, 'about:blank'];
  const child = spawn(process.env.CHROMIUM || '/usr/bin/chromium', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // A benchmark that fails half-way must not leave its browser running.
  process.on('exit', () => { if (child.exitCode === null) child.kill('SIGKILL'); });
  const wsUrl = await new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('Chromium did not print its DevTools address')), 30000);
    child.stderr.on('data', (d) => {
      buffer += d;
      const m = buffer.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited with ${code}`)));
  });
  const socket = new WebSocket(wsUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => { socket.on('open', resolve); socket.on('error', reject); });
  const conn = new Connection(socket);
  const { targetInfos } = await conn.send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'page');
  if (!target) throw new Error('no page target');
  const { sessionId } = await conn.send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
  // The page's size as the Playwright suites set it (the window's own size includes the browser's
  // frame in headless mode).
  await conn.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false }, sessionId);
  // Navigated once attached (not given on the command line), so nothing runs before the session.
  const nav = await conn.send('Page.navigate', { url }, sessionId);
  if (nav.errorText) throw new Error(`could not open ${url}: ${nav.errorText}`);
  const page = new RawPage(conn, sessionId);
  return {
    page, conn, browserPid: child.pid,
    memoryDump: () => memoryDump(conn),
    async close() {
      try { await conn.send('Browser.close'); } catch { /* already gone */ }
      await new Promise((r) => { if (child.exitCode !== null) r(); else child.on('exit', r); });
      fs.rmSync(userDir, { recursive: true, force: true });
    },
  };
}

// Chromium's memory-infra dump of every process (Tracing with the memory-infra category and one
// explicit dump): { pid: { name, allocators: { 'partition_alloc/partitions/buffer': {size, ...} },
// totals: { private_footprint_bytes, ... } } }. `conn` is anything with send/on/off-like
// Tracing events: a Connection above, or Playwright's browser CDP session (browserSession()).
export async function memoryDump(conn) {
  const events = [];
  const hex = (v) => (typeof v === 'string' ? parseInt(v, 16) : Number(v));
  const off1 = subscribe(conn, 'Tracing.dataCollected', (e) => events.push(...e.value));
  let complete;
  const done = new Promise((r) => { complete = r; });
  const off2 = subscribe(conn, 'Tracing.tracingComplete', () => complete());
  await conn.send('Tracing.start', {
    traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], excludedCategories: ['*'],
      memoryDumpConfig: { triggers: [] } }, transferMode: 'ReportEvents' });
  const r = await conn.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
  await conn.send('Tracing.end');
  await done;
  off1(); off2();
  if (!r.success) throw new Error('the memory dump failed');
  const procs = {};
  for (const ev of events) {
    const p = procs[ev.pid] || (procs[ev.pid] = { name: '', allocators: {}, totals: {} });
    if (ev.ph === 'M' && ev.name === 'process_name') p.name = ev.args.name;
    if (ev.ph !== 'v' || !ev.args || !ev.args.dumps) continue;
    for (const [k, v] of Object.entries(ev.args.dumps.allocators || {})) {
      const o = {};
      for (const [an, av] of Object.entries(v.attrs || {})) if (av.units === 'bytes' || av.units === 'objects') o[an] = hex(av.value);
      p.allocators[k] = o;
    }
    for (const [k, v] of Object.entries(ev.args.dumps.process_totals || {})) p.totals[k] = hex(v);
  }
  return procs;
}

function subscribe(conn, method, fn) {
  if (conn instanceof Connection) return conn.on(method, fn);
  conn.on(method, fn);
  return () => conn.off(method, fn);
}
