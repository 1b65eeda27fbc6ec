// Browser tests of the first minutes a newcomer spends with the chess screens (issue "Chess as a
// newcomer meets it"): a saved key switches the defaults at once, money spent never goes down, the
// unplayed go last, the New Game dialog, one state after a refused key, a new key or base URL used
// by Retry and Resume without a reload, keys and typed characters kept in order within a slow
// frame. One browser for the file; two local OpenRouter mocks.
// usage: node newcomer_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer, startMock, launchBrowser, runTests, longestFirst, clickItem, clickUntil, waitForFrames, afterFrames, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const mockServerA = await startMock(chaiba);
// A second server that knows another key: pointing the page at it gives a 401 with the right key.
const mockServerB = await startMock(chaiba, 'sk-other' + '-mock-key');
const mockA = { key: mockServerA.key, baseUrl: mockServerA.baseUrl };
const mockB = { key: mockServerB.key, baseUrl: mockServerB.baseUrl };
const browser = await launchBrowser();
const state = (page) => page.evaluate(() => window.chaiba.state());
const arena = (page) => page.evaluate(() => window.chaiba.arena.state());
const ui = (page) => page.evaluate(() => window.chaiba.ui());
const openPage = (context) => openPageAt(context, server.url);
// A fresh profile whose engines move at once (the default paces each move by 700 ms for a person
// to follow): for the cases that wait on whole games, whatever their pace.
async function engineAtOnce(context) {
  await context.addInitScript(() => {
    if (!localStorage.getItem('chaiba.settings')) localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":0}');
  });
  return context;
}
const hasModels = (cfg) => cfg.participants.some((p) => String(p.spec || p).startsWith('llm:'));
// The browser logs refused responses itself (401 and the like); anything else is an error.
// Stop and Pause cancel the calls in flight (net::ERR_ABORTED): by design.
const expectedNoise = (e) => /status of (400|401|402|404|429)/.test(e) || /net::ERR_ABORTED/.test(e);
const check = (errors) => {
  errors.errors.splice(0, errors.errors.length, ...errors.errors.filter((e) => !expectedNoise(e)));
  errors.check();
};
const inside = (inner, outer, slack = 1) => inner[0] >= outer[0] - slack && inner[1] >= outer[1] - slack &&
  inner[0] + inner[2] <= outer[0] + outer[2] + slack && inner[1] + inner[3] <= outer[1] + outer[3] + slack;

