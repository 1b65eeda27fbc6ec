// Browser test, as an adversary would play it: many built-in-engine games in a row in one tab must
// not pile up Web Workers (each finished game used to leak its engine worker: 15 matches, 31
// workers). Two engine-only tournaments of 6 games each; the page's dedicated workers are counted
// by the browser itself (playwright's page.workers()), after each and at the end, by their script:
// engine workers (engine_worker.js, bounded by the pool) apart from the one I/O worker
// (io_worker.js, started with the page). Counted together they passed on 2 cores and failed on a
// machine with more, where the move-quality scorer runs beside the games and the pool keeps 4.
// usage: node workers_test.mjs SITE_DIR
import path from 'node:path';
import { startStaticServer, launchBrowser, runTests, openPage } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const server = await startStaticServer(site);
const browser = await launchBrowser();
const kMaxIdleWorkers = 4; // web/engine_client_web.h: WorkerPool::kMaxIdle

await runTests([
  ['engine games in a row keep the worker count bounded', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Engines move without the watching delay: what is counted is workers, not time. The page is
    // told it has 8 cores, as on the machine where the counts once came out 5 and 5, so the
    // move-quality scorer takes its own worker beside the four games here too.
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 8, configurable: true });
      if (!localStorage.getItem('chaiba.settings')) localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":0}');
    });
    const { page, errors } = await openPage(context, server.url);
    const counts = [];
    const ioCounts = [];
    const byScript = (name) => page.workers().filter((w) => w.url().endsWith('/' + name)).length;
    for (let round = 0; round < 2; round++) {
      await page.evaluate(() => window.chaiba.show('arena'));
      if (round > 0) await page.evaluate(() => window.chaiba.arena.reset());
      await page.evaluate(() => window.chaiba.arena.configure({
        name: 'Workers', participants: ['engine:1', 'engine:2', 'engine:3', 'random'],
        format: 'roundrobin', games: 1, concurrency: 4, maxPlies: 16, seed: 11 }));
      await page.evaluate(() => window.chaiba.arena.start());
      await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 240000 });
      const st = await page.evaluate(() => window.chaiba.arena.state());
      if (st.gamesFinished !== 6) throw new Error(`${st.gamesFinished} games finished, 6 expected`);
      // A reply may still be on its way back to the pool: give the page a moment.
      await page.waitForTimeout(500);
      counts.push(byScript('engine_worker.js'));
      ioCounts.push(byScript('io_worker.js'));
      const other = page.workers().map((w) => w.url()).filter((u) => !/\/(engine|io)_worker\.js$/.test(u));
      if (other.length) throw new Error(`unexpected workers: ${other.join(', ')}`);
    }
    if (counts.some((c) => c > kMaxIdleWorkers))
      throw new Error(`engine workers after 6 and 12 games: ${counts.join(', ')} (at most ${kMaxIdleWorkers} expected)`);
    if (counts[0] === 0) throw new Error('no engine worker seen after 6 engine games: the count does not see them');
    if (ioCounts.some((c) => c !== 1)) throw new Error(`I/O workers after 6 and 12 games: ${ioCounts.join(', ')} (1 expected)`);
    console.log(`     engine workers after 6 and 12 engine games: ${counts.join(', ')}, I/O workers: ${ioCounts.join(', ')}`);
    errors.check();
    await context.close();
  }],
]);
await browser.close();
await server.close();
