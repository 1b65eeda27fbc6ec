// Browser tests of the arena's storage (one browser, one profile): a fast engine tournament whose
// tab is killed (renderer crash) mid-run resumes on reopen with every reported game kept and none
// played twice; the store holds one record per finished game (no whole bundle) and a reload
// exports the same bundle; an older page's whole-bundle storage is converted with a message; with
// localStorage full, a reload still reads the key, the settings and the current game and says that
// saving fails. The page's HTTP requests and IndexedDB writes go through its I/O worker; a worker
// that stops mid-tournament, or a host that does not serve it, loses no game: the page takes over.
// usage: node arena_durable_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startStaticServer, waitForFrames, runTests, startMock, clickItem } from './lib.mjs';

// Two exports of the same tournament: equal but for the moment each was written (the bundle's
// harness records its export time).
const sameBundle = (a, b) => {
  const strip = (text) => {
    const doc = JSON.parse(text);
    if (doc.harness) delete doc.harness.exportedAt;
    return JSON.stringify(doc);
  };
  return strip(a) === strip(b);
};

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaibaBinary = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chaiba-durable-'));
// A persistent profile: IndexedDB and localStorage outlive a crashed tab, as in a real browser.
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
const arena = (page) => page.evaluate(() => window.chaiba.arena.state());
// A blank tab kept open throughout: the profile's browser stays up while the tested tab crashes.
const keeper = context.pages()[0] || await context.newPage();
void keeper;

async function open() {
  const page = await context.newPage();
  await page.goto(server.url);
  await waitForFrames(page, 3, 120000);
  return page;
}

// Every record of the page's IndexedDB ("chaiba" / "kv") as [key, value] pairs.
const idbRecords = (page) => page.evaluate(() => new Promise((resolve, reject) => {
  const req = indexedDB.open('chaiba', 1);
  req.onerror = () => reject(new Error('IndexedDB did not open'));
  req.onsuccess = () => {
    const os = req.result.transaction('kv', 'readonly').objectStore('kv');
    const keys = os.getAllKeys();
    const values = os.getAll();
    values.onsuccess = () => { resolve(keys.result.map((k, i) => [String(k), values.result[i]])); req.result.close(); };
    values.onerror = () => reject(new Error('IndexedDB could not be read'));
  };
}));

const finishedIds = (st) => st.games.filter((g) => g.result !== '*').map((g) => g.id);
// The move-quality analysis goes on after the last game: its results are rewritten into the
// stored records as they come, and a reload redoes one whose write had not committed. Two exports
// are compared once it is done on both sides.
const settled = (page) => page.waitForFunction(() => {
  const a = window.chaiba.arena.state().analysis;
  return a.waiting === 0 && a.game < 0;
}, null, { timeout: 300000 });

// The kill test's tournament (10 games reported before the crash, the rest played after it); the
// conversion test reuses what it stored. Its games stop at 20 plies: every finished game's move
// quality is scored (30 000 nodes a position) before the exports are compared, which took two
// thirds of the case at 40 plies; the crash, the resume and the records do not depend on length.
const killTestGames = 16;
const killTestPlies = 20;

