//! Names given on the command line (animation, skin, slot, style) that a file does not
//! have: the message lists the close matches ("no animation 'walkk'; did you mean
//! 'walk'?"), else every name there is (at most [`LISTED`]).

/// Most names listed when none is close.
pub const LISTED: usize = 20;

/// The candidates close to `name`, closest first: the same name but for case, else a
/// Jaro-Winkler similarity of at least 0.8 or an edit distance of at most a third of the
/// name (at least 1).
pub fn close<'a>(name: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let mut scored: Vec<(f64, &str)> = candidates
        .iter()
        .filter_map(|&c| {
            let cl = c.to_lowercase();
            if cl == lower {
                return Some((2.0, c));
            }
            let jw = strsim::jaro_winkler(&lower, &cl);
            let edits = strsim::damerau_levenshtein(&lower, &cl);
            let near = edits <= (lower.chars().count() / 3).max(1);
            let prefix = !lower.is_empty() && (cl.starts_with(&lower) || lower.starts_with(&cl));
            (jw >= 0.8 || near || prefix).then_some((jw + if near { 1.0 } else { 0.0 }, c))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// "no `what` 'name'; did you mean 'x'?" (or "'x' or 'y'"), else "(`what`s: a, b, …)".
pub fn unknown(what: &str, name: &str, candidates: &[&str]) -> String {
    let quote = |s: &str| format!("'{}'", crate::escape(s));
    let near = close(name, candidates);
    if !near.is_empty() {
        let list: Vec<String> = near.iter().map(|s| quote(s)).collect();
        return format!("no {what} {}; did you mean {}?", quote(name), list.join(" or "));
    }
    if candidates.is_empty() {
        return format!("no {what} {}: the file has none", quote(name));
    }
    let mut list: Vec<String> = candidates.iter().take(LISTED).map(|s| quote(s)).collect();
    if candidates.len() > LISTED {
        list.push(format!("and {} more", candidates.len() - LISTED));
    }
    format!("no {what} {} ({what}s: {})", quote(name), list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested() {
        let anims = ["walk", "run", "jump", "idle", "walk-old"];
        assert_eq!(
            unknown("animation", "walkk", &anims),
            "no animation 'walkk'; did you mean 'walk' or 'walk-old'?"
        );
        assert_eq!(
            unknown("animation", "JUMP", &anims),
            "no animation 'JUMP'; did you mean 'jump'?"
        );
        assert_eq!(unknown("skin", "zzz", &["a", "b"]), "no skin 'zzz' (skins: 'a', 'b')");
        assert!(unknown("slot", "x", &[]).contains("has none"));
    }
}
