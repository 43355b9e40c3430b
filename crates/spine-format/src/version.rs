//! [`SpineVersion`]: the editor version line of an export, parsed once and ordered.
//!
//! Every layer tells the Spine versions apart with this one type: the binary header
//! ([`binary::Header`](crate::binary::Header)), the JSON `skeleton.spine` field
//! ([`json::Skeleton::version`](crate::json::Skeleton::version)) and, above this crate,
//! `spine_model::Behaviour`. Code compares versions as ranges
//! (`v >= SpineVersion::V3_8`, `v < SpineVersion::V4_0`) instead of matching strings.

use std::fmt;

/// A Spine editor version line, `major.minor` (the patch number never changes a format or
/// a runtime's behaviour; the full string stays in the header / `skeleton.spine`).
///
/// Ordered: `SpineVersion::V3_5 < SpineVersion::V3_8 < SpineVersion::V4_0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpineVersion {
    /// `3` or `4` for the versions this crate reads.
    pub major: u8,
    /// The minor version.
    pub minor: u8,
}

impl SpineVersion {
    /// Spine 3.5.
    pub const V3_5: SpineVersion = SpineVersion::new(3, 5);
    /// Spine 3.6 (two-color tint, point and clipping attachments).
    pub const V3_6: SpineVersion = SpineVersion::new(3, 6);
    /// Spine 3.7.
    pub const V3_7: SpineVersion = SpineVersion::new(3, 7);
    /// Spine 3.8 (IK softness, skin constraints).
    pub const V3_8: SpineVersion = SpineVersion::new(3, 8);
    /// Spine 4.0 (bezier curves per key, split timelines).
    pub const V4_0: SpineVersion = SpineVersion::new(4, 0);
    /// Spine 4.1 (sequences).
    pub const V4_1: SpineVersion = SpineVersion::new(4, 1);
    /// Spine 4.2 (physics, inherit timelines).
    pub const V4_2: SpineVersion = SpineVersion::new(4, 2);
    /// Spine 4.3 (sliders, poses).
    pub const V4_3: SpineVersion = SpineVersion::new(4, 3);

    /// Every version this crate reads, oldest first.
    pub const SUPPORTED: [SpineVersion; 8] = [
        Self::V3_5,
        Self::V3_6,
        Self::V3_7,
        Self::V3_8,
        Self::V4_0,
        Self::V4_1,
        Self::V4_2,
        Self::V4_3,
    ];

    /// `major.minor`.
    pub const fn new(major: u8, minor: u8) -> SpineVersion {
        SpineVersion { major, minor }
    }

    /// Reads the line of a version string such as `"3.8.99"`, `"4.3.39-beta"` or `"4.2"`:
    /// the major number (surrounding spaces allowed), a dot, and the digits that start the
    /// minor part. `None` if either is missing or out of range; any version is accepted
    /// (see [`is_supported`](Self::is_supported)).
    pub fn parse(s: &str) -> Option<SpineVersion> {
        let mut it = s.split('.');
        let major = it.next()?.trim().parse().ok()?;
        let minor = it.next()?;
        let digits = minor.find(|c: char| !c.is_ascii_digit()).unwrap_or(minor.len());
        Some(SpineVersion::new(major, minor[..digits].parse().ok()?))
    }

    /// Whether this crate reads this version (3.5 to 4.3).
    pub fn is_supported(self) -> bool {
        Self::V3_5 <= self && self <= Self::V4_3
    }

    /// Whether this is a 3.x version.
    pub fn is_v3(self) -> bool {
        self.major == 3
    }
}

impl fmt::Display for SpineVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Serialized as its `major.minor` string.
impl serde::Serialize for SpineVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::SpineVersion as V;

    #[test]
    fn parses_lines_and_orders_them() {
        assert_eq!(V::parse("3.8.99"), Some(V::V3_8));
        assert_eq!(V::parse("4.3.39-beta"), Some(V::V4_3));
        assert_eq!(V::parse(" 4.2"), Some(V::V4_2));
        assert_eq!(V::parse("3.10.1"), Some(V::new(3, 10)));
        assert_eq!(V::parse("4"), None);
        assert_eq!(V::parse("4.x"), None);
        assert_eq!(V::parse(""), None);
        assert!(V::SUPPORTED.windows(2).all(|w| w[0] < w[1]));
        assert!(V::V3_8 < V::V4_0 && V::new(3, 10) > V::V3_8);
        assert!(V::V4_3.is_supported() && !V::new(3, 4).is_supported());
        assert_eq!(V::V4_1.to_string(), "4.1");
    }
}
