//! One rig on the page: its controls, its player (Spine `AnimationState` + `Skeleton`, or a
//! SkelForm armature) and its render commands.
//!
//! Playback is `skel render`'s played run (crates/skel-cli/src/render.rs): a fresh skeleton
//! with the chosen skin, an `AnimationState` with the animation on track 0, each step
//! `state.update(dt)`, `state.apply`, `skeleton.update(dt)`, world transforms with
//! `Physics::Update` (the physics switch off: `Physics::None`). Live playing steps by the
//! page's frame time × speed; seeking ([`Instance::seek`]) replays from 0 to `T` as a still
//! frame of `skel render --time T --fps F` is played: `floor(T·F)` steps of `1/F` and one
//! shorter step making up exactly `T` (`T = 0`: one step of 0).
//!
//! SkelForm follows `skel render FILE.skf`: live playing advances one armature (animate +
//! construct at `time_frame(t)`, looping, physics carried over); a seek poses a fresh
//! armature once at frame `trunc(T · fps)`, as a `.png` of `skel render` is made.

use std::sync::Arc;

use serde_json::{json, Value};
use skelform::{AnimLayer, Armature, SkfDrawer};
use spine_anim::render::SkeletonBounds;
use spine_anim::{
    AnimationState, AnimationStateData, Physics, Skeleton, SkeletonRenderer, StateEventType,
};
use spine_model::{AttachmentKind, SkeletonData, SkinData, SkinId, SlotId};
use spine_render_traits::RenderCommands;

use crate::rig::{Rig, RigKind};

/// Most steps a seek replays (as `skel render`).
const MAX_STEPS: f64 = 1_000_000.0;
/// Most fired events kept between two frames.
const MAX_EVENTS: usize = 512;

/// What the page controls for one rig.
#[derive(Debug, Clone, PartialEq)]
pub struct Controls {
    /// The animation (index), or none (setup pose).
    pub anim: Option<usize>,
    /// Loop it.
    pub looping: bool,
    /// Playing (else paused).
    pub playing: bool,
    /// Time scale of live playing.
    pub speed: f32,
    /// Physics updated (else `Physics::None`).
    pub physics: bool,
    /// Premultiplied-alpha override of every page (`None`: the atlas says).
    pub pma: Option<bool>,
    /// The step rate of seeks (`skel render --fps`).
    pub step_fps: f32,
    /// Active skins (Spine; combined in order, later ones win) or styles (SkelForm,
    /// highest priority first); empty: the default rule.
    pub skins: Vec<usize>,
}

impl Default for Controls {
    fn default() -> Self {
        Controls {
            anim: None,
            looping: true,
            playing: true,
            speed: 1.0,
            physics: true,
            pma: None,
            step_fps: 30.0,
            skins: Vec::new(),
        }
    }
}

/// An animation change at a time of the run: the first one starts the run, later ones mix
/// from what plays then.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cue {
    /// Seconds since the start of the run.
    pub at: f32,
    /// The animation.
    pub anim: Option<usize>,
    /// Mix duration from the previous animation (seconds).
    pub mix: f32,
}

struct SpinePlayer {
    /// The data played: the rig's, plus a combined skin when several are active.
    data: Arc<SkeletonData>,
    skin: Option<SkinId>,
    sk: Skeleton,
    state: AnimationState,
    renderer: SkeletonRenderer,
    bounds: SkeletonBounds,
    verts: Vec<f32>,
}

struct SkfPlayer {
    template: Armature,
    arm: Armature,
    drawer: SkfDrawer,
    /// Smoothing frames of the current cue (a mix).
    smooth: u32,
}

enum Body {
    Spine(SpinePlayer),
    Skf(SkfPlayer),
}

/// One rig on the page.
pub struct Instance {
    /// Id the page knows it by.
    pub id: u32,
    /// The rig.
    pub rig: Arc<Rig>,
    /// Controls.
    pub ctl: Controls,
    cues: Vec<Cue>,
    next_cue: usize,
    body: Body,
    /// The current frame's render commands.
    pub cmds: RenderCommands,
    /// Seconds played since the start of the run.
    pub time: f32,
    /// Events fired since the page last took them.
    pub events: Vec<Value>,
}

