//! Move costs as a variant axis: unit moves everywhere, and on the tiles two weighted models.

/// What a move costs. Unit variants keep the names they had before costs existed; the others
/// carry their model's name as a last part (`manhattan/stepnext/prune/heavy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CostModel {
    /// Every move costs 1.
    #[default]
    Unit,
    /// Tiles: moving tile t costs t.
    Heavy,
    /// Tiles: moving tile t costs 1/t, held exactly as integers: every cost multiplied by the
    /// least common multiple of the tile numbers (`scale`).
    InverseHeavy,
}

impl CostModel {
    pub const ALL: [CostModel; 3] = [CostModel::Unit, CostModel::Heavy, CostModel::InverseHeavy];

    /// As `--cost`, variant names and runs.csv's `cost_model` spell it.
    pub fn name(self) -> &'static str {
        match self {
            CostModel::Unit => "unit",
            CostModel::Heavy => "heavy",
            CostModel::InverseHeavy => "inverse-heavy",
        }
    }

    pub fn parse(s: &str) -> Option<CostModel> {
        CostModel::ALL.into_iter().find(|c| c.name() == s)
    }

    pub fn is_unit(self) -> bool {
        self == CostModel::Unit
    }

    /// The cost of moving each tile 1 to `tiles` (index 0, the blank, is 0), in units of
    /// 1/`scale(tiles)`; or why the model cannot weigh that many tiles in 32 bits.
    pub fn tile_costs(self, tiles: usize) -> Result<Vec<u32>, String> {
        let scale = self.scale(tiles)?;
        Ok((0..=tiles as u32)
            .map(|t| match (t, self) {
                (0, _) => 0,
                (_, CostModel::Unit) => 1,
                (t, CostModel::Heavy) => t,
                (t, CostModel::InverseHeavy) => scale / t,
            })
            .collect())
    }

    /// What a cost of 1 is held as: 1, or for inverse-heavy lcm(1..=tiles), refused past
    /// `MAX_INVERSE_TILES` tiles (the 4x4's 15 tiles give 360,360; 17 tiles give 12,252,240,
    /// and a solution of a few hundred moves would pass 32 bits).
    pub fn scale(self, tiles: usize) -> Result<u32, String> {
        match self {
            CostModel::Unit | CostModel::Heavy => Ok(1),
            CostModel::InverseHeavy if tiles > MAX_INVERSE_TILES => Err(format!(
                "cost inverse-heavy weighs at most {MAX_INVERSE_TILES} tiles (boards up to 4x4): \
                 its costs 1/t are held exactly as multiples of 1/lcm(1..{tiles}), which would \
                 overflow 32 bits on this board"
            )),
            CostModel::InverseHeavy => Ok((1..=tiles as u32).fold(1, lcm)),
        }
    }
}

/// The most tiles `CostModel::InverseHeavy` weighs.
pub const MAX_INVERSE_TILES: usize = 15;

fn lcm(a: u32, b: u32) -> u32 {
    let gcd = |mut x: u32, mut y: u32| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_per_model_and_board() {
        assert_eq!(CostModel::Unit.tile_costs(3).unwrap(), [0, 1, 1, 1]);
        assert_eq!(CostModel::Heavy.tile_costs(3).unwrap(), [0, 1, 2, 3]);
        assert_eq!(
            CostModel::InverseHeavy.tile_costs(4).unwrap(),
            [0, 12, 6, 4, 3]
        );
        assert_eq!(CostModel::InverseHeavy.scale(8), Ok(840));
        assert_eq!(CostModel::InverseHeavy.scale(15), Ok(360_360));
        let refused = CostModel::InverseHeavy.scale(24).unwrap_err();
        assert!(refused.contains("at most 15 tiles"), "{refused}");
        for c in CostModel::ALL {
            assert_eq!(CostModel::parse(c.name()), Some(c));
        }
        assert_eq!(CostModel::parse("inverse"), None);
    }
}
