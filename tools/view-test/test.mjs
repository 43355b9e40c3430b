// Browser test of `skel view` (run by .ci/run): headless Chromium opens the viewer on a
// Spine 3.5, a Spine 4.2 and a SkelForm rig, switches animation, scrubs, and compares a
// screenshot of the canvas with `skel render` of the same pose, block mean by block mean.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { PNG } from 'pngjs';
import { corpus, root, skelBin, startViewer, launch, openEntry, settle } from './lib.mjs';

const SIZE = 400;
const BLOCK = 16;
const BG = '3a3f4b';
// Tolerance on 16x16 block means (0..255 per channel): WebGL (SwiftShader) and the software
// rasterizer sample, round and blend differently at the last bit and at triangle edges.
const MAX_BLOCK_DIFF = 2;
const MAX_MEAN_DIFF = 0.1;

const out = process.env.VIEW_TEST_OUT || join(root, 'target/view-test');
mkdirSync(out, { recursive: true });

const RIGS = [
  { label: 'spine 3.5 spineboy', file: join(corpus, 'spine/3.5/spineboy/spineboy.skel'), anim: 'run', scrub: 0.3, time: 0.5, fit: 'animation', exports: true, events: 'footstep' },
  { label: 'spine 4.2 celestial-circus', file: join(corpus, 'spine/4.2/celestial-circus/celestial-circus-pro.skel'), anim: 'swing', scrub: 0.5, time: 1, fit: 'animation' },
  { label: 'skelform 0.7 skellington', file: join(corpus, 'skelform/skellington_v0.7.0.skf'), anim: 'Jump', scrub: 0.1, time: 0.25, fit: 'frame' },
];

function blockMeans(png) {
  const bw = Math.floor(png.width / BLOCK), bh = Math.floor(png.height / BLOCK);
  const means = new Float64Array(bw * bh * 3);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const acc = [0, 0, 0];
      for (let y = by * BLOCK; y < (by + 1) * BLOCK; y++) {
        for (let x = bx * BLOCK; x < (bx + 1) * BLOCK; x++) {
          const i = 4 * (y * png.width + x);
          for (let c = 0; c < 3; c++) acc[c] += png.data[i + c];
        }
      }
      for (let c = 0; c < 3; c++) means[3 * (by * bw + bx) + c] = acc[c] / (BLOCK * BLOCK);
    }
  }
  return means;
}

function compare(a, b) {
  if (a.width !== b.width || a.height !== b.height) {
    return { error: `sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}` };
  }
  const ma = blockMeans(a), mb = blockMeans(b);
  let max = 0, sum = 0;
  for (let i = 0; i < ma.length; i++) {
    const d = Math.abs(ma[i] - mb[i]);
    max = Math.max(max, d);
    sum += d;
  }
  // Pixels that differ from the background: a blank pair must not pass.
  const bg = [parseInt(BG.slice(0, 2), 16), parseInt(BG.slice(2, 4), 16), parseInt(BG.slice(4, 6), 16)];
  const drawn = (p) => {
    let n = 0;
    for (let i = 0; i < p.data.length; i += 4) {
      if (Math.abs(p.data[i] - bg[0]) + Math.abs(p.data[i + 1] - bg[1]) + Math.abs(p.data[i + 2] - bg[2]) > 30) n++;
    }
    return n;
  };
  return { max, mean: sum / ma.length, drawnA: drawn(a), drawnB: drawn(b) };
}

/** Exports the selected rig through the server and returns the downloaded bytes. */
async function exportFile(page, format) {
  await page.selectOption('#export-format', format);
  await page.evaluate(() => { window.__skv.lastExport = null; });
  const download = page.waitForEvent('download', { timeout: 120000 });
  await page.click('#export');
  const d = await download;
  const progress = await page.evaluate(() => [document.getElementById('export-progress').value, document.getElementById('export-progress').max]);
  if (progress[0] !== progress[1]) throw new Error(`export progress ended at ${progress[0]} of ${progress[1]}`);
  return readFileSync(await d.path());
}

/** Drops the demo rig's three files on the page; they are uploaded and opened. */
async function dropDemo(page) {
  const dir = join(root, 'crates/skel-cli/demo');
  const files = ['demo.json', 'demo.atlas', 'demo.png'].map((n) => [n, readFileSync(join(dir, n)).toString('base64')]);
  const before = await page.evaluate(() => window.__skv.rigs().length);
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [n, b64] of list) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], n));
    }
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
  await page.waitForFunction((n) => { const r = window.__skv.rigs(); return r.length === n + 1 && r[n].fitted > 0; }, before);
  await settle(page);
  const shot = join(out, 'dropped-demo-view.png');
  await page.locator('#view').screenshot({ path: shot });
  return PNG.sync.read(readFileSync(shot));
}

