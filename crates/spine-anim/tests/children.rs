//! `Skeleton::children` lists, for every bone of every rig of the corpus (3.5–4.2 binaries),
//! exactly the bones whose parent it is, in bone order (spine-cpp `Bone::children`, which
//! the update cache's `sortReset` walks).

use std::sync::Arc;

use spine_anim::Skeleton;
use spine_model::BoneId;

#[test]
fn children_are_the_bones_whose_parent_is_the_bone() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut bones_checked = 0;
    let mut with_children = 0;
    for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"] {
        for file in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            let bytes = std::fs::read(&file).unwrap();
            let data = Arc::new(spine_model::load_binary(&bytes, None).unwrap());
            let sk = Skeleton::new(data.clone());
            for i in 0..data.bones.len() {
                let id = BoneId::from_index(i);
                let want: Vec<BoneId> = (0..data.bones.len())
                    .filter(|&c| data.bones[c].parent == Some(id))
                    .map(BoneId::from_index)
                    .collect();
                assert_eq!(sk.children(id), want.as_slice(), "{} bone {i}", file.display());
                bones_checked += 1;
                with_children += usize::from(!want.is_empty());
            }
            let past = BoneId::from_index(data.bones.len());
            assert!(sk.children(past).is_empty(), "{}", file.display());
        }
    }
    assert!(bones_checked > 1000 && with_children > 100, "{bones_checked} / {with_children}");
}
