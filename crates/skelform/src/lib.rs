//! # skelform
//!
//! **Not implemented yet.** This crate will load SkelForm `.skf` archives and bare
//! `armature.json` files, animate them and construct their world transforms and mesh
//! vertices exactly as the SkelForm reference runtime does. Nothing here works yet.