/// The skin a single choice or the default rule gives: `skel render`'s (first non-default
/// skin when there is one).
fn default_skin(data: &SkeletonData) -> Option<SkinId> {
    data.skin_ids().find(|&id| data.skin(id).name != "default")
}

/// The data and skin for the chosen skins: one skin is used as is; several are combined
/// into a new skin appended to a copy of the data (entries of later skins win, bones and
/// constraints are the union), as spine-cpp's `Skin::addSkin` builds a mix-and-match skin.
fn skinned(base: &Arc<SkeletonData>, skins: &[usize]) -> (Arc<SkeletonData>, Option<SkinId>) {
    let valid: Vec<usize> = skins.iter().copied().filter(|&i| i < base.skins.len()).collect();
    match valid.as_slice() {
        [] => (base.clone(), default_skin(base)),
        [one] => (base.clone(), base.skin_ids().nth(*one)),
        many => {
            let mut entries: std::collections::BTreeMap<(SlotId, Arc<str>), _> = Default::default();
            let mut bones = Vec::new();
            let mut constraints = Vec::new();
            let mut names = Vec::new();
            for &i in many {
                let s = &base.skins[i];
                names.push(s.name.clone());
                for e in &s.entries {
                    entries.insert((e.slot, e.name.clone()), e.clone());
                }
                for b in &s.bones {
                    if !bones.contains(b) {
                        bones.push(*b);
                    }
                }
                for c in &s.constraints {
                    if !constraints.contains(c) {
                        constraints.push(*c);
                    }
                }
            }
            let mut data = (**base).clone();
            data.skins.push(SkinData {
                name: names.join("+").into(),
                bones,
                constraints,
                entries: entries.into_values().collect(),
                color: None,
            });
            let id = data.skin_ids().last();
            (Arc::new(data), id)
        }
    }
}

fn new_spine(data: Arc<SkeletonData>, skin: Option<SkinId>) -> SpinePlayer {
    let mut sk = Skeleton::new(data.clone());
    sk.set_skin(skin);
    sk.set_to_setup_pose();
    let state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    SpinePlayer {
        data,
        skin,
        sk,
        state,
        renderer: SkeletonRenderer::new(),
        bounds: SkeletonBounds::new(),
        verts: Vec::new(),
    }
}

/// The steps of a played run from 0 to exactly `t` (`skel render`'s `steps_to`): `n` steps
/// of `1 / fps`, then one of `rest`.
pub fn steps_to(t: f32, fps: f32) -> Result<(u64, f32), String> {
    if !(t >= 0.0 && t.is_finite()) {
        return Err(format!("time must be 0 or more (got {t})"));
    }
    if !(fps > 0.0 && fps <= 1000.0) {
        return Err(format!("step fps must be in (0, 1000] (got {fps})"));
    }
    let dt = 1.0 / fps;
    let x = f64::from(t) * f64::from(fps);
    let whole = x.round();
    let (n, rest) = if (x - whole).abs() < 1e-4 {
        (whole, 0.0)
    } else {
        let n = x.floor();
        (n, (f64::from(t) - n * f64::from(dt)) as f32)
    };
    if n > MAX_STEPS {
        return Err(format!("time {t} at {fps} fps is over {MAX_STEPS} steps to replay"));
    }
    Ok((n as u64, rest))
}

impl Instance {
    /// A new instance of `rig` with `ctl`, at the start of its run (frame 0 rendered).
    pub fn new(id: u32, rig: Arc<Rig>, ctl: Controls) -> Instance {
        let mut cmds = RenderCommands::new();
        let body = match &rig.kind {
            RigKind::Spine(s) => {
                let (data, skin) = skinned(&s.data, &ctl.skins);
                cmds = SkeletonRenderer::commands(&data);
                Body::Spine(new_spine(data, skin))
            }
            RigKind::Skf(s) => {
                let drawer = SkfDrawer::new(&s.armature, &mut cmds);
                Body::Skf(SkfPlayer {
                    template: (*s.armature).clone(),
                    arm: (*s.armature).clone(),
                    drawer,
                    smooth: 0,
                })
            }
        };
        let cues = vec![Cue { at: 0.0, anim: ctl.anim, mix: 0.0 }];
        let mut inst =
            Instance { id, rig, ctl, cues, next_cue: 0, body, cmds, time: 0.0, events: Vec::new() };
        inst.apply_skins();
        inst.restart();
        inst
    }

