//! The generator: its state ([`Gen`]) and the skeleton it builds, section by section.

mod animation;
mod attachments;
mod constraints;
mod curves;

use spine_format::binary::v43::*;
use spine_format::binary::StrRef;

use crate::judge::judgeable;
use crate::{Config, Rng};

const ATT_NAMES: usize = 48;

struct Gen {
    rng: Rng,
    cfg: Config,
    /// Counters that cycle through enum values so every value appears.
    cycle: [usize; 16],
}

/// A vertex attachment's location, for deform timelines.
#[derive(Clone, Copy)]
struct VertexRef {
    skin: u32,
    slot: u32,
    name: StrRef,
    deform_len: usize,
}

/// A region or mesh location, for sequence timelines.
#[derive(Clone, Copy)]
struct SeqRef {
    skin: u32,
    slot: u32,
    name: StrRef,
}

impl Gen {
    fn next(&mut self, which: usize, modulo: usize) -> usize {
        let v = self.cycle[which] % modulo;
        self.cycle[which] += 1;
        v
    }

    fn color(&mut self) -> [u8; 4] {
        [self.rng.byte(), self.rng.byte(), self.rng.byte(), self.rng.byte()]
    }

    fn opt_f(&mut self, bit: bool, lim: u32) -> Option<f32> {
        bit.then(|| self.rng.float(lim))
    }

    fn path_ref(&mut self) -> StrRef {
        StrRef(1 + (ATT_NAMES + self.rng.below(8)) as u32)
    }

    fn inherit(&mut self) -> Inherit {
        [
            Inherit::Normal,
            Inherit::OnlyTranslation,
            Inherit::NoRotationOrReflection,
            Inherit::NoScale,
            Inherit::NoScaleOrReflection,
        ][self.next(0, 5)]
    }

    fn property(&mut self) -> TransformProperty {
        [
            TransformProperty::Rotate,
            TransformProperty::X,
            TransformProperty::Y,
            TransformProperty::ScaleX,
            TransformProperty::ScaleY,
            TransformProperty::ShearY,
        ][self.next(1, 6)]
    }

    fn strings(&mut self) -> Vec<Option<String>> {
        let mut v: Vec<Option<String>> =
            (0..ATT_NAMES).map(|i| Some(format!("attachment-{i}"))).collect();
        v.extend((0..8).map(|i| Some(format!("images/part{i}"))));
        v
    }

    fn header(&mut self, seed: u64) -> Header {
        Header {
            hash_low: (seed as u32 ^ 0x5eed_0001) as i32,
            hash_high: ((seed >> 32) as u32 ^ 0x0c0f_fee0) as i32,
            version: "4.3.39".into(),
            x: self.rng.float(200),
            y: self.rng.float(200),
            width: self.rng.below(2000) as f32,
            height: self.rng.below(2000) as f32,
            reference_scale: 100.0,
            nonessential: self.cfg.nonessential.then(|| NonessentialHeader {
                fps: 30.0,
                images_path: Some("./images/".into()),
                audio_path: if self.rng.chance(50) { Some("./audio/".into()) } else { None },
            }),
        }
    }

    fn bones(&mut self) -> Vec<Bone> {
        let n = self.cfg.bones.max(1);
        (0..n)
            .map(|i| {
                let name = if i == 0 { "root".to_owned() } else { format!("bone{i}") };
                let parent = (i > 0).then(|| self.rng.below(i) as u32);
                let nonessential = self.cfg.nonessential.then(|| BoneExtras {
                    color: self.color(),
                    icon: if self.rng.chance(30) { Some("ik".into()) } else { None },
                    icon_size: self.rng.float(4),
                    icon_rotation: self.rng.float(180),
                    visible: self.rng.chance(80),
                });
                Bone {
                    name: name.into(),
                    parent,
                    rotation: self.rng.float(180),
                    x: self.rng.float(100),
                    y: self.rng.float(100),
                    scale_x: 1.0 + self.rng.float(1),
                    scale_y: 1.0 + self.rng.float(1),
                    shear_x: self.rng.float(10),
                    shear_y: self.rng.float(10),
                    inherit: self.inherit(),
                    length: self.rng.below(200) as f32,
                    skin_required: self.rng.chance(15),
                    nonessential,
                }
            })
            .collect()
    }

    fn slots(&mut self, bones: usize) -> Vec<Slot> {
        (0..self.cfg.slots)
            .map(|i| Slot {
                name: format!("slot{i}").into(),
                bone: self.rng.below(bones) as u32,
                color: self.color(),
                dark_color: if self.rng.chance(30) {
                    [0, self.rng.byte(), self.rng.byte(), self.rng.byte()]
                } else {
                    Slot::NO_DARK_COLOR
                },
                attachment: if self.rng.chance(70) { name_ref(0) } else { StrRef::NONE },
                blend: [
                    BlendMode::Normal,
                    BlendMode::Additive,
                    BlendMode::Multiply,
                    BlendMode::Screen,
                ][self.next(2, 4)],
                visible: self.cfg.nonessential.then(|| self.rng.chance(90)),
            })
            .collect()
    }

    fn bone_list(&mut self, bones: usize, max: usize) -> Vec<u32> {
        let n = self.rng.range(1, max);
        (0..n).map(|_| self.rng.below(bones) as u32).collect()
    }
}

