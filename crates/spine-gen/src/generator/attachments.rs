//! Skin attachments and their vertices and sequences.

use spine_format::binary::v43::*;

use super::{Gen, SeqRef, SkinCtx, SkinRefs, VertexRef};

impl Gen {
    pub(super) fn vertices(&mut self, weighted: bool, count: usize, bones: usize) -> Vertices {
        if weighted {
            let groups: Vec<Vec<BoneWeight>> = (0..count)
                .map(|_| {
                    let n = self.rng.range(1, 3);
                    (0..n)
                        .map(|_| BoneWeight {
                            bone: self.rng.below(bones) as u32,
                            x: self.rng.float(100),
                            y: self.rng.float(100),
                            weight: self.rng.unit(),
                        })
                        .collect()
                })
                .collect();
            Vertices::Weighted(WeightedVertices::from_groups(groups))
        } else {
            Vertices::Unweighted((0..count * 2).map(|_| self.rng.float(100)).collect())
        }
    }

    pub(super) fn sequence(&mut self, bit: bool) -> Option<Sequence> {
        bit.then(|| Sequence {
            count: self.rng.range(1, 12) as u32,
            start: self.rng.range(0, 1) as u32,
            digits: self.rng.range(0, 3) as u32,
            setup_index: self.rng.below(3) as u32,
        })
    }

    /// Attachment `ty` (the wire type; a linked mesh without a mesh to link becomes a mesh)
    /// at `at`, recording where deform and sequence timelines may key it in `refs`.
    pub(super) fn attachment(
        &mut self,
        ty: usize,
        at: SeqRef,
        ctx: &SkinCtx,
        refs: &mut SkinRefs,
    ) -> Attachment {
        let ty = if ty == 3 && refs.meshes.is_empty() { 2 } else { ty };
        let flags = (self.rng.byte() & !7) | ty as u8;
        let name_override = (flags & 8 != 0).then(|| self.path_ref());
        let kind = match ty {
            0 => {
                refs.srefs.push(at);
                AttachmentKind::Region(self.region(flags))
            }
            1 | 4 | 6 => self.vertex_outline(ty, flags, at, ctx, refs),
            2 => self.mesh(flags, at, ctx, refs),
            3 => {
                refs.srefs.push(at);
                AttachmentKind::LinkedMesh(self.linked_mesh(flags, &refs.meshes))
            }
            _ => AttachmentKind::Point(PointAttachment {
                rotation: self.rng.float(180),
                x: self.rng.float(50),
                y: self.rng.float(50),
                color: self.ne_color(),
            }),
        };
        Attachment { flags, name: name_override, kind }
    }

    /// A nonessential color: drawn only with nonessential data.
    fn ne_color(&mut self) -> Option<[u8; 4]> {
        self.cfg.nonessential.then(|| self.color())
    }

    /// A region attachment with attachment `flags`.
    fn region(&mut self, flags: u8) -> RegionAttachment {
        RegionAttachment {
            path: (flags & 16 != 0).then(|| self.path_ref()),
            color: (flags & 32 != 0).then(|| self.color()),
            sequence: self.sequence(flags & 64 != 0),
            rotation: self.opt_f(flags & 128 != 0, 180),
            x: self.rng.float(50),
            y: self.rng.float(50),
            scale_x: 1.0,
            scale_y: 1.0 + self.rng.float(1),
            width: self.rng.below(300) as f32,
            height: self.rng.below(300) as f32,
        }
    }

    /// A bounding box (`ty` 1), path (4) or clipping (6) attachment: vertices and a color.
    fn vertex_outline(
        &mut self,
        ty: usize,
        flags: u8,
        at: SeqRef,
        ctx: &SkinCtx,
        refs: &mut SkinRefs,
    ) -> AttachmentKind {
        let weighted_bit = if ty == 4 { 64 } else { 16 };
        let count = if ty == 4 {
            3 * self.rng.range(1, (self.cfg.max_vertices / 3).max(1))
        } else {
            self.rng.range(3, self.cfg.max_vertices.max(3))
        };
        let vertices = self.vertices(flags & weighted_bit != 0, count, ctx.bones);
        let deform_len = count * 2;
        let SeqRef { skin, slot, name } = at;
        refs.vrefs.push(VertexRef { skin, slot, name, deform_len });
        match ty {
            1 => AttachmentKind::BoundingBox(BoundingBoxAttachment {
                vertices,
                color: self.ne_color(),
            }),
            4 => {
                let lengths = (0..deform_len / 6).map(|_| self.rng.below(400) as f32).collect();
                AttachmentKind::Path(PathAttachment { vertices, lengths, color: self.ne_color() })
            }
            _ => AttachmentKind::Clipping(ClippingAttachment {
                end_slot: self.rng.below(ctx.slots) as u32,
                vertices,
                color: self.ne_color(),
            }),
        }
    }

    /// A mesh attachment with attachment `flags`.
    fn mesh(
        &mut self,
        flags: u8,
        at: SeqRef,
        ctx: &SkinCtx,
        refs: &mut SkinRefs,
    ) -> AttachmentKind {
        let count = self.rng.range(3, self.cfg.max_vertices.max(3));
        let vertices = self.vertices(flags & 128 != 0, count, ctx.bones);
        let hull = self.rng.range(3, count) as u32;
        let tri = (count * 2 - hull as usize - 2) * 3;
        let nt = self.rng.below(3);
        let SeqRef { skin, slot, name } = at;
        refs.vrefs.push(VertexRef { skin, slot, name, deform_len: count * 2 });
        refs.srefs.push(at);
        let ne = self.cfg.nonessential;
        AttachmentKind::Mesh(MeshAttachment {
            path: (flags & 16 != 0).then(|| self.path_ref()),
            color: (flags & 32 != 0).then(|| self.color()),
            sequence: self.sequence(flags & 64 != 0),
            hull_length: hull,
            vertices,
            uvs: (0..count * 2).map(|_| self.rng.unit()).collect(),
            triangles: (0..tri).map(|_| self.rng.below(count) as u32).collect(),
            timeline_slots: (0..nt).map(|_| self.rng.below(ctx.slots) as u32).collect(),
            nonessential: ne.then(|| MeshExtras {
                edges: (0..hull as usize * 2).map(|_| self.rng.below(count * 2) as u32).collect(),
                width: self.rng.below(300) as f32,
                height: self.rng.below(300) as f32,
            }),
        })
    }

    /// A linked mesh of one of `meshes` (not empty), with attachment `flags`.
    fn linked_mesh(&mut self, flags: u8, meshes: &[SeqRef]) -> LinkedMeshAttachment {
        let src = meshes[self.rng.below(meshes.len())];
        let ne = self.cfg.nonessential;
        LinkedMeshAttachment {
            path: (flags & 16 != 0).then(|| self.path_ref()),
            color: (flags & 32 != 0).then(|| self.color()),
            sequence: self.sequence(flags & 64 != 0),
            source_slot: src.slot,
            skin: src.skin,
            source: src.name,
            size: ne.then(|| [self.rng.below(300) as f32, self.rng.below(300) as f32]),
        }
    }
}
