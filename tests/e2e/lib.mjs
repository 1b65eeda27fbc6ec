// Shared helpers for the browser tests: a static file server on 127.0.0.1, headless Chromium
// (Debian's, through playwright-core), a console-error collector and a small PNG decoder.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.data': 'application/octet-stream', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
};

// Serves `root` on a free loopback port, like any static host would (no special headers).
export async function startStaticServer(root) {
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(root, urlPath);
    if (!file.startsWith(path.resolve(root))) { res.writeHead(403); res.end(); return; }
    if (urlPath.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

export async function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', ...extraArgs],
  });
}

// Records console errors and uncaught page errors; `check()` throws with all of them. A request
// the page's own reload cancels (`reloading(true)` around it: a worker's file still on its way) is
// not an error; any other failed request is.
export function collectErrors(page) {
  const errors = [];
  let reloading = false;
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => {
    const why = req.failure()?.errorText;
    if (reloading && why === 'net::ERR_ABORTED') return;
    errors.push(`request failed: ${req.url()} ${why}`);
  });
  return { errors, reloading(on) { reloading = on; }, check() { if (errors.length) throw new Error(errors.join('\n')); } };
}

// Waits until the app rendered at least `frames` frames (window.chaiba.stats()).
export async function waitForFrames(page, frames = 3, timeoutMs = 60000) {
  await page.waitForFunction((n) => window.chaiba && window.chaiba.ready &&
    window.chaiba.stats().framesRendered >= n, frames, { timeout: timeoutMs });
}

// Lets the page draw `frames` more frames, for at most `atMostMs` (the pause a test took before a
// screenshot or a read of ui(), "a frame or two for the click to show"): as long as that pause when
// the page draws nothing, shorter when it draws.
export async function afterFrames(page, frames, atMostMs) {
  const from = await page.evaluate(() => window.chaiba.stats().framesRendered);
  await page.waitForFunction((n) => window.chaiba.stats().framesRendered >= n, from + frames, { timeout: atMostMs })
    .catch((e) => { if (!/Timeout/i.test(e.message)) throw e; });
}

// Opens the page in a new tab of `context`, collecting its errors, once the app draws.
export async function openPage(context, url) {
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url);
  await waitForFrames(page, 3);
  return { page, errors };
}

// A real mouse click in the middle of a named widget (window.chaiba.ui()), once it stands still:
// the same place in two frames drawn one after the other, or no frame drawn for 100 ms since it
// was read (the page draws only when something changes). A widget under a card or a board that is
// still settling (a dialog growing to its content, a leaderboard's last intervals arriving) is not
// clicked at the place it is leaving.
export async function clickItem(page, name, timeoutMs = 20000) {
  const token = Math.random();
  const place = await page.waitForFunction(({ n, token }) => {
    const rect = window.chaiba.ui()[n];
    if (!rect) return false;
    const frame = window.chaiba.stats().framesRendered;
    const now = performance.now();
    const key = JSON.stringify(rect);
    const seen = (window.chaibaClickSettle = window.chaibaClickSettle || {})[n];
    if (seen && seen.token === token && seen.key === key && (seen.frame !== frame || now - seen.at >= 100)) return rect;
    if (!seen || seen.token !== token || seen.key !== key || seen.frame !== frame)
      window.chaibaClickSettle[n] = { token, key, frame, at: now };
    return false;
  }, { n: name, token }, { timeout: timeoutMs, polling: 16 });
  const [x, y, w, h] = await place.jsonValue();
  await page.mouse.click(x + w / 2, y + h / 2);
  // The click is in the page's queue: two frames take it in (the press, then the release that a
  // button acts on). A check the caller makes next then reads the page after the click, not the
  // frame before it, where it may already hold (a dialog's Start that fitted before its PGN field
  // showed). At most 300 ms: a click that replaces the page (a reload) draws no frame to wait for.
  const from = await page.evaluate(() => window.chaiba.stats().framesRendered).catch(() => null);
  if (from !== null)
    await page.waitForFunction((n) => window.chaiba && window.chaiba.stats().framesRendered >= n, from + 2, { timeout: 300 })
      .catch(() => {});
}

