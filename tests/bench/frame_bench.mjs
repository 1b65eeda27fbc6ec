// Frame-time benchmark of the page in headless Chromium (a benchmark, not a test: it prints
// figures). Scenario 1: the strongest engine level against itself (the search runs in the Web
// Worker; the page must keep drawing). Scenario 2: two models streaming from the local mock while
// the board animates. Scenario 3: the arena's grid with 16 live boards (32 mock models, each
// move a streamed answer). Frame CPU = main-thread time from the start of a frame to the end of its
// draw submission. Also prints the gzip size of the shipped files.
// usage: node tests/bench/frame_bench.mjs [SITE_DIR] [CHAIBA_BINARY] [SECONDS]
// environment: FRAME_ONLY (a scenario's name holds it), FRAME_LEVEL (default 9), FRAME_DELAY_MS
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const here = path.dirname(new URL(import.meta.url).pathname);
const e2e = path.join(here, '..', 'e2e');
const { startStaticServer, startMock, launchBrowser, waitForFrames } = await import(path.join(e2e, 'lib.mjs'));
void createRequire;

const site = path.resolve(process.argv[2] || 'build/web/site');
const chaiba = path.resolve(process.argv[3] || 'build/native/chaiba');
const seconds = Number(process.argv[4] || 20);

const server = await startStaticServer(site);
const mock = await startMock(chaiba);
const browser = await launchBrowser();

const movesSoFar = () => {
  const st = window.chaiba.state();
  const a = window.chaiba.arena.state();
  return st.moves.length + a.live.reduce((n, g) => n + g.plies, 0) +
    a.games.filter((g) => g.result !== '*').reduce((n, g) => n + (g.moves ? g.moves.length : (g.plies || 0)), 0);
};

// FRAME_ONLY=<substring> measures only the scenarios whose name holds it.
async function measure(name, setup) {
  if (process.env.FRAME_ONLY && !name.includes(process.env.FRAME_ONLY)) return;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // FRAME_DELAY_MS=0: engines move as soon as they answer (the page waits 700 ms a move for a
  // watcher by default), so "moves in N s" gives the worker's own think time a move.
  if (process.env.FRAME_DELAY_MS !== undefined) {
    await context.addInitScript((ms) => {
      localStorage.setItem('chaiba.settings', JSON.stringify({ engineMoveDelayMs: ms }));
    }, Number(process.env.FRAME_DELAY_MS));
  }
  const page = await context.newPage();
  await page.goto(server.url);
  await waitForFrames(page, 3);
  await setup(page);
  await page.waitForTimeout(1000);
  await page.evaluate(() => window.chaiba.resetStats());
  const before = await page.evaluate(movesSoFar);
  await page.waitForTimeout(seconds * 1000);
  const s = await page.evaluate(() => window.chaiba.stats());
  const after = await page.evaluate(movesSoFar);
  console.log(`${name}: ${s.measuredFrames} frames in ${seconds} s, ${after - before} moves (${(seconds / Math.max(1, after - before)).toFixed(2)} s a move); frame CPU avg ${s.avgFrameCpuMs.toFixed(2)} ms, max ${s.maxFrameCpuMs.toFixed(2)} ms, ${s.framesOver16Ms} frames over 16 ms; tick (players, network, saving) avg ${s.avgTickCpuMs.toFixed(2)} ms, max ${s.maxTickCpuMs.toFixed(2)} ms`);
  await context.close();
}

const maxLevel = Number(process.env.FRAME_LEVEL || 9);  // engine/search/levels.cpp: the strongest level (FRAME_LEVEL=N for another)
await measure(`engine:${maxLevel} vs engine:${maxLevel} (worker)`, async (page) => {
  await page.evaluate((l) => window.chaiba.newMatch({ white: `engine:${l}`, black: `engine:${l}` }), maxLevel);
});
await measure('LLM vs LLM streaming from the mock', async (page) => {
  await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
  await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'llm:mock/legal' }));
});
await measure('arena grid, 16 live boards (mock models)', async (page) => {
  await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
  const participants = Array.from({ length: 32 }, (_, i) => ({ spec: 'llm:mock/legal', name: `Model ${i + 1}` }));
  await page.evaluate((p) => {
    window.chaiba.show('arena');
    window.chaiba.arena.configure({ name: 'Sixteen boards', participants: p, format: 'arena', games: 200, concurrency: 16, maxPlies: 400 });
    window.chaiba.arena.start();
  }, participants);
  await page.waitForFunction(() => window.chaiba.arena.state().live.filter((g) => g.plies > 0).length >= 16, null, { timeout: 60000 });
});

// Every shipped file, folders (the piece sets) summed under their name.
let total = 0;
const gzipOf = (p) => {
  if (fs.statSync(p).isDirectory()) {
    return fs.readdirSync(p).reduce((sum, f) => {
      const [raw, gz] = gzipOf(path.join(p, f));
      return [sum[0] + raw, sum[1] + gz];
    }, [0, 0]);
  }
  const bytes = fs.readFileSync(p);
  return [bytes.length, zlib.gzipSync(bytes, { level: 9 }).length];
};
for (const f of fs.readdirSync(site).sort()) {
  const [raw, gz] = gzipOf(path.join(site, f));
  total += gz;
  console.log(`${f.padEnd(20)} ${String(raw).padStart(9)} bytes, gzip ${String(gz).padStart(8)}`);
}
console.log(`shipped total gzip: ${(total / 1024).toFixed(0)} KiB`);
await browser.close();
mock.close();
await server.close();