await runTests([
  ['a tab killed mid-tournament loses no reported game and plays none twice', async () => {
    let page = await open();
    const total = killTestGames;
    await page.evaluate(([total, maxPlies]) => {
      window.chaiba.show('arena');
      window.chaiba.arena.configure({
        name: 'Kill test', participants: ['random', 'engine:0', { spec: 'random', name: 'Random B' },
          { spec: 'random', name: 'Random C' }, { spec: 'random', name: 'Random D' }, { spec: 'random', name: 'Random E' }],
        format: 'arena', games: total, concurrency: 3, maxPlies, seed: 11 });
      window.chaiba.arena.start();
    }, [total, killTestPlies]);
    // Watch what is reported until enough games finished, then crash the renderer between polls.
    let reported = [];
    for (let i = 0; i < 1200; i++) {
      const st = await arena(page);
      const ids = finishedIds(st);
      if (ids.length < reported.length) throw new Error('a reported game disappeared while running');
      reported = ids;
      if (reported.length >= 10) break;
      await page.waitForTimeout(100);
    }
    if (reported.length < 10) throw new Error(`only ${reported.length} games finished`);
    const cdp = await context.newCDPSession(page);
    await Promise.race([cdp.send('Page.crash').catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
    await page.close().catch(() => {}); // the renderer died: no unload, no last write

    page = await open();
    const back = await arena(page);
    const kept = new Set(finishedIds(back));
    const lost = reported.filter((id) => !kept.has(id));
    if (lost.length) throw new Error(`reported games lost by the crash: ${lost.join(', ')}`);
    if (back.phase !== 'running') throw new Error(`the tournament should resume on reopen, is ${back.phase} (${back.error})`);
    console.log(`     reported before the crash: ${reported.length}; stored: ${kept.size}`);
    // Finished, and the last results shown: a result appears once IndexedDB confirmed its record,
    // which can be a moment after the last game ended.
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 900000 });
    await page.waitForFunction((total) => window.chaiba.arena.state().gamesFinished >= total, total, { timeout: 30000 }).catch(() => {});
    const done = await arena(page);
    const ids = finishedIds(done);
    if (ids.length !== total) throw new Error(`expected exactly ${total} finished games, found ${ids.length}`);
    if (new Set(ids).size !== ids.length) throw new Error('a game is stored twice');
    if (done.gamesFinished !== total) throw new Error(`gamesFinished says ${done.gamesFinished}`);
    for (const id of reported) {
      const before = done.games.find((g) => g.id === id);
      if (!before || before.result === '*') throw new Error(`game ${id} is not finished after resuming`);
    }

    // One record per finished game, no whole bundle; a reload exports the same bundle.
    const records = await idbRecords(page);
    const gameRecords = records.filter(([k]) => k.startsWith('chaiba.arena.game.') && !k.endsWith('.corrupt'));
    if (records.some(([k]) => k === 'chaiba.arena.bundle')) throw new Error('a whole bundle is stored');
    const epoch = JSON.parse(records.find(([k]) => k === 'chaiba.arena.head')[1]).epoch;
    const current = gameRecords.filter(([k]) => k.startsWith(`chaiba.arena.game.${epoch}.`));
    if (current.length !== total) throw new Error(`expected ${total} game records, found ${current.length}`);
    const biggest = Math.max(...records.map(([, v]) => String(v).length));
    if (biggest > 100000) throw new Error(`a record of ${biggest} characters: not one game`);
    await settled(page);
    const exported = await page.evaluate(() => window.chaiba.arena.exportJson());
    await page.reload();
    await waitForFrames(page, 3, 120000);
    await settled(page);
    const again = await page.evaluate(() => window.chaiba.arena.exportJson());
    if (!sameBundle(again, exported)) throw new Error('the reloaded tournament exports a different bundle');
    await page.close();
  }],

  ['an older page\'s whole-bundle storage is converted on load, with a message', async () => {
    let page = await open();
    const exported = await page.evaluate(() => window.chaiba.arena.exportJson());
    // Rewrite the database as an older page left it: the bundle under one key, the phase beside.
    await page.evaluate((bundle) => new Promise((resolve, reject) => {
      const req = indexedDB.open('chaiba', 1);
      req.onsuccess = () => {
        const tx = req.result.transaction('kv', 'readwrite');
        const os = tx.objectStore('kv');
        os.clear();
        os.put(bundle, 'chaiba.arena.bundle');
        os.put('{"phase": "finished", "excludeForfeits": false}', 'chaiba.arena.state');
        tx.oncomplete = () => { req.result.close(); resolve(); };
        tx.onerror = () => reject(new Error('could not write the old layout'));
      };
    }), exported);
    await page.close();
    page = await open();
    const st = await arena(page);
    if (!/converted/.test(st.error)) throw new Error(`no conversion message: "${st.error}"`);
    if (st.gamesFinished !== killTestGames) throw new Error(`after conversion ${st.gamesFinished} games`);
    const again = await page.evaluate(() => window.chaiba.arena.exportJson());
    if (!sameBundle(again, exported)) throw new Error('the converted tournament exports a different bundle');
    const records = await idbRecords(page);
    if (records.some(([k]) => k === 'chaiba.arena.bundle')) throw new Error('the old bundle was not removed');
    await page.close();
  }],

  ['with localStorage full a reload reads the key, settings and game, and says saving fails', async () => {
    let page = await open();
    const key = 'sk-or-v1-' + '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
    await page.evaluate((k) => {
      window.chaiba.configure({ apiKey: k, baseUrl: 'http://127.0.0.1:9/api/v1', timeoutSeconds: 77 });
      window.chaiba.show('match');
      window.chaiba.newMatch({ white: 'random', black: 'random' });
      window.chaiba.start();
    }, key);
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 6, null, { timeout: 60000 });
    await page.evaluate(() => window.chaiba.pause());
    await page.waitForTimeout(500);
    const before = await page.evaluate(() => window.chaiba.state());
    // Fill localStorage to the last byte it takes.
    const filled = await page.evaluate(() => {
      let chunk = 'x'.repeat(1 << 20), n = 0; // keys count too: 'filler.N' plus a value down to 1 character
      for (;;) {
        try { localStorage.setItem('filler.' + n, chunk); n++; }
        catch (e) { if (chunk.length <= 1) return n; chunk = chunk.slice(0, chunk.length >> 1); }
      }
    });
    const full = await page.evaluate(() => { try { localStorage.setItem('__chaiba_probe__', '1'); localStorage.removeItem('__chaiba_probe__'); return false; } catch (e) { return true; } });
    if (!full) throw new Error('localStorage did not fill');
    await page.reload();
    await waitForFrames(page, 3, 120000);
    const warning = await page.evaluate(() => window.chaiba.storageWarning());
    if (!/full/.test(warning)) throw new Error(`no plain warning that saving fails: "${warning}"`);
    const after = await page.evaluate(() => window.chaiba.state());
    if (after.moves.length !== before.moves.length || after.moves.join(' ') !== before.moves.join(' '))
      throw new Error(`the current game was not read back: ${after.moves.length} moves, had ${before.moves.length}`);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shots, 'storage-full-1280x800.png') });
    const ui = await page.evaluate(() => window.chaiba.ui());
    if (!ui['header.storageWarning']) throw new Error('the warning is not shown in the header');
    // The key was read: a model can be chosen (without a key the page refuses it).
    const refused = await page.evaluate(() => {
      try { window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'random' }); return ''; } catch (e) { return e.message; }
    });
    if (/API key/.test(refused)) throw new Error(`the stored key was not read: ${refused}`);
    console.log(`     filled localStorage with ${filled} chunks; warning: ${warning}`);
    await page.evaluate(() => { for (const k of Object.keys(localStorage)) if (k.startsWith('filler.')) localStorage.removeItem(k); });
    await page.close();
  }],

  ['the I/O worker stops mid-tournament: the page makes the requests and writes, no game is lost', async () => {
    const mock = await startMock(chaibaBinary);
    try {
      const page = await open();
      await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
      const total = 8;
      await page.evaluate((total) => {
        window.chaiba.show('arena');
        window.chaiba.arena.reset(); // the profile keeps the tournament of the tests before
        window.chaiba.arena.configure({ name: 'Worker stops', format: 'arena', games: total, concurrency: 2, maxPlies: 30, seed: 5,
          participants: ['llm:mock/legal', { spec: 'llm:mock/legal', name: 'Legal B' }, { spec: 'llm:mock/legal', name: 'Legal C' }, 'random'] });
      }, total);
      await page.waitForFunction(() => window.chaiba.arena.state().catalog === 'ready', null, { timeout: 30000 });
      await page.evaluate(() => window.chaiba.arena.start());
      // The worker made the model calls and the writes so far; two games are in.
      await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 2, null, { timeout: 180000 });
      const before = (await page.evaluate(() => window.chaiba.stats())).io;
      if (!before.worker || !before.workerDb || before.failed) throw new Error(`the I/O worker is not in use: ${JSON.stringify(before)}`);
      if (!(before.requestsInWorker > 0 && before.writesInWorker > 0))
        throw new Error(`requests and writes did not go through the worker: ${JSON.stringify(before)}`);
      // It stops (as a crashed worker does) while requests are under way.
      await page.evaluate(() => Module.chaibaIo.worker.dispatchEvent(new ErrorEvent('error', { message: 'stopped by the test' })));
      await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 300000 })
        .catch(async () => { throw new Error(`not finished: ${JSON.stringify(await arena(page)).slice(0, 400)}`); });
      await page.waitForFunction((total) => window.chaiba.arena.state().gamesFinished >= total, total, { timeout: 30000 }).catch(() => {});
      const after = (await page.evaluate(() => window.chaiba.stats())).io;
      if (!/stopped by the test/.test(after.failed)) throw new Error(`the stop is not reported: ${JSON.stringify(after)}`);
      if (!(after.requestsOnPage > 0 && after.writesOnPage > 0))
        throw new Error(`the page did not take over the requests and writes: ${JSON.stringify(after)}`);
      const done = await arena(page);
      const ids = finishedIds(done);
      if (ids.length !== total || new Set(ids).size !== total) throw new Error(`expected ${total} finished games, found ${ids.join(',')}`);
      // A request the worker held when it stopped is retried like any transport error: no forfeit.
      const forfeits = done.games.filter((g) => /forfeit/.test(g.termination || ''));
      if (forfeits.length) throw new Error(`forfeits after the stop: ${forfeits.map((g) => `${g.id} ${g.termination} ${g.detail || ''}`).join('; ')}`);
      // Every game is stored: a reload shows the same tournament.
      await settled(page);
      const exported = await page.evaluate(() => window.chaiba.arena.exportJson());
      await page.reload();
      await waitForFrames(page, 3, 120000);
      await settled(page);
      const again = await page.evaluate(() => window.chaiba.arena.exportJson());
      if (!sameBundle(again, exported)) throw new Error('the reloaded tournament differs from the one played');
      console.log(`     worker: ${before.requestsInWorker} requests, ${before.writesInWorker} writes; then the page: ${after.requestsOnPage} requests, ${after.writesOnPage} writes`);
      await page.close();
    } finally {
      mock.close();
    }
  }],

  ['a host that does not serve io_worker.js: the page makes its requests and writes itself and says why', async () => {
    const mock = await startMock(chaibaBinary);
    try {
      const page = await context.newPage();
      await page.route('**/io_worker.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
      await page.goto(server.url);
      await waitForFrames(page, 3, 120000);
      await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
      await page.waitForFunction(() => !!window.chaiba.stats().io.failed, null, { timeout: 30000 });
      await page.evaluate(() => {
        window.chaiba.show('arena');
        window.chaiba.arena.reset();
        window.chaiba.arena.configure({ name: 'No worker', format: 'arena', games: 3, concurrency: 2, maxPlies: 20, seed: 9,
          participants: ['llm:mock/legal', { spec: 'llm:mock/legal', name: 'Legal B' }, 'random'] });
      });
      await page.waitForFunction(() => window.chaiba.arena.state().catalog === 'ready', null, { timeout: 30000 });
      await page.evaluate(() => window.chaiba.arena.start());
      await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 300000 });
      const io = (await page.evaluate(() => window.chaiba.stats())).io;
      if (io.worker || io.requestsInWorker || io.writesInWorker) throw new Error(`a worker was used: ${JSON.stringify(io)}`);
      if (!(io.requestsOnPage > 0 && io.writesOnPage > 0)) throw new Error(`requests or writes missing: ${JSON.stringify(io)}`);
      await settled(page);
      const exported = await page.evaluate(() => window.chaiba.arena.exportJson());
      await page.reload();
      await waitForFrames(page, 3, 120000);
      await settled(page);
      const again = await page.evaluate(() => window.chaiba.arena.exportJson());
      if (!sameBundle(again, exported)) throw new Error('the reloaded tournament differs from the one played');
      console.log(`     without the worker: ${io.failed}; ${io.requestsOnPage} requests, ${io.writesOnPage} writes on the page`);
      await page.close();
    } finally {
      mock.close();
    }
  }],

  ['older finished games are held folded and read back from IndexedDB: the game view, the export, a reload', async () => {
    // 90 finished games from `chaiba arena` (the page keeps its latest 64 whole).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaiba-fold-'));
    try {
      execFileSync(chaibaBinary, ['arena', '--players', 'random,engine:0,engine:1,engine:2', '--games', '90', '--concurrency', '4',
        '--max-plies', '20', '--analyse-nodes', '0', '--seed', '4', '--out', path.join(dir, 't'), '--quiet'], { stdio: 'ignore' });
      const bundle = fs.readFileSync(path.join(dir, 't', 'tournament.json'), 'utf8');
      const ucis = new Map(JSON.parse(bundle).games.map((g) => [g.id, { startFen: g.startFen, moves: g.moves.map((m) => m.uci) }]));
      const page = await open();
      await page.evaluate((b) => {
        window.chaiba.show('arena');
        window.chaiba.arena.reset();
        window.chaiba.arena.importJson(b);
      }, bundle);
      // Folded once IndexedDB confirmed their records, and no finished game's record stays in the
      // page's memory copy of the database (read back from IndexedDB when needed).
      await page.waitForFunction(() => window.chaiba.arena.state().foldedGames === 26, null, { timeout: 60000 });
      const heldRecords = () => page.evaluate(() => [...Module.chaibaIdb.map.keys()].filter((k) => k.startsWith('chaiba.arena.game.')).length);
      await page.waitForFunction(() => [...Module.chaibaIdb.map.keys()].every((k) => !k.startsWith('chaiba.arena.game.')), null, { timeout: 30000 })
        .catch(async () => { throw new Error(`${await heldRecords()} finished games' records stay in the page's memory`); });
      const sameMoves = (label, id, got) => {
        const want = ucis.get(id);
        if (!want || got.startFen !== want.startFen || JSON.stringify(got.moves) !== JSON.stringify(want.moves))
          throw new Error(`${label}: game ${id} does not have its moves back`);
      };
      const st = await arena(page);
      const folded = st.games.filter((g) => g.folded);
      if (folded.length !== 26 || folded.some((g) => g.moves !== undefined || !(g.plies > 0)))
        throw new Error(`expected 26 folded games without moves in memory: ${JSON.stringify(folded.slice(0, 2))}`);
      for (const g of folded) {
        const whole = await page.evaluate((id) => window.chaiba.arena.game(id), g.id);
        if (!whole.heldFolded) throw new Error(`game ${g.id} should be held folded`);
        sameMoves('game view', g.id, whole);
      }
      // Its full view: board, move list and reasoning panels from the record read back.
      await page.evaluate((id) => window.chaiba.arena.select(id), folded[0].id);
      await waitForFrames(page, 3, 30000);
      await page.screenshot({ path: path.join(shots, 'arena-folded-game.png') });
      const shown = await arena(page);
      if (shown.selectedGame !== folded[0].id || shown.error) throw new Error(`the folded game's view: ${shown.selectedGame}, ${shown.error}`);
      // The export writes every game whole.
      const exported = JSON.parse(await page.evaluate(() => window.chaiba.arena.exportJson()));
      if (exported.games.length !== 90) throw new Error(`the export has ${exported.games.length} games`);
      for (const g of exported.games) sameMoves('export', g.id, { startFen: g.startFen, moves: g.moves.map((m) => m.uci) });
      // A reload holds them folded from the start.
      await page.reload();
      await waitForFrames(page, 3, 120000);
      const back = await arena(page);
      if (back.foldedGames !== 26) throw new Error(`after a reload ${back.foldedGames} games are held folded`);
      if (await heldRecords() !== 0) throw new Error(`after a reload ${await heldRecords()} records stay in the page's memory`);
      sameMoves('after a reload', folded[1].id, await page.evaluate((id) => window.chaiba.arena.game(id), folded[1].id));
      // The sidebar's Export JSON button: the download comes once the games are read back.
      await page.evaluate(() => { window.chaiba.show('arena'); window.chaiba.arena.select(null); });
      await waitForFrames(page, 3, 30000);
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), clickItem(page, 'arena.exportJson')]);
      const downloaded = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
      if (downloaded.games.length !== 90) throw new Error(`the downloaded export has ${downloaded.games.length} games`);
      for (const g of downloaded.games) sameMoves('download', g.id, { startFen: g.startFen, moves: g.moves.map((m) => m.uci) });
      const notice = (await arena(page)).notice;
      if (!/Downloaded chaiba-tournament\.json/.test(notice)) throw new Error(`after the download the sidebar says: ${notice}`);
      console.log(`     26 of 90 games held folded, no record in the page's memory copy; every one read back from IndexedDB whole, in the export and after a reload`);
      await page.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }],
]);

await context.close();
await server.close();
fs.rmSync(profile, { recursive: true, force: true });
