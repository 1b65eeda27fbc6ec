// Browser check of the move-quality analysis on the match screen: the engine (level 4) against the
// random mover; the page scores every position in an engine worker (never on the main thread), the evaluation bar and graph are
// drawn, the random mover's blunders are marked "??" in the move list, and the accuracy is shown.
// usage: node analysis_test.mjs SITE_DIR SCREENSHOT_DIR
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer, launchBrowser, runTests, openPage, decodePng, waitForFrames, clickItem } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const browser = await launchBrowser();
const state = (page) => page.evaluate(() => window.chaiba.state());

await runTests([
  ['eval bar, eval graph and ?? marks for a game against the random mover', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context, server.url);
    // Forty plies, or the end of a shorter game (the engine may mate sooner): over twenty random
    // moves a hung piece or an allowed mate (a blunder) is all but certain; sixteen plies were not.
    // Not certain: a game the random mover lost early may hold only mistakes (a lost position
    // cannot drop 15 win-percent points), so up to three games are played for one with a blunder.
    let st, a;
    for (let game = 0; game < 3; game++) {
      await page.evaluate(() => window.chaiba.newMatch({ white: 'engine:4', black: 'random' }));
      await page.waitForFunction(() => { const s = window.chaiba.state(); return s.moves.length >= 40 || s.status === 'finished'; },
                                 null, { timeout: 240000 });
      await page.evaluate(() => window.chaiba.pause());
      await page.waitForFunction(() => !window.chaiba.state().thinking, null, { timeout: 60000 });
      // Every position gets scored while the game is paused (each by an engine worker).
      await page.waitForFunction(() => window.chaiba.state().analysis.complete, null, { timeout: 180000 });
      st = await state(page);
      a = st.analysis;
      const sent = (await page.evaluate(() => window.chaiba.stats())).workerScoreRequests;
      if (!(sent >= a.total)) throw new Error(`${sent} positions sent to engine workers for ${a.total} scored: the main thread searched`);
      if (a.error) throw new Error(`analysis error: ${a.error}`);
      if (a.total !== st.moves.length + 1) throw new Error(`analysis covers ${a.total} positions for ${st.moves.length} moves`);
      if (a.marks.length !== st.moves.length) throw new Error(`${a.marks.length} marks for ${st.moves.length} moves`);
      if (a.marks.some((m, i) => i % 2 === 1 && m === '??')) break;
      console.log(`note: game ${game + 1}: the random mover made no blunder in ${st.moves.join(' ')}: ${a.marks}`);
    }
    const blackBlunders = a.marks.filter((m, i) => i % 2 === 1 && m === '??').length;
    if (blackBlunders < 1) throw new Error(`the random mover made no blunder in three games; the last: ${st.moves.join(' ')}: ${a.marks}`);
    if (!(a.accuracy.white > a.accuracy.black)) throw new Error(`accuracy: white ${a.accuracy.white}, black ${a.accuracy.black}`);
    if (!(a.acpl.black > a.acpl.white)) throw new Error(`ACPL: white ${a.acpl.white}, black ${a.acpl.black}`);
    await waitForFrames(page, 3);
    // The list shows the newest moves; a blunder early in a long game is scrolled out of view (its
    // row is not drawn, so it has no mark). Step to it from the start with the arrow keys, as a
    // reader would: the list scrolls the viewed move into view and its mark is drawn.
    const blunder = a.marks.findIndex((m, i) => i % 2 === 1 && m === '??');
    await clickItem(page, 'moves.start');
    await page.waitForFunction(() => window.chaiba.state().viewPly === 0, null, { timeout: 10000 });
    for (let i = 0; i <= blunder; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction((n) => window.chaiba.state().viewPly === n, blunder + 1, { timeout: 10000 })
      .catch(async () => { throw new Error(`after ${blunder + 1} steps from the start: viewPly ${(await state(page)).viewPly}`); });
    await waitForFrames(page, 4);
    const ui = await page.evaluate(() => window.chaiba.ui());
    for (const name of ['analysis.evalbar', 'analysis.graph', 'analysis.summary'])
      if (!ui[name] || ui[name][2] < 4 || ui[name][3] < 4) throw new Error(`${name} is not drawn: ${JSON.stringify(ui[name])}`);
    if (!ui[`moves.mark.blunder.${blunder + 1}`])
      throw new Error(`no blunder mark on ply ${blunder + 1} (${st.moves[blunder]}) in the move list: ` +
                      Object.keys(ui).filter((k) => k.startsWith('moves.')).join(' '));
    // The bar is drawn beside the board: its pixels hold both the light and the dark part (or one
    // of them when the game is lopsided) and it sits left of the board.
    const [bx, by, bw, bh] = ui['analysis.evalbar'];
    const [gx, gy, gw, gh] = ui['analysis.graph'];
    const png = decodePng(await page.screenshot({ path: path.join(shots, 'analysis-1280x800.png') }));
    const at = (x, y) => { const i = (Math.round(y) * png.width + Math.round(x)) * 4; return png.pixels[i] + png.pixels[i + 1] + png.pixels[i + 2]; };
    const column = [];
    for (let y = by + 3; y < by + bh - 3; y += 4) column.push(at(bx + bw / 2, y));
    if (!column.some((v) => v > 600) && !column.some((v) => v < 200)) throw new Error('the evaluation bar has neither white nor black');
    if (gw < 100 || gh < 20) throw new Error(`the graph is too small: ${gw}x${gh}`);
    // Clicking the graph's left end shows the start position.
    await page.mouse.click(gx + 4, gy + gh / 2);
    await waitForFrames(page, 3);
    errors.check();
    await context.close();
  }],
]);

await browser.close();
await server.close();
