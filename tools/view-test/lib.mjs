// Shared helpers of the skel view browser test and benchmark: start `skel view`, launch
// Debian's Chromium headless through playwright-core, drive the page.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../..');
export const corpus = process.env.SKEL_CORPUS || resolve(root, '../shared/fixtures');
export const skelBin = process.env.SKEL_BIN || join(root, 'target/debug/skel');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

/** Starts `skel view FILES --port 0` (or $SKEL_VIEW_CMD) and resolves with its URL. */
export function startViewer(files) {
  const cmd = process.env.SKEL_VIEW_CMD ? process.env.SKEL_VIEW_CMD.split(' ') : [skelBin, 'view'];
  const child = spawn(cmd[0], [...cmd.slice(1), '--port', '0', ...files], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error('skel view printed no URL in 30 s: ' + err)), 30000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/)$/m.exec(out);
      if (m) { clearTimeout(timer); res({ url: m[1], child }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); rej(new Error(`skel view exited (${code}): ${err}`)); });
  });
}

/** Launches headless Chromium (SwiftShader WebGL2) with a fresh profile. */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'skel-view-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    acceptDownloads: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/** Opens catalog entry `file` (matched by name) and waits until it is fitted. */
export async function openEntry(page, name) {
  const entries = await page.evaluate(() => window.__skv.catalog());
  const e = entries.find((x) => x.name === name);
  if (!e) throw new Error(`${name} is not in the catalog: ${entries.map((x) => x.name).join(', ')}`);
  const before = await page.evaluate(() => window.__skv.rigs().length);
  const button = page.locator(`#catalog button[data-entry="${e.id}"]`);
  await button.evaluate((b) => { b.closest('details').open = true; });
  await button.click();
  await page.waitForFunction((n) => {
    const r = window.__skv.rigs();
    return r.length === n + 1 && r[r.length - 1].fitted > 0;
  }, before);
  return e;
}

/** Waits until every texture is loaded and `n` frames were drawn after now. */
export async function settle(page, n = 3) {
  await page.waitForFunction(() => window.__skv.pendingTextures === 0);
  const start = await page.evaluate(() => window.__skv.framesDrawn);
  await page.waitForFunction((s) => window.__skv.framesDrawn >= s, start + n);
}
