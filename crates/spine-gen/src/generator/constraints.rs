//! Setup constraints, one builder per constraint type.

use spine_format::binary::v43::*;

use super::Gen;

impl Gen {
    /// A setup constraint of type `ty` (a path constraint without slots becomes a transform).
    pub(super) fn constraint(
        &mut self,
        ty: ConstraintType,
        bones: usize,
        slots: usize,
    ) -> ConstraintKind {
        match ty {
            ConstraintType::Ik => self.ik(bones),
            ConstraintType::Path if slots > 0 => self.path(bones, slots),
            ConstraintType::Path | ConstraintType::Transform => self.transform(bones),
            ConstraintType::Physics => self.physics(bones),
            ConstraintType::Slider => self.slider(bones),
        }
    }

    /// An IK constraint.
    fn ik(&mut self, bones: usize) -> ConstraintKind {
        let flags = self.rng.byte();
        ConstraintKind::Ik(IkConstraint {
            bones: self.bone_list(bones, 2),
            target: self.rng.below(bones) as u32,
            flags,
            scale_y_mode: (flags & 2 != 0).then(|| {
                [ScaleYMode::None, ScaleYMode::Uniform, ScaleYMode::Volume][self.next(3, 3)]
            }),
            mix: self.opt_f(flags & 32 != 0 && flags & 64 != 0, 1),
            softness: self.opt_f(flags & 128 != 0, 50),
        })
    }

    /// A path constraint on one of `slots` slots.
    fn path(&mut self, bones: usize, slots: usize) -> ConstraintKind {
        // Rotate mode 3 does not exist: keep bits 4-5 below 3.
        let mut flags = self.rng.byte();
        if (flags >> 4) & 3 == 3 {
            flags &= !0x10;
        }
        ConstraintKind::Path(PathConstraint {
            bones: self.bone_list(bones, 3),
            slot: self.rng.below(slots) as u32,
            flags,
            offset_rotation: self.opt_f(flags & 128 != 0, 90),
            position: self.rng.float(100),
            spacing: self.rng.float(20),
            mix_rotate: self.rng.unit(),
            mix_x: self.rng.unit(),
            mix_y: self.rng.unit(),
        })
    }

    /// A transform constraint: its property mappings, offsets and mixes.
    fn transform(&mut self, bones: usize) -> ConstraintKind {
        let n_from = self.rng.below(4);
        let properties = (0..n_from)
            .map(|_| {
                let property = self.property();
                let offset = self.rng.float(10);
                let n_to = self.rng.range(0, 3);
                let to = (0..n_to)
                    .map(|_| ToProperty {
                        property: self.property(),
                        offset: self.rng.float(10),
                        max: self.rng.float(100),
                        scale: self.rng.float(2),
                    })
                    .collect();
                FromProperty { property, offset, to }
            })
            .collect();
        let offset_flags = self.rng.byte();
        let mix_flags = self.rng.byte();
        let mut offsets = [None; 6];
        let mut mixes = [None; 6];
        for bit in 0..6 {
            offsets[bit] = self.opt_f(offset_flags & (1 << bit) != 0, 30);
            mixes[bit] = (mix_flags & (1 << bit) != 0).then(|| self.rng.unit());
        }
        ConstraintKind::Transform(TransformConstraint {
            bones: self.bone_list(bones, 3),
            source: self.rng.below(bones) as u32,
            flags: self.rng.byte() & 0x1f,
            properties,
            offset_flags,
            offsets,
            mix_flags,
            mixes,
        })
    }

    /// A physics constraint.
    fn physics(&mut self, bones: usize) -> ConstraintKind {
        let flags = self.rng.byte();
        let global_flags = self.rng.byte();
        // The sign of scaleX carries the scale-y mode (gotcha 8): cycle the three.
        let scale_x = (flags & 16 != 0).then(|| match self.next(4, 3) {
            0 => self.rng.unit(),
            1 => -1.0 - self.rng.unit(),
            _ => -2.0 - self.rng.unit() - 0.25,
        });
        ConstraintKind::Physics(PhysicsConstraint {
            bone: self.rng.below(bones) as u32,
            flags,
            x: (flags & 2 != 0).then(|| self.rng.unit()),
            y: (flags & 4 != 0).then(|| self.rng.unit()),
            rotate: (flags & 8 != 0).then(|| self.rng.unit()),
            scale_x,
            shear_x: (flags & 32 != 0).then(|| self.rng.unit()),
            limit: (flags & 64 != 0).then(|| self.rng.below(5000) as f32),
            fps: [30, 60, 120][self.rng.below(3)],
            inertia: self.rng.unit(),
            strength: self.rng.below(200) as f32,
            damping: self.rng.unit(),
            mass_inverse: (flags & 128 != 0).then(|| self.rng.unit()),
            wind: self.rng.float(10),
            gravity: self.rng.float(10),
            global_flags,
            mix: (global_flags & 128 != 0).then(|| self.rng.unit()),
        })
    }

    /// A slider constraint (its animation is chosen once the animations exist).
    fn slider(&mut self, bones: usize) -> ConstraintKind {
        let flags = self.rng.byte();
        ConstraintKind::Slider(SliderConstraint {
            flags,
            value: (flags & 8 != 0).then(|| self.rng.unit()),
            mix: (flags & 16 != 0 && flags & 32 != 0).then(|| self.rng.unit()),
            bone: (flags & 64 != 0).then(|| SliderBone {
                bone: self.rng.below(bones) as u32,
                property_offset: self.rng.float(10),
                property: self.property(),
                offset: self.rng.float(1),
                scale: self.rng.float(2),
            }),
            animation: 0,
        })
    }
}
