// Browser test, as an adversary would play it: many built-in-engine games in a row in one tab must
// not pile up Web Workers (each finished game used to leak its engine worker: 15 matches, 31
// workers). Two engine-only tournaments of 6 games each; the page's dedicated workers are counted
// by the browser itself (playwright's page.workers()), after each and at the end.
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
    // Engines move without the watching delay: what is counted is workers, not time.
    await context.addInitScript(() => {
      if (!localStorage.getItem('chaiba.settings')) localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":0}');
    });
    const { page, errors } = await openPage(context, server.url);
    const counts = [];
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
      counts.push(page.workers().length);
    }
    if (counts.some((c) => c > kMaxIdleWorkers))
      throw new Error(`engine workers after 6 and 12 games: ${counts.join(', ')} (at most ${kMaxIdleWorkers} expected)`);
    console.log(`     workers after 6 and 12 engine games: ${counts.join(', ')}`);
    errors.check();
    await context.close();
  }],
]);
await browser.close();
await server.close();