// The US keyboard's keys for the printable ASCII characters a test types: [code, keyCode] (the
// shifted characters share their key's code, as Playwright's own layout has them).
const KEY_OF = (() => {
  const keys = {
    ' ': ['Space', 32], '\n': ['Enter', 13], '-': ['Minus', 189], _: ['Minus', 189], '=': ['Equal', 187], '+': ['Equal', 187],
    '[': ['BracketLeft', 219], '{': ['BracketLeft', 219], ']': ['BracketRight', 221], '}': ['BracketRight', 221],
    '\\': ['Backslash', 220], '|': ['Backslash', 220], ';': ['Semicolon', 186], ':': ['Semicolon', 186],
    "'": ['Quote', 222], '"': ['Quote', 222], ',': ['Comma', 188], '<': ['Comma', 188], '.': ['Period', 190],
    '>': ['Period', 190], '/': ['Slash', 191], '?': ['Slash', 191], '`': ['Backquote', 192], '~': ['Backquote', 192],
  };
  ')!@#$%^&*('.split('').forEach((c, d) => { keys[c] = [`Digit${d}`, 48 + d]; });
  for (let d = 0; d < 10; d++) keys[String(d)] = [`Digit${d}`, 48 + d];
  for (let i = 0; i < 26; i++) {
    const upper = String.fromCharCode(65 + i);
    keys[upper] = keys[upper.toLowerCase()] = [`Key${upper}`, 65 + i];
  }
  return keys;
})();

// Types `text` with real key events through the browser's input (each character a keydown that
// carries it and a keyup, '\n' the Enter key, as page.keyboard.type sends them), `burst` keys at a
// time instead of one round trip each: a fast typist's keys, several to a frame, which the page
// keeps in order (its key queue; tests/e2e/newcomer_test.mjs checks that order on its own).
// page.keyboard.type waits for the page to take each event: ~70 ms a character while it draws.
export async function typeFast(page, text, { burst = 10 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  try {
    for (let i = 0; i < text.length; i += burst) {
      const sent = [];
      for (const ch of text.slice(i, i + burst)) {
        const key = KEY_OF[ch];
        if (!key) throw new Error(`typeFast: no key types ${JSON.stringify(ch)}`);
        const [code, keyCode] = key;
        const name = ch === '\n' ? 'Enter' : ch;
        const typed = ch === '\n' ? '\r' : ch;
        sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: name, code, windowsVirtualKeyCode: keyCode,
          nativeVirtualKeyCode: keyCode, text: typed, unmodifiedText: typed }));
        sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: name, code, windowsVirtualKeyCode: keyCode,
          nativeVirtualKeyCode: keyCode }));
      }
      await Promise.all(sent);
    }
  } finally {
    await cdp.detach().catch(() => {});
  }
}

// Clicks a named widget until `effect` (a function run in the page) holds: a widget that moves
// for a frame or two (a dialog growing to its content, rows shifting as a game starts) can be
// missed by one click on its last place. Throws after `tries` clicks with the widget's place and,
// given `explain` (run in the page), the state it returns.
export async function clickUntil(page, name, effect, { tries = 3, waitMs = 6000, arg, explain } = {}) {
  for (let i = 0; i < tries; i++) {
    await clickItem(page, name);
    try {
      await page.waitForFunction(effect, arg, { timeout: waitMs });
      return;
    } catch (_) { /* clicked while the widget moved: click again, unless the click was taken */ }
    // The widget is gone: the click was taken and the page is slow to show its effect.
    if (!(await page.evaluate((n) => !!window.chaiba.ui()[n], name))) {
      await page.waitForFunction(effect, arg, { timeout: 60000 });
      return;
    }
  }
  const where = await page.evaluate((n) => JSON.stringify(window.chaiba.ui()[n] || null), name);
  const state = explain ? `; the page showed ${JSON.stringify(await page.evaluate(explain)).slice(0, 600)}` : '';
  throw new Error(`${tries} clicks on ${name} (now at ${where}) had no effect: ${effect.toString().slice(0, 160)}${state}`);
}

// Waits for `effect` like page.waitForFunction, but a timeout says what the page showed instead:
// `explain` (a function run in the page) returns the state that matters, e.g. the phase, the
// error and the count of games, so a failure in CI can be read without a rerun.
export async function waitOrExplain(page, effect, explain, { timeout = 60000, arg } = {}) {
  try {
    await page.waitForFunction(effect, arg, { timeout });
  } catch (e) {
    let state;
    try { state = JSON.stringify(await page.evaluate(explain)); } catch (inner) { state = `(unreadable: ${inner.message})`; }
    throw new Error(`${e.message.split('\n')[0]} waiting for ${effect.toString().slice(0, 160)}; the page showed ${state.slice(0, 600)}`);
  }
}

