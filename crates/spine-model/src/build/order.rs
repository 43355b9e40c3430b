//! Orders: constraints in update order, draw-order keys resolved into permutations.

use super::Builder;
use crate::error::ProblemKind;

/// Resolves a draw-order key (spine-cpp 4.2 `SkeletonBinary` draw order reading): each
/// change moves slot `slot` to `slot + shift`, the others keep their relative order and fill
/// the free positions. Returns the order, or why the key is not a permutation.
#[cfg(test)]
pub(crate) fn draw_order(
    slot_count: usize,
    changes: impl IntoIterator<Item = (u32, i32)>,
) -> Result<Vec<u32>, String> {
    draw_order_with(slot_count, changes, &mut Vec::new())
}

/// [`draw_order`] with a scratch buffer for the slots no change moves (reused between the
/// keys of a timeline).
pub(crate) fn draw_order_with(
    slot_count: usize,
    changes: impl IntoIterator<Item = (u32, i32)>,
    unchanged: &mut Vec<u32>,
) -> Result<Vec<u32>, String> {
    // `FREE` marks a position no change took (slot indices are below `slot_count`, so
    // never `u32::MAX`); the order is built in place and returned as it is.
    const FREE: u32 = u32::MAX;
    let mut order: Vec<u32> = vec![FREE; slot_count];
    unchanged.clear();
    unchanged.reserve(slot_count);
    let mut original = 0u32;
    for (slot, shift) in changes {
        if slot < original || slot as usize >= slot_count {
            return Err(format!("slot {slot} out of order or range"));
        }
        while original != slot {
            unchanged.push(original);
            original += 1;
        }
        let target = i64::from(original) + i64::from(shift);
        let Some(cell) = usize::try_from(target).ok().and_then(|t| order.get_mut(t)) else {
            return Err(format!("slot {slot} moved to {target}"));
        };
        if *cell != FREE {
            return Err(format!("two slots moved to {target}"));
        }
        *cell = original;
        original += 1;
    }
    while (original as usize) < slot_count {
        unchanged.push(original);
        original += 1;
    }
    for cell in order.iter_mut().rev() {
        if *cell == FREE {
            *cell = unchanged.pop().unwrap_or(FREE);
        }
    }
    if order.contains(&FREE) {
        return Err("unfilled position".to_owned());
    }
    Ok(order)
}

/// The update order of constraints (every runtime's `Skeleton.updateCache`): for `i` in
/// `0..n`, the first constraint (in list order) whose `order == i`; the constraints that
/// loop never reaches follow in list order, each reported (the runtime would never update
/// them). `cons` lists each constraint's `(order, name)`; returns indices into it.
pub(crate) fn update_order(b: &mut Builder<'_>, cons: &[(u32, &str)]) -> Vec<usize> {
    let n = cons.len();
    let mut used = vec![false; n];
    let mut sorted = Vec::with_capacity(n);
    for i in 0..n as u64 {
        if let Some(p) = (0..n).find(|&p| !used[p] && u64::from(cons[p].0) == i) {
            used[p] = true;
            sorted.push(p);
        }
    }
    for (p, &(order, name)) in cons.iter().enumerate() {
        if !used[p] {
            b.enter("constraint", name);
            b.report(ProblemKind::Invalid(format!(
                "update order {order} is never reached by the runtime's update cache"
            )));
            b.pop();
            sorted.push(p);
        }
    }
    sorted
}

#[cfg(test)]
mod tests {
    use super::draw_order;

    #[test]
    fn draw_order_negative_shift() {
        // Slot 3 moves two positions back: 0 1 2 3 4 -> 0 3 1 2 4.
        assert_eq!(draw_order(5, [(3, -2)]), Ok(vec![0, 3, 1, 2, 4]));
    }

    #[test]
    fn draw_order_positive_and_negative() {
        // Slot 0 to the end, slot 4 to the front.
        assert_eq!(draw_order(5, [(0, 4), (4, -4)]), Ok(vec![4, 1, 2, 3, 0]));
    }

    #[test]
    fn draw_order_collision_is_reported() {
        assert_eq!(draw_order(3, [(0, 1), (1, 0)]), Err("two slots moved to 1".to_owned()));
    }
}