// The piece placement of Chess960 position `n` by Scharnagl's numbering (518 is the standard
// one): an oracle written apart from the engine's own table.
function chess960Placement(n) {
  const rank = Array(8).fill(null);
  const empty = () => rank.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0);
  rank[2 * (n % 4) + 1] = 'B'; n = Math.floor(n / 4);
  rank[2 * (n % 4)] = 'B'; n = Math.floor(n / 4);
  rank[empty()[n % 6]] = 'Q'; n = Math.floor(n / 6);
  const knights = ['NN---', 'N-N--', 'N--N-', 'N---N', '-NN--', '-N-N-', '-N--N', '--NN-', '--N-N', '---NN'][n];
  const five = empty();
  for (let i = 0; i < 5; i++) if (knights[i] === 'N') rank[five[i]] = 'N';
  const [r1, k, r2] = empty();
  rank[r1] = 'R'; rank[k] = 'K'; rank[r2] = 'R';
  const white = rank.join('');
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white}`;
}

const only = process.env.NEWCOMER_ONLY; // a substring of test names, to run a few while working
const tests = [
  ['1. saving a key switches Start match and the arena setup to models at once; removing it switches back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    let st = await state(page);
    if (!st.next || st.next.white !== 'engine:4') throw new Error(`without a key: ${JSON.stringify(st.next)}`);
    if (hasModels((await arena(page)).config)) throw new Error('the arena offers models without a key');
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mockA);
    await afterFrames(page, 4, 300);
    // What the button plays now (the shipped model list: the mock refuses them, which is fine here).
    await clickItem(page, 'match.start');
    await page.waitForFunction(() => window.chaiba.state().status !== 'empty', null, { timeout: 10000 });
    st = await state(page);
    if (!st.white.startsWith('llm:')) throw new Error(`with a key, Start match played ${st.white} vs ${st.black}`);
    await page.evaluate(() => window.chaiba.pause());
    await page.waitForFunction(() => window.chaiba.arena.state().config.participants
      .some((p) => String(p.spec || p).startsWith('llm:')), null, { timeout: 10000 });
    await page.evaluate(() => window.chaiba.configure({ apiKey: '' }));
    await page.waitForFunction(() => window.chaiba.state().next.white === 'engine:4', null, { timeout: 10000 });
    await page.waitForFunction(() => !window.chaiba.arena.state().config.participants
      .some((p) => String(p.spec || p).startsWith('llm:')), null, { timeout: 10000 });
    // A field the person chose stays as chosen.
    await page.evaluate(() => window.chaiba.arena.configure({ name: 'Mine', participants: ['engine:1', 'random'],
      format: 'roundrobin', games: 2, concurrency: 1, maxPlies: 20, seed: 3 }));
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key }), mockA);
    await page.waitForFunction(() => window.chaiba.state().next.white.startsWith('llm:'), null, { timeout: 10000 });
    if ((await arena(page)).config.name !== 'Mine') throw new Error('a chosen arena field was replaced');
    check(errors);
    await context.close();
  }],

  ['6. a refused key: one state everywhere (stopped, Retry, banner, card status in its card, header)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: 'sk-wrong' + '-key', baseUrl: m.baseUrl }), mockA);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'engine:1' }));
    await page.waitForFunction(() => window.chaiba.state().reason !== '' && window.chaiba.state().status !== 'running',
      null, { timeout: 30000 });
    await afterFrames(page, 4, 300);
    const st = await state(page);
    const items = await ui(page);
    await page.screenshot({ path: path.join(shots, 'newcomer-refused-key-1280x800.png') });
    if (st.status !== 'stopped') throw new Error(`status ${st.status} (a refused key stops the game; nothing is decided)`);
    if (!items['match.retry'] || items['match.start']) throw new Error(`main button: ${Object.keys(items).filter((k) => k.startsWith('match.')).join(' ')}`);
    if (!items['match.banner']) throw new Error('no banner');
    if (!items['header.keyRefused'] || items['header.keyState']) throw new Error('the header still says the key is set');
    const status = items['card.white.status'], card = items['card.white'];
    if (!status || !card || !inside(status, card)) throw new Error(`card status ${status} outside its card ${card}`);
    // Settings says the same: the stored key is refused (it said "✓ Key stored" in green).
    await clickUntil(page, 'header.settings', () => !!window.chaiba.ui()['settings.key.refused'] || !!window.chaiba.ui()['settings.key.stored']);
    const inSettings = await ui(page);
    if (!inSettings['settings.key.refused'] || inSettings['settings.key.stored']) throw new Error('Settings calls the refused key stored');
    check(errors);
    await context.close();
  }],

  ['#16. after a 401, a new key and a new base URL are used by Retry and by the arena\'s Resume', async () => {
    const context = await engineAtOnce(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
    const { page, errors } = await openPage(context);
    const stopped = () => page.waitForFunction(() => /401|key/i.test(window.chaiba.state().reason) &&
      window.chaiba.state().status !== 'running', null, { timeout: 30000 });
    // A wrong key, then the right one: Retry continues the same game.
    await page.evaluate((m) => window.chaiba.configure({ apiKey: 'sk-wrong' + '-key', baseUrl: m.baseUrl }), mockA);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'engine:1' }));
    await stopped();
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key }), mockA);
    await clickItem(page, 'match.retry');
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 2, null, { timeout: 30000 });
    // The right key on the wrong server (it knows another key), then the right server.
    await page.evaluate((m) => window.chaiba.configure({ baseUrl: m.baseUrl }), mockB);
    await stopped();
    const plies = (await state(page)).moves.length;
    await page.evaluate((m) => window.chaiba.configure({ baseUrl: m.baseUrl }), mockA);
    await clickItem(page, 'match.retry');
    await page.waitForFunction((n) => window.chaiba.state().moves.length >= n + 2, plies, { timeout: 30000 });
    await page.evaluate(() => window.chaiba.pause());
    // The arena: paused by the 401, resumed with the right key.
    await page.evaluate(() => window.chaiba.configure({ apiKey: 'sk-wrong' + '-key' }));
    await page.evaluate(() => { window.chaiba.arena.show(); window.chaiba.arena.configure({ name: 'Keys',
      participants: ['llm:mock/legal', 'engine:1'], format: 'roundrobin', games: 2, concurrency: 1, maxPlies: 12, seed: 2 }); });
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => ['paused', 'stopped'].includes(window.chaiba.arena.state().phase) &&
      /401|key/i.test(window.chaiba.arena.state().error), null, { timeout: 30000 });
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key }), mockA);
    await page.evaluate(() => window.chaiba.arena.resume());
    await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 1, null, { timeout: 120000 });
    const a = await arena(page);
    if (/401/.test(a.error)) throw new Error(`still refused after Resume: ${a.error}`);
    check(errors);
    await context.close();
  }],

  ['2. the arena\'s cost estimate starts from the real prompt size, then follows the measured costs', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mockA);
    await page.evaluate(() => { window.chaiba.arena.show(); window.chaiba.arena.configure({ name: 'Estimate',
      participants: ['llm:mock/legal', 'random'], format: 'roundrobin', games: 2, concurrency: 1, maxPlies: 80, seed: 6 }); });
    // The catalog gives the mock's prices; the estimate needs them.
    await page.waitForFunction(() => window.chaiba.arena.state().estimate.usd > 0, null, { timeout: 20000 });
    const before = (await arena(page)).estimate;
    if (before.measured) throw new Error('an estimate before any game cannot be measured');
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 1, null, { timeout: 180000 });
    await page.evaluate(() => window.chaiba.arena.stop());
    const a = await arena(page);
    const row = a.leaderboard.find((r) => r.name.includes('mock/legal'));
    // The mock bills the request body / 4 as prompt tokens and 24 answer tokens a move.
    const measuredPrompt = row.avgTokensPerMove - 24;
    console.log(`     estimate ${before.promptTokensPerMove.toFixed(0)} prompt tokens a move; measured ${measuredPrompt.toFixed(0)} (${row.games} games)`);
    // The mock's replies are shorter than a model's, so its prompts are a floor for the estimate.
    if (!(before.promptTokensPerMove >= measuredPrompt && before.promptTokensPerMove <= 4 * measuredPrompt))
      throw new Error(`estimated ${before.promptTokensPerMove} prompt tokens a move, the game measured ${measuredPrompt}`);
    if (!a.estimate.measured) throw new Error('the estimate did not move to the measured costs');
    // Two games for the model: the estimate is what its games cost, per game, times two.
    const expected = row.costUsd / row.games * 2;
    if (Math.abs(a.estimate.usd - expected) > expected * 0.01 + 1e-9)
      throw new Error(`estimate ${a.estimate.usd}, measured per game x games ${expected}`);
    await page.screenshot({ path: path.join(shots, 'newcomer-arena-estimate-1280x800.png') });
    check(errors);
    await context.close();
  }],

  ['3. Stop never sets the spent total to $0; money spent never goes down (Stop, Resume)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mockA);
    await page.evaluate(() => { window.chaiba.arena.show(); window.chaiba.arena.configure({ name: 'Money',
      participants: ['llm:mock/slow', 'llm:mock/legal', 'engine:1'], format: 'roundrobin', games: 1, concurrency: 2,
      maxPlies: 200, seed: 4 }); });
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => window.chaiba.arena.state().spentUsd > 0 &&
      window.chaiba.arena.state().live.some((g) => g.plies >= 3), null, { timeout: 60000 });
    let seen = (await arena(page)).spentUsd;
    const watch = async (label, ms) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        const s = (await arena(page)).spentUsd;
        if (s < seen - 1e-12) throw new Error(`${label}: spent went down from ${seen} to ${s}`);
        seen = Math.max(seen, s);
        await page.waitForTimeout(100);
      }
    };
    await page.evaluate(() => window.chaiba.arena.stop());
    await watch('after Stop', 1500);
    await page.evaluate(() => window.chaiba.arena.resume());
    await watch('after Resume', 2500);
    await page.screenshot({ path: path.join(shots, 'newcomer-arena-spent-1280x800.png') });
    await page.evaluate(() => window.chaiba.arena.stop());
    await watch('after the second Stop', 800);
    check(errors);
    await context.close();
  }],

  ['4. players with no game are listed last with a dash, in the leaderboard and the standings alike', async () => {
    const context = await engineAtOnce(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
    const { page, errors } = await openPage(context);
    await page.evaluate(() => { window.chaiba.arena.show(); window.chaiba.arena.configure({ name: 'Unplayed',
      participants: ['random', 'engine:3', 'engine:1', 'engine:2', { spec: 'random', name: 'Random B' }],
      format: 'roundrobin', games: 1, concurrency: 1, maxPlies: 80, seed: 9 }); });
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 1, null, { timeout: 120000 });
    await page.evaluate(() => window.chaiba.arena.stop());
    await afterFrames(page, 4, 300);
    const a = await arena(page);
    const rows = a.leaderboard;
    const firstUnplayed = rows.findIndex((r) => r.games === 0);
    if (firstUnplayed < 0) throw new Error('every player has played: the test needs an unplayed one');
    if (rows.slice(firstUnplayed).some((r) => r.games > 0))
      throw new Error(`a player with games is listed below an unplayed one: ${JSON.stringify(rows.map((r) => [r.name, r.games, r.rank]))}`);
    if (rows.slice(firstUnplayed).some((r) => r.rank !== 0)) throw new Error('unplayed players carry a rank');
    const items = await ui(page);
    const ys = rows.map((r) => items['arena.standing.' + r.participant]);
    if (ys.some((r) => !r)) throw new Error(`standings rows missing: ${Object.keys(items).filter((k) => k.startsWith('arena.standing')).join(' ')}`);
    for (let i = 1; i < ys.length; i++)
      if (!(ys[i][1] > ys[i - 1][1])) throw new Error('the standings list the players in another order than the leaderboard');
    await page.screenshot({ path: path.join(shots, 'newcomer-standings-1280x800.png') });
    await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
    await afterFrames(page, 4, 300);
    await page.screenshot({ path: path.join(shots, 'newcomer-leaderboard-1280x800.png') });
    check(errors);
    await context.close();
  }],

  ['8. an HTML error body is reported as such, and retries are counted one way ("retry N of M")', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mockA);
    // mock/garbage answers its first call with an HTML page (HTTP 200), then plays.
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/garbage', black: 'engine:1' }));
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 2, null, { timeout: 60000 });
    const notes = (await state(page)).notes;
    const note = notes.find((n) => n.startsWith('white: retry'));
    if (!note) throw new Error(`no retry note: ${JSON.stringify(notes)}`);
    if (!/HTML page/.test(note) || /stream was empty/.test(note)) throw new Error(`the HTML answer is not named: ${note}`);
    if (!/^white: retry 1 of \d+ /.test(note)) throw new Error(`retry counter format: ${note}`);
    check(errors);
    await context.close();
  }],

  ['9. the debug log: the answer as one wrapped message, the raw stream chunks folded away, rows readable', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mockA);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'engine:1' }));
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 1, null, { timeout: 30000 });
    await page.evaluate(() => window.chaiba.pause());
    await page.waitForFunction(() => !window.chaiba.state().thinking, null, { timeout: 30000 });
    await clickItem(page, 'card.white.log');
    await page.waitForFunction(() => window.chaiba.ui()['debug.window'], null, { timeout: 10000 });
    // The first call (its move was played, so it answered): open it.
    await clickItem(page, 'debug.call.0');
    await page.waitForFunction(() => window.chaiba.ui()['debug.answer'], null, { timeout: 10000 }).catch(() => {});
    let items = await ui(page);
    await page.screenshot({ path: path.join(shots, 'newcomer-debug-log-1280x800.png') });
    const win = items['debug.window'], answer = items['debug.answer'], request = items['debug.request'];
    if (!answer) throw new Error(`no assembled answer box in the debug log: ${Object.keys(items).filter((k) => k.startsWith('debug.')).join(' ')}`);
    // Wrapped, not cut: the boxes lie within the window's width (long JSON lines wrap inside them).
    for (const [name, box] of [['answer', answer], ['request', request]]) {
      if (!box || box[0] < win[0] || box[0] + box[2] > win[0] + win[2] + 1) throw new Error(`the ${name} box ${box} leaves the window ${win}`);
    }
    // The raw stream is one click away, not what is shown.
    if (items['debug.response']) throw new Error('the raw response (stream chunks) is shown by default');
    if (!items['debug.raw']) throw new Error('no way to the raw response');
    const header = items['debug.call.0'];
    if (!header || header[3] < 18) throw new Error(`call rows are too small to read: ${header}`);
    if (answer[3] < 3 * 16) throw new Error(`the answer box is ${answer[3]} px high`);
    await clickItem(page, 'debug.raw');
    await page.waitForFunction(() => window.chaiba.ui()['debug.response'], null, { timeout: 10000 });
    items = await ui(page);
    if (!items['debug.answer']) throw new Error('opening the raw response hid the answer');
    check(errors);
    await context.close();
  }],

  ['8/board. arrow keys right after a click, ui() leaves out scrolled-away rows, Flip swaps the cards, "copied", moves counted as moves, PGN Date and names', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    // Two random movers: a long game at once (the list scrolls far past its first move).
    // A random game that ends (mate, stalemate, bare kings) before 80 moves is a few in a hundred:
    // such a game is replaced by a new one, up to five times.
    for (let attempt = 1; ; ++attempt) {
      await page.evaluate(() => window.chaiba.newMatch({ white: 'random', black: 'random' }));
      await page.waitForFunction(() => window.chaiba.state().moves.length >= 120 || window.chaiba.state().status === 'finished',
        null, { timeout: 120000 });
      await page.evaluate(() => window.chaiba.pause());
      await page.waitForFunction(() => !window.chaiba.state().thinking, null, { timeout: 30000 });
      const plies = (await state(page)).moves.length;
      if (plies >= 80) break;
      if (attempt === 5) throw new Error(`five random games in a row ended before 80 moves (last: ${plies})`);
    }
    await afterFrames(page, 6, 500);
    let items = await ui(page);
    const table = items['moves.table'];
    const rows = Object.keys(items).filter((k) => k.startsWith('moves.ply'));
    if (items['moves.ply1']) throw new Error(`the first move is scrolled out of view yet reported at ${items['moves.ply1']}`);
    for (const k of rows) if (!inside(items[k], table)) throw new Error(`${k} ${items[k]} reported outside the list ${table}`);
    // A click on a move, then at once the left arrow: one move back.
    const target = rows.map((k) => Number(k.slice(9))).sort((a, b) => a - b)[2];
    await clickItem(page, 'moves.ply' + target);
    const afterClick = await state(page); // clickItem returns once the click's frames are drawn
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((n) => window.chaiba.state().viewPly === n - 1, target, { timeout: 5000 })
      .catch(async () => {
        throw new Error(`after a click on ply ${target} [${items['moves.ply' + target]}] and ArrowLeft: viewPly ` +
          `${(await state(page)).viewPly} (${afterClick.viewPly} after the click, ${afterClick.moves.length} plies); ` +
          `the list then: ${JSON.stringify(Object.entries(await ui(page)).filter(([k]) => k.startsWith('moves.ply')).slice(0, 4))}`);
      });
    // The same, with no frame between the click and the key: press, release, key down and key up
    // dispatched in one task (a fast hand, or a slow frame). The key still comes after the click.
    // The list scrolls the viewed move into view over the next frames: read the rows once still.
    for (let prev = ''; ; await page.waitForTimeout(150)) {
      items = await ui(page);
      const now = JSON.stringify(Object.entries(items).filter(([k]) => k.startsWith('moves.ply')));
      if (now === prev) break;
      prev = now;
    }
    const second = Object.keys(items).filter((k) => k.startsWith('moves.ply')).map((k) => Number(k.slice(9)))
      .filter((n) => n !== target - 1).sort((a, b) => a - b)[1];
    const [sx, sy, sw, sh] = items['moves.ply' + second];
    await page.evaluate(([x, y]) => {
      const canvas = document.getElementById('canvas');
      const at = { clientX: x, clientY: y, screenX: x, screenY: y, bubbles: true, cancelable: true, button: 0 };
      canvas.dispatchEvent(new MouseEvent('mousemove', at));
      canvas.dispatchEvent(new MouseEvent('mousedown', { ...at, buttons: 1 }));
      canvas.dispatchEvent(new MouseEvent('mouseup', at));
      const key = { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39, which: 39, bubbles: true, cancelable: true };
      window.dispatchEvent(new KeyboardEvent('keydown', key));
      window.dispatchEvent(new KeyboardEvent('keyup', key));
    }, [sx + sw / 2, sy + sh / 2]);
    await page.waitForFunction((n) => window.chaiba.state().viewPly === n + 1, second, { timeout: 5000 })
      .catch(async () => { throw new Error(`after a click on ply ${second} and ArrowRight in one task: viewPly ${(await state(page)).viewPly}`); });
    // Three taps of the left arrow between two frames (a fast hand): three moves back, not one.
    await page.evaluate(() => {
      const key = { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37, which: 37, bubbles: true, cancelable: true };
      for (let i = 0; i < 3; i++) {
        window.dispatchEvent(new KeyboardEvent('keydown', key));
        window.dispatchEvent(new KeyboardEvent('keyup', key));
      }
    });
    await page.waitForFunction((n) => window.chaiba.state().viewPly === n + 1 - 3, second, { timeout: 5000 })
      .catch(async () => { throw new Error(`three ArrowLeft taps in one task from ply ${second + 1}: viewPly ${(await state(page)).viewPly}`); });
    // A tap whose release comes late (a loaded machine: frames go on while the key-up is on its
    // way), with no repeat from the browser: one move back, not ImGui's repeats after 0.275 s.
    const beforeLate = (await state(page)).viewPly;
    await page.keyboard.down('ArrowLeft');
    await page.waitForTimeout(700);
    await page.keyboard.up('ArrowLeft');
    await afterFrames(page, 4, 400);
    const afterLate = (await state(page)).viewPly;
    if (afterLate !== beforeLate - 1)
      throw new Error(`ArrowLeft down 700 ms without the browser's repeats, from ply ${beforeLate}: viewPly ${afterLate}`);
    // Held, as the browser says it (its repeat keydowns): the list steps on, several moves back.
    await page.keyboard.down('ArrowLeft');
    await page.waitForTimeout(550);
    await page.keyboard.down('ArrowLeft'); // the browser's repeat (KeyboardEvent.repeat)
    await page.waitForTimeout(400);
    await page.keyboard.up('ArrowLeft');
    await afterFrames(page, 4, 400);
    const afterHeld = (await state(page)).viewPly;
    if (!(afterHeld < afterLate - 2))
      throw new Error(`ArrowLeft held with the browser's repeats, from ply ${afterLate}: viewPly ${afterHeld} (it should step on)`);
    // Flip: the cards follow the board.
    items = await ui(page);
    if (!(items['card.white'][0] < items['card.black'][0])) throw new Error('unflipped: White\'s card should come first');
    await clickItem(page, 'match.flip');
    await page.waitForFunction(() => window.chaiba.ui()['card.black'][0] < window.chaiba.ui()['card.white'][0], null, { timeout: 5000 })
      .catch(() => { throw new Error('Flip did not swap the player cards'); });
    await clickItem(page, 'match.copyPgn');
    await page.waitForFunction(() => !!window.chaiba.ui()['match.copied'], null, { timeout: 5000 })
      .catch(() => { throw new Error('no "copied" feedback'); });
    await page.screenshot({ path: path.join(shots, 'newcomer-match-flipped-1280x800.png') });
    const pgn = await page.evaluate(() => window.chaiba.pgn());
    if (!/\[Date "\d{4}\.\d\d\.\d\d"\]/.test(pgn)) throw new Error(`PGN Date: ${pgn.split('\n').find((l) => l.startsWith('[Date'))}`);
    if (!/\[White "Random mover"\]/.test(pgn) || !/\[Black "Random mover"\]/.test(pgn))
      throw new Error(`PGN names: ${pgn.split('\n').filter((l) => /^\[(White|Black) /.test(l)).join(' ')}`);
    check(errors);
    await context.close();
  }],

  ['7. the loading bar counts the bytes of every file, index.wasm included, then says "Starting"', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // A slow network for the app code: index.wasm arrives 3 s after it is asked for.
    let wasmAsked = false;
    await context.route('**/index.wasm', async (route) => {
      wasmAsked = true;
      await new Promise((r) => setTimeout(r, 3000));
      await route.continue();
    });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => /index\.data/.test(document.getElementById('status').textContent) ||
      window.chaibaLoading !== undefined || /100%/.test(document.getElementById('status').textContent), null, { timeout: 20000 }).catch(() => {});
    await page.waitForTimeout(1500); // index.data (small) is in by now; index.wasm is not
    if (!wasmAsked) throw new Error('index.wasm was not requested');
    const during = await page.evaluate(() => ({ text: document.getElementById('status').textContent,
      width: document.getElementById('fill').style.width }));
    if (/Starting|100%/.test(during.text) || during.width === '100%')
      throw new Error(`while index.wasm downloads the loader says "${during.text}" (bar ${during.width})`);
    if (!/index\.wasm/.test(during.text)) throw new Error(`the loader does not say what it waits for: "${during.text}"`);
    await page.screenshot({ path: path.join(shots, 'newcomer-loading-1280x800.png') });
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready && window.chaiba.stats().framesRendered >= 3,
      null, { timeout: 60000 });
    await context.close();
  }],

  ['5. New game dialog: Start/Cancel visible with FEN and PGN, Esc closes the dropdown then the dialog, Chess960 is random', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    const dialogShown = async () => !!(await ui(page))['newgame.window'];
    for (const mode of ['newgame.pgn', 'newgame.fen', 'newgame.chess960']) {
      await clickItem(page, 'match.newGame');
      // A click while the dialog still grows can miss: Chess960 is chosen once its own row shows.
      if (mode === 'newgame.chess960') await clickUntil(page, mode, () => !!window.chaiba.ui()['newgame.chess960Random']);
      else await clickItem(page, mode);
      // The dialog grows to its content a frame after the mode's field shows (longer on a loaded
      // machine: the suite runs browser tests side by side). Until that field shows, ui() is the
      // frame before the click, where Start fitted the smaller dialog. A Start that never shows is
      // named, not a TypeError.
      const field = { 'newgame.pgn': 'newgame.pgnText', 'newgame.fen': 'newgame.fenText', 'newgame.chess960': 'newgame.chess960Random' }[mode];
      await page.waitForFunction((field) => {
        const u = window.chaiba.ui(), s = u['newgame.start'], w = u['newgame.window'];
        return u[field] && s && w && s[1] + s[3] <= w[1] + w[3] + 1;
      }, field, { timeout: 20000 }).catch(() => {});
      const items = await ui(page);
      if (!items['newgame.start'] || !items['newgame.window'])
        throw new Error(`${mode}: no Start ${items['newgame.start']} in a dialog ${items['newgame.window']} after 20 s (${field} ${items[field]})`);
      if (!inside(items['newgame.start'], items['newgame.window']))
        throw new Error(`${mode}: Start ${items['newgame.start']} is cut off by the dialog ${items['newgame.window']}`);
      if (mode === 'newgame.pgn') await page.screenshot({ path: path.join(shots, 'newcomer-newgame-pgn-1280x800.png') });
      if (mode !== 'newgame.chess960') {
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => !window.chaiba.ui()['newgame.window'], null, { timeout: 5000 })
          .catch(async () => {
            await page.screenshot({ path: path.join(shots, 'newcomer-newgame-esc-failed.png') });
            throw new Error(`${mode}: Esc did not close the dialog`);
          });
      }
    }
    // Chess960 as offered: a random position, the one its number names (the draw may be 518,
    // the standard position, so the number is checked, not the position's look).
    await clickUntil(page, 'newgame.start', () => !window.chaiba.ui()['newgame.window']);
    await page.waitForFunction(() => window.chaiba.state().status === 'running', null, { timeout: 20000 })
      .catch(async () => { throw new Error(`the Chess960 game did not start: ${JSON.stringify(await state(page)).slice(0, 400)}`); });
    const started = await state(page);
    const n = started.chess960Number;
    if (!(Number.isInteger(n) && n >= 0 && n <= 959)) throw new Error(`Chess960 was chosen, yet the game is not one: chess960Number ${n}`);
    const expected = chess960Placement(n);
    if (started.startFen.split(' ')[0] !== expected)
      throw new Error(`Chess960 position ${n} started from ${started.startFen}, not ${expected}`);
    // Esc closes an open dropdown first, then the dialog. (The game just started moves the
    // screen's rows for a frame or two: a click on the button's last place may miss, so it is
    // clicked again until the dialog shows.)
    for (let i = 0; i < 3 && !(await dialogShown()); i++) {
      await clickItem(page, 'match.newGame');
      await page.waitForFunction(() => !!window.chaiba.ui()['newgame.window'], null, { timeout: 3000 }).catch(() => {});
    }
    await afterFrames(page, 6, 600); // the dialog settles at its place
    await clickItem(page, 'newgame.White.kind');
    await afterFrames(page, 4, 400);
    await page.screenshot({ path: path.join(shots, 'newcomer-newgame-dropdown-1280x800.png') });
    await page.keyboard.press('Escape');
    await afterFrames(page, 4, 300);
    if (!(await dialogShown())) throw new Error('Esc on the open dropdown closed the whole dialog');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !window.chaiba.ui()['newgame.window'], null, { timeout: 5000 })
      .catch(() => { throw new Error('the second Esc did not close the dialog'); });
    check(errors);
    await context.close();
  }],
  ['10. typing in one slow frame: characters and Backspace keep their order (a FEN with typos fixed)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await clickUntil(page, 'match.newGame', () => !!window.chaiba.ui()['newgame.window']);
    await clickUntil(page, 'newgame.fen', () => !!window.chaiba.ui()['newgame.fenText']);
    // The dialog grows to its content over a frame or two: the field has the keyboard once the
    // click landed on it (the page then captures the keys).
    await clickUntil(page, 'newgame.fenText', () => !!Module.chaibaKeyboardCaptured);
    // Typed as a fast hand (or a slow frame) does: every event in one task, before the next frame.
    // A typo fixed with Backspace, then "1zz" and two Backspaces: a field that took a frame's
    // characters before its keys, or counted two Backspaces as one, ends with another FEN.
    const fen = '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1';
    await page.evaluate((prefix) => {
      const fire = (type, init) => window.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, ...init }));
      const typeChar = (ch) => {
        const code = /[a-z0-9]/i.test(ch) ? ch.toUpperCase().charCodeAt(0) : 0;
        fire('keydown', { key: ch, keyCode: code, which: code });
        fire('keypress', { key: ch, charCode: ch.charCodeAt(0), keyCode: ch.charCodeAt(0), which: ch.charCodeAt(0) });
        fire('keyup', { key: ch, keyCode: code, which: code });
      };
      const backspace = () => {
        fire('keydown', { key: 'Backspace', code: 'Backspace', keyCode: 8, which: 8 });
        fire('keyup', { key: 'Backspace', code: 'Backspace', keyCode: 8, which: 8 });
      };
      for (const ch of prefix + 'x') typeChar(ch);
      backspace();
      for (const ch of '1zz') typeChar(ch);
      backspace();
      backspace();
    }, fen.slice(0, -1));
    // The events that wait for a frame take one each (about four here).
    const frames = (await page.evaluate(() => window.chaiba.stats())).framesRendered;
    await waitForFrames(page, frames + 8);
    await page.screenshot({ path: path.join(shots, 'newcomer-typed-fen-1280x800.png') });
    await clickUntil(page, 'newgame.start', () => !window.chaiba.ui()['newgame.window']);
    await page.waitForFunction((f) => window.chaiba.state().startFen === f, fen, { timeout: 10000 })
      .catch(async () => { throw new Error(`the game did not start from the typed FEN: ${JSON.stringify(await state(page)).slice(0, 300)}`); });
    check(errors);
    await context.close();
  }],
  // One case a page size (they run side by side).
  ['dialogs on a phone (390x844): Werewolf\'s New game, the arena\'s and the planner\'s imports and Story\'s New world lie inside the page, their last row too', async () => {
    const [w, h] = [390, 844];
    const context = await browser.newContext({ viewport: { width: w, height: h } });
    const { page, errors } = await openPage(context);
    const problems = [];
    // Each dialog: its window inside the page, the named widgets on screen and not cut by its edge
    // (a widget wholly past the edge is not reported at all, hence the names it must show).
    const checkDialog = async (label, windowName, prefix, needs) => {
      await page.waitForFunction((n) => !!window.chaiba.ui()[n], windowName, { timeout: 20000 })
        .catch(() => problems.push(`${label}: ${windowName} did not open`));
      await afterFrames(page, 6, 600);
      const items = await ui(page);
      const win = items[windowName];
      if (win && (win[0] < -1 || win[1] < -1 || win[0] + win[2] > w + 1 || win[1] + win[3] > h + 1))
        problems.push(`${label}: the window [${win}] is not inside the ${w}x${h} page`);
      for (const need of needs) if (!items[need]) problems.push(`${label}: ${need} not on screen`);
      for (const [n, r] of Object.entries(items))
        if (n.startsWith(prefix) && n !== windowName && (r[4] === 1 || (win && !inside(r, win, 1))))
          problems.push(`${label}: ${n} [${r}] is cut by the dialog's edge [${win}]`);
      await page.screenshot({ path: path.join(shots, `newcomer-dialog-${label}-${w}x${h}.png`) });
    };
    await page.evaluate(() => window.chaiba.show('werewolf'));
    await clickUntil(page, 'werewolf.newGame', () => !!window.chaiba.ui()['werewolf.new.window']);
    await checkDialog('werewolf-new', 'werewolf.new.window', 'werewolf.new.',
      ['werewolf.new.model', 'werewolf.new.allLlm', 'werewolf.new.rules.kaggle', 'werewolf.new.switches', 'werewolf.new.start']);
    await page.keyboard.press('Escape'); // closes it, as the chess dialog
    await page.waitForFunction(() => !window.chaiba.ui()['werewolf.new.window'], null, { timeout: 5000 })
      .catch(() => problems.push('werewolf-new: Esc did not close the dialog'));
    await page.evaluate(() => window.chaiba.show('arena'));
    await clickUntil(page, 'arena.import', () => !!window.chaiba.ui()['arena.import.window']);
    await checkDialog('arena-import', 'arena.import.window', 'arena.import.', ['arena.import.file', 'arena.import.cancel']);
    await clickUntil(page, 'arena.import.cancel', () => !window.chaiba.ui()['arena.import.window']);
    await page.evaluate(() => window.chaiba.planner.command('open'));
    await clickUntil(page, 'planner.import', () => !!window.chaiba.ui()['planner.importWindow']);
    await checkDialog('planner-import', 'planner.importWindow', 'planner.import.', ['planner.import.file', 'planner.import.sample', 'planner.import.go']);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !window.chaiba.ui()['planner.importWindow'], null, { timeout: 5000 })
      .catch(() => problems.push('planner-import: Esc did not close the dialog'));
    await page.evaluate(() => window.chaiba.planner.command('close'));
    await page.evaluate(() => window.chaiba.show('story'));
    await clickUntil(page, 'story.tab.worlds', () => !!window.chaiba.ui()['story.newWorld']);
    await clickUntil(page, 'story.newWorld', () => !!window.chaiba.ui()['story.newWorld.window']);
    await checkDialog('story-new-world', 'story.newWorld.window', 'story.newWorld.', ['story.newWorld.sample']);
    check(errors);
    await context.close();
    if (problems.length) throw new Error(problems.join('\n'));
  }],
  ...[[1280, 800], [1920, 1080], [390, 844]].map(([w, h]) => [`layouts: at ${w}x${h} no named widget is clipped or overlaps another`, async () => {
    const problems = [];
    const context = await browser.newContext({ viewport: { width: w, height: h } });
    // Engines at once (the default paces each move by 700 ms for a person to follow): the
    // layouts are checked with a game and a grid under way, whatever their pace.
    await context.addInitScript(() => localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":0}'));
    const { page, errors } = await openPage(context);
    const checkScreen = async (label) => {
      await afterFrames(page, 6, 400);
      const items = await ui(page);
      const names = Object.keys(items);
      for (const n of names) {
        const [x, y, iw, ih] = items[n];
        if (x < -1 || y < -1 || x + iw > w + 1 || y + ih > h + 1) problems.push(`${w}x${h} ${label}: ${n} [${items[n]}] outside the page`);
        if (items[n][4] === 1) problems.push(`${w}x${h} ${label}: ${n} [${items[n]}] is cut by its window's edge`);
      }
      // Two widgets overlap when they intersect and neither holds the other (a card holds its
      // buttons, the move list its moves).
      const holds = (a, b) => inside(items[b], items[a], 1);
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          const [a, b] = [items[names[i]], items[names[j]]];
          const ix = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
          const iy = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
          // (ImGui widens selectable rows into the item spacing: a few pixels are not an overlap)
          if (ix > 5 && iy > 5 && !holds(names[i], names[j]) && !holds(names[j], names[i]))
            problems.push(`${w}x${h} ${label}: ${names[i]} [${a}] overlaps ${names[j]} [${b}]`);
        }
      }
      await page.screenshot({ path: path.join(shots, `newcomer-layout-${label}-${w}x${h}.png`) });
      return items;
    };
    // The match screen with a game under way.
    await page.evaluate(() => window.chaiba.newMatch({ white: 'random', black: 'random' }));
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 40 || window.chaiba.state().status === 'finished',
      null, { timeout: 120000 });
    await page.evaluate(() => window.chaiba.pause());
    await page.waitForFunction(() => !window.chaiba.state().thinking, null, { timeout: 30000 });
    const match = await checkScreen('match');
    if (!match['header.cost']) problems.push(`${w}x${h}: the header does not show the cost`);
    if (!match['header.keyState'] && !match['header.keyRefused']) problems.push(`${w}x${h}: the header does not show the key state`);
    if (w === 1280) {
      const row = Object.keys(match).filter((k) => k.startsWith('moves.ply')).map((k) => match[k][3])[0] || 20;
      const table = match['moves.table'];
      if (!table || table[3] < 17 * row) problems.push(`1280x800: the move list shows ${table ? Math.floor(table[3] / row) - 1 : 0} moves, not 16`);
    }
    // The New game dialog with its widest rows (a person's hint, every start choice, the PGN
    // field): each of its widgets inside the dialog and the page (it lies over the screen, so
    // overlaps with the screen's own widgets are not counted). On a phone the start choices wrap.
    await page.evaluate(() => window.chaiba.newMatch({ white: 'human', black: 'random' }));
    await clickUntil(page, 'match.newGame', () => !!window.chaiba.ui()['newgame.window']);
    await clickUntil(page, 'newgame.pgn', () => !!window.chaiba.ui()['newgame.pgnText']);
    await page.waitForFunction(() => {
      const u = window.chaiba.ui(), s = u['newgame.start'], d = u['newgame.window'];
      return s && d && s[1] + s[3] <= d[1] + d[3] + 1;
    }, null, { timeout: 20000 }).catch(() => {});
    await afterFrames(page, 4, 300);
    const dialog = await ui(page);
    for (const need of ['newgame.window', 'newgame.White.kind', 'newgame.chess960', 'newgame.fen', 'newgame.pgn', 'newgame.pgnText', 'newgame.start'])
      if (!dialog[need]) problems.push(`${w}x${h} newgame: ${need} not on screen`);
    for (const n of Object.keys(dialog).filter((k) => k.startsWith('newgame.') && k !== 'newgame.window')) {
      if (dialog['newgame.window'] && !inside(dialog[n], dialog['newgame.window'], 1))
        problems.push(`${w}x${h} newgame: ${n} [${dialog[n]}] outside the dialog [${dialog['newgame.window']}]`);
      if (dialog[n][4] === 1) problems.push(`${w}x${h} newgame: ${n} [${dialog[n]}] is cut by the dialog's edge`);
    }
    await page.screenshot({ path: path.join(shots, `newcomer-layout-newgame-${w}x${h}.png`) });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !window.chaiba.ui()['newgame.window'], null, { timeout: 5000 })
      .catch(() => problems.push(`${w}x${h} newgame: Esc did not close the dialog`));
    // The arena setup, then a grid of six games.
    await page.evaluate(() => window.chaiba.arena.show());
    await checkScreen('arena-setup');
    await page.evaluate(() => window.chaiba.arena.configure({ name: 'Six boards',
      participants: ['engine:0', 'engine:1', 'engine:2', 'engine:3', 'engine:4', 'engine:5', 'engine:6', 'engine:7',
        'random', { spec: 'random', name: 'meta-llama/llama-3.1-405b-instruct' }, { spec: 'random', name: 'Random C' },
        { spec: 'random', name: 'anthropic/claude-3.5-sonnet:beta' }],
      format: 'arena', games: 12, concurrency: 6, maxPlies: 24, seed: 8 }));
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => window.chaiba.arena.state().live.length >= 6, null, { timeout: 60000 });
    const grid = await checkScreen('arena-grid');
    if (w === 1280) {
      const tiles = Object.keys(grid).filter((k) => /^arena\.tile\.\d+$/.test(k));
      if (tiles.length < 6) problems.push(`1280x800: ${tiles.length} of 6 boards visible`);
    }
    // The leaderboard (wide screens; a phone may cut names): long model names are not cut where
    // there is room (columns of lower priority go first). It lists every player after one game.
    if (w >= 1280) {
      await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 1, null, { timeout: 120000 });
      await page.evaluate(() => window.chaiba.arena.stop());
      await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
      const board = await checkScreen('arena-leaderboard');
      const cut = Object.keys(board).filter((k) => k.startsWith('arena.leaderboard.nameCut.'));
      if (cut.length) problems.push(`${w}x${h}: ${cut.length} player name(s) cut in the leaderboard`);
    } else {
      await page.evaluate(() => window.chaiba.arena.stop());
    }
    // Story: the sample world's recorded adventure, eight steps in (a dice roll, off-screen notes).
    await page.evaluate(() => window.chaiba.show('story'));
    await page.evaluate(() => window.chaiba.story.replayStart());
    for (let i = 2; i <= 8; i++) await page.evaluate(() => window.chaiba.story.replayStep());
    await page.waitForFunction(() => !!window.chaiba.ui()['story.replayStep'], null, { timeout: 20000 });
    const storyItems = await checkScreen('story');
    for (const need of ['story.replayStep', 'story.tab.files', 'story.tab.log'])
      if (!storyItems[need]) problems.push(`${w}x${h} story: ${need} not on screen`);
    check(errors);
    await context.close();
    if (problems.length) throw new Error(problems.join('\n'));
  }]),
];
// Two cases at a time (each its own context), the longest first.
const LONGEST_FIRST = ['layouts: at 1920x1080', '8/board.', 'layouts: at 1280x800', '5. New game dialog', '3. Stop never',
  'layouts: at 390x844', '#16.'];
await runTests(longestFirst(only ? tests.filter(([name]) => name.includes(only)) : tests, LONGEST_FIRST), { lanes: 2 });
await browser.close();
mockServerA.close();
mockServerB.close();
await server.close();
