// Browser tests of the piece sets and board themes (issue #15): the SVG pieces are rasterised at
// the board's square size and drawn instead of the font glyphs; Settings switches the set and the
// squares' colours at once; a resize makes the new size (and only a few sizes on the way); a build
// without the pieces draws glyphs and says why. One browser for the file.
// usage: node pieces_test.mjs SITE_DIR SCREENSHOT_DIR
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer, launchBrowser, runTests, clickItem, decodePng, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const browser = await launchBrowser();
const openPage = (context) => openPageAt(context, server.url);
const board = (page) => page.evaluate(() => window.chaiba.state().board);

// The start position, kept still (two people to move, nobody moves).
async function startPosition(page) {
  await page.evaluate(() => window.chaiba.newMatch({ white: 'human', black: 'human' }));
  await page.waitForFunction(() => window.chaiba.state().status === 'running', null, { timeout: 20000 });
}

// Waits until the board's pieces are images made for exactly its square size.
async function waitForAtlas(page, what) {
  await page.waitForFunction(() => {
    const b = window.chaiba.state().board;
    return b && b.pieceImagesPx > 0 && b.pieceImagesPx === Math.round(b.squarePx);
  }, null, { timeout: 20000 }).catch(async () => {
    throw new Error(`${what}: the piece images never matched the square: ${JSON.stringify(await board(page))}`);
  });
  await page.waitForTimeout(300); // the frame with them is drawn
}

// The pixels of one square ("e1") of the match board in a screenshot, as [r, g, b] triples.
async function squarePixels(page, png, name) {
  const [x, y, w] = (await page.evaluate(() => window.chaiba.ui())).board;
  const ratio = png.width / (await page.evaluate(() => window.innerWidth));
  const sq = (w / 8) * ratio;
  const col = name.charCodeAt(0) - 97, row = 8 - Number(name[1]); // White at the bottom
  const x0 = Math.round(x * ratio + col * sq), y0 = Math.round(y * ratio + row * sq);
  const out = [];
  // A pixel's margin inside the square keeps the neighbours and the frame out.
  for (let py = y0 + 2; py < y0 + sq - 2; py++) {
    for (let px = x0 + 2; px < x0 + sq - 2; px++) {
      const i = (py * png.width + px) * 4;
      out.push([png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]]);
    }
  }
  return out;
}

const near = (p, c, tol = 6) => Math.abs(p[0] - c[0]) <= tol && Math.abs(p[1] - c[1]) <= tol && Math.abs(p[2] - c[2]) <= tol;
const share = (pixels, fn) => pixels.filter(fn).length / pixels.length;
// The share of pixels that differ clearly between two crops of the same square.
const differing = (a, b) => share(a.map((p, i) => [p, b[i]]), ([p, q]) => Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 60);

async function shot(page, name) {
  return decodePng(await page.screenshot({ path: path.join(shots, name) }));
}

let problem = false; // whether Settings said the chosen pieces are not drawn, before the last choice

// Opens Settings (once) and scrolls it until the named widget shows (ui() leaves out what is
// scrolled away).
async function scrollSettingsTo(page, item) {
  if (!(await page.evaluate(() => !!window.chaiba.ui()['settings.window']))) {
    await clickItem(page, 'header.settings');
    await page.waitForFunction(() => !!window.chaiba.ui()['settings.window'], null, { timeout: 20000 });
  }
  const win = (await page.evaluate(() => window.chaiba.ui()))['settings.window'];
  await page.mouse.move(win[0] + win[2] / 2, win[1] + win[3] / 2);
  for (let i = 0; i < 40 && !(await page.evaluate((n) => !!window.chaiba.ui()[n], item)); i++) {
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(100);
  }
}

// Clicks choices of the board section in Settings, then closes it. A choice given as
// [item, check] is clicked again (up to 3 times) until check(board state) holds in the page: on a
// loaded machine a click can land while the panel is still scrolling.
async function chooseInSettings(page, items) {
  for (const entry of items) {
    const [item, check] = Array.isArray(entry) ? entry : [entry, null];
    for (let attempt = 0; attempt < 3; attempt++) {
      await scrollSettingsTo(page, item);
      if (entry === items[0] && attempt === 0) problem = await page.evaluate(() => !!window.chaiba.ui()['settings.pieces.problem']);
      await clickItem(page, item, 5000);
      await page.waitForTimeout(150);
      if (!check) break;
      const done = await page.waitForFunction(check, null, { timeout: 5000 }).then(() => true, () => false);
      if (done) break;
    }
  }
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.chaiba.ui()['settings.window'], null, { timeout: 20000 });
}

