//! Limits given by people as numbers: seconds that become a [`Duration`], counts that must be
//! positive. One checked conversion, so no command or file can make a method panic with a
//! number (`Duration::from_secs_f64` panics on NaN, negatives and values near 2⁶⁴ s, and an
//! `Instant` plus a huge duration overflows).

use std::time::Duration;

/// The largest time limit accepted, in seconds: 10⁹ s, about 31.7 years. Far beyond any run,
/// and small enough that `Instant::now()` plus it never overflows.
pub const MAX_SECONDS: f64 = 1e9;

/// A number of seconds that is not a usable time limit.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SecondsError {
    /// NaN or infinite.
    #[error("{0:?} is not a finite number of seconds")]
    NotFinite(f64),
    /// Zero or negative.
    #[error("{0:?} is not a positive number of seconds")]
    NotPositive(f64),
    /// Below a nanosecond: it would round to a limit of zero.
    #[error("{0:?} seconds is less than a nanosecond, the clock's resolution")]
    TooSmall(f64),
    /// Above [`MAX_SECONDS`].
    #[error("{0:?} seconds is more than the largest time limit, {max:e} s (about 31 years)", max = MAX_SECONDS)]
    TooLarge(f64),
}

/// A time limit of `secs` seconds: finite, positive and at most [`MAX_SECONDS`]; anything
/// else is an error, never a panic.
pub fn time_limit(secs: f64) -> Result<Duration, SecondsError> {
    if !secs.is_finite() {
        return Err(SecondsError::NotFinite(secs));
    }
    if secs <= 0.0 {
        return Err(SecondsError::NotPositive(secs));
    }
    if secs > MAX_SECONDS {
        return Err(SecondsError::TooLarge(secs));
    }
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if d.is_zero() => Err(SecondsError::TooSmall(secs)),
        Ok(d) => Ok(d),
        Err(_) => Err(SecondsError::TooLarge(secs)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_float_gives_a_duration_or_an_error() {
        assert_eq!(time_limit(1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(
            time_limit(MAX_SECONDS),
            Ok(Duration::from_secs(1_000_000_000))
        );
        assert_eq!(time_limit(1e-9), Ok(Duration::from_nanos(1)));
        assert_eq!(time_limit(1e-12), Err(SecondsError::TooSmall(1e-12)));
        for bad in [0.0, -0.0, -1.0, f64::NEG_INFINITY] {
            assert!(matches!(
                time_limit(bad),
                Err(SecondsError::NotPositive(_) | SecondsError::NotFinite(_))
            ));
        }
        for big in [1e9 + 1.0, 1e20, 1e300, f64::MAX] {
            assert_eq!(time_limit(big), Err(SecondsError::TooLarge(big)));
        }
        assert!(matches!(
            time_limit(f64::NAN),
            Err(SecondsError::NotFinite(_))
        ));
        assert!(matches!(
            time_limit(f64::INFINITY),
            Err(SecondsError::NotFinite(_))
        ));
        // A limit the clock cannot reach is no deadline, not an overflow.
        let far = crate::Budget::time(Duration::MAX);
        assert_eq!(far.deadline(std::time::Instant::now()), None);
        assert_eq!(
            time_limit(1e20).unwrap_err().to_string(),
            "1e20 seconds is more than the largest time limit, 1e9 s (about 31 years)"
        );
    }
}