    /// Animation names of the rig.
    pub fn animations(&self) -> Vec<(String, f32)> {
        match &self.rig.kind {
            RigKind::Spine(s) => {
                s.data.animations.iter().map(|a| (a.name.to_string(), a.duration)).collect()
            }
            RigKind::Skf(s) => s
                .armature
                .animations()
                .iter()
                .map(|a| {
                    let d = if a.fps == 0 { 0.0 } else { a.last_frame() as f32 / a.fps as f32 };
                    (a.name.clone(), d)
                })
                .collect(),
        }
    }

    /// Skin (Spine) or style (SkelForm) names.
    pub fn skin_names(&self) -> Vec<String> {
        match &self.rig.kind {
            RigKind::Spine(s) => s.data.skins.iter().map(|k| k.name.to_string()).collect(),
            RigKind::Skf(s) => s.armature.styles().iter().map(|k| k.name.clone()).collect(),
        }
    }

    /// The skins in use when none is chosen.
    pub fn default_skins(&self) -> Vec<usize> {
        match &self.rig.kind {
            RigKind::Spine(s) => default_skin(&s.data).map(|i| vec![i.index()]).unwrap_or_default(),
            RigKind::Skf(s) => skelform::default_styles(&s.armature),
        }
    }

    /// Duration of an animation (seconds).
    pub fn duration(&self, anim: Option<usize>) -> f32 {
        anim.and_then(|a| self.animations().get(a).map(|x| x.1)).unwrap_or(0.0)
    }

    /// The end of the run's timeline: the last cue plus its animation's duration.
    pub fn timeline_end(&self) -> f32 {
        let last = self.cues.last().copied().unwrap_or(Cue { at: 0.0, anim: None, mix: 0.0 });
        last.at + self.duration(last.anim)
    }

    /// The cues of the run.
    pub fn cues(&self) -> &[Cue] {
        &self.cues
    }

    /// Makes the chosen skins / styles current (Spine: a new player; restart the run after).
    fn apply_skins(&mut self) {
        let skins = self.ctl.skins.clone();
        match (&mut self.body, &self.rig.kind) {
            (Body::Spine(p), RigKind::Spine(s)) => {
                let (data, skin) = skinned(&s.data, &skins);
                if !Arc::ptr_eq(&data, &p.data) || skin != p.skin {
                    *p = new_spine(data, skin);
                }
            }
            (Body::Skf(p), RigKind::Skf(s)) => {
                let styles: Vec<usize> =
                    skins.into_iter().filter(|&i| i < s.armature.styles().len()).collect();
                if styles.is_empty() {
                    p.drawer.set_styles(&skelform::default_styles(&s.armature));
                } else {
                    p.drawer.set_styles(&styles);
                }
            }
            _ => {}
        }
    }

    /// Sets the skins (styles) and replays to the current time.
    pub fn set_skins(&mut self, skins: Vec<usize>) {
        self.ctl.skins = skins;
        self.apply_skins();
        let t = self.time;
        let _ = self.seek(t);
    }

    /// Starts the run over with `anim` (no mix), at time 0.
    pub fn set_animation(&mut self, anim: Option<usize>) {
        self.ctl.anim = anim;
        self.cues = vec![Cue { at: 0.0, anim, mix: 0.0 }];
        self.restart();
    }

    /// Mixes from what plays now to `anim` over `mix` seconds (a cue at the current time).
    pub fn mix_to(&mut self, anim: Option<usize>, mix: f32) {
        let at = self.time;
        self.cues.retain(|c| c.at < at || c.at == 0.0);
        self.cues.push(Cue { at, anim, mix: mix.max(0.0) });
        self.next_cue = self.cues.len() - 1;
        self.fire_cues();
        self.render();
    }

    /// A fresh run, before its first step (`skel render`'s `Player::new`).
    fn reset(&mut self) {
        self.time = 0.0;
        self.next_cue = 0;
        self.events.clear();
        match &mut self.body {
            Body::Spine(p) => {
                let mut sk = Skeleton::new(p.data.clone());
                sk.set_skin(p.skin);
                sk.set_to_setup_pose();
                p.sk = sk;
                p.state = AnimationState::new(Arc::new(AnimationStateData::new(p.data.clone())));
            }
            Body::Skf(p) => {
                p.arm = p.template.clone();
                p.smooth = 0;
            }
        }
        self.fire_cues();
        if let Body::Spine(p) = &mut self.body {
            p.state.clear_events();
        }
    }