// Decodes an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes) into RGBA pixels.
export function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8, width = 0, height = 0, colorType = 0, bitDepth = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      bitDepth = data[8]; colorType = data[9];
      if (data[12] !== 0) throw new Error('interlaced PNG not supported');
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6)) throw new Error(`unsupported PNG ${bitDepth}/${colorType}`);
  const bpp = colorType === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = Buffer.alloc(width * height * 4);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? line[x - bpp] : 0, b = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) { const p = a + b - c; const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      line[x] = v & 255;
    }
    for (let x = 0; x < width; x++) {
      out[(y * width + x) * 4] = line[x * bpp]; out[(y * width + x) * 4 + 1] = line[x * bpp + 1];
      out[(y * width + x) * 4 + 2] = line[x * bpp + 2]; out[(y * width + x) * 4 + 3] = bpp === 4 ? line[x * bpp + 3] : 255;
    }
    prev = line;
  }
  return { width, height, pixels: out };
}

// Counts distinct colours (quantised) and the share of the most common one: a blank or
// single-colour canvas has one colour at ~100%.
export function colourStats(png) {
  const counts = new Map();
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const key = ((png.pixels[i * 4] >> 4) << 8) | ((png.pixels[i * 4 + 1] >> 4) << 4) | (png.pixels[i * 4 + 2] >> 4);
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let top = 0;
  for (const c of counts.values()) top = Math.max(top, c);
  return { distinct: counts.size, dominantShare: top / n };
}

// The cases whose names start with one of `prefixes` first, in that order, then the others in
// theirs: with lanes, the longest cases start first and the short ones fill in after them.
export function longestFirst(tests, prefixes) {
  const rank = ([name]) => { const i = prefixes.findIndex((p) => name.startsWith(p)); return i < 0 ? prefixes.length : i; };
  return [...tests].sort((a, b) => rank(a) - rank(b));
}

// A tiny test runner that ends with the plain summary line CI reads. `lanes` > 1 runs that many
// cases at once, each taking the next one in the list when it is done (so put the longest first):
// for suites whose cases are independent (each its own browser context) and mostly wait on the
// page's own clock (a day's rounds, a person's typing, a mock's latency). CHAIBA_LANES=1 runs them
// one after the other (to read one case's log alone).
export async function runTests(tests, { lanes = 1 } = {}) {
  let passed = 0, failed = 0;
  // CHAIBA_ONLY=text runs just the cases whose name contains the text (for a quick rerun).
  const only = process.env.CHAIBA_ONLY || '';
  const queue = tests.filter(([name]) => !only || name.includes(only));
  const width = Math.max(1, Number(process.env.CHAIBA_LANES) || lanes);
  const started = Date.now();
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, fn] = next;
      const t0 = Date.now();
      try {
        await fn();
        passed++;
        console.log(`ok   ${name} (${Date.now() - t0} ms)`);
      } catch (err) {
        failed++;
        console.log(`FAIL ${name}\n     ${String(err && err.stack || err).split('\n').join('\n     ')}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, lane));
  if (width > 1) console.log(`     ${width} lanes: ${Date.now() - started} ms in all`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

// Starts the local OpenRouter mock (tests/e2e/mock_openrouter.py); resolves with its base URL.
// options.answerMs: each chess answer takes at least that long (mock_openrouter.py --answer-ms).
export async function startMock(chaibaBinary, key = 'sk-mock-key', options = {}) {
  const { spawn } = await import('node:child_process');
  const script = new URL('./mock_openrouter.py', import.meta.url).pathname;
  const extra = options.answerMs ? ['--answer-ms', String(options.answerMs)] : [];
  const child = spawn('python3', [script, '--chaiba', chaibaBinary, '--key', key, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  // A test script that dies (an uncaught error) takes the mock with it: the mock shares the
  // script's stderr, and CTest waits for that pipe (a crash once became a 900 s timeout).
  process.on('exit', () => child.kill());
  const port = await new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('mock server did not start')), 10000);
    child.stdout.on('data', (d) => {
      buffer += d;
      const m = buffer.match(/PORT (\d+)/);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    child.on('exit', (code) => reject(new Error(`mock server exited with ${code}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, key, pid: child.pid, close: () => child.kill() };
}
