import { startStaticServer, launchBrowser, openPage, clickItem } from './lib.mjs';
const server = await startStaticServer((await import('node:path')).resolve(process.argv[2]));
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
const { page } = await openPage(context, server.url);
await page.evaluate(() => window.chaiba.newMatch({ white: 'human', black: 'random' }));
await page.waitForTimeout(500);
await clickItem(page, 'match.newGame');
await page.waitForTimeout(800);
await page.screenshot({ path: '/tmp/ng390.png' });
for (const m of ['newgame.pgn']) { await clickItem(page, m).catch((e) => console.log('no', m)); await page.waitForTimeout(600); }
await page.screenshot({ path: '/tmp/ng390-pgn.png' });
console.log(JSON.stringify(await page.evaluate(() => Object.fromEntries(Object.entries(window.chaiba.ui()).filter(([k]) => k.startsWith('newgame'))))));
await browser.close(); server.close();