/// The string reference of attachment name `i` (names cycle through [`ATT_NAMES`]).
fn name_ref(i: usize) -> StrRef {
    StrRef(1 + (i % ATT_NAMES) as u32)
}

/// The skeleton's bone and slot counts, for attachments.
struct SkinCtx {
    bones: usize,
    slots: usize,
}

/// What the skins hold so far: meshes to link, and what timelines may key.
#[derive(Default)]
struct SkinRefs {
    /// Mesh attachments, sources for linked meshes.
    meshes: Vec<SeqRef>,
    /// Vertex attachments, for deform timelines.
    vrefs: Vec<VertexRef>,
    /// Regions and meshes, for sequence timelines.
    srefs: Vec<SeqRef>,
}

/// Builds a skeleton of shape `cfg` from `seed`.
pub fn generate(cfg: Config, seed: u64) -> Skeleton {
    let mut g = Gen { rng: Rng::new(seed), cfg, cycle: [0; 16] };
    let mut sk = Skeleton { header: g.header(seed), strings: g.strings(), ..Skeleton::default() };
    sk.bones = g.bones();
    sk.slots = g.slots(sk.bones.len());
    let (nb, ns) = (sk.bones.len(), sk.slots.len());
    let types = g.cfg.constraints.clone();
    sk.constraints = types
        .iter()
        .enumerate()
        .map(|(i, &t)| Constraint {
            name: format!("constraint{i}").into(),
            kind: g.constraint(t, nb, ns),
        })
        .collect();

    let ctx = SkinCtx { bones: nb, slots: ns };
    let mut refs = SkinRefs::default();
    let n_skins = g.cfg.skins + usize::from(g.cfg.default_skin);
    let all_slots: Vec<Vec<SkinSlot>> =
        (0..n_skins).map(|skin| g.skin_slots(skin as u32, &ctx, &mut refs)).collect();
    g.skins(&mut sk, all_slots);
    sk.events = g.events();

    let n_anims = g.cfg.animations.max(1);
    for i in 0..n_anims {
        let a = g.animation(i, &sk, &refs.vrefs, &refs.srefs);
        sk.animations.push(a);
    }
    for c in &mut sk.constraints {
        if let ConstraintKind::Slider(s) = &mut c.kind {
            s.animation = g.rng.below(n_anims) as u32;
        }
    }
    judgeable(&mut sk);
    sk
}

impl Gen {
    /// The slots of skin `skin` (the default skin, when there is one, is skin 0).
    fn skin_slots(&mut self, skin: u32, ctx: &SkinCtx, refs: &mut SkinRefs) -> Vec<SkinSlot> {
        let mut slots = Vec::new();
        for slot in 0..ctx.slots as u32 {
            // The default skin lists every slot so it is never empty when there are slots.
            let keep = (self.cfg.default_skin && skin == 0) || self.rng.chance(70);
            if !keep {
                continue;
            }
            let n = self.rng.range(1, self.cfg.attachments_per_slot.max(1));
            let mut attachments = Vec::with_capacity(n);
            for j in 0..n {
                let name = name_ref(j);
                let ty = self.next(13, 7);
                let at = SeqRef { skin, slot, name };
                let a = self.attachment(ty, at, ctx, refs);
                if matches!(a.kind, AttachmentKind::Mesh(_)) {
                    refs.meshes.push(at);
                }
                attachments.push(SkinEntry { placeholder: name, attachment: a });
            }
            slots.push(SkinSlot { slot, attachments });
        }
        slots
    }

    /// The default skin and the named skins, from each skin's slots.
    fn skins(&mut self, sk: &mut Skeleton, all_slots: Vec<Vec<SkinSlot>>) {
        let nb = sk.bones.len();
        let mut it = all_slots.into_iter();
        if self.cfg.default_skin {
            // Without slots the default skin is empty, which the format writes as "no default
            // skin"; then nothing references any skin either.
            sk.default_skin = it.next().filter(|s| !s.is_empty());
        }
        for (i, slots) in it.enumerate() {
            let constraints = (0..self.rng.below(3).min(sk.constraints.len()))
                .map(|_| self.rng.below(sk.constraints.len()) as u32)
                .collect();
            let bones = (0..self.rng.below(3)).map(|_| self.rng.below(nb) as u32).collect();
            sk.skins.push(Skin {
                name: format!("skin{i}").into(),
                color: self.cfg.nonessential.then(|| self.color()),
                bones,
                constraints,
                slots,
            });
        }
    }

    /// The events, cycling through no audio, an empty audio path and an audio file.
    fn events(&mut self) -> Vec<Event> {
        (0..self.cfg.events)
            .map(|i| {
                let audio = self.next(14, 3);
                Event {
                    name: format!("event{i}").into(),
                    int_value: self.rng.float(1000) as i32,
                    float_value: self.rng.float(10),
                    string_value: self.rng.chance(50).then(|| format!("value{i}")),
                    audio_path: match audio {
                        0 => None,
                        1 => Some(String::new()),
                        _ => Some(format!("sfx/{i}.ogg")),
                    },
                    volume_balance: (audio == 2).then(|| [self.rng.unit(), self.rng.unit() - 0.5]),
                }
            })
            .collect()
    }
}
