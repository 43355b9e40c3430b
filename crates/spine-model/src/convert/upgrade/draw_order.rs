//! Draw orders as the `(slot, offset)` changes the 4.x binaries store.

use spine_format::binary::shared::DrawOrderChange;

/// The `(slot, offset)` changes that rebuild `order` from the setup order (the runtimes'
/// `readDrawOrder`); `indices` map each slot to its position in the list being reordered.
pub(super) fn draw_order_changes(order: &[u32]) -> Vec<DrawOrderChange> {
    let n = order.len();
    let mut pos = vec![0usize; n];
    for (p, &s) in order.iter().enumerate() {
        if let Some(x) = pos.get_mut(s as usize) {
            *x = p;
        }
    }
    let moved: Vec<DrawOrderChange> = (0..n)
        .filter(|&s| pos[s] != s)
        .map(|s| DrawOrderChange { slot: s as u32, shift: pos[s] as i32 - s as i32 })
        .collect();
    if decode(n, &moved) == order {
        return moved;
    }
    (0..n).map(|s| DrawOrderChange { slot: s as u32, shift: pos[s] as i32 - s as i32 }).collect()
}

/// The runtimes' `readDrawOrder`.
fn decode(n: usize, changes: &[DrawOrderChange]) -> Vec<u32> {
    let mut order = vec![u32::MAX; n];
    let mut unchanged = Vec::with_capacity(n);
    let mut original = 0usize;
    for c in changes {
        while original < c.slot as usize {
            unchanged.push(original as u32);
            original += 1;
        }
        let at = original as i64 + i64::from(c.shift);
        if let Some(x) = usize::try_from(at).ok().and_then(|a| order.get_mut(a)) {
            *x = original as u32;
        }
        original += 1;
    }
    while original < n {
        unchanged.push(original as u32);
        original += 1;
    }
    for i in (0..n).rev() {
        if order[i] == u32::MAX {
            order[i] = unchanged.pop().unwrap_or(0);
        }
    }
    order
}
