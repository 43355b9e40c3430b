//! The world → pixel transform every backend draws with.

/// Maps world coordinates (y up, Spine's convention) to pixel coordinates (y down, origin at
/// the top-left corner of the image, pixel `(i, j)` covering `[i, i+1) × [j, j+1)`):
/// `px = x * scale + offset_x`, `py = offset_y - y * scale`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewTransform {
    /// Pixels per world unit.
    pub scale: f32,
    /// Pixel x of the world origin.
    pub offset_x: f32,
    /// Pixel y of the world origin.
    pub offset_y: f32,
}

impl Default for ViewTransform {
    /// Scale 1, world origin at the image's top-left corner (so positive y is off-image).
    fn default() -> ViewTransform {
        ViewTransform { scale: 1.0, offset_x: 0.0, offset_y: 0.0 }
    }
}

impl ViewTransform {
    /// A transform with the given scale and origin position in pixels.
    pub fn new(scale: f32, offset_x: f32, offset_y: f32) -> ViewTransform {
        ViewTransform { scale, offset_x, offset_y }
    }

    /// Centers world `bounds` (`[min_x, min_y, max_x, max_y]`) in a `width × height` image at
    /// the given scale.
    pub fn centered(bounds: [f32; 4], width: u32, height: u32, scale: f32) -> ViewTransform {
        let cx = (bounds[0] + bounds[2]) * 0.5;
        let cy = (bounds[1] + bounds[3]) * 0.5;
        ViewTransform {
            scale,
            offset_x: width as f32 * 0.5 - cx * scale,
            offset_y: height as f32 * 0.5 + cy * scale,
        }
    }

    /// The largest scale at which world `bounds` fit a `width × height` image with `margin`
    /// pixels on every side, centered. Empty or degenerate bounds give scale 1.
    pub fn fit(bounds: [f32; 4], width: u32, height: u32, margin: f32) -> ViewTransform {
        let bw = bounds[2] - bounds[0];
        let bh = bounds[3] - bounds[1];
        let aw = (width as f32 - 2.0 * margin).max(1.0);
        let ah = (height as f32 - 2.0 * margin).max(1.0);
        let mut scale = f32::INFINITY;
        if bw > 0.0 {
            scale = aw / bw;
        }
        if bh > 0.0 {
            scale = scale.min(ah / bh);
        }
        if !scale.is_finite() || scale <= 0.0 {
            scale = 1.0;
        }
        ViewTransform::centered(bounds, width, height, scale)
    }

    /// Applies the transform to a world point.
    pub fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        (x * self.scale + self.offset_x, self.offset_y - y * self.scale)
    }
}
