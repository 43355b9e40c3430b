//! Legacy documents (0.2–0.5): detection and the editor's migrations up to 0.6.

use serde_json::Value;

use super::{build, version_pair};
use crate::armature::Armature;
use crate::error::SkfError;
use crate::raw::*;

/// Why a typed-parsed document needs the legacy path, if it does.
pub(super) fn legacy_kind(raw: &RawArmature) -> Option<()> {
    let old = raw.version.as_deref().and_then(version_pair).is_some_and(|v| v < (0, 6));
    (old || raw.ik_root_ids.is_some() || raw.texture_size.is_some() || raw.armature.is_some())
        .then_some(())
}

pub(super) fn value_is_legacy(v: &Value) -> bool {
    let old =
        v.get("version").and_then(Value::as_str).and_then(version_pair).is_some_and(|p| p < (0, 6));
    old || v.get("ik_root_ids").is_some()
        || v.get("texture_size").is_some()
        || v.get("armature").is_some()
}

/// Upgrades a legacy document (SEMANTICS §1: the editor's migrations) and builds it.
pub(super) fn upgrade(mut v: Value) -> Result<Armature, SkfError> {
    let version = v.get("version").and_then(Value::as_str).map(str::to_string);
    let shown = version.clone().unwrap_or_else(|| "(none)".to_string());
    if v.get("armature").is_some() || v.get("texture_size").is_some() {
        return Err(SkfError::UnsupportedVersion {
            version: shown,
            reason: "the early `texture_size` layout (an `armature` wrapper, or `tex_idx`/\
                     `style_ids` bones) has no documented upgrade"
                .into(),
        });
    }
    let pair = version.as_deref().and_then(version_pair);
    let Some(pair) = pair else {
        return Err(SkfError::UnsupportedVersion {
            version: shown,
            reason: "legacy keys (`ik_root_ids`) with an unreadable `version`".into(),
        });
    };
    if pair < (0, 2) {
        return Err(SkfError::UnsupportedVersion {
            version: shown,
            reason: "versions before 0.2 have no documented upgrade".into(),
        });
    }
    let Some(root) = v.as_object_mut() else { return Err(SkfError::NotSkelForm) };
    if pair < (0, 4) {
        upgrade_02_to_04(root);
    }
    upgrade_04_to_06(root);
    let raw: RawArmature = match serde_path_to_error::deserialize(v) {
        Ok(r) => r,
        Err(e) => {
            let path = e.path().to_string();
            return Err(SkfError::Json {
                path,
                line: 0,
                column: 0,
                message: format!("(after upgrading from {shown}) {}", e.into_inner()),
            });
        }
    };
    build(raw, Some(shown))
}

type Obj = serde_json::Map<String, Value>;

fn arr_mut<'a>(o: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Obj> {
    o.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flat_map(|a| a.iter_mut().filter_map(Value::as_object_mut))
}

fn rename(o: &mut Obj, from: &str, to: &str) {
    if let Some(x) = o.remove(from) {
        o.insert(to.to_string(), x);
    }
}

/// 0.2/0.3 → 0.4: `element_str` → `element`, `ik_*_str` → `ik_*`, `is_hidden` → `hidden`,
/// `transition` → bezier handles.
fn upgrade_02_to_04(root: &mut Obj) {
    for bone in arr_mut(root, "bones") {
        rename(bone, "ik_constraint_str", "ik_constraint");
        rename(bone, "ik_mode_str", "ik_mode");
        rename(bone, "is_hidden", "hidden");
        rename(bone, "init_is_hidden", "init_hidden");
        rename(bone, "init_ik_constraint_str", "init_ik_constraint");
        for k in ["hidden", "init_hidden"] {
            if let Some(n) = bone.get(k).and_then(Value::as_f64) {
                bone.insert(k.into(), Value::from(n != 0.0));
            }
        }
        for k in ["ik_constraint", "init_ik_constraint", "ik_mode"] {
            if !bone.get(k).is_some_and(Value::is_string) {
                bone.remove(k);
            }
        }
    }
    for anim in arr_mut(root, "animations") {
        for kf in arr_mut(anim, "keyframes") {
            rename(kf, "element_str", "element");
            if !kf.get("element").is_some_and(Value::is_string) {
                kf.insert("element".into(), Value::from("Unknown"));
            }
            let snap = kf.get("transition").and_then(Value::as_str) == Some("None");
            let (s, e) = if snap { (999.0, 999.0) } else { (1.0 / 3.0, 2.0 / 3.0) };
            kf.entry("start_handle").or_insert_with(|| serde_json::json!({"x": s, "y": s}));
            kf.entry("end_handle").or_insert_with(|| serde_json::json!({"x": e, "y": e}));
        }
    }
}