    /// Applies the cues due at the current time.
    fn fire_cues(&mut self) {
        while let Some(c) = self.cues.get(self.next_cue).copied() {
            if c.at > self.time && self.next_cue > 0 {
                break;
            }
            self.next_cue += 1;
            let looping = self.ctl.looping;
            match &mut self.body {
                Body::Spine(p) => match c.anim.and_then(|a| p.data.animation_ids().nth(a)) {
                    Some(a) => {
                        let e = p.state.set_animation(0, Some(a), looping);
                        if c.at > 0.0 {
                            p.state.entry_mut(e).mix_duration = c.mix;
                        }
                    }
                    None if c.at > 0.0 => {
                        p.state.set_empty_animation(0, c.mix);
                    }
                    None => {}
                },
                Body::Skf(p) => {
                    let fps =
                        c.anim.and_then(|a| p.template.animations().get(a)).map_or(0, |a| a.fps);
                    p.smooth = (c.mix * fps as f32).round() as u32;
                }
            }
        }
    }

    /// Starts the run over and shows its frame 0 (one step of 0, as `skel render`).
    pub fn restart(&mut self) {
        self.reset();
        self.step(0.0);
    }

    /// The cue playing at the current time.
    fn current_cue(&self) -> Cue {
        self.next_cue.checked_sub(1).and_then(|i| self.cues.get(i).copied()).unwrap_or(Cue {
            at: 0.0,
            anim: self.ctl.anim,
            mix: 0.0,
        })
    }

    /// One step of `dt` seconds (not scaled by the speed), then the render commands.
    pub fn step(&mut self, dt: f32) {
        self.time += dt;
        let physics = if self.ctl.physics { Physics::Update } else { Physics::None };
        match &mut self.body {
            Body::Spine(p) => {
                p.state.update(dt);
                p.state.apply(&mut p.sk);
                if self.events.len() < MAX_EVENTS {
                    collect_events(&p.state, &p.data, self.time, &mut self.events);
                }
                p.state.clear_events();
                p.sk.update(dt);
                p.sk.update_world_transform(physics);
            }
            Body::Skf(_) => {}
        }
        let before = self.next_cue;
        self.fire_cues();
        if let Body::Skf(_) = self.body {
            let cue = self.current_cue();
            self.pose_skf(cue, self.time - cue.at, self.next_cue != before);
        }
        self.render();
    }

    /// Poses the SkelForm armature at `t` seconds into `cue`'s animation (looping frames).
    fn pose_skf(&mut self, cue: Cue, t: f32, _new_cue: bool) {
        let looping = self.ctl.looping;
        if let Body::Skf(p) = &mut self.body {
            if let Some(a) = cue.anim.filter(|&a| a < p.arm.animations().len()) {
                let frame = p.arm.time_frame(a, t.max(0.0), false, looping);
                let smooth = p.smooth;
                p.arm.animate(&[AnimLayer { anim: a, frame, smooth }]);
            }
            p.arm.construct();
        }
    }

    /// Replays the run from 0 to exactly `t` at the step rate ([`steps_to`]). SkelForm: a
    /// fresh armature posed once at frame `trunc(t · fps)`.
    pub fn seek(&mut self, t: f32) -> Result<(), String> {
        let (n, rest) = steps_to(t, self.ctl.step_fps)?;
        if let Body::Skf(_) = self.body {
            self.reset();
            self.time = t;
            self.next_cue = 0;
            self.fire_cues();
            let cue = self.current_cue();
            if let Body::Skf(p) = &mut self.body {
                p.arm = p.template.clone();
                if let Some(a) = cue.anim.filter(|&a| a < p.arm.animations().len()) {
                    let fps = p.arm.animations()[a].fps;
                    let frame = skelform::frame_at(t - cue.at, fps);
                    p.arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
                }
                p.arm.construct();
            }
            self.render();
            return Ok(());
        }
        self.reset();
        if n == 0 && rest <= 0.0 {
            self.step(0.0);
        }
        let dt = 1.0 / self.ctl.step_fps;
        for _ in 0..n {
            self.step(dt);
        }
        if rest > 0.0 {
            self.step(rest);
        }
        self.events.clear();
        // The replay's accumulated time may differ from `t` by rounding; show `t`.
        self.time = t;
        Ok(())
    }

