//! The state of a conversion: [`ToJson`] names what a binary skeleton indexes, [`FromJson`]
//! resolves JSON names to indexes while building the string table and collecting problems.

use std::collections::HashMap;

use spine_format::binary::v40::ast as w;
use spine_format::binary::StrRef;
use spine_format::json as j;
use spine_format::SpineVersion;

use crate::convert::common::{index_by_name, split_weighted, Problems, Strings};
use crate::error::ProblemKind;

/// Binary → JSON: the skeleton and the names its indexes refer to.
pub(super) struct ToJson<'a> {
    /// The binary skeleton.
    pub s: &'a w::Skeleton,
    /// Skin names by wire index (the default skin first when present).
    pub skins: Vec<String>,
    /// Event name, int and float by index (the defaults of the event keys).
    pub events: Vec<(String, i32, f32)>,
}

impl<'a> ToJson<'a> {
    /// The state for `s`.
    pub fn new(s: &'a w::Skeleton) -> Self {
        let mut skins = Vec::new();
        if s.default_skin.is_some() {
            skins.push("default".to_owned());
        }
        let mut c = ToJson { s, skins, events: Vec::new() };
        c.skins.extend(
            s.skins.iter().map(|k| k.name.resolve(&s.strings).unwrap_or_default().to_owned()),
        );
        c.events = s.events.iter().map(|e| (c.name(&e.name), e.int, e.float)).collect();
        c
    }
    /// A string of the table.
    pub fn text(&self, r: StrRef) -> Option<String> {
        r.resolve(&self.s.strings).map(str::to_owned)
    }
    /// An inline or table name (empty when unresolved).
    pub fn name(&self, n: &w::Name) -> String {
        n.resolve(&self.s.strings).unwrap_or_default().to_owned()
    }
    /// A bone's name.
    pub fn bone(&self, i: u32) -> String {
        self.s.bones.get(i as usize).map(|b| b.name.to_string()).unwrap_or_default()
    }
    /// Bones' names.
    pub fn bones(&self, v: &[u32]) -> Vec<String> {
        v.iter().map(|&i| self.bone(i)).collect()
    }
    /// A slot's name.
    pub fn slot(&self, i: u32) -> String {
        self.s.slots.get(i as usize).map(|b| b.name.to_string()).unwrap_or_default()
    }
    /// A skin's name by wire index.
    pub fn skin(&self, i: u32) -> String {
        self.skins.get(i as usize).cloned().unwrap_or_default()
    }
    /// Whether the skeleton is a 4.2 one.
    pub fn v42(&self) -> bool {
        self.s.generation >= SpineVersion::V4_2
    }
}

/// The name of the item `i` of `all` (empty when out of range).
pub(super) fn name_of<T>(
    all: &[T],
    i: u32,
    name: impl Fn(&T) -> &spine_format::Name,
) -> spine_format::Name {
    all.get(i as usize).map(|x| name(x).clone()).unwrap_or_default()
}

/// The names of the items of `all` that `list` indexes (empty when out of range).
pub(super) fn names_of<T>(
    list: &[u32],
    all: &[T],
    name: impl Fn(&T) -> &spine_format::Name,
) -> Vec<String> {
    list.iter().map(|&i| name_of(all, i, &name).to_string()).collect()
}

/// JSON → binary: the skeleton, the name lookups, the string table and the problems.
pub(super) struct FromJson<'a> {
    /// The JSON skeleton.
    pub s: &'a j::Skeleton,
    /// The binary generation written (4.0, 4.1 or 4.2).
    pub gen: SpineVersion,
    /// The string table being built.
    pub strings: Strings,
    /// The problems found.
    pub p: Problems,
    /// Bone indexes (filled as bones are read: a parent comes before its children).
    pub bones: HashMap<&'a str, u32>,
    /// Slot indexes.
    pub slots: HashMap<&'a str, u32>,
    /// IK constraint indexes.
    pub ik: HashMap<&'a str, u32>,
    /// Transform constraint indexes.
    pub transform: HashMap<&'a str, u32>,
    /// Path constraint indexes.
    pub path: HashMap<&'a str, u32>,
    /// Physics constraint indexes.
    pub physics: HashMap<&'a str, u32>,
    /// Skin wire indexes.
    pub skins: HashMap<&'a str, u32>,
    /// Event indexes.
    pub events: HashMap<&'a str, u32>,
}

impl<'a> FromJson<'a> {
    /// The state for `s` written as generation `gen`, with the skins' wire indexes.
    pub fn new(s: &'a j::Skeleton, gen: SpineVersion, skins: HashMap<&'a str, u32>) -> Self {
        FromJson {
            s,
            gen,
            strings: Strings::default(),
            p: Problems::default(),
            bones: HashMap::new(),
            slots: index_by_name(&s.slots, |x| x.name.as_str()),
            ik: index_by_name(&s.ik, |x| x.head.name.as_str()),
            transform: index_by_name(&s.transform, |x| x.head.name.as_str()),
            path: index_by_name(&s.path, |x| x.head.name.as_str()),
            physics: index_by_name(&s.physics, |x| x.head.name.as_str()),
            skins,
            events: index_by_name(&s.events, |x| x.name.as_str()),
        }
    }
    /// The index of the `what` named `name` (0, reported, when unknown).
    pub fn find(&mut self, what: &'static str, name: &str) -> u32 {
        let map = match what {
            "bone" => &self.bones,
            "slot" => &self.slots,
            "IK constraint" => &self.ik,
            "transform constraint" => &self.transform,
            "path constraint" => &self.path,
            "physics constraint" => &self.physics,
            "skin" => &self.skins,
            _ => &self.events,
        };
        match map.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown(what, name);
                0
            }
        }
    }
    /// The indexes of bones.
    pub fn bones(&mut self, names: &[String]) -> Vec<u32> {
        names.iter().map(|n| self.find("bone", n)).collect()
    }
    /// Whether the target is 4.1 or later.
    pub fn v41(&self) -> bool {
        self.gen >= SpineVersion::V4_1
    }
    /// Whether the target is 4.2.
    pub fn v42(&self) -> bool {
        self.gen >= SpineVersion::V4_2
    }
    /// Binary vertices from a JSON array of `count` vertices, unweighted or weighted.
    pub fn vertices(&mut self, count: usize, v: &[f32]) -> w::Vertices {
        if v.len() == count * 2 {
            return w::Vertices::Plain(v.to_vec());
        }
        match split_weighted(v) {
            Some(list) if list.len() == count => {
                let mut out = w::WeightedVertices::default();
                for vertex in list {
                    out.counts.push(vertex.len() as u32);
                    for (bone, x, y, weight) in vertex {
                        out.bones.push(bone);
                        out.values.extend([x, y, weight]);
                    }
                }
                w::Vertices::Weighted(out)
            }
            _ => {
                self.p.report(ProblemKind::Invalid(format!(
                    "{} vertex values are neither {count} unweighted vertices nor weighted ones",
                    v.len()
                )));
                w::Vertices::Plain(Vec::new())
            }
        }
    }
    /// Triangle or edge indices, reported when one does not fit the 16 bits of 4.0/4.1.
    pub fn short_indices(&mut self, v: &[u32], what: &str) -> Vec<u32> {
        if !self.v42() && v.iter().any(|&x| x > u32::from(u16::MAX)) {
            self.p.report(ProblemKind::Invalid(format!(
                "{what} over 65535 does not fit a {:?} binary (16 bits)",
                self.gen
            )));
        }
        v.to_vec()
    }
}
