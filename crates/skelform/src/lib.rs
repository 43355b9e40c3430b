//! # skelform
//!
//! Loads SkelForm armatures (`.skf` zip archives and bare `armature.json`, editor versions
//! 0.6 and 0.7, plus documented upgrades of 0.2–0.5 files), animates them and constructs
//! world transforms and mesh vertices exactly as the SkelForm reference runtime
//! (rusty_skelform 0.8) does, with the developer docs' construct pass order by default.
//!
//! ```no_run
//! let bytes = std::fs::read("skellina.skf").unwrap();
//! let mut arm = skelform::load(&bytes).unwrap();
//! let walk = arm.animation_index("Walk").unwrap();
//! let frame = arm.format_frame(walk, 42, false, true);
//! arm.animate(&[skelform::AnimLayer { anim: walk, frame, smooth: 0 }]);
//! arm.construct();
//! let head = arm.world()[3];
//! # let _ = head;
//! ```
//!
//! The semantics (and where the reference runtime, the editor and the docs disagree) are
//! described in the project's `shared/oracle/skelform/SEMANTICS.md`; the choices made here:
//! texture keyframes named `"Texture"` and `"Tex"` both apply; missing keys take the
//! editor's defaults (−1 ids, `init_*` = the base value, scale and `pivot_scale` (1,1),
//! white tint, IK mode FABRIK); `handle_preset` is an open string; hidden flags are copied
//! and propagated to children on every construct.
//!
//! Per-frame work ([`Armature::animate`], [`Armature::construct`]) uses flat vectors sized
//! at load and does not allocate.

mod anim;
mod armature;
mod construct;
mod error;
mod fast;
mod load;
mod model;
mod raw;
mod render;

pub use anim::interpolate;
pub use armature::{format_frame, frame_at, AnimLayer, Armature, ConstructOrder};
pub use error::SkfError;
pub use load::{load, load_skf, parse_armature_json, Limits, SkfArchive};
pub use model::*;
pub use render::{default_styles, DrawStats, SkfDrawer};