    /// SkelForm: poses the running armature at `t` (for exports: frame `k` at `k / fps`).
    fn skf_at(&mut self, t: f32) {
        self.time = t;
        self.fire_cues();
        let cue = self.current_cue();
        self.pose_skf(cue, t - cue.at, false);
        self.render();
    }

    /// Fills [`Instance::cmds`] from the current pose.
    pub fn render(&mut self) {
        match &mut self.body {
            Body::Spine(p) => p.renderer.render(&p.sk, &mut self.cmds),
            Body::Skf(p) => {
                self.cmds.clear();
                // A rejected draw (a mesh over 65 536 vertices) leaves the rest drawn.
                let _ = p.drawer.draw(&p.arm, &mut self.cmds);
            }
        }
    }

    /// Premultiplied alpha of page `i` (the override, else the atlas').
    pub fn page_pma(&self, i: usize) -> bool {
        self.ctl.pma.unwrap_or_else(|| self.rig.pages.get(i).is_some_and(|p| p.pma))
    }

    /// Frames of an animated output at `fps` over the current animation, each handed to `f`
    /// with the commands: Spine as `skel render` (frame 0 on a run of its own after one step
    /// of 0, frames 1.. on one run stepped by `1/fps`), SkelForm frames `time_frame(k/fps)`
    /// of one armature.
    pub fn play_frames(
        &mut self,
        fps: f32,
        f: &mut dyn FnMut(usize, usize, &RenderCommands) -> Result<(), String>,
    ) -> Result<(), String> {
        if !(fps > 0.0 && fps <= 1000.0) {
            return Err(format!("fps must be in (0, 1000] (got {fps})"));
        }
        let n = self.frame_count(fps);
        self.cues.truncate(1);
        match self.body {
            Body::Spine(_) => {
                self.restart();
                f(0, n, &self.cmds)?;
                self.reset();
                for k in 1..n {
                    self.step(1.0 / fps);
                    f(k, n, &self.cmds)?;
                }
            }
            Body::Skf(_) => {
                self.reset();
                for k in 0..n {
                    self.skf_at(k as f32 / fps);
                    f(k, n, &self.cmds)?;
                }
            }
        }
        self.events.clear();
        Ok(())
    }

