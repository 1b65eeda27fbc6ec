// Regenerates the README's screenshots from the built page (a tool, not a test): a game between
// two models served by the local mock at 1280x800, the same screen on a phone (390x844), and the
// arena (its live grid and its leaderboard) with six mock models, five engine levels and the
// random mover, and the Story screen after a turn with a dice roll and an off-screen pre-step
// (the sample world, the mock game master), and on a phone after a person's edit and a turn.
// SHOTS=match,arena,story picks some of them.
// usage: node readme_screenshots.mjs SITE_DIR OUT_DIR CHAIBA_BINARY
import path from 'node:path';
import { startStaticServer, startMock, launchBrowser, waitForFrames } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const out = path.resolve(process.argv[3] || 'assets/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
const server = await startStaticServer(site);
const mock = await startMock(chaiba);
const browser = await launchBrowser();
// A page of the site with the mock's key and URL set.
async function openWithMock(context) {
  const page = await context.newPage();
  await page.goto(server.url);
  await waitForFrames(page, 3);
  await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }),
    { key: mock.key, baseUrl: mock.baseUrl });
  return page;
}
const wanted = (what) => !process.env.SHOTS || process.env.SHOTS.split(',').includes(what);

for (const [name, options] of wanted('match') ? [
  ['match-1280x800.png', { viewport: { width: 1280, height: 800 } }],
  ['match-390x844.png', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
] : []) {
  const context = await browser.newContext(options);
  const page = await openWithMock(context);
  await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/illegal-once', black: 'llm:mock/legal' }));
  await page.waitForFunction(() => window.chaiba.state().moves.length >= 17, null, { timeout: 120000 });
  await page.evaluate(() => window.chaiba.pause());
  await page.waitForFunction(() => !window.chaiba.state().thinking, null, { timeout: 30000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, name) });
  console.log(`wrote ${path.join(out, name)}`);
  await context.close();
}
if (wanted('arena')) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await openWithMock(context);
  const models = ['mock/legal', 'mock/illegal-once', 'anthropic/mock-claude', 'mock/ratelimit', 'mock/text-mode', 'mock/always-illegal'];
  await page.evaluate((ms) => {
    window.chaiba.show('arena');
    window.chaiba.arena.configure({ name: 'Mock models vs engines',
      participants: ms.map((m) => 'llm:' + m).concat(['engine:1', 'engine:2', 'engine:3', 'engine:4', 'engine:5', 'random']),
      format: 'arena', games: 60, concurrency: 6, maxPlies: 120, seed: 3 });
    window.chaiba.arena.start();
  }, models);
  await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 8, null, { timeout: 300000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, 'arena-1280x800.png') });
  console.log(`wrote ${path.join(out, 'arena-1280x800.png')}`);
  await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(out, 'arena-leaderboard-1280x800.png') });
  console.log(`wrote ${path.join(out, 'arena-leaderboard-1280x800.png')}`);
  await context.close();
}
for (const [name, options] of wanted('story') ? [
  ['story-1280x800.png', { viewport: { width: 1280, height: 800 } }],
  ['story-390x844.png', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
] : []) {
  const context = await browser.newContext(options);
  const page = await openWithMock(context);
  await page.evaluate(() => window.chaiba.show('story'));
  await page.evaluate(() => window.chaiba.story.configure({ narrator: 'mock/gm-narrator', orchestrator: 'mock/gm-orchestrator',
                                                             fallback: '', simple: false }));
  const phone = options.viewport.width < 800;
  if (phone) { // the phone shot also shows a person's edit in the history
    const mira = await page.evaluate(() => window.chaiba.story.readFile({ path: 'NPCs/mira-teal.md' }));
    await page.evaluate((c) => window.chaiba.story.editFile({ path: 'NPCs/mira-teal.md', content: c }),
                        mira.replace('Mood towards Wren: wary.', 'Mood towards Wren: warming.'));
  }
  await page.evaluate(() => window.chaiba.story.say({ text: 'I leap from the quay toward the salt tower (locations/salt-tower.md)' }));
  await page.waitForFunction((n) => { const s = window.chaiba.story.state(); return s.turns.length === n && !s.streaming; }, phone ? 2 : 1,
                             { timeout: 60000 });
  const error = await page.evaluate(() => window.chaiba.story.state().error);
  if (error) throw new Error(`the story turn failed: ${error}`);
  await waitForFrames(page, 6);
  await page.screenshot({ path: path.join(out, name) });
  console.log(`wrote ${path.join(out, name)}`);
  await context.close();
}
await browser.close();
mock.close();
await server.close();
