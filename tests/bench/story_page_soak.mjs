// A long Story campaign in the page (a benchmark, not a test: it prints figures, asserts nothing
// about time). Plays TURNS turns of the sample world against the local stand-in's game-master
// models through the page's own turn loop, and every STEP turns prints the frame CPU of the
// turns just played (avg, max, frames over 16 ms), the WASM heap (HEAP8's length: it grows and
// never shrinks, so a flat line means the peak stopped rising) and malloc's bytes in use in it, the
// JS heap in use (after a collection), the stored conversation's size in this browser's IndexedDB,
// and what the page's in-memory copy of its IndexedDB records holds, by kind of record. Then it
// reloads the page and times the restore: from navigation until the screen shows every turn again.
// usage: node tests/bench/story_page_soak.mjs [SITE_DIR] [CHAIBA_BINARY] [TURNS] [STEP] [simple|agentic]
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const { startStaticServer, startMock, launchBrowser, waitForFrames } = await import(path.join(here, '..', 'e2e', 'lib.mjs'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const chaiba = path.resolve(process.argv[3] || 'build/native/chaiba');
const turns = Number(process.argv[4] || 300);
const step = Number(process.argv[5] || 25);
const simple = (process.argv[6] || 'simple') === 'simple';

const server = await startStaticServer(site);
const mock = await startMock(chaiba);
const browser = await launchBrowser(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
await page.goto(server.url);
await waitForFrames(page, 3);
await page.evaluate(() => window.chaiba.show('story'));
await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
await page.evaluate((s) => window.chaiba.story.configure({ narrator: 'mock/gm-narrator', orchestrator: 'mock/gm-orchestrator',
  fallback: '', simple: s }), simple);
await waitForFrames(page, 10);

const lines = ['I look around the quay.', 'I ask Mira about the lamps.', 'I walk toward the salt tower (locations/salt-tower.md).',
  'I listen at the door.', 'I light a lamp and wait.', 'I follow the heron along the canal.'];
const sample = () => page.evaluate(async () => {
  const stats = window.chaiba.stats();
  window.chaiba.resetStats();
  if (typeof gc === 'function') gc(); // the heap in use, not the garbage of the polls' state() copies
  let storedBytes = -1;
  if (navigator.storage && navigator.storage.estimate) storedBytes = (await navigator.storage.estimate()).usage;
  // The page's in-memory copy of its IndexedDB records (Module.chaibaIdb.map), by kind of key:
  // characters of the values held (a released value is not held).
  const mirror = { log: 0, turn: 0, version: 0, head: 0, world: 0, other: 0, keys: 0 };
  const idb = typeof Module !== 'undefined' && Module.chaibaIdb;
  if (idb) idb.map.forEach((value, key) => {
    const file = /^story\.v1\.w\.[^.]+\.f\.(.*)$/.exec(key);
    const p = file ? file[1] : null;
    const kind = !p ? 'other' : p.startsWith('logs/') ? 'log' : p.startsWith('conversations/versions/') ? 'version'
      : /^conversations\/[^/]+\/turn-/.test(p) ? 'turn' : p.startsWith('conversations/') ? 'head' : 'world';
    mirror[kind] += value.length;
    mirror.keys++;
  });
  return { avg: stats.avgFrameCpuMs, max: stats.maxFrameCpuMs, over16: stats.framesOver16Ms, frames: stats.measuredFrames,
    wasmMb: (typeof HEAP8 !== 'undefined' ? HEAP8.length : 0) / 1048576, wasmInUseMb: (stats.wasmHeapInUseBytes ?? -1048576) / 1048576,
    jsMb: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : -1, storedMb: storedBytes / 1048576, mirror };
});
const kb = (n) => (n / 1024).toFixed(0);
const mirrorText = (m) => `${m.keys} ${kb(m.log)} ${kb(m.turn)} ${kb(m.version)} ${kb(m.head)} ${kb(m.world)} ${kb(m.other)}`;

const started = Date.now();
let failed = 0;
await page.evaluate(() => window.chaiba.resetStats());
console.log(`story page soak: ${turns} turns, ${simple ? 'simple' : 'agentic'} mode, stand-in game master`);
console.log('turn seconds frames frameAvgMs frameMaxMs over16 wasmMB wasmInUseMB jsHeapMB storedMB | mirror: keys, KB of agent logs, ' +
  'turn records, content versions, conversation heads, world files, other');
for (let t = 1; t <= turns; t++) {
  const before = await page.evaluate(() => window.chaiba.story.state().turns.length);
  await page.evaluate((text) => window.chaiba.story.say({ text }), `${lines[t % lines.length]} (${t})`);
  await page.waitForFunction((n) => {
    const s = window.chaiba.story.state();
    return s.phase === 'idle' && (s.turns.length > n || s.error);
  }, before, { timeout: 120000, polling: 100 });
  const err = await page.evaluate(() => window.chaiba.story.state().error);
  if (err) { failed++; console.log(`turn ${t}: error ${err}`); }
  if (t % step === 0 || t === turns) {
    const f = await sample();
    console.log(`${t} ${((Date.now() - started) / 1000).toFixed(0)} ${f.frames} ${f.avg.toFixed(2)} ${f.max.toFixed(1)} ${f.over16} ` +
      `${f.wasmMb.toFixed(1)} ${f.wasmInUseMb.toFixed(1)} ${f.jsMb.toFixed(1)} ${f.storedMb.toFixed(1)} | ${mirrorText(f.mirror)}`);
  }
}
const played = await page.evaluate(() => window.chaiba.story.state().turns.length);
console.log(`played ${played} turns (${failed} failed) in ${((Date.now() - started) / 1000).toFixed(0)} s`);

// Reload: from navigation to the whole conversation on screen again.
const t0 = Date.now();
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log(`console ${m.type()}: ${m.text().slice(0, 300)}`); });
page.on('crash', () => console.log('the page crashed'));
await page.reload();
try {
  await page.waitForFunction(() => window.chaiba && window.chaiba.story, null, { timeout: 60000 });
} catch (e) {
  console.log(`reload: the page did not start in 60 s (${e.message.split('\n')[0]})`);
  process.exit(1);
}
await page.evaluate(() => window.chaiba.show('story'));
try {
  await page.waitForFunction((n) => window.chaiba.story.state().turns.length >= n, played, { timeout: 60000, polling: 20 });
} catch (e) {
  const st = await page.evaluate(() => { const s = window.chaiba.story.state();
    return { turns: s.turns.length, conversation: s.conversation, conversations: s.conversations, error: s.error, notice: s.notice, phase: s.phase }; });
  console.log(`reload: the conversation did not come back in 60 s: ${JSON.stringify(st).slice(0, 1500)}`);
  process.exit(1);
}
const restoreMs = Date.now() - t0;
await page.evaluate(() => window.chaiba.resetStats());
await page.waitForTimeout(3000);
const after = await sample();
console.log(`reload: ${played} turns back on screen ${restoreMs} ms after navigation; then frame CPU avg ${after.avg.toFixed(2)} ms, ` +
  `max ${after.max.toFixed(1)} ms, ${after.over16} over 16 ms; WASM ${after.wasmMb.toFixed(1)} MB (${after.wasmInUseMb.toFixed(1)} in use), ` +
  `JS heap ${after.jsMb.toFixed(1)} MB; ` +
  `mirror ${mirrorText(after.mirror)}`);
await browser.close();
await server.close();
await mock.close?.();
process.exit(0);