    /// World bounds to fit the view to: `"frame"`: the current frame's; else the union over
    /// the current animation's frames at the step rate as `skel render` fits its view
    /// (plus the current frame). The instance is left where it was.
    pub fn fit_bounds(&mut self, whole_animation: bool) -> Option<[f32; 4]> {
        let current = self.cmds.bounds();
        if !whole_animation {
            return current;
        }
        let mut copy = Instance::new(u32::MAX, self.rig.clone(), self.ctl.clone());
        copy.cues = self.cues.iter().take(1).copied().collect();
        let mut acc = current;
        let _ = copy.play_frames(self.ctl.step_fps, &mut |_, _, cmds| {
            if let Some(b) = cmds.bounds() {
                acc = Some(match acc {
                    None => b,
                    Some(a) => [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])],
                });
            }
            Ok(())
        });
        acc
    }

    /// Debug geometry of the current pose for the overlays in `flags`
    /// ([`crate::wire::DEBUG_BONES`] …): `(kind, floats)` groups.
    pub fn debug(&mut self, flags: u32, out: &mut Vec<(u32, Vec<f32>)>) {
        use crate::wire::{
            DEBUG_BBOX, DEBUG_BONES, DEBUG_CLIP, DEBUG_HULLS, KIND_BBOX, KIND_BONES, KIND_CLIP,
            KIND_HULLS, KIND_JOINTS,
        };
        let take = |kind: u32, out: &mut Vec<(u32, Vec<f32>)>| -> usize {
            out.push((kind, Vec::new()));
            out.len() - 1
        };
        match &mut self.body {
            Body::Spine(p) => {
                let sk = &p.sk;
                if flags & DEBUG_BONES != 0 {
                    let (segs, joints) = (take(KIND_BONES, out), take(KIND_JOINTS, out));
                    for (i, b) in sk.bones.iter().enumerate() {
                        if !b.active {
                            continue;
                        }
                        let len = p.data.bones.get(i).map_or(0.0, |d| d.length);
                        out[segs].1.extend([
                            b.world_x,
                            b.world_y,
                            b.world_x + b.a * len,
                            b.world_y + b.c * len,
                        ]);
                        out[joints].1.extend([b.world_x, b.world_y]);
                    }
                }
                if flags & DEBUG_BBOX != 0 {
                    let g = take(KIND_BBOX, out);
                    p.bounds.update(sk, false);
                    for poly in p.bounds.polygons() {
                        push_loop(poly, poly.len() / 2, &mut out[g].1);
                    }
                }
                if flags & (DEBUG_HULLS | DEBUG_CLIP) != 0 {
                    let (hulls, clips) = (take(KIND_HULLS, out), take(KIND_CLIP, out));
                    for &slot in &sk.draw_order {
                        let Some(s) = sk.slots.get(slot.index()) else { continue };
                        if !sk.bones.get(s.bone.index()).is_some_and(|b| b.active) {
                            continue;
                        }
                        let Some(att) = s.attachment else { continue };
                        let (group, n) = match &p.data.attachment(att).kind {
                            AttachmentKind::Mesh(m) if flags & DEBUG_HULLS != 0 => {
                                (hulls, m.hull_length as usize)
                            }
                            AttachmentKind::Clipping(_) if flags & DEBUG_CLIP != 0 => {
                                (clips, usize::MAX)
                            }
                            _ => continue,
                        };
                        p.verts.clear();
                        if sk.world_vertices(slot, &mut p.verts) {
                            let n = n.min(p.verts.len() / 2);
                            push_loop(&p.verts, n, &mut out[group].1);
                        }
                    }
                }
            }
            Body::Skf(p) => {
                let arm = &p.arm;
                if flags & DEBUG_BONES != 0 {
                    let (segs, joints) = (take(KIND_BONES, out), take(KIND_JOINTS, out));
                    let world = arm.world();
                    for (i, b) in arm.bones().iter().enumerate() {
                        let Some(w) = world.get(i) else { continue };
                        if w.hidden {
                            continue;
                        }
                        if let Some(pw) = b.parent.and_then(|q| world.get(q as usize)) {
                            out[segs].1.extend([pw.pos.x, pw.pos.y, w.pos.x, w.pos.y]);
                        }
                        out[joints].1.extend([w.pos.x, w.pos.y]);
                    }
                }
                if flags & DEBUG_HULLS != 0 {
                    let g = take(KIND_HULLS, out);
                    for v in 0..arm.visuals().len() {
                        let vs = arm.world_vertices(v);
                        let flat: Vec<f32> = vs.iter().flat_map(|q| [q.x, q.y]).collect();
                        push_loop(&flat, vs.len(), &mut out[g].1);
                    }
                }
            }
        }
    }

    /// A copy at the same frame: the same controls and cues, replayed to the current time
    /// (the frame `skel render --time T` draws).
    pub fn snapshot(&self) -> Instance {
        let mut copy = Instance::new(self.id, self.rig.clone(), self.ctl.clone());
        copy.cues = self.cues.clone();
        if copy.seek(self.time).is_err() {
            copy.restart();
        }
        copy
    }

    /// Frames of an animated output of the current animation at `fps` (as
    /// [`Instance::play_frames`] draws them).
    pub fn frame_count(&self, fps: f32) -> usize {
        let duration = self.duration(self.ctl.anim);
        match self.body {
            Body::Spine(_) => ((duration * fps).ceil() as usize).clamp(1, 100_000),
            Body::Skf(_) => ((duration * fps).round() as usize).clamp(1, 10_000),
        }
    }

    /// Takes the events fired since the last call.
    pub fn take_events(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.events)
    }
}

/// Appends the closed polygon of the first `n` points of `pts` as segments.
fn push_loop(pts: &[f32], n: usize, out: &mut Vec<f32>) {
    if n < 2 {
        return;
    }
    for i in 0..n {
        let j = (i + 1) % n;
        if let (Some(a), Some(b)) = (pts.get(2 * i..2 * i + 2), pts.get(2 * j..2 * j + 2)) {
            out.extend([a[0], a[1], b[0], b[1]]);
        }
    }
}

