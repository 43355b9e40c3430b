// Frame timing of `skel view` with 1 and 10 rigs (BENCHMARKS.md, "skel view").
//   node tools/view-test/bench.mjs [RIG] [SECONDS]
// Measures, in the page: commands received to frame drawn (parse + WebGL2 calls; with
// ?timing=sync also gl.finish(), i.e. until SwiftShader has drawn it), tick round trip and
// frames per second; from the frame header: the server's time per frame (step every rig,
// render commands, encode).
import { join } from 'node:path';
import { corpus, startViewer, launch, openEntry, settle } from './lib.mjs';

const rig = process.argv[2] || join(corpus, 'spine/4.2/spineboy/spineboy-pro.skel');
const seconds = +(process.argv[3] || 10);
const name = rig.split('/').pop();

const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN; };
const f = (x) => x.toFixed(2);

async function run(page, url, count, sync) {
  await page.goto(`${url}?size=1280x720${sync ? '&timing=sync' : ''}`);
  await page.waitForFunction(() => window.__skv && window.__skv.ready);
  for (let i = 0; i < count; i++) await openEntry(page, name);
  await settle(page, 30);
  await page.evaluate(() => window.__skv.resetStats());
  await page.waitForTimeout(seconds * 1000);
  const s = await page.evaluate(() => window.__skv.stats());
  const fps = s.times.length / ((s.times[s.times.length - 1] - s.times[0]) / 1000);
  return {
    rigs: count, sync, frames: s.draw.length, fps,
    draw: [q(s.draw, 0.5), q(s.draw, 0.95)], server: [q(s.server, 0.5), q(s.server, 0.95)],
    rtt: [q(s.rtt, 0.5), q(s.rtt, 0.95)], kib: q(s.bytes, 0.5) / 1024,
  };
}

const { url, child } = await startViewer([rig]);
const { context, close } = await launch();
try {
  const page = await context.newPage();
  console.log(`rig ${name}, ${seconds} s per run, canvas 1280x720, headless Chromium (SwiftShader WebGL2)`);
  console.log('| rigs | page: received → drawn (median / p95 ms) | with gl.finish (median / p95 ms) | server per frame (median / p95 ms) | tick round trip (median ms) | frames/s | frame message |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const count of [1, 10]) {
    const a = await run(page, url, count, false);
    const b = await run(page, url, count, true);
    console.log(`| ${count} | ${f(a.draw[0])} / ${f(a.draw[1])} | ${f(b.draw[0])} / ${f(b.draw[1])} | ${f(a.server[0])} / ${f(a.server[1])} | ${f(a.rtt[0])} | ${a.fps.toFixed(1)} (sync ${b.fps.toFixed(1)}) | ${a.kib.toFixed(0)} KiB |`);
  }
} finally {
  await close();
  child.kill();
}
