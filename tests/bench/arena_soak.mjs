// Arena soak benchmark in headless Chromium (a benchmark, not a test: it prints figures): 16 live
// boards of 50 mock models (the local OpenRouter stand-in) for a while, one line per window with
// frames over 16 ms, tick avg/worst, the WASM heap, the JS heap, the arena's stored records held in
// memory (storeMB), the page's renderer process (RSS from /proc; private footprint and the main
// allocators from Chromium's memory-infra dump: malloc, partition_alloc, blink_gc, v8), event
// listeners and DOM nodes (CDP Memory.getDOMCounters; in brackets after a full garbage collection,
// which the soak forces once a window, after the memory figures). Mode "seeded" first stores
// 10 000 finished games (an import, written one record per game), measures a reload until the
// tournament is ready, then runs the same soak on top of them. Each window also prints where the
// machine's CPU went (the page's main thread with the time it waited for a core and how often it
// was preempted, the renderer's other threads, the GPU process, the browser, the stand-in; from
// /proc, Linux only; SOAK_TIDS=1 names the renderer's threads one by one) and the page's
// background work (rating-interval jobs, the move-quality analysis). SOAK_ANSWER_MS=N makes the
// stand-in's models take N ms an answer: a fixed offered load instead of all the machine has.
//
// The browser is driven by a bare DevTools client (tests/bench/cdp_raw.mjs: Runtime.evaluate and
// no domain enabled), not Playwright: Playwright enables the Network domain on its pages, and
// DevTools then keeps the requests and responses in the renderer (blink::NetworkResourcesData in
// blink_gc, their data in partition_alloc's buffer partition): ~10 MB a minute of private memory in
// this soak, which no user's browser has. SOAK_DEVTOOLS_NETWORK=1 turns that domain on to show it.
// usage: node tests/bench/arena_soak.mjs [SITE_DIR] [CHAIBA_BINARY] [SECONDS] [live|seeded] [WINDOW_SECONDS]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const here = path.dirname(new URL(import.meta.url).pathname);
const { startStaticServer, startMock } = await import(path.join(here, '..', 'e2e', 'lib.mjs'));
const { launchRaw } = await import(path.join(here, 'cdp_raw.mjs'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const chaiba = path.resolve(process.argv[3] || 'build/native/chaiba');
const seconds = Number(process.argv[4] || 300);
const mode = process.argv[5] || 'live';
const windowSeconds = Number(process.argv[6] || 20);
const players = 50;
const seededGames = 10000;

const server = await startStaticServer(site);
// SOAK_ANSWER_MS=N: the stand-in's models take N ms an answer (a fixed offered load); unset, they
// answer as fast as the stand-in can (~5 ms): the page then takes all the machine has.
const answerMs = Number(process.env.SOAK_ANSWER_MS || 0);
const mock = await startMock(chaiba, 'sk-mock-key', { answerMs });
process.on('exit', () => mock.close());
const browser = await launchRaw(server.url);
const page = browser.page;
const cdp = { send: (method, params) => browser.conn.send(method, params, page.sessionId) };
if (process.env.SOAK_DEVTOOLS_NETWORK === '1') {
  await cdp.send('Network.enable');
  console.log('DevTools Network domain enabled (SOAK_DEVTOOLS_NETWORK=1), as Playwright does');
}
const waitForFrames = (n, timeout) => page.waitForFunction((k) => window.chaiba && window.chaiba.ready &&
  window.chaiba.stats().framesRendered >= k, n, { timeout });
await waitForFrames(3, 120000);

// The page's renderer process in Chromium's memory dump (the renderer with the largest private
// footprint: the page is the only one open) with its RSS from /proc.
const MB = 1048576;
async function rendererMemory() {
  const procs = await browser.memoryDump();
  let best = null;
  for (const [pid, p] of Object.entries(procs))
    if (p.name === 'Renderer' && (!best || (p.totals.private_footprint_bytes || 0) > (best.totals.private_footprint_bytes || 0))) best = { pid, ...p };
  if (!best) throw new Error('no renderer process in the memory dump');
  let rssMb = 0;
  try { rssMb = Number(fs.readFileSync(`/proc/${best.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024; } catch { /* not on Linux */ }
  const size = (name) => ((best.allocators[name] || {}).size || 0) / MB;
  return { pid: best.pid, rssMb, pmfMb: (best.totals.private_footprint_bytes || 0) / MB, mallocMb: size('malloc'),
    partitionMb: size('partition_alloc'), blinkGcMb: size('blink_gc'), v8Mb: size('v8') };
}

async function sample() {
  const heap = await cdp.send('Runtime.getHeapUsage');
  const counters = await cdp.send('Memory.getDOMCounters');
  const page_ = await page.evaluate(() => {
    const a = window.chaiba.arena.state();
    const idb = window.Module && Module.chaibaIdb;
    let storeChars = 0;
    if (idb) for (const v of idb.map.values()) storeChars += v.length;
    // The IndexedDB writes go out after the tick (one transaction per turn of the event loop):
    // their main-thread time is counted apart, then zeroed with the window's other figures.
    const flush = idb ? { count: idb.flushes || 0, totalMs: idb.flushMs || 0, worstMs: idb.flushWorstMs || 0 } : null;
    if (idb) idb.flushes = idb.flushMs = idb.flushWorstMs = 0;
    return { flush, stats: window.chaiba.stats(), heapMb: (typeof HEAP8 !== 'undefined' ? HEAP8.length : 0) / 1048576,
      storeMb: storeChars / 1048576, finished: a.gamesFinished, folded: a.foldedGames, live: a.live.length, phase: a.phase, error: a.error,
      ratingJobs: a.ratingsWorker ? a.ratingsWorker.sent : null, ratingsError: a.ratingsWorker ? a.ratingsWorker.error : '', analysisWaiting: a.analysis ? a.analysis.waiting : null,
      analysedMoves: (a.leaderboard || []).reduce((n, r) => n + (r.analysedMoves || 0), 0) };
  });
  const memory = await rendererMemory();
  // Listeners again after a full garbage collection: the count above includes those of finished
  // requests and IndexedDB transactions that are garbage not yet collected.
  await cdp.send('HeapProfiler.collectGarbage');
  const after = await cdp.send('Memory.getDOMCounters');
  return { ...page_, jsHeapMb: heap.usedSize / MB, listeners: counters.jsEventListeners,
    listenersGc: after.jsEventListeners, nodes: counters.nodes, nodesGc: after.nodes, ...memory };
}

// Where the machine's CPU went, from /proc (Linux; null elsewhere): the page's main thread (its
// thread id is the renderer's process id) with the time it waited for a core (schedstat's run
// delay) and how often it was preempted (nonvoluntary context switches), the renderer's other
// threads, Chromium's GPU process (software GL here: it draws the page's frames), the browser and
// its utility processes (the network service), the OpenRouter stand-in with its `chaiba` helper,
// this benchmark's own process (the static server and the DevTools client), and the machine.
const HZ = 100; // USER_HZ: /proc's utime and stime are in these ticks
function cpuOfStat(stat) {
  const fields = stat.split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / HZ;
}
function cpuSnapshot(rendererPid) {
  try {
    const info = new Map(); // pid -> { parent, cpu, cmdline }
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        info.set(pid, { parent: stat.split(') ')[1].split(' ')[1], cpu: cpuOfStat(stat),
          cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
      } catch { /* the process ended meanwhile */ }
    }
    const under = (pid, root) => { for (let p = pid, n = 0; p && p !== '0' && n < 16; p = info.get(p)?.parent, ++n) if (p === String(root)) return true; return false; };
    const sum = (pred) => [...info.entries()].filter(([pid, x]) => pred(pid, x)).reduce((a, [, x]) => a + x.cpu, 0);
    const chromium = String(browser.browserPid);
    const renderer = String(rendererPid);
    const schedstat = fs.readFileSync(`/proc/${renderer}/task/${renderer}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    const status = fs.readFileSync(`/proc/${renderer}/task/${renderer}/status`, 'utf8');
    const cpuLine = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const main = cpuOfStat(fs.readFileSync(`/proc/${renderer}/task/${renderer}/stat`, 'utf8'));
    const threads = new Map(); // the renderer's other threads by name (workers, compositor, GC helpers)
    for (const tid of fs.readdirSync(`/proc/${renderer}/task`)) {
      if (tid === renderer) continue;
      try {
        const stat = fs.readFileSync(`/proc/${renderer}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const key = process.env.SOAK_TIDS === '1' ? `${name}#${tid}` : name;
        threads.set(key, (threads.get(key) || 0) + cpuOfStat(stat));
      } catch { /* the thread ended meanwhile */ }
    }
    return {
      main, mainWaited: schedstat[1] / 1e9, mainPreempted: Number(status.match(/nonvoluntary_ctxt_switches:\s+(\d+)/)[1]),
      rendererOther: (info.get(renderer)?.cpu ?? 0) - main,
      gpu: sum((pid, x) => x.cmdline.includes('--type=gpu-process') && under(pid, chromium)),
      browser: sum((pid, x) => (pid === chromium || x.cmdline.includes('--type=utility')) && under(pid, chromium)),
      standIn: sum((pid) => under(pid, mock.pid)),
      bench: info.get(String(process.pid))?.cpu ?? 0,
      machineBusy: (cpuLine[0] + cpuLine[1] + cpuLine[2] + cpuLine[5] + cpuLine[6] + cpuLine[7]) / HZ, // user nice system irq softirq steal
      threads, at: Date.now(),
    };
  } catch { return null; } // not on Linux
}
function cpuText(a, b) {
  if (!a || !b) return '';
  const s = (b.at - a.at) / 1000;
  const pct = (k) => `${(100 * (b[k] - a[k]) / s).toFixed(0)} %`;
  return `         cpu (% of a core; the machine has ${os.cpus().length}): the page's main thread ${pct('main')}` +
    ` (waited ${(b.mainWaited - a.mainWaited).toFixed(1)} s for a core, preempted ${b.mainPreempted - a.mainPreempted}×),` +
    ` the renderer's other threads ${pct('rendererOther')}, GPU process ${pct('gpu')}, browser and network ${pct('browser')},` +
    ` the OpenRouter stand-in ${pct('standIn')}, this benchmark ${pct('bench')}; the machine ${pct('machineBusy')} busy` +
    `\n         the renderer's other threads: ` + [...b.threads.entries()].map(([name, v]) => [name, v - (a.threads.get(name) || 0)])
      .filter(([, v]) => v > 0).sort((x, y) => y[1] - x[1]).slice(0, 6).map(([name, v]) => `${name} ${(100 * v / s).toFixed(0)} %`).join(', ');
}

// 10 000 finished games for 50 players: a short native tournament of random movers, its finished
// games repeated under new ids (any order of pairings fits the continuous arena), the players
// renamed as the mock models the soak then plays.
function seedBundle() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaiba-soak-'));
  const config = { name: 'Soak', participants: Array.from({ length: players }, (_, i) => ({ spec: 'random', name: `Model ${i + 1}` })),
    format: 'arena', games: 300, concurrency: 16, maxPlies: 24, seed: 3 };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  execFileSync(chaiba, ['arena', '--config', path.join(dir, 'config.json'), '--out', path.join(dir, 'out')], { stdio: 'ignore' });
  const bundle = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'tournament.json'), 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  const done = bundle.games.filter((g) => g.result !== '*');
  bundle.games = Array.from({ length: seededGames }, (_, i) => ({ ...done[i % done.length], id: i, round: 0 }));
  for (const p of bundle.config.participants) p.spec = 'llm:mock/legal';
  bundle.config.games = seededGames * 10;
  bundle.config.maxPlies = 400;
  delete bundle.leaderboard;
  return JSON.stringify(bundle);
}

await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
await page.evaluate(() => window.chaiba.show('arena'));
if (mode === 'seeded') {
  // Written straight into IndexedDB as the page stores a tournament (a head and one record per
  // finished game), in one transaction; then a reload, timed until the page shows all of them.
  const bundle = JSON.parse(seedBundle());
  // As the page's store writes them (version 2: each move an array, TurnLayout::Compact);
  // SOAK_NAMED=1 writes version 1's named moves, as an older page did.
  const named = process.env.SOAK_NAMED === '1';
  const head = { format: 'chaiba-arena-store', version: named ? 1 : 2, mode: 'chess', epoch: 1, config: bundle.config,
    ratingOptions: bundle.ratingOptions, phase: 'stopped', running: [] };
  const compact = (t) => [t.uci, t.san, t.reasoning, t.attempts, t.illegalAttempts, t.costUsd, t.promptTokens,
    t.completionTokens, t.cachedTokens, t.reasoningTokens, t.cpLoss, t.judgement];
  const records = bundle.games.map((g) => JSON.stringify(named ? g : { ...g, moves: g.moves.map(compact) }));
  let t0 = Date.now();
  // Handed to the page in slices (one DevTools message each), then written in one transaction.
  for (let i = 0; i < records.length; i += 500)
    await page.evaluate((slice) => { (window.soakRecords = window.soakRecords || []).push(...slice); }, records.slice(i, i + 500));
  await page.evaluate(({ head }) => new Promise((resolve, reject) => {
    const records = window.soakRecords;
    delete window.soakRecords;
    const req = indexedDB.open('chaiba', 1);
    req.onsuccess = () => {
      const tx = req.result.transaction('kv', 'readwrite');
      const os = tx.objectStore('kv');
      os.put(JSON.stringify(head), 'chaiba.arena.head');
      os.put('1', 'chaiba.arena.epoch');
      records.forEach((r, i) => os.put(r, `chaiba.arena.game.1.${i}`));
      tx.oncomplete = () => { req.result.close(); resolve(); };
      tx.onerror = () => reject(new Error('seeding failed'));
    };
  }), { head });
  const mb = records.reduce((n, r) => n + r.length, 0) / 1048576;
  console.log(`seeded: ${seededGames} game records (${mb.toFixed(1)} MB) written in ${Date.now() - t0} ms`);
  t0 = Date.now();
  await page.reload();
  await page.waitForFunction((n) => window.chaiba && window.chaiba.ready && window.chaiba.arena.state().gamesFinished === n,
    seededGames, { timeout: 120000, polling: 20 });
  const readyMs = Date.now() - t0;
  const idbMs = await page.evaluate(() => (window.Module && Module.chaibaIdb ? Module.chaibaIdb.loadMs : -1));
  console.log(`seeded: reload of ${seededGames} stored games ready in ${readyMs} ms (IndexedDB read ${Math.round(idbMs)} ms of it)`);
  const loadSections = (await page.evaluate(() => window.chaiba.stats().sections)).filter((x) => x.name.startsWith('arena.'));
  console.log(`seeded: in the page: ${loadSections.slice(0, 8).map((x) => `${x.name} ${x.totalMs.toFixed(0)} ms`).join(' · ')}`);
  await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
  await page.evaluate(() => { window.chaiba.show('arena'); window.chaiba.arena.resume(); });
} else {
  const participants = Array.from({ length: players }, (_, i) => ({ spec: 'llm:mock/legal', name: `Model ${i + 1}` }));
  await page.evaluate((p) => {
    window.chaiba.arena.configure({ name: 'Soak', participants: p, format: 'arena', games: 100000, concurrency: 16, maxPlies: 400 });
    window.chaiba.arena.start();
  }, participants);
}
try {
  await page.waitForFunction(() => window.chaiba.arena.state().live.filter((g) => g.plies > 0).length >= 16, undefined, { timeout: 300000 });
} catch (err) {
  const a = await page.evaluate(() => window.chaiba.arena.state());
  throw new Error(`${err.message}\n(arena: phase ${a.phase}, ${a.live.length} live, plies ${a.live.map((g) => g.plies).join(' ')}, error ${a.error})`);
}
console.log(`mode ${mode}: ${players} players, 16 boards, ${seconds} s in ${windowSeconds} s windows; the stand-in's models answer ${answerMs ? `in ${answerMs} ms` : 'as fast as it can'}`);
console.log('   t(s)  games  frames  >16ms  frameMax  tickAvg  tickMax  wasmMB  jsHeapMB  storeMB  rendererMB  privateMB  malloc  partAlloc  blinkGc   v8  listeners(afterGC)  nodes(afterGC)');
const start = Date.now();
let cpuMark = cpuSnapshot((await rendererMemory()).pid);
let jobsMark = null;
await page.evaluate(() => {
  window.chaiba.resetStats();
  const idb = window.Module && Module.chaibaIdb;
  if (idb) idb.flushes = idb.flushMs = idb.flushWorstMs = 0;
});
// SOAK_PROFILE=N: the main thread's CPU profile over the whole run, the N functions with the most
// self time (a page built with --profiling-funcs names its WebAssembly functions).
const profileTop = Number(process.env.SOAK_PROFILE || 0);
if (profileTop > 0) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
}
while (Date.now() - start < seconds * 1000) {
  await page.waitForTimeout(windowSeconds * 1000);
  const s = await sample();
  await page.evaluate(() => window.chaiba.resetStats());
  const st = s.stats;
  console.log(`${String(Math.round((Date.now() - start) / 1000)).padStart(7)} ${String(s.finished).padStart(6)} ${String(st.measuredFrames).padStart(7)}` +
    ` ${String(st.framesOver16Ms).padStart(6)} ${st.maxFrameCpuMs.toFixed(1).padStart(9)} ${st.avgTickCpuMs.toFixed(2).padStart(8)}` +
    ` ${st.maxTickCpuMs.toFixed(1).padStart(8)} ${s.heapMb.toFixed(0).padStart(7)} ${s.jsHeapMb.toFixed(0).padStart(9)}` +
    ` ${s.storeMb.toFixed(1).padStart(8)} ${s.rssMb.toFixed(0).padStart(11)} ${s.pmfMb.toFixed(0).padStart(10)}` +
    ` ${s.mallocMb.toFixed(1).padStart(7)} ${s.partitionMb.toFixed(1).padStart(10)} ${s.blinkGcMb.toFixed(1).padStart(8)} ${s.v8Mb.toFixed(1).padStart(4)}` +
    ` ${String(s.listeners).padStart(10)} (${s.listenersGc})`.padEnd(19) + ` ${String(s.nodes).padStart(6)} (${s.nodesGc})` +
    (s.error ? `  (${s.error.slice(0, 60)})` : ''));
  // Where the loop's time went in the window (named sections, costliest first): count, avg, worst.
  const sections = (st.sections || []).slice(0, Number(process.env.SOAK_SECTIONS || 8)).map((x) =>
    `${x.name} ${x.totalMs.toFixed(0)} ms (${x.count}× avg ${(x.totalMs / Math.max(1, x.count)).toFixed(2)} worst ${x.worstMs.toFixed(1)})`);
  if (s.flush && s.flush.count)
    sections.push(`after the tick: idb.flush ${s.flush.totalMs.toFixed(0)} ms (${s.flush.count}× avg ${(s.flush.totalMs / s.flush.count).toFixed(2)} worst ${s.flush.worstMs.toFixed(1)})`);
  if (sections.length) console.log(`         sections: ${sections.join(' · ')}`);
  // The tick runs at each loop call and, between frames, as answers arrive (one answer a run).
  // Ticks and frames timed by the page's clock (wall time) beside the CPU time its main thread got:
  // on a saturated machine the first exceeds the second by the time the thread waited for a core.
  const cpu = cpuSnapshot(s.pid);
  const timedSeconds = (st.avgTickCpuMs * st.measuredTicks + (st.avgFrameCpuMs || 0) * st.measuredFrames) / 1000;
  const busy = cpu && cpuMark ? `; ticks and frames took ${timedSeconds.toFixed(1)} s by the page's clock, ` +
    `its main thread ran ${(cpu.main - cpuMark.main).toFixed(1)} s` : '';
  if (st.measuredTicks) console.log(`         ticks: ${st.measuredTicks} (${st.ticksBetweenFrames} between frames), ${st.ticksOver8Ms} over 8 ms${busy}`);
  // The page's background work in the window: rating-interval jobs sent to the engine worker, and
  // the move-quality analysis (moves analysed so far, finished games waiting for it).
  if (s.ratingJobs !== null) {
    console.log(`         background: ${s.ratingJobs - (jobsMark ?? 0)} rating-interval jobs sent; ${s.analysedMoves} moves analysed, ${s.analysisWaiting} finished games waiting for their analysis${s.ratingsError ? ` (${s.ratingsError})` : ''}; ${s.folded} finished games held folded`);
    jobsMark = s.ratingJobs;
  }
  const text = cpuText(cpuMark, cpu);
  if (text) console.log(text);
  cpuMark = cpu;
}
if (profileTop > 0) {
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  let total = 0;
  const deltas = new Map();
  profile.samples.forEach((id, i) => deltas.set(id, (deltas.get(id) || 0) + (profile.timeDeltas[i] || 0)));
  for (const node of profile.nodes) {
    const us = deltas.get(node.id) || 0;
    const name = node.callFrame.functionName || `(${node.callFrame.url.split('/').pop() || 'anonymous'})`;
    self.set(name, (self.get(name) || 0) + us);
    total += us;
  }
  console.log(`main-thread profile: ${(total / 1e6).toFixed(1)} s sampled; self time, top ${profileTop}:`);
  for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, profileTop))
    console.log(`${(us / 1000).toFixed(0).padStart(9)} ms  ${(100 * us / total).toFixed(1).padStart(5)} %  ${name.slice(0, 110)}`);
}
await browser.close();
mock.close();
await server.close();