/// The state's callbacks of one step as log entries (events with their values; start,
/// complete and end of entries).
fn collect_events(state: &AnimationState, data: &SkeletonData, time: f32, out: &mut Vec<Value>) {
    for e in state.events() {
        let anim = e.animation.map_or(String::new(), |a| data.animation(a).name.to_string());
        let v = match e.kind {
            StateEventType::Event(r) => {
                let Some(k) = r.key(data) else { continue };
                json!({"t": time, "type": "event", "name": data.event(k.event).name, "anim": anim,
                       "int": k.int_value, "float": k.float_value, "string": k.string_value})
            }
            StateEventType::Start => json!({"t": time, "type": "start", "anim": anim}),
            StateEventType::Complete => json!({"t": time, "type": "complete", "anim": anim}),
            StateEventType::End => json!({"t": time, "type": "end", "anim": anim}),
            _ => continue,
        };
        out.push(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeks_step_like_skel_render() {
        assert_eq!(steps_to(0.0, 30.0), Ok((0, 0.0)));
        assert_eq!(steps_to(0.5, 30.0), Ok((15, 0.0)));
        let (n, rest) = steps_to(0.25, 30.0).unwrap();
        assert_eq!(n, 7);
        assert!((7.0 * f64::from(1.0f32 / 30.0) + f64::from(rest) - 0.25).abs() < 1e-7);
        assert!(steps_to(-1.0, 30.0).is_err());
        assert!(steps_to(1.0, 0.0).is_err());
    }

    fn demo() -> Arc<Rig> {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo/demo.json");
        Arc::new(crate::rig::load_file(&path, "demo", &crate::rig::Textures::default()).unwrap())
    }

    #[test]
    fn mixes_are_cues_and_skins_combine() {
        let rig = demo();
        let ctl = Controls { anim: Some(0), ..Controls::default() };
        let mut inst = Instance::new(1, rig, ctl);
        for _ in 0..10 {
            inst.step(0.05);
        }
        inst.mix_to(Some(1), 0.3);
        assert_eq!(inst.cues().len(), 2);
        assert!((inst.timeline_end() - (0.5 + inst.duration(Some(1)))).abs() < 1e-4);
        // A replay through the mix lands where the live run did.
        let live: Vec<f32> = {
            inst.step(0.1);
            inst.cmds.iter().flat_map(|c| c.positions.to_vec()).collect()
        };
        let t = inst.time;
        inst.ctl.step_fps = 20.0;
        inst.seek(t).unwrap();
        let replay: Vec<f32> = inst.cmds.iter().flat_map(|c| c.positions.to_vec()).collect();
        assert_eq!(live.len(), replay.len());
        // Several skins: a combined skin appended to a copy of the data.
        let base = match &inst.rig.kind {
            RigKind::Spine(s) => s.data.clone(),
            RigKind::Skf(_) => unreachable!(),
        };
        let (data, skin) = skinned(&base, &[0, 0]);
        assert_eq!(data.skins.len(), base.skins.len() + 1);
        assert_eq!(skin, data.skin_ids().last());
        inst.set_skins(vec![0, 0]);
        assert!(!inst.cmds.is_empty());
    }

    #[test]
    fn a_seek_equals_a_live_run_at_the_step_rate() {
        let rig = demo();
        let ctl = Controls { anim: Some(0), ..Controls::default() };
        let mut live = Instance::new(1, rig.clone(), ctl.clone());
        live.reset();
        for _ in 0..12 {
            live.step(1.0 / 30.0);
        }
        let mut seek = Instance::new(2, rig, ctl);
        seek.seek(0.4).unwrap();
        let a: Vec<f32> = live.cmds.iter().flat_map(|c| c.positions.to_vec()).collect();
        let b: Vec<f32> = seek.cmds.iter().flat_map(|c| c.positions.to_vec()).collect();
        assert!(!a.is_empty());
        assert_eq!(a, b);
        assert!(seek.fit_bounds(true).is_some());
        let mut dbg = Vec::new();
        seek.debug(crate::wire::DEBUG_ALL, &mut dbg);
        assert!(dbg.iter().any(|(k, v)| *k == crate::wire::KIND_BONES && !v.is_empty()));
    }
}
