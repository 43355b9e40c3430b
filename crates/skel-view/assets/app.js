// skel view: the page. Sends controls over the WebSocket, draws the render commands the
// server streams (binary frames, layout in crates/skel-view/src/lib.rs) with WebGL2, shading
// and blending as skel-render's software renderer does. Hand-written, no build step.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const fixedSize = /^(\d+)x(\d+)$/.exec(params.get('size') || '');
  const syncTiming = params.get('timing') === 'sync';
  const MAGIC = 0x31564b53;
  const MARGIN = 8;

  const canvas = $('view');
  const stage = $('stage');
  const gl = canvas.getContext('webgl2', {
    antialias: false, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: params.get('preserve') === '1',
  });
  if (!gl) {
    $('status').textContent = 'WebGL2 is not available in this browser';
    $('status').className = 'error';
    return;
  }

  // ---- GL setup ----------------------------------------------------------------------
  function shader(type, src) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  }
  function program(vs, fs) {
    const p = gl.createProgram();
    gl.attachShader(p, shader(gl.VERTEX_SHADER, vs));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fs));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
    return p;
  }
  // Spine's two-colour tint, vertex colours prepared as skel-render (and spine-ts) do.
  const meshProg = program(`#version 300 es
    in vec2 a_pos; in vec2 a_uv; in vec4 a_light; in vec4 a_dark;
    uniform vec4 u_xf; uniform bool u_pma;
    out vec2 v_uv; out vec4 v_light; out vec4 v_dark;
    void main() {
      vec4 l = a_light.bgra; vec4 d = a_dark.bgra;   // ARGB u32, little-endian bytes
      if (u_pma) { v_light = vec4(l.rgb * l.a, l.a); v_dark = vec4(d.rgb * l.a, 1.0); }
      else { v_light = l; v_dark = vec4(d.rgb, 0.0); }
      v_uv = a_uv;
      gl_Position = vec4(a_pos.x * u_xf.x + u_xf.y, a_pos.y * u_xf.z + u_xf.w, 0.0, 1.0);
    }`, `#version 300 es
    precision highp float;
    uniform sampler2D u_tex;
    in vec2 v_uv; in vec4 v_light; in vec4 v_dark;
    out vec4 o;
    void main() {
      vec4 t = texture(u_tex, v_uv);
      float a = t.a * v_light.a;
      vec3 rgb = ((t.a - 1.0) * v_dark.a + 1.0 - t.rgb) * v_dark.rgb + t.rgb * v_light.rgb;
      o = vec4(rgb, a);
    }`);
  const lineProg = program(`#version 300 es
    in vec2 a_pos; uniform vec4 u_xf;
    void main() {
      gl_Position = vec4(a_pos.x * u_xf.x + u_xf.y, a_pos.y * u_xf.z + u_xf.w, 0.0, 1.0);
      gl_PointSize = 5.0;
    }`, `#version 300 es
    precision mediump float; uniform vec4 u_color; out vec4 o;
    void main() { o = vec4(u_color.rgb * u_color.a, u_color.a); }`);
  const loc = {
    pos: gl.getAttribLocation(meshProg, 'a_pos'),
    uv: gl.getAttribLocation(meshProg, 'a_uv'),
    light: gl.getAttribLocation(meshProg, 'a_light'),
    dark: gl.getAttribLocation(meshProg, 'a_dark'),
    xf: gl.getUniformLocation(meshProg, 'u_xf'),
    pma: gl.getUniformLocation(meshProg, 'u_pma'),
    tex: gl.getUniformLocation(meshProg, 'u_tex'),
    lpos: gl.getAttribLocation(lineProg, 'a_pos'),
    lxf: gl.getUniformLocation(lineProg, 'u_xf'),
    lcolor: gl.getUniformLocation(lineProg, 'u_color'),
  };
  const meshVao = gl.createVertexArray();
  const vbo = gl.createBuffer();
  const ibo = gl.createBuffer();
  gl.bindVertexArray(meshVao);
  gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo);
  for (const l of [loc.pos, loc.uv, loc.light, loc.dark]) gl.enableVertexAttribArray(l);
  const lineVao = gl.createVertexArray();
  const lineBuf = gl.createBuffer();
  gl.bindVertexArray(lineVao);
  gl.bindBuffer(gl.ARRAY_BUFFER, lineBuf);
  gl.enableVertexAttribArray(loc.lpos);
  gl.vertexAttribPointer(loc.lpos, 2, gl.FLOAT, false, 0, 0);
  gl.bindVertexArray(null);

  // Blend factors per blend mode (skel-render / spine-libgdx), [srcRGB, dstRGB, srcA, dstA].
  function blendFor(mode, pma) {
    switch (mode) {
      case 1: return [pma ? gl.ONE : gl.SRC_ALPHA, gl.ONE, gl.ONE, gl.ONE];
      case 2: return [gl.DST_COLOR, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE];
      case 3: return [gl.ONE, gl.ONE_MINUS_SRC_COLOR, gl.ONE, gl.ONE_MINUS_SRC_ALPHA];
      default: return [pma ? gl.ONE : gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA];
    }
  }

  // ---- textures (by opaque id; the server decodes the PNGs) ----------------------------
  const textures = new Map();
  let pendingTextures = 0;
  function ensureTexture(id) {
    let t = textures.get(id);
    if (t) return t;
    t = { ready: false, tex: null, error: null };
    textures.set(id, t);
    pendingTextures++;
    fetch('tex/' + id)
      .then((r) => (r.ok ? r.arrayBuffer() : r.text().then((m) => Promise.reject(new Error(m)))))
      .then((ab) => {
        const dv = new DataView(ab);
        const w = dv.getUint32(0, true);
        const h = dv.getUint32(4, true);
        const tex = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, tex);
        gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
        gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
        gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(ab, 8, w * h * 4));
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
        t.tex = tex;
        t.ready = true;
      })
      .catch((e) => {
        t.error = String(e.message || e);
        logLine('texture ' + id + ': ' + t.error, true);
      })
      .finally(() => { pendingTextures--; });
    return t;
  }

  // ---- state ---------------------------------------------------------------------------
  const rigs = new Map(); // instance id -> rig
  let order = [];
  let selected = null;
  let catalog = [];
  let debugFlags = 0;
  let lastFrame = null;
  let framesDrawn = 0;
  const frameWaiters = [];
  const stats = { draw: [], server: [], rtt: [], bytes: [], times: [] };
  function pushStat(list, v) { list.push(v); if (list.length > 600) list.shift(); }

  function bgColor() {
    if ($('checker').checked) return [0, 0, 0, 0];
    const h = $('bg').value;
    return [parseInt(h.slice(1, 3), 16) / 255, parseInt(h.slice(3, 5), 16) / 255, parseInt(h.slice(5, 7), 16) / 255, 1];
  }

  // ---- layout and views ----------------------------------------------------------------
  function resize() {
    let w, h;
    if (fixedSize) {
      w = +fixedSize[1]; h = +fixedSize[2];
      canvas.style.width = w + 'px'; canvas.style.height = h + 'px';
    } else {
      const dpr = window.devicePixelRatio || 1;
      w = Math.max(1, Math.floor(stage.clientWidth * dpr));
      h = Math.max(1, Math.floor(stage.clientHeight * dpr));
      canvas.style.width = stage.clientWidth + 'px'; canvas.style.height = stage.clientHeight + 'px';
    }
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    const n = Math.max(order.length, 1);
    const cols = Math.ceil(Math.sqrt(n));
    const rows = Math.ceil(n / cols);
    const cw = Math.floor(w / cols), ch = Math.floor(h / rows);
    order.forEach((id, i) => {
      const r = rigs.get(id);
      const old = r.cell;
      r.cell = { x: (i % cols) * cw, y: Math.floor(i / cols) * ch, w: cw, h: ch };
      // A new cell size keeps the framing: refit to the last bounds, or (after the user
      // zoomed or panned) scale the view with the cell.
      if (old && r.view && (old.w !== cw || old.h !== ch)) {
        if (r.fitBounds !== undefined && !r.userView) fitTo(r, r.fitBounds);
        else r.view.scale *= Math.min(cw / old.w, ch / old.h);
      }
    });
  }
  // A view is pixels per world unit and the world point at the cell's centre (skel-render's
  // ViewTransform::centered); fit() is ViewTransform::fit with skel render's 8 px margin.
  function fitTo(r, b) {
    if (!b) b = [-1, -1, 1, 1];
    const bw = b[2] - b[0], bh = b[3] - b[1];
    const aw = Math.max(r.cell.w - 2 * MARGIN, 1), ah = Math.max(r.cell.h - 2 * MARGIN, 1);
    let s = Infinity;
    if (bw > 0) s = aw / bw;
    if (bh > 0) s = Math.min(s, ah / bh);
    if (!isFinite(s) || s <= 0) s = 1;
    r.view = { scale: s, cx: (b[0] + b[2]) * 0.5, cy: (b[1] + b[3]) * 0.5 };
    if (r.id === selected) $('scale').value = +s.toFixed(4);
  }
  function viewTransform(r) {
    const v = r.view;
    return { scale: v.scale, ox: r.cell.w * 0.5 - v.cx * v.scale, oy: r.cell.h * 0.5 + v.cy * v.scale };
  }
  function xfUniform(r) {
    const t = viewTransform(r);
    return [2 * t.scale / r.cell.w, 2 * t.ox / r.cell.w - 1, 2 * t.scale / r.cell.h, 1 - 2 * t.oy / r.cell.h];
  }

  // ---- the frame message ---------------------------------------------------------------
  function parseFrame(buf) {
    const dv = new DataView(buf);
    if (dv.getUint32(0, true) !== MAGIC) throw new Error('not a frame message');
    const frame = { seq: dv.getUint32(4, true), serverMs: dv.getFloat32(8, true), rigs: [], buf };
    const n = dv.getUint32(12, true);
    let off = 16;
    for (let k = 0; k < n; k++) {
      const id = dv.getUint32(off, true), time = dv.getFloat32(off + 4, true);
      const C = dv.getUint32(off + 8, true), V = dv.getUint32(off + 12, true), I = dv.getUint32(off + 16, true);
      off += 20;
      const cmds = [];
      let v0 = 0, i0 = 0;
      for (let c = 0; c < C; c++) {
        const nv = dv.getUint32(off + 8, true), ni = dv.getUint32(off + 12, true);
        cmds.push({ tex: dv.getUint32(off, true), blend: dv.getUint8(off + 4), pma: dv.getUint8(off + 5) !== 0, v0, nv, i0, ni });
        v0 += nv; i0 += ni; off += 16;
      }
      const posOff = off, uvOff = off + 8 * V, lightOff = uvOff + 8 * V, darkOff = lightOff + 4 * V, idxOff = darkOff + 4 * V;
      off = idxOff + 2 * I + (I % 2 ? 2 : 0);
      const groups = dv.getUint32(off, true);
      off += 4;
      const debug = [];
      for (let g = 0; g < groups; g++) {
        const kind = dv.getUint32(off, true), m = dv.getUint32(off + 4, true);
        debug.push({ kind, floats: new Float32Array(buf, off + 8, m) });
        off += 8 + 4 * m;
      }
      frame.rigs.push({ id, time, cmds, V, I, posOff, uvOff, lightOff, darkOff, idxOff, debug });
    }
    return frame;
  }

  const DEBUG_COLORS = {
    1: [1, 0.35, 0.3, 1], 2: [1, 0.85, 0.2, 1], 3: [0.3, 0.9, 0.4, 1], 4: [0.35, 0.75, 1, 1], 5: [1, 0.4, 1, 1],
    tri: [1, 1, 1, 0.35],
  };
  function drawLines(xf, floats, color, mode) {
    if (!floats.length) return;
    gl.useProgram(lineProg);
    gl.bindVertexArray(lineVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, lineBuf);
    gl.bufferData(gl.ARRAY_BUFFER, floats, gl.STREAM_DRAW);
    gl.uniform4fv(loc.lxf, xf);
    gl.uniform4fv(loc.lcolor, color);
    gl.blendFuncSeparate(gl.ONE, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.drawArrays(mode, 0, floats.length / 2);
  }
  function triangleLines(frame, fr) {
    const pos = new Float32Array(frame.buf, fr.posOff, 2 * fr.V);
    const idx = new Uint16Array(frame.buf, fr.idxOff, fr.I);
    const out = new Float32Array(fr.I * 4);
    let o = 0;
    for (const c of fr.cmds) {
      for (let t = c.i0; t + 2 < c.i0 + c.ni; t += 3) {
        const a = c.v0 + idx[t], b = c.v0 + idx[t + 1], d = c.v0 + idx[t + 2];
        for (const [p, q] of [[a, b], [b, d], [d, a]]) {
          out[o++] = pos[2 * p]; out[o++] = pos[2 * p + 1]; out[o++] = pos[2 * q]; out[o++] = pos[2 * q + 1];
        }
      }
    }
    return out.subarray(0, o);
  }

  function draw(frame) {
    resize();
    const H = canvas.height;
    const bg = bgColor();
    gl.disable(gl.SCISSOR_TEST);
    gl.viewport(0, 0, canvas.width, H);
    gl.clearColor(bg[0] * bg[3], bg[1] * bg[3], bg[2] * bg[3], bg[3]);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.enable(gl.SCISSOR_TEST);
    for (const fr of frame.rigs) {
      const r = rigs.get(fr.id);
      if (!r || !r.cell) continue;
      r.time = fr.time;
      r.lastFrame = fr;
      if (!r.view) continue;
      const c = r.cell;
      gl.viewport(c.x, H - c.y - c.h, c.w, c.h);
      gl.scissor(c.x, H - c.y - c.h, c.w, c.h);
      const xf = xfUniform(r);
      if (fr.V > 0 && fr.I > 0) {
        gl.useProgram(meshProg);
        gl.bindVertexArray(meshVao);
        gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
        gl.bufferData(gl.ARRAY_BUFFER, new Uint8Array(frame.buf, fr.posOff, fr.idxOff - fr.posOff), gl.STREAM_DRAW);
        gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint8Array(frame.buf, fr.idxOff, 2 * fr.I), gl.STREAM_DRAW);
        gl.uniform4fv(loc.xf, xf);
        gl.uniform1i(loc.tex, 0);
        gl.activeTexture(gl.TEXTURE0);
        const base = fr.posOff;
        for (const cmd of fr.cmds) {
          const t = ensureTexture(cmd.tex);
          if (!t.ready) continue;
          gl.bindTexture(gl.TEXTURE_2D, t.tex);
          const f = blendFor(cmd.blend, cmd.pma);
          gl.blendFuncSeparate(f[0], f[1], f[2], f[3]);
          gl.uniform1i(loc.pma, cmd.pma ? 1 : 0);
          gl.vertexAttribPointer(loc.pos, 2, gl.FLOAT, false, 0, fr.posOff - base + 8 * cmd.v0);
          gl.vertexAttribPointer(loc.uv, 2, gl.FLOAT, false, 0, fr.uvOff - base + 8 * cmd.v0);
          gl.vertexAttribPointer(loc.light, 4, gl.UNSIGNED_BYTE, true, 0, fr.lightOff - base + 4 * cmd.v0);
          gl.vertexAttribPointer(loc.dark, 4, gl.UNSIGNED_BYTE, true, 0, fr.darkOff - base + 4 * cmd.v0);
          gl.drawElements(gl.TRIANGLES, cmd.ni, gl.UNSIGNED_SHORT, 2 * cmd.i0);
        }
      }
      if (debugFlags & 8) drawLines(xf, triangleLines(frame, fr), DEBUG_COLORS.tri, gl.LINES);
      for (const g of fr.debug) {
        drawLines(xf, g.floats, DEBUG_COLORS[g.kind] || [1, 1, 1, 1], g.kind === 2 ? gl.POINTS : gl.LINES);
      }
      if (order.length > 1 && r.id === selected) {
        // A frame around the selected rig's cell, in cell pixels.
        const s = 2 / c.w, t = 2 / c.h;
        const box = new Float32Array([0.5, 0.5, c.w - 0.5, 0.5, c.w - 0.5, c.h - 0.5, 0.5, c.h - 0.5]);
        drawLines([s, -1, -t, 1], box, [0.55, 0.7, 1, 0.8], gl.LINE_LOOP);
      }
    }
    gl.bindVertexArray(null);
  }

  // ---- the connection and the frame loop -------------------------------------------------
  const wsUrl = location.href.replace(/^http/, 'ws').replace(/[?#].*$/, '').replace(/[^/]*$/, '') + 'ws';
  const ws = new WebSocket(wsUrl);
  ws.binaryType = 'arraybuffer';
  let seq = 0;
  // Two ticks in flight: the server steps the next frame while the page draws this one.
  const MAX_INFLIGHT = 2;
  const sentAt = [];
  let lastTickAt = performance.now();
  function send(obj) { if (ws.readyState === 1) ws.send(JSON.stringify(obj)); }

  ws.onopen = () => { $('status').textContent = 'connected'; requestAnimationFrame(loop); };
  ws.onclose = () => { $('status').textContent = 'disconnected (is skel view still running?)'; $('status').className = 'error'; };
  ws.onmessage = (ev) => {
    if (typeof ev.data !== 'string') {
      const t0 = performance.now();
      pushStat(stats.rtt, t0 - (sentAt.shift() || t0));
      let frame;
      try { frame = parseFrame(ev.data); } catch (e) { logLine(String(e), true); return; }
      draw(frame);
      if (syncTiming) gl.finish();
      const t1 = performance.now();
      lastFrame = frame;
      framesDrawn++;
      pushStat(stats.draw, t1 - t0);
      pushStat(stats.server, frame.serverMs);
      pushStat(stats.bytes, ev.data.byteLength);
      pushStat(stats.times, t1);
      while (frameWaiters.length) frameWaiters.shift()(frame);
      return;
    }
    const m = JSON.parse(ev.data);
    (handlers[m.op] || (() => {}))(m);
  };

  function loop(now) {
    requestAnimationFrame(loop);
    if (sentAt.length >= MAX_INFLIGHT || ws.readyState !== 1) return;
    const dt = Math.min(Math.max((now - lastTickAt) / 1000, 0), 0.25);
    lastTickAt = now;
    sentAt.push(performance.now());
    send({ op: 'tick', seq: ++seq, dt, debug: debugFlags });
  }

  function median(a) { if (!a.length) return 0; const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; }
  function p95(a) { if (!a.length) return 0; const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]; }
  setInterval(() => {
    const recent = stats.times.filter((t) => t > performance.now() - 1000).length;
    const last = (l) => l.slice(-120);
    $('timing').textContent = `${recent} fps · page ${median(last(stats.draw)).toFixed(2)} ms (p95 ${p95(last(stats.draw)).toFixed(2)})`
      + ` · server ${median(last(stats.server)).toFixed(2)} ms · ${order.length} rig${order.length === 1 ? '' : 's'}`;
  }, 500);

  // ---- messages from the server ------------------------------------------------------------
  const handlers = {
    hello(m) {
      catalog = m.catalog;
      renderCatalog();
      window.__skv.ready = true;
    },
    opened(m) {
      const r = {
        id: m.inst, name: m.name, info: m, anim: m.anim, end: m.end, time: 0, view: null, cell: null,
        playing: true, loop: true, speed: 1, physics: true, pma: null, skins: [], stepFps: m.stepFps,
        fitMode: 'animation',
      };
      rigs.set(r.id, r);
      order.push(r.id);
      for (const p of m.pages) ensureTexture(p.tex);
      resize();
      select(r.id);
      renderRigList();
      send({ op: 'fit', inst: r.id, mode: 'animation' });
    },
    state(m) {
      const r = rigs.get(m.inst);
      if (!r) return;
      Object.assign(r, { anim: m.anim, end: m.end, time: m.time, playing: m.playing, loop: m.loop, speed: m.speed, physics: m.physics, pma: m.pma, skins: m.skins, stepFps: m.stepFps });
      r.stateSeq = (r.stateSeq || 0) + 1;
      if (r.id === selected) syncControls();
    },
    bounds(m) {
      const r = rigs.get(m.inst);
      if (!r) return;
      r.fitBounds = m.bounds;
      r.userView = false;
      fitTo(r, m.bounds);
      r.fitted = (r.fitted || 0) + 1;
    },
    closed() {},
    events(m) {
      const r = rigs.get(m.inst);
      for (const e of m.events) {
        let line = `${r ? r.name : m.inst} ${e.t.toFixed(3)}s ${e.type} ${e.anim || ''}`;
        if (e.type === 'event') line = `${r ? r.name : m.inst} ${e.t.toFixed(3)}s event "${e.name}" (${e.anim}) int=${e.int} float=${e.float} string="${e.string}"`;
        logLine(line);
      }
    },
    uploads() {},
    export_started(m) {
      const p = $('export-progress');
      p.hidden = false; p.value = 0; p.max = 1;
      $('export-result').textContent = `exporting (job ${m.job})…`;
    },
    progress(m) {
      const p = $('export-progress');
      p.max = Math.max(m.total, 1); p.value = m.done;
      $('export-result').textContent = `exporting: frame ${m.done} of ${m.total}`;
    },
    export_done(m) {
      $('export-progress').value = $('export-progress').max;
      const a = document.createElement('a');
      a.href = m.url; a.download = m.name; a.textContent = 'download ' + m.name;
      const res = $('export-result');
      res.textContent = '';
      res.appendChild(a);
      window.__skv.lastExport = m;
      a.click();
    },
    export_failed(m) { $('export-result').textContent = 'export failed: ' + m.message; $('export-result').className = 'error'; },
    error(m) { logLine('error: ' + m.message, true); window.__skv.lastError = m.message; },
  };

  // ---- UI ----------------------------------------------------------------------------------
  function logLine(text, isError) {
    const el = $('events');
    const line = document.createElement('div');
    line.textContent = text;
    if (isError) line.className = 'error';
    el.appendChild(line);
    while (el.childNodes.length > 500) el.removeChild(el.firstChild);
    el.scrollTop = el.scrollHeight;
  }
  function renderCatalog() {
    const box = $('catalog');
    const q = $('filter').value.toLowerCase();
    box.textContent = '';
    const groups = new Map();
    for (const e of catalog) {
      if (q && !e.name.toLowerCase().includes(q)) continue;
      if (!groups.has(e.group)) groups.set(e.group, []);
      groups.get(e.group).push(e);
    }
    const names = [...groups.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    for (const g of names) {
      const d = document.createElement('details');
      d.open = names.length <= 3 || !!q;
      const s = document.createElement('summary');
      s.textContent = `${g} (${groups.get(g).length})`;
      d.appendChild(s);
      for (const e of groups.get(g)) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = e.name;
        b.title = `${e.name} — ${e.format} ${e.version}`;
        b.dataset.entry = e.id;
        b.onclick = () => send({ op: 'open', entry: e.id });
        d.appendChild(b);
      }
      box.appendChild(d);
    }
    if (!catalog.length) box.textContent = 'No files served: drop some.';
  }
  function renderRigList() {
    const ul = $('rigs');
    ul.textContent = '';
    for (const id of order) {
      const r = rigs.get(id);
      const li = document.createElement('li');
      if (id === selected) li.className = 'selected';
      const span = document.createElement('span');
      span.textContent = `${r.name} (${r.info.format} ${r.info.version})`;
      li.appendChild(span);
      const x = document.createElement('button');
      x.type = 'button'; x.className = 'small'; x.textContent = '×'; x.title = 'close';
      x.onclick = (ev) => { ev.stopPropagation(); closeRig(id); };
      li.appendChild(x);
      li.onclick = () => select(id);
      ul.appendChild(li);
    }
  }
  function closeRig(id) {
    send({ op: 'close', inst: id });
    rigs.delete(id);
    order = order.filter((x) => x !== id);
    if (selected === id) selected = order.length ? order[order.length - 1] : null;
    resize();
    renderRigList();
    syncControls();
  }
  function select(id) {
    selected = id;
    renderRigList();
    syncControls();
  }
  function fillSelect(sel, items, value) {
    sel.textContent = '';
    items.forEach((a, i) => {
      const o = document.createElement('option');
      o.value = String(i); o.textContent = a.name + (a.duration !== undefined ? ` (${a.duration.toFixed(2)} s)` : '');
      sel.appendChild(o);
    });
    if (value !== null && value !== undefined) sel.value = String(value);
  }
  function syncControls() {
    const r = rigs.get(selected);
    $('rig-controls').hidden = !r;
    if (!r) return;
    $('rig-title').textContent = r.name;
    const anims = r.info.animations;
    if ($('anim').dataset.inst !== String(r.id)) {
      fillSelect($('anim'), anims, r.anim);
      fillSelect($('mix-to'), anims, anims.length > 1 ? 1 : 0);
      $('anim').dataset.inst = String(r.id);
      const box = $('skins');
      box.textContent = '';
      const chosen = r.skins.length ? r.skins : r.info.defaultSkins;
      r.info.skins.forEach((name, i) => {
        const l = document.createElement('label');
        const c = document.createElement('input');
        c.type = 'checkbox'; c.value = name; c.checked = chosen.includes(i) || (!chosen.length && name === 'default');
        c.onchange = () => {
          const names = [...box.querySelectorAll('input:checked')].map((x) => x.value);
          send({ op: 'set', inst: r.id, skins: names });
          if (!r.userView) send({ op: 'fit', inst: r.id, mode: 'animation' });
        };
        l.appendChild(c);
        l.appendChild(document.createTextNode(' ' + name));
        box.appendChild(l);
      });
      $('skins-legend').textContent = r.info.format === 'skelform' ? 'Styles (first has priority)' : 'Skins (combined)';
    }
    $('anim').value = r.anim === null ? '' : String(r.anim);
    $('play').textContent = r.playing ? 'Pause' : 'Play';
    $('loop').checked = r.loop;
    $('speed').value = r.speed;
    $('physics').checked = r.physics;
    $('physics').disabled = r.info.format === 'skelform';
    $('pma').value = r.pma === null || r.pma === undefined ? '' : (r.pma ? 'on' : 'off');
    $('pma').disabled = r.info.format === 'skelform';
    $('step-fps').value = r.stepFps;
    $('scrub').max = Math.max(r.end, 0.001);
    if (r.view) $('scale').value = +r.view.scale.toFixed(4);
    updateTime(r);
  }
  function updateTime(r) {
    if (document.activeElement !== $('scrub')) $('scrub').value = Math.min(r.time, r.end);
    if (document.activeElement !== $('time')) $('time').value = +r.time.toFixed(4);
    $('time-of').textContent = `/ ${r.end.toFixed(2)} s`;
  }
  setInterval(() => { const r = rigs.get(selected); if (r) updateTime(r); }, 100);

  const cur = () => rigs.get(selected);
  function set(fields) { const r = cur(); if (r) send(Object.assign({ op: 'set', inst: r.id }, fields)); }
  $('filter').oninput = renderCatalog;
  $('anim').onchange = () => {
    const r = cur(); if (!r) return;
    set({ anim: r.info.animations[+$('anim').value].name });
    send({ op: 'fit', inst: r.id, mode: 'animation' });
  };
  $('play').onclick = () => { const r = cur(); if (r) set({ playing: !r.playing }); };
  $('restart').onclick = () => set({ time: 0 });
  $('loop').onchange = () => set({ loop: $('loop').checked });
  $('speed').onchange = () => set({ speed: +$('speed').value });
  $('physics').onchange = () => set({ physics: $('physics').checked });
  $('pma').onchange = () => set({ pma: $('pma').value === '' ? null : $('pma').value === 'on' });
  $('step-fps').onchange = () => set({ stepFps: +$('step-fps').value });
  $('scrub').oninput = () => set({ playing: false, time: +$('scrub').value });
  $('time').onchange = () => set({ playing: false, time: +$('time').value });
  $('mix').onclick = () => {
    const r = cur(); if (!r) return;
    send({ op: 'mix', inst: r.id, to: r.info.animations[+$('mix-to').value].name, duration: +$('mix-duration').value });
  };
  $('fit').onclick = () => { const r = cur(); if (r) send({ op: 'fit', inst: r.id, mode: 'animation' }); };
  $('fit-frame').onclick = () => { const r = cur(); if (r) send({ op: 'fit', inst: r.id, mode: 'frame' }); };
  function zoom(r, k, px, py) {
    if (!r || !r.view) return;
    const t = viewTransform(r);
    if (px === undefined) { px = r.cell.w / 2; py = r.cell.h / 2; }
    const wx = (px - t.ox) / t.scale, wy = (t.oy - py) / t.scale;
    const s = Math.min(Math.max(r.view.scale * k, 1e-4), 1e4);
    // Keep the world point under (px, py) in place.
    r.view = { scale: s, cx: wx - (px - r.cell.w / 2) / s, cy: wy + (py - r.cell.h / 2) / s };
    r.userView = true;
    if (r.id === selected) $('scale').value = +s.toFixed(4);
  }
  $('zoom-in').onclick = () => zoom(cur(), 1.25);
  $('zoom-out').onclick = () => zoom(cur(), 0.8);
  $('scale').onchange = () => { const r = cur(); const s = +$('scale').value; if (r && r.view && s > 0) zoom(r, s / r.view.scale); };
  $('checker').onchange = () => stage.classList.toggle('checker', $('checker').checked);
  for (const c of document.querySelectorAll('.dbg')) {
    c.onchange = () => {
      debugFlags = 0;
      for (const d of document.querySelectorAll('.dbg')) if (d.checked) debugFlags |= +d.value;
    };
  }
  $('clear-events').onclick = () => { $('events').textContent = ''; };
  $('export').onclick = () => {
    const r = cur();
    if (!r || !r.view) return;
    const t = viewTransform(r);
    const bg = bgColor();
    const hex = bg.map((x) => Math.round(x * 255).toString(16).padStart(2, '0')).join('');
    $('export-result').className = '';
    send({
      op: 'export', inst: r.id, format: $('export-format').value, width: r.cell.w, height: r.cell.h,
      view: [t.scale, t.ox, t.oy], background: hex, fps: +$('export-fps').value,
    });
  };

  // Pan, zoom and select on the canvas (pixels are canvas pixels).
  function cellAt(ev) {
    const rect = canvas.getBoundingClientRect();
    const x = (ev.clientX - rect.left) * canvas.width / rect.width;
    const y = (ev.clientY - rect.top) * canvas.height / rect.height;
    for (const id of order) {
      const r = rigs.get(id);
      const c = r.cell;
      if (c && x >= c.x && x < c.x + c.w && y >= c.y && y < c.y + c.h) return { r, x: x - c.x, y: y - c.y };
    }
    return null;
  }
  let drag = null;
  canvas.addEventListener('pointerdown', (ev) => {
    const hit = cellAt(ev);
    if (!hit) return;
    if (hit.r.id !== selected) select(hit.r.id);
    drag = { r: hit.r, x: ev.clientX, y: ev.clientY };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (!drag || !drag.r.view) return;
    const k = canvas.width / canvas.getBoundingClientRect().width;
    drag.r.view.cx -= (ev.clientX - drag.x) * k / drag.r.view.scale;
    drag.r.view.cy += (ev.clientY - drag.y) * k / drag.r.view.scale;
    drag.r.userView = true;
    drag.x = ev.clientX; drag.y = ev.clientY;
  });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('wheel', (ev) => {
    const hit = cellAt(ev);
    if (!hit) return;
    ev.preventDefault();
    zoom(hit.r, Math.exp(-ev.deltaY * 0.0015), hit.x, hit.y);
  }, { passive: false });
  window.addEventListener('resize', resize);

  // Drag and drop: files go to the server over the WebSocket, into memory.
  let dragDepth = 0;
  window.addEventListener('dragenter', (ev) => { ev.preventDefault(); dragDepth++; $('drop-overlay').hidden = false; });
  window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; $('drop-overlay').hidden = true; } });
  window.addEventListener('dragover', (ev) => ev.preventDefault());
  window.addEventListener('drop', async (ev) => {
    ev.preventDefault();
    dragDepth = 0;
    $('drop-overlay').hidden = true;
    const files = [...(ev.dataTransfer ? ev.dataTransfer.files : [])];
    await openFiles(files);
  });
  async function sendFile(f) {
    const name = new TextEncoder().encode(f.name);
    const data = new Uint8Array(await f.arrayBuffer());
    const msg = new Uint8Array(4 + name.length + data.length);
    new DataView(msg.buffer).setUint32(0, name.length, true);
    msg.set(name, 4);
    msg.set(data, 4 + name.length);
    ws.send(msg);
  }
  async function openFiles(files) {
    if (!files.length) return;
    const skf = files.filter((f) => f.name.toLowerCase().endsWith('.skf'));
    send({ op: 'clear_uploads' });
    if (skf.length === files.length) {
      for (const f of skf) { await sendFile(f); send({ op: 'open_files' }); }
      return;
    }
    for (const f of files) await sendFile(f);
    send({ op: 'open_files' });
  }

  // For tests and benchmarks (tools/view-test).
  window.__skv = {
    ready: false,
    get framesDrawn() { return framesDrawn; },
    get pendingTextures() { return pendingTextures; },
    get lastFrame() { return lastFrame; },
    rigs: () => order.map((id) => { const r = rigs.get(id); return { id, name: r.name, time: r.time, end: r.end, anim: r.anim, view: r.view, cell: r.cell, fitted: r.fitted || 0, stateSeq: r.stateSeq || 0 }; }),
    catalog: () => catalog,
    stats: () => ({ draw: [...stats.draw], server: [...stats.server], rtt: [...stats.rtt], bytes: [...stats.bytes], times: [...stats.times] }),
    resetStats: () => { for (const k of Object.keys(stats)) stats[k].length = 0; },
    nextFrame: () => new Promise((res) => frameWaiters.push(res)),
    openFiles,
  };
})();