const BROWN_LIGHT = [240, 217, 181], BLUE_LIGHT = [222, 227, 230];
const WHITE = [255, 255, 255], BLACK = [0, 0, 0];

await runTests([
  ['1. cburnett pieces on brown squares by default, made at the square size; glyphs and merida differ; blue squares from Settings', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await startPosition(page);
    await waitForAtlas(page, 'cburnett');
    let b = await board(page);
    if (JSON.stringify(b.lightSquare) !== JSON.stringify(BROWN_LIGHT)) throw new Error(`default light square ${b.lightSquare}`);
    const cburnett = await shot(page, 'pieces-cburnett-1280x800.png');
    const e1 = await squarePixels(page, cburnett, 'e1'), e8 = await squarePixels(page, cburnett, 'e8');
    const e4 = await squarePixels(page, cburnett, 'e4');
    // e4 is an empty light square: all of it the theme's light colour.
    if (share(e4, (p) => near(p, BROWN_LIGHT)) < 0.97) throw new Error(`e4 is not brown's light colour: ${e4[0]}`);
    // The white king: white body and black lines over the dark square; the black king mostly black.
    const e1White = share(e1, (p) => near(p, WHITE, 12)), e1Black = share(e1, (p) => near(p, BLACK, 40));
    if (e1White < 0.08 || e1Black < 0.04) throw new Error(`e1 has ${(e1White * 100).toFixed(1)}% white, ${(e1Black * 100).toFixed(1)}% black pixels`);
    const e8Black = share(e8, (p) => near(p, BLACK, 40));
    if (e8Black < 0.15) throw new Error(`e8 (the black king) has ${(e8Black * 100).toFixed(1)}% black pixels`);

    // Font glyphs from Settings: the same square drawn another way.
    await chooseInSettings(page, [['settings.pieces.glyphs', () => window.chaiba.state().board.pieceImagesPx === 0]]);
    if (problem) throw new Error('Settings said the cburnett pieces are not drawn while they are');
    await page.waitForFunction(() => window.chaiba.state().board.pieceImagesPx === 0, null, { timeout: 30000 });
    await page.waitForTimeout(300);
    const glyphs = await shot(page, 'pieces-glyphs-1280x800.png');
    const glyphDiff = differing(e1, await squarePixels(page, glyphs, 'e1'));
    if (glyphDiff < 0.05) throw new Error(`the cburnett king looks like the glyph king (${(glyphDiff * 100).toFixed(1)}% of e1 differs)`);

    // Merida on blue squares: both at once, from the same panel.
    await chooseInSettings(page, ['settings.pieces.merida',
      ['settings.board.blue', () => window.chaiba.state().board.lightSquare.join() === '222,227,230']]);
    await waitForAtlas(page, 'merida');
    b = await board(page);
    if (JSON.stringify(b.lightSquare) !== JSON.stringify(BLUE_LIGHT)) throw new Error(`blue light square is ${b.lightSquare}`);
    const merida = await shot(page, 'pieces-merida-blue-1280x800.png');
    const e4Blue = await squarePixels(page, merida, 'e4');
    if (share(e4Blue, (p) => near(p, BLUE_LIGHT)) < 0.97) throw new Error(`e4 is not blue's light colour: ${e4Blue[0]}`);
    const m1 = await squarePixels(page, merida, 'e1');
    if (share(m1, (p) => near(p, WHITE, 12)) < 0.05) throw new Error('the merida white king has no white pixels');
    // The black king is black: as packaged, its crown's white gradient drew it white-bodied
    // (e8: 5.5% pure white pixels, 27% dark); mended, no pure white and about a third dark.
    const m8 = await squarePixels(page, merida, 'e8');
    const dark = (px) => share(px, (p) => p[0] + p[1] + p[2] < 150);
    const light = (px) => share(px, (p) => near(p, WHITE, 10));
    if (!(light(m8) < 0.02 && dark(m8) > 0.3))
      throw new Error(`the merida black king is not black: e8 dark ${dark(m8).toFixed(2)} white ${light(m8).toFixed(2)}, ` +
        `e1 dark ${dark(m1).toFixed(2)} white ${light(m1).toFixed(2)}`);
    // The choice is kept with the other settings.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('chaiba.settings')));
    if (stored.pieceSet !== 'merida' || stored.boardTheme !== 'blue') throw new Error(`stored ${stored.pieceSet} / ${stored.boardTheme}`);
    // The arena's tiles use the same look (a tile's light squares are blue).
    await page.evaluate(() => { window.chaiba.arena.show(); window.chaiba.arena.configure({ name: 'Look',
      participants: ['engine:0', 'random'], format: 'roundrobin', games: 2, concurrency: 2, maxPlies: 400, seed: 1 }); });
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => window.chaiba.arena.state().live.length >= 1 && !!window.chaiba.ui()['arena.tile.0'],
      null, { timeout: 30000 });
    await page.waitForTimeout(800);
    const arenaShot = await shot(page, 'pieces-arena-merida-blue-1280x800.png');
    const tile = (await page.evaluate(() => window.chaiba.ui()))['arena.tile.0'];
    let blue = 0;
    for (let y = Math.round(tile[1]); y < tile[1] + tile[3]; y++)
      for (let x = Math.round(tile[0]); x < tile[0] + tile[2]; x++) {
        const i = (y * arenaShot.width + x) * 4;
        if (near([arenaShot.pixels[i], arenaShot.pixels[i + 1], arenaShot.pixels[i + 2]], BLUE_LIGHT, 3)) blue++;
      }
    if (blue < 200) throw new Error(`the arena tile shows ${blue} pixels of blue's light squares`);
    await page.evaluate(() => window.chaiba.arena.stop());
    errors.check();
    await context.close();
  }],

  ['2. a resize makes the new square size, and few sizes on the way; the phone layout too', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await startPosition(page);
    await waitForAtlas(page, 'start');
    const before = await board(page);
    const madeBefore = (await page.evaluate(() => window.chaiba.stats())).imageAtlasesMade;
    // A window dragged smaller in 12 steps, 40 ms apart (faster than the 200 ms settle time). On a
    // loaded machine a step itself can take longer than the settle time; such a pause may rightly
    // make its size, so each gap over 150 ms allows one more atlas (none on an idle machine).
    let slowGaps = 0;
    let last = Date.now();
    for (let i = 1; i <= 12; i++) {
      await page.setViewportSize({ width: 1280 - i * 25, height: 800 - i * 15 });
      await page.waitForTimeout(40);
      if (Date.now() - last > 150) ++slowGaps;
      last = Date.now();
    }
    await waitForAtlas(page, 'after the resize');
    const after = await board(page);
    if (Math.round(after.squarePx) === Math.round(before.squarePx)) throw new Error(`the square stayed ${before.squarePx} px`);
    const made = (await page.evaluate(() => window.chaiba.stats())).imageAtlasesMade - madeBefore;
    if (made < 1 || made > 3 + slowGaps)
      throw new Error(`${made} atlases were made for one resize (the settle time should keep it to 1-3, plus ${slowGaps} for steps slower than it)`);
    await shot(page, 'pieces-resized-980x620.png');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForAtlas(page, 'phone');
    await shot(page, 'pieces-cburnett-390x844.png');
    errors.check();
    await context.close();
  }],

  ['3. a build without the piece files draws glyphs and Settings says why', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.route('**/pieces/index.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"sets": []}' }));
    const { page, errors } = await openPage(context);
    await startPosition(page);
    await page.waitForTimeout(1500);
    const b = await board(page);
    if (b.pieceImagesPx !== 0) throw new Error(`images drawn without files: ${JSON.stringify(b)}`);
    const png = await shot(page, 'pieces-missing-1280x800.png');
    const e1 = await squarePixels(page, png, 'e1');
    if (share(e1, (p) => near(p, WHITE, 12)) < 0.03) throw new Error('no piece is drawn on e1 (the glyphs should be)');
    await scrollSettingsTo(page, 'settings.pieces.cburnett');
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(300);
    await shot(page, 'pieces-missing-settings-1280x800.png');
    if (!(await page.evaluate(() => !!window.chaiba.ui()['settings.pieces.problem'])))
      throw new Error('Settings does not say why the pieces are glyphs');
    errors.check();
    await context.close();
  }],
]);
await browser.close();
await server.close();
