//! The deserializers serde runs on single keys (`deserialize_with` in `schema.rs`): each checks
//! its value while the file is read, so that an error shows the line and names the key; apart
//! from the schema so that the types read as the file's layout and these as its rules.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use sudoku_core::{Order, Variant};

use crate::error::BadSeconds;
use crate::grid::param_values;
use crate::MAX_REPEAT;

/// Seconds as a [`Duration`], checked (a plain conversion panics past about 1.8e19).
pub fn seconds(t: f64) -> Result<Duration, BadSeconds> {
    sudoku_core::limits::time_limit(t).map_err(|_| BadSeconds(t))
}
/// Parses a string field with the type's `FromStr`.
pub(crate) fn from_text<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

pub(crate) fn opt_from_text<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    from_text(d).map(Some)
}

pub(crate) fn order<'de, D: Deserializer<'de>>(d: D) -> Result<Order, D::Error> {
    Order::new(usize::deserialize(d)?).map_err(serde::de::Error::custom)
}

pub(crate) fn orders<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Order>>, D::Error> {
    let ns = Vec::<usize>::deserialize(d)?;
    ns.into_iter()
        .map(|n| Order::new(n).map_err(serde::de::Error::custom))
        .collect::<Result<_, _>>()
        .map(Some)
}

pub(crate) fn variants<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Variant>>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    names
        .iter()
        .map(|v| v.parse().map_err(serde::de::Error::custom))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// A `time_limit` value (every key of that name is in seconds).
pub(crate) fn time_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    seconds(f64::deserialize(d)?).map_err(|e| D::Error::custom(format!("key `time_limit`: {e}")))
}

pub(crate) fn opt_time_limit<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Duration>, D::Error> {
    time_limit(d).map(Some)
}

/// Deserializers of counts that must be at least 1, each naming its key (a 0 would make an
/// empty run, or a limit that stops before the first step).
macro_rules! at_least_one {
    ($($name:ident: $t:ty = $key:literal),* $(,)?) => {$(
        pub(crate) fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
            let v = <$t>::deserialize(d)?;
            if v == 0 {
                return Err(D::Error::custom(concat!("key `", $key, "`: must be at least 1")));
            }
            Ok(v)
        }
    )*};
}

at_least_one! {
    trials: u32 = "trials",
    repeat_count: u32 = "repeat",
    count_limit: u64 = "count_limit",
    max_instances: usize = "max_instances",
    count: usize = "count",
    node_limit: u64 = "node_limit",
    iteration_limit: u64 = "iteration_limit",
    limit: usize = "limit",
}

/// `repeat`: at least 1 and at most [`MAX_REPEAT`].
pub(crate) fn repeat<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let r = repeat_count(d)?;
    if r > MAX_REPEAT {
        return Err(D::Error::custom(format!(
            "key `repeat`: {r} repetitions, more than {MAX_REPEAT} (the time limit applies to each one)"
        )));
    }
    Ok(r)
}

pub(crate) fn opt_trials<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    trials(d).map(Some)
}
pub(crate) fn opt_repeat<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    repeat(d).map(Some)
}
pub(crate) fn opt_node_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    node_limit(d).map(Some)
}
pub(crate) fn opt_iteration_limit<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<u64>, D::Error> {
    iteration_limit(d).map(Some)
}
pub(crate) fn opt_limit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    limit(d).map(Some)
}

/// A `params` table, each value checked as [`expand_params`](crate::expand_params) will read it
/// (so a NaN or a nested table is reported with its line).
pub(crate) fn params<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, toml::Value>, D::Error> {
    let table = BTreeMap::<String, toml::Value>::deserialize(d)?;
    for (key, value) in &table {
        param_values(value).map_err(|p| D::Error::custom(format!("params.{key}: {p}")))?;
    }
    Ok(table)
}
