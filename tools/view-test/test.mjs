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
  { label: 'spine 3.5 spineboy', file: join(corpus, 'spine/3.5/spineboy/spineboy.skel'), anim: 'run', scrub: 0.3, time: 0.5, fit: 'animation' },
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

async function main() {
  for (const r of RIGS) {
    if (!existsSync(r.file)) throw new Error(`corpus file missing: ${r.file} (set SKEL_CORPUS)`);
  }
  const { url, child } = await startViewer(RIGS.map((r) => r.file));
  const { context, close } = await launch();
  let passed = 0, failed = 0;
  const lines = [];
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
        lines.push(`${ok ? 'ok  ' : 'FAIL'} ${rig.label} ${rig.anim} @ ${rig.time} s: ${what}`);
        if (ok) passed++; else failed++;
      } catch (e) {
        failed++;
        lines.push(`FAIL ${rig.label}: ${e.message || e}`);
      }
      console.log(lines[lines.length - 1]);
    }
    if (errors.length) {
      failed++;
      console.log('FAIL page errors:\n  ' + errors.join('\n  '));
    }
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
