// The engine worker alone in headless Chromium: the page's engine_worker.js/.wasm, no rendering,
// no second worker, the 8 positions of tests/calibrate/search_speed.cpp at one level. Splits the
// page's time a move (frame_bench.mjs) into the search in the browser and the page's other work.
// usage: node tests/bench/worker_speed.mjs [SITE_DIR] [LEVEL]
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const { startStaticServer, launchBrowser } = await import(path.join(here, '..', 'e2e', 'lib.mjs'));
const { openEngineWorker } = await import(path.join(here, 'engine_worker_page.mjs'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const level = Number(process.argv[3] || 9);
// The positions of tests/calibrate/search_speed.cpp, read from its source (one list for both).
const speedSource = fs.readFileSync(path.join(here, '..', 'calibrate', 'search_speed.cpp'), 'utf8');
const fens = [...speedSource.slice(speedSource.indexOf('fens[] = {')).matchAll(/^\s+"([^"]+)",$/gm)].map((m) => m[1]).slice(0, 8);
if (fens.length !== 8) throw new Error(`read ${fens.length} positions from search_speed.cpp, expected 8`);

const server = await startStaticServer(site);
const browser = await launchBrowser();
const worker = await openEngineWorker(browser, server.url);
let total = 0, nodes = 0;
for (const [i, fen] of fens.entries()) {
  const r = await worker.move(`${fen}\nstd\n${level}\n1\n`);
  if (!r.ok) throw new Error(`position ${i + 1}: ${r.error}`);
  total += r.ms; nodes += r.nodes;
  console.log(`position ${i + 1}: ${r.move} score ${r.score} depth ${r.depth} nodes ${r.nodes} ${r.ms.toFixed(0)} ms`);
}
console.log(`level=${level} positions=${fens.length} nodes=${nodes} avg_ms=${(total / fens.length).toFixed(0)} knps=${(nodes / total).toFixed(0)}`);
await browser.close();
await server.close();
