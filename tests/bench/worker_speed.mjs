// The engine worker alone in headless Chromium: the page's engine_worker.js/.wasm, no rendering,
// no second worker, the 8 positions of tests/calibrate/search_speed.cpp at one level. Splits the
// page's time a move (frame_bench.mjs) into the search in the browser and the page's other work.
// usage: node tests/bench/worker_speed.mjs [SITE_DIR] [LEVEL]
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const { startStaticServer, launchBrowser } = await import(path.join(here, '..', 'e2e', 'lib.mjs'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const level = Number(process.argv[3] || 9);
// The positions of tests/calibrate/search_speed.cpp, read from its source (one list for both).
const speedSource = fs.readFileSync(path.join(here, '..', 'calibrate', 'search_speed.cpp'), 'utf8');
const fens = [...speedSource.slice(speedSource.indexOf('fens[] = {')).matchAll(/^\s+"([^"]+)",$/gm)].map((m) => m[1]).slice(0, 8);
if (fens.length !== 8) throw new Error(`read ${fens.length} positions from search_speed.cpp, expected 8`);

const server = await startStaticServer(site);
const browser = await launchBrowser();
const page = await browser.newPage();
await page.route('**/blank.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>worker</title>' }));
await page.goto(server.url + 'blank.html');
const rows = await page.evaluate(async ({ fens, level }) => {
  const worker = new Worker('engine_worker.js');
  let next = 1;
  const call = (text) => new Promise((resolve) => {
    const id = next++;
    const onMessage = (e) => {
      if (e.data.callbackId !== id) return;
      worker.removeEventListener('message', onMessage);
      resolve(new TextDecoder().decode(e.data.data));
    };
    worker.addEventListener('message', onMessage);
    worker.postMessage({ funcName: 'engine_choose_move', callbackId: id, data: new TextEncoder().encode(text) });
  });
  await call(`0\n${fens[0]}\nstd\n1\n1\n`);  // loads and compiles the module
  const out = [];
  for (const fen of fens) {
    const t0 = performance.now();
    const reply = await call(`${out.length + 1}\n${fen}\nstd\n${level}\n1\n`);
    out.push({ ms: performance.now() - t0, reply: reply.split(' ').slice(0, 6).join(' ') });
  }
  worker.terminate();
  return out;
}, { fens, level });
let total = 0, nodes = 0;
rows.forEach((r, i) => {
  const f = r.reply.split(' ');
  total += r.ms; nodes += Number(f[5]);
  console.log(`position ${i + 1}: ${r.reply} ${r.ms.toFixed(0)} ms`);
});
console.log(`level=${level} positions=${rows.length} nodes=${nodes} avg_ms=${(total / rows.length).toFixed(0)} knps=${(nodes / total).toFixed(0)}`);
await browser.close();
await server.close();
