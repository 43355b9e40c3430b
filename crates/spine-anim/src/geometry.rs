//! The pose as [`glam`] types, for engines built on glam (bevy, macroquad, wgpu code): a
//! bone's world transform as an [`Affine2`], positions and world vertices as [`Vec2`].
//!
//! These are views of the runtime's own numbers, not a second computation: the solvers keep
//! the official formulas and operation order on plain `f32` fields (the oracle goldens
//! compare them bit for bit), and the accessors here only repackage them. World vertices and
//! render-command positions stay `x, y` pairs in reused `f32` buffers ([`as_vec2`] views such
//! a buffer as points without copying).

pub use glam::{Affine2, Mat2, Vec2};

use crate::skeleton::Bone;

impl Bone {
    /// The world transform: `matrix` = columns `(a, c)` and `(b, d)`, `translation` =
    /// `(world_x, world_y)`; a local point `p` goes to `matrix * p + translation`.
    #[inline]
    pub fn world_affine(&self) -> Affine2 {
        Affine2::from_mat2_translation(self.world_matrix(), self.world_position())
    }

    /// The world matrix (no translation): columns `(a, c)` and `(b, d)`.
    #[inline]
    pub fn world_matrix(&self) -> Mat2 {
        Mat2::from_cols(Vec2::new(self.a, self.c), Vec2::new(self.b, self.d))
    }

    /// The world position `(world_x, world_y)`.
    #[inline]
    pub fn world_position(&self) -> Vec2 {
        Vec2::new(self.world_x, self.world_y)
    }
}

/// Views an `x, y` pair buffer (world vertices from
/// [`Skeleton::world_vertices`](crate::Skeleton::world_vertices), a render command's
/// positions or UVs) as points, without copying. A trailing odd value is left out.
#[inline]
pub fn as_vec2(xy: &[f32]) -> &[Vec2] {
    let pairs = xy.len() / 2 * 2;
    bytemuck::cast_slice(&xy[..pairs])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bone_maps_points_as_its_fields_do() {
        let json = r#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root",
            "x": 10, "y": -4, "rotation": 30, "scaleX": 2, "scaleY": 0.5, "shearY": 10}]}"#;
        let data = std::sync::Arc::new(spine_model::load_json(json, None).unwrap());
        let mut sk = crate::Skeleton::new(data);
        sk.update_world_transform(crate::Physics::None);
        let b = &sk.bones[0];
        let p = Vec2::new(7.0, -3.0);
        let by_fields =
            Vec2::new(p.x * b.a + p.y * b.b + b.world_x, p.x * b.c + p.y * b.d + b.world_y);
        assert_eq!(b.world_affine().transform_point2(p), by_fields);
        assert_eq!(b.world_matrix() * p + b.world_position(), by_fields);
        assert_eq!(b.world_position(), Vec2::new(10.0, -4.0));
    }

    #[test]
    fn pairs_view_as_points() {
        let xy = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(as_vec2(&xy), &[Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]);
        assert!(as_vec2(&[]).is_empty());
    }
}
