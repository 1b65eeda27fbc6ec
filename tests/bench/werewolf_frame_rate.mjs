// Frames a second of a bot Werewolf table at 1x in headless Chromium (1280x800), over 5 s after
// the first 2, and the events told in that time: the table draws at its calmer content rate while
// nobody types. usage: node tests/bench/werewolf_frame_rate.mjs SITE_DIR
import path from 'node:path';
import { startStaticServer, launchBrowser, openPage } from '../e2e/lib.mjs';
const server = await startStaticServer(path.resolve(process.argv[2]));
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const { page } = await openPage(context, server.url);
await page.evaluate(() => window.chaiba.show('werewolf'));
await page.evaluate(() => window.chaiba.werewolf.command('newGame', { players: Array(8).fill('bot'), seed: 3 }));
await page.evaluate(() => window.chaiba.werewolf.command('setSpeed', 1));
await page.evaluate(() => window.chaiba.werewolf.command('start'));
await page.waitForTimeout(2000);
const a = await page.evaluate(() => ({ f: window.chaiba.stats().framesRendered, s: window.chaiba.werewolf.state().shown_events }));
await page.waitForTimeout(5000);
const b = await page.evaluate(() => ({ f: window.chaiba.stats().framesRendered, s: window.chaiba.werewolf.state().shown_events, cpu: window.chaiba.stats().avgFrameCpuMs }));
console.log('frames/s', ((b.f - a.f) / 5).toFixed(1), 'events shown', b.s - a.s, 'avg frame cpu ms', b.cpu.toFixed(2));
await browser.close(); server.close();
