//! Draw-order keys resolved into permutations.

/// Resolves a draw-order key (spine-cpp 4.2 `SkeletonBinary` draw order reading): each
/// change moves slot `slot` to `slot + shift`, the others keep their relative order and fill
/// the free positions. Returns the order, or why the key is not a permutation.
pub(crate) fn draw_order(
    slot_count: usize,
    changes: impl IntoIterator<Item = (u32, i32)>,
) -> Result<Vec<u32>, String> {
    let mut order: Vec<Option<u32>> = vec![None; slot_count];
    let mut unchanged = Vec::with_capacity(slot_count);
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
        if cell.is_some() {
            return Err(format!("two slots moved to {target}"));
        }
        *cell = Some(original);
        original += 1;
    }
    while (original as usize) < slot_count {
        unchanged.push(original);
        original += 1;
    }
    for cell in order.iter_mut().rev() {
        if cell.is_none() {
            *cell = unchanged.pop();
        }
    }
    order.into_iter().map(|c| c.ok_or_else(|| "unfilled position".to_owned())).collect()
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
