// Werewolf Arena soak in headless Chromium (a benchmark, not a test: it prints figures): one tab
// plays GAMES bot games (8 seats, bots only, no key), and every WINDOW seconds prints the games
// finished, the rate, the WASM memory (HEAP8's length: it grows, never shrinks, so a flat line
// means the heap's peak stopped rising), the JS heap in use (performance.memory), the page's
// average and worst tick, frames over 16 ms, and the rating-interval jobs sent to the worker.
// usage: node tests/bench/werewolf_arena_soak.mjs [SITE_DIR] [GAMES] [CONCURRENCY] [WINDOW_SECONDS]
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const { startStaticServer, launchBrowser, waitForFrames } = await import(path.join(here, '..', 'e2e', 'lib.mjs'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const games = Number(process.argv[3] || 10000);
const concurrency = Number(process.argv[4] || 8);
const windowSeconds = Number(process.argv[5] || 20);

const server = await startStaticServer(site);
const browser = await launchBrowser(['--enable-precise-memory-info']);
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(server.url);
await waitForFrames(page, 3, 120000);
await page.evaluate(([n, c]) => {
  window.chaiba.show('werewolf-arena');
  window.chaiba.werewolfArena.setup({ players: ['bot*8'], games: n, concurrency: c, seed: 1, rules: 'plain' });
  window.chaiba.werewolfArena.start();
  window.chaiba.resetStats();
}, [games, concurrency]);

const started = Date.now();
let lastGames = 0;
console.log('seconds games games/s wasmMB jsHeapMB avgTickMs maxTickMs framesOver16 workerJobs(sent/adopted)');
for (;;) {
  await page.waitForTimeout(windowSeconds * 1000);
  const f = await page.evaluate(() => {
    const s = window.chaiba.werewolfArena.state();
    const stats = window.chaiba.stats();
    window.chaiba.resetStats();
    return { phase: s.phase, games: s.gamesFinished, worker: s.ratingsWorker, error: s.error,
      wasmMb: (typeof HEAP8 !== 'undefined' ? HEAP8.length : 0) / 1048576,
      jsMb: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : -1,
      avgTick: stats.avgTickCpuMs, maxTick: stats.maxTickCpuMs, over16: stats.framesOver16Ms };
  });
  const t = (Date.now() - started) / 1000;
  console.log(`${t.toFixed(0)} ${f.games} ${((f.games - lastGames) / windowSeconds).toFixed(1)} ${f.wasmMb.toFixed(1)} ` +
    `${f.jsMb.toFixed(1)} ${(f.avgTick || 0).toFixed(2)} ${(f.maxTick || 0).toFixed(1)} ${f.over16} ` +
    `${f.worker.sent}/${f.worker.adopted}${f.error ? ' error: ' + f.error : ''}`);
  lastGames = f.games;
  if (f.phase !== 'running') break;
}
await browser.close();
await server.close();