async function main() {
  for (const r of RIGS) {
    if (!existsSync(r.file)) throw new Error(`corpus file missing: ${r.file} (set SKEL_CORPUS)`);
  }
  const { url, child } = await startViewer(RIGS.map((r) => r.file));
  const { context, close } = await launch();
  let passed = 0, failed = 0;
  const lines = [];
  const report = (ok, text) => {
    lines.push(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
    console.log(lines[lines.length - 1]);
    if (ok) passed++; else failed++;
  };
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${url}?size=${SIZE}x${SIZE}`);
    await page.waitForFunction(() => window.__skv && window.__skv.ready);
    await page.locator('#bg').fill('#' + BG);
    for (const rig of RIGS) {
      const name = basename(rig.file);
      try {
        // One rig at a time, so that it fills the canvas as `skel render --size` does.
        for (;;) {
          const x = page.locator('#rigs li button');
          if ((await x.count()) === 0) break;
          await x.first().click();
        }
        await openEntry(page, name);
        // Switch animation (the page fits the view to its bounds, as skel render does).
        const fitted = await page.evaluate(() => window.__skv.rigs()[0].fitted);
        const value = await page.evaluate((anim) => {
          const o = [...document.querySelectorAll('#anim option')].find((x) => x.textContent.startsWith(anim + ' ('));
          return o ? o.value : null;
        }, rig.anim);
        if (value === null) throw new Error(`no animation ${rig.anim} in the page's list`);
        await page.selectOption('#anim', value);
        await page.waitForFunction((f) => window.__skv.rigs()[0].fitted > f, fitted);
        // Scrub with the slider, then type the exact time.
        let seq = await page.evaluate(() => window.__skv.rigs()[0].stateSeq);
        await page.locator('#scrub').fill(String(rig.scrub));
        await page.waitForFunction(([s, t]) => {
          const r = window.__skv.rigs()[0];
          return r.stateSeq > s && Math.abs(r.time - t) < 1e-4;
        }, [seq, rig.scrub]);
        seq = await page.evaluate(() => window.__skv.rigs()[0].stateSeq);
        await page.locator('#time').fill(String(rig.time));
        await page.locator('#time').press('Enter');
        await page.waitForFunction(([s, t]) => {
          const r = window.__skv.rigs()[0];
          return r.stateSeq > s && Math.abs(r.time - t) < 1e-4;
        }, [seq, rig.time]);
        if (rig.fit === 'frame') {
          const f = await page.evaluate(() => window.__skv.rigs()[0].fitted);
          await page.click('#fit-frame');
          await page.waitForFunction((n) => window.__skv.rigs()[0].fitted > n, f);
        }
        await settle(page);
        const shot = join(out, `${name}-${rig.anim}-view.png`);
        await page.locator('#view').screenshot({ path: shot });
        const rendered = join(out, `${name}-${rig.anim}-render.png`);
        execFileSync(skelBin, ['render', rig.file, '--anim', rig.anim, '--time', String(rig.time),
          '--size', `${SIZE}x${SIZE}`, '--background', BG + 'ff', '--out', rendered], { stdio: ['ignore', 'ignore', 'inherit'] });
        const c = compare(PNG.sync.read(readFileSync(shot)), PNG.sync.read(readFileSync(rendered)));
        const ok = !c.error && c.max <= MAX_BLOCK_DIFF && c.mean <= MAX_MEAN_DIFF && c.drawnA > 500 && c.drawnB > 500;
        const what = c.error || `block means (${BLOCK}x${BLOCK}): max diff ${c.max.toFixed(2)}, mean diff ${c.mean.toFixed(3)} (tolerance ${MAX_BLOCK_DIFF} / ${MAX_MEAN_DIFF}); drawn pixels ${c.drawnA} page / ${c.drawnB} render`;
        report(ok, `${rig.label} ${rig.anim} @ ${rig.time} s: ${what}`);
        if (rig.exports) {
          // The server's encoders, with the page's view: a PNG of this frame equals skel render's.
          const png = await exportFile(page, 'png');
          const e = compare(PNG.sync.read(png), PNG.sync.read(readFileSync(rendered)));
          const eok = !e.error && e.max <= MAX_BLOCK_DIFF && e.mean <= MAX_MEAN_DIFF;
          report(eok, `${rig.label} export PNG: ${e.error || `block means max diff ${e.max.toFixed(2)}, mean diff ${e.mean.toFixed(3)} against skel render`}`);
          const gif = await exportFile(page, 'gif');
          const gok = gif.subarray(0, 6).toString() === 'GIF89a' && gif.length > 1000;
          report(gok, `${rig.label} export GIF (progress to the end): ${gif.length} bytes`);
        }
        if (rig.events) {
          // Play on: the fired events appear in the page's log.
          await page.click('#play');
          await page.waitForFunction((n) => document.getElementById('events').textContent.includes(`event "${n}"`), rig.events, { timeout: 20000 });
          report(true, `${rig.label}: "${rig.events}" events logged while playing`);
        }
      } catch (e) {
        report(false, `${rig.label}: ${e.message || e}`);
      }
    }
    try {
      for (;;) {
        const x = page.locator('#rigs li button');
        if ((await x.count()) === 0) break;
        await x.first().click();
      }
      const img = await dropDemo(page);
      const c = compare(img, img);
      report(c.drawnA > 500, `drag and drop: demo.json + demo.atlas + demo.png uploaded and drawn (${c.drawnA} pixels)`);
    } catch (e) {
      report(false, `drag and drop: ${e.message || e}`);
    }
    report(errors.length === 0, `no page errors${errors.length ? ':\n  ' + errors.join('\n  ') : ''}`);
    writeFileSync(join(out, 'results.txt'), lines.join('\n') + '\n');
  } finally {
    await close();
    child.kill();
  }
  console.log(`screenshots in ${out}`);
  console.log(`view-test: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log(`view-test: error: ${e.stack || e}`);
  console.log('view-test: 0 passed, 1 failed');
  process.exit(1);
});
