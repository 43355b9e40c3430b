//! What the profiling examples share: their command line (`<rig> <file> <a> <b> [frames]`)
//! and a 4.2 corpus rig posed on track 0 like the `frame` bench.

use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, Skeleton};
use spine_model::{SkeletonData, SkinId};

/// The examples' arguments: rig folder, file, two words whose meaning each example gives
/// (skin and animation, or two animations), and a frame count.
pub struct Args {
    pub rig: String,
    pub file: String,
    pub third: String,
    pub fourth: String,
    pub frames: usize,
}

impl Args {
    /// Reads the command line, with spineboy-pro and the given defaults for what is missing.
    pub fn parse(third: &str, fourth: &str, frames: usize) -> Args {
        let args: Vec<String> = std::env::args().collect();
        let word = |i: usize, default: &str| args.get(i).map_or(default, String::as_str).to_owned();
        Args {
            rig: word(1, "spineboy"),
            file: word(2, "spineboy-pro.skel"),
            third: word(3, third),
            fourth: word(4, fourth),
            frames: args.get(5).and_then(|s| s.parse().ok()).unwrap_or(frames),
        }
    }

    /// Loads the 4.2 corpus rig the arguments name (no atlas); `None` (said on stderr)
    /// without a corpus.
    #[allow(dead_code)] // (`render_profile` loads with the atlas)
    pub fn load(&self) -> Option<Arc<SkeletonData>> {
        let Some(corpus) = skel_testkit::spine_corpus() else {
            eprintln!("no corpus");
            return None;
        };
        let path = corpus.join("4.2").join(&self.rig).join(&self.file);
        let bytes = std::fs::read(path).expect("rig readable");
        Some(Arc::new(spine_model::load_binary(&bytes, None).expect("rig loads")))
    }
}

/// A skeleton in its setup pose with `skin` (`Some("-")`: the first skin after the default,
/// if any; `None`: none set) and a state with `default_mix`.
pub fn posed(
    data: &Arc<SkeletonData>,
    skin: Option<&str>,
    default_mix: f32,
) -> (Skeleton, AnimationState) {
    let mut sk = Skeleton::new(data.clone());
    let skin_id = match skin {
        Some("-") => (data.skins.len() > 1).then_some(SkinId::from_index(1)),
        Some(name) => data.find_skin(name),
        None => None,
    };
    if skin_id.is_some() {
        sk.set_skin(skin_id);
    }
    sk.set_to_setup_pose();
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = default_mix;
    (sk, AnimationState::new(Arc::new(asd)))
}
