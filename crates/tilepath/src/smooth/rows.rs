//! Where a straight line is on successive lines of the grid, stepped exactly: the
//! one way the sight test and the taut step's triangles read a segment row by row.
//!
//! A division costs tens of cycles, more than the rest of a row's work; the position
//! is kept as a whole number and a remainder, so that moving down a row is additions
//! and one comparison.

/// The value `num / den` (`den > 0`) as a whole part and a remainder, `0 <= rest < den`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fraction {
    /// `num.div_euclid(den)`.
    pub(super) whole: i64,
    /// `num.rem_euclid(den)`.
    pub(super) rest: i64,
}

impl Fraction {
    /// `num / den` (one division).
    #[inline]
    pub(super) fn new(num: i64, den: i64) -> Self {
        Self {
            whole: num.div_euclid(den),
            rest: num.rem_euclid(den),
        }
    }

    /// `half / 2`, in units of `den` where `den` is even: `half * (den / 2) / den`
    /// without a division.
    #[inline]
    pub(super) fn halves(half: i64, den: i64) -> Self {
        Self {
            whole: half.div_euclid(2),
            rest: half.rem_euclid(2) * (den / 2),
        }
    }

    /// `self + other` over the same `den`.
    #[inline]
    pub(super) fn plus(self, other: Self, den: i64) -> Self {
        let (whole, rest) = (self.whole + other.whole, self.rest + other.rest);
        if rest >= den {
            Self {
                whole: whole + 1,
                rest: rest - den,
            }
        } else {
            Self { whole, rest }
        }
    }

    /// The greatest whole number not above the value.
    #[inline]
    pub(super) const fn floor(self) -> i64 {
        self.whole
    }

    /// The least whole number not below the value.
    #[inline]
    pub(super) const fn ceil(self) -> i64 {
        self.whole + (self.rest > 0) as i64
    }
}

/// A line's position, a [`Fraction`] over a fixed `den`, moving by a fixed step.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stepper {
    /// Where the line is now.
    pub(super) at: Fraction,
    step: Fraction,
    den: i64,
}

impl Stepper {
    /// At `at`, moving by `step`, both over `den`.
    #[inline]
    pub(super) const fn new(at: Fraction, step: Fraction, den: i64) -> Self {
        Self { at, step, den }
    }

    /// Moves one step on.
    #[inline]
    pub(super) fn advance(&mut self) {
        self.at = self.at.plus(self.step, self.den);
    }
}

#[cfg(test)]
mod tests {
    use super::{Fraction, Stepper};

    #[test]
    fn stepping_agrees_with_dividing() {
        let mut checked = 0;
        for den in 1..40 {
            for start in -90..90 {
                for step in -70..70 {
                    let mut s =
                        Stepper::new(Fraction::new(start, den), Fraction::new(step, den), den);
                    for k in 0..6 {
                        let num = start + k * step;
                        assert_eq!(
                            s.at,
                            Fraction::new(num, den),
                            "{start} + {k} * {step} over {den}"
                        );
                        assert_eq!(s.at.floor(), num.div_euclid(den));
                        assert_eq!(s.at.ceil(), -(-num).div_euclid(den));
                        s.advance();
                        checked += 1;
                    }
                }
            }
        }
        for den in (2..40).step_by(2) {
            for half in -50..50 {
                assert_eq!(
                    Fraction::halves(half, den),
                    Fraction::new(half * (den / 2), den)
                );
            }
        }
        assert!(checked > 1_000_000);
    }
}