/// 0.4/0.5 → 0.6: frame −1 → 0; `next_kf` computed when absent; bone `tex/zindex/vertices/
/// indices/binds/init_tex/init_zindex` → `visuals[]`, `ik_*` → `inverse_kinematics[]`,
/// `phys_*` → `physics[]`, with `visuals_id`, `physics_id`, `ik_family_id` set.
fn upgrade_04_to_06(root: &mut Obj) {
    upgrade_keyframes_04(root);
    let mut visuals = Vec::new();
    let mut iks = Vec::new();
    let mut physics = Vec::new();
    let mut family_map: Vec<(i64, i64)> = Vec::new();
    let mut bones = arr_mut(root, "bones").collect::<Vec<_>>();
    for bone in bones.iter_mut() {
        move_visual(bone, &mut visuals);
        move_ik(bone, &mut iks, &mut family_map);
        move_physics(bone, &mut physics);
    }
    for bone in bones.iter_mut() {
        let old = bone.get("ik_family_id").and_then(Value::as_i64).unwrap_or(-1);
        let new = family_map.iter().find(|(o, _)| *o == old && old != -1).map_or(-1, |p| p.1);
        bone.insert("ik_family_id".into(), Value::from(new));
    }
    root.remove("ik_root_ids");
    root.insert("visuals".into(), Value::Array(visuals));
    root.insert("inverse_kinematics".into(), Value::Array(iks));
    root.insert("physics".into(), Value::Array(physics));
}

/// 0.4/0.5 keyframes: frame −1 → 0; `next_kf` (the next key of the same bone and element,
/// or −1) computed when any is absent.
fn upgrade_keyframes_04(root: &mut Obj) {
    for anim in arr_mut(root, "animations") {
        let Some(kfs) = anim.get_mut("keyframes").and_then(Value::as_array_mut) else { continue };
        for kf in kfs.iter_mut().filter_map(Value::as_object_mut) {
            if kf.get("frame").and_then(Value::as_i64).is_some_and(|f| f < 0) {
                kf.insert("frame".into(), Value::from(0));
            }
        }
        let missing = kfs.iter().any(|k| k.get("next_kf").is_none());
        if missing {
            let keys: Vec<(Value, Value)> = kfs
                .iter()
                .map(|k| {
                    (
                        k.get("bone_id").cloned().unwrap_or(Value::Null),
                        k.get("element").cloned().unwrap_or(Value::Null),
                    )
                })
                .collect();
            for (i, kf) in kfs.iter_mut().enumerate() {
                let next = keys
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .find(|(_, k)| **k == keys[i])
                    .map_or(-1, |(j, _)| j as i64);
                if let Some(o) = kf.as_object_mut() {
                    o.insert("next_kf".into(), Value::from(next));
                }
            }
        }
    }
}

/// Moves a bone's texture and mesh fields into a new visual (when it has a texture or a
/// mesh) and sets its `visuals_id`.
fn move_visual(bone: &mut Obj, visuals: &mut Vec<Value>) {
    let tex = bone.get("tex").and_then(Value::as_str).unwrap_or("").to_string();
    let has_mesh = bone.get("vertices").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    let mut vis = Obj::new();
    for k in ["tex", "zindex", "vertices", "indices", "binds", "init_tex", "init_zindex", "tint"] {
        if let Some(x) = bone.remove(k) {
            vis.insert(k.into(), x);
        }
    }
    if !tex.is_empty() || has_mesh {
        bone.insert("visuals_id".into(), Value::from(visuals.len()));
        visuals.push(Value::Object(vis));
    } else {
        bone.insert("visuals_id".into(), Value::from(-1));
    }
}

/// Moves a bone's `ik_*` fields into a new IK family (when it lists chain bones), noting
/// the old family id → new index in `family_map`.
fn move_ik(bone: &mut Obj, iks: &mut Vec<Value>, family_map: &mut Vec<(i64, i64)>) {
    let old_family = bone.get("ik_family_id").and_then(Value::as_i64).unwrap_or(-1);
    let ik_ids = bone.remove("ik_bone_ids");
    let mut ik = Obj::new();
    for (from, to) in [
        ("ik_constraint", "constraint"),
        ("ik_mode", "mode"),
        ("ik_target_id", "target_id"),
        ("init_ik_constraint", "init_constraint"),
        ("init_ik_mode", "init_mode"),
    ] {
        if let Some(x) = bone.remove(from) {
            ik.insert(to.into(), x);
        }
    }
    if let Some(ids) = ik_ids.filter(|x| x.as_array().is_some_and(|a| !a.is_empty())) {
        ik.insert("bone_ids".into(), ids);
        family_map.push((old_family, iks.len() as i64));
        iks.push(Value::Object(ik));
    }
}

/// Moves a bone's `phys_*` fields into a new physics entry (when `has_physics`) and sets its
/// `physics_id`.
fn move_physics(bone: &mut Obj, physics: &mut Vec<Value>) {
    let has_physics = bone.remove("has_physics").and_then(|x| x.as_bool()).unwrap_or(false);
    let mut phys = Obj::new();
    let keys: Vec<String> = bone.keys().filter(|k| k.starts_with("phys_")).cloned().collect();
    for k in keys {
        if let Some(x) = bone.remove(&k) {
            phys.insert(k["phys_".len()..].to_string(), x);
        }
    }
    if has_physics {
        bone.insert("physics_id".into(), Value::from(physics.len()));
        physics.push(Value::Object(phys));
    } else {
        bone.insert("physics_id".into(), Value::from(-1));
    }
}
