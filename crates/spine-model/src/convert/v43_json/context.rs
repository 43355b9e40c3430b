//! The state of a conversion: [`ToJson`] names what a binary skeleton indexes, [`FromJson`]
//! resolves JSON names to indexes while building the string table and collecting problems.

use std::collections::HashMap;

use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;
use spine_format::json43 as j;

use crate::convert::common::{index_by_name, Problems, Strings};

/// Binary → JSON: the skeleton and the names its indexes refer to.
pub(super) struct ToJson<'a> {
    /// The binary skeleton.
    pub s: &'a w::Skeleton,
    /// Skin names by wire index (the default skin first when present).
    pub skins: Vec<String>,
}

impl<'a> ToJson<'a> {
    /// The state for `s`.
    pub fn new(s: &'a w::Skeleton) -> Self {
        let mut skins = Vec::new();
        if s.default_skin.is_some() {
            skins.push("default".to_owned());
        }
        skins.extend(s.skins.iter().map(|k| k.name.to_string()));
        ToJson { s, skins }
    }
    /// A string of the table.
    pub fn text(&self, r: StrRef) -> Option<String> {
        r.index().and_then(|i| self.s.strings.get(i)).and_then(|s| s.clone())
    }
    /// A bone's name.
    pub fn bone(&self, i: u32) -> String {
        self.s.bones.get(i as usize).map(|b| b.name.to_string()).unwrap_or_default()
    }
    /// A slot's name.
    pub fn slot(&self, i: u32) -> String {
        self.s.slots.get(i as usize).map(|b| b.name.to_string()).unwrap_or_default()
    }
    /// Bones' names.
    pub fn bones(&self, list: &[u32]) -> Vec<String> {
        list.iter().map(|&i| self.bone(i)).collect()
    }
    /// A constraint's name.
    pub fn constraint(&self, i: u32) -> String {
        self.s.constraints.get(i as usize).map(|c| c.name.to_string()).unwrap_or_default()
    }
    /// A skin's name by wire index.
    pub fn skin(&self, i: u32) -> String {
        self.skins.get(i as usize).cloned().unwrap_or_default()
    }
}

/// JSON → binary: the skeleton, the name lookups, the string table and the problems.
pub(super) struct FromJson<'a> {
    /// The JSON skeleton.
    pub s: &'a j::Skeleton,
    /// The string table being built.
    pub strings: Strings,
    /// The problems found.
    pub p: Problems,
    /// Bone indexes (filled as bones are read: a parent comes before its children).
    pub bones: HashMap<&'a str, u32>,
    /// Slot indexes.
    pub slots: HashMap<&'a str, u32>,
    /// Per JSON constraint type name: name → index in the unified list.
    pub constraints: HashMap<(&'static str, &'a str), u32>,
    /// Skin wire indexes.
    pub skins: HashMap<&'a str, u32>,
    /// Event indexes.
    pub events: HashMap<&'a str, u32>,
    /// Animation indexes (slider constraints name one).
    pub animations: HashMap<&'a str, u32>,
}

impl<'a> FromJson<'a> {
    /// The state for `s`, with the skins' wire indexes.
    pub fn new(s: &'a j::Skeleton, skins: HashMap<&'a str, u32>) -> Self {
        let mut constraints = HashMap::new();
        for (i, k) in s.constraints.iter().enumerate() {
            constraints.entry((k.kind.type_name(), k.name.as_str())).or_insert(i as u32);
        }
        FromJson {
            s,
            strings: Strings::default(),
            p: Problems::default(),
            bones: HashMap::new(),
            slots: index_by_name(&s.slots, |x| x.name.as_str()),
            constraints,
            skins,
            events: index_by_name(&s.events, |x| x.name.as_str()),
            animations: index_by_name(&s.animations, |x| x.name.as_str()),
        }
    }
    /// A bone's index (0, reported, when unknown).
    pub fn bone(&mut self, name: &str) -> u32 {
        match self.bones.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown("bone", name);
                0
            }
        }
    }
    /// Bones' indexes.
    pub fn bones(&mut self, names: &[String]) -> Vec<u32> {
        names.iter().map(|n| self.bone(n)).collect()
    }
    /// A slot's index (0, reported, when unknown).
    pub fn slot(&mut self, name: &str) -> u32 {
        match self.slots.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown("slot", name);
                0
            }
        }
    }
    /// The index of the constraint of JSON type `ty` named `name` (reported as a `what`
    /// when unknown).
    pub fn constraint(&mut self, ty: &'static str, what: &'static str, name: &str) -> Option<u32> {
        let found = self.constraints.get(&(ty, name)).copied();
        if found.is_none() {
            self.p.unknown(what, name);
        }
        found
    }
    /// A skin's wire index (0, reported, when unknown).
    pub fn skin(&mut self, name: &str) -> u32 {
        match self.skins.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown("skin", name);
                0
            }
        }
    }
}
