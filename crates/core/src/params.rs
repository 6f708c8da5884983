//! Named method parameters and the registry entries that methods export.
//!
//! Each method crate exports a list of [`MethodInfo`] (and generators a list of
//! [`GeneratorInfo`]); the runner concatenates them into its one registry, so `list`, `solve`,
//! `generate` and `run` all see the same methods with the same documented parameters.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::{Generator, Solver};

/// One documented parameter of a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Key, as written in `--param key=value` and experiment files.
    pub name: &'static str,
    /// Default value, as text.
    pub default: &'static str,
    /// The accepted values, for people (e.g. `0.0..=1.0`, `zero|constant|weighted`).
    pub range: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// A bad parameter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A key the method does not have.
    #[error("method `{method}` has no parameter `{key}` (its parameters: {known})")]
    Unknown {
        /// The method.
        method: String,
        /// The key given.
        key: String,
        /// The keys it has, comma-separated.
        known: String,
    },
    /// A value that does not parse or is out of range.
    #[error("parameter `{key}`: `{value}` is not valid (expected {expected})")]
    Invalid {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// Text that is not `key=value`.
    #[error("`{0}` is not of the form key=value")]
    Malformed(String),
    /// A method or generator name that is not registered.
    #[error("unknown method `{name}` (known: {known})")]
    UnknownMethod {
        /// The name given.
        name: String,
        /// The registered names, comma-separated.
        known: String,
    },
}

/// Parameter values by key, as text until a method reads them. Ordered, so its
/// [`Display`](fmt::Display) form (`a=1 b=2`) is stable and can name a configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Params(BTreeMap<String, String>);

impl Params {
    /// No parameters.
    pub fn new() -> Params {
        Params::default()
    }

    /// Sets `key` to `value`.
    pub fn set(&mut self, key: impl Into<String>, value: impl Into<String>) -> &mut Params {
        self.0.insert(key.into(), value.into());
        self
    }

    /// Parses and adds one `key=value`.
    pub fn push_pair(&mut self, pair: &str) -> Result<(), ParamError> {
        let (k, v) = pair
            .split_once('=')
            .filter(|(k, _)| !k.trim().is_empty())
            .ok_or_else(|| ParamError::Malformed(pair.to_string()))?;
        self.set(k.trim(), v.trim());
        Ok(())
    }

    /// The raw value of `key`.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Every (key, value), by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Fails on any key not in `specs`, naming the method and its keys.
    pub fn check_known(&self, method: &str, specs: &[ParamSpec]) -> Result<(), ParamError> {
        for k in self.0.keys() {
            if !specs.iter().any(|s| s.name == k) {
                return Err(ParamError::Unknown {
                    method: method.to_string(),
                    key: k.clone(),
                    known: if specs.is_empty() {
                        "none".to_string()
                    } else {
                        specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
                    },
                });
            }
        }
        Ok(())
    }

    /// The value of `key` parsed as `T`, or `default` when absent.
    pub fn get<T: FromStr>(&self, key: &str, default: T, expected: &str) -> Result<T, ParamError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| self.invalid(key, expected)),
        }
    }

    /// A number in `lo..=hi`, or `default` when absent.
    pub fn get_in<T: FromStr + PartialOrd + fmt::Display + Copy>(
        &self,
        key: &str,
        default: T,
        lo: T,
        hi: T,
    ) -> Result<T, ParamError> {
        let expected = format!("a number in {lo}..={hi}");
        let v = self.get(key, default, &expected)?;
        if v < lo || v > hi {
            return Err(self.invalid(key, &expected));
        }
        Ok(v)
    }

    /// One of `choices`, or `default` when absent.
    pub fn choice<'a>(
        &self,
        key: &str,
        default: &'a str,
        choices: &[&'a str],
    ) -> Result<&'a str, ParamError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(v))
                .copied()
                .ok_or_else(|| self.invalid(key, &choices.join("|"))),
        }
    }

    /// `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`), or `default` when absent.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, ParamError> {
        match self.raw(key).map(str::to_ascii_lowercase).as_deref() {
            None => Ok(default),
            Some("true" | "1" | "yes" | "on") => Ok(true),
            Some("false" | "0" | "no" | "off") => Ok(false),
            Some(_) => Err(self.invalid(key, "true|false")),
        }
    }

    /// An [`ParamError::Invalid`] for `key` with its current value.
    pub fn invalid(&self, key: &str, expected: &str) -> ParamError {
        ParamError::Invalid {
            key: key.to_string(),
            value: self.raw(key).unwrap_or("").to_string(),
            expected: expected.to_string(),
        }
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&parts.join(" "))
    }
}

/// How a solver can be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Proves infeasibility and can count (exact methods).
    pub complete: bool,
    /// May run on several threads at once (CBC may not).
    pub thread_safe: bool,
    /// Uses its random generator (so trials differ).
    pub randomized: bool,
}

/// A registered solving method.
#[derive(Clone, Copy)]
pub struct MethodInfo {
    /// Name on the command line and in results.
    pub name: &'static str,
    /// One line on what it is, with its source.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// What it can do.
    pub caps: Capabilities,
    /// Builds a configured solver; unknown keys and bad values are errors.
    pub build: fn(&Params) -> Result<Box<dyn Solver + Send>, ParamError>,
}

impl fmt::Debug for MethodInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MethodInfo")
            .field("name", &self.name)
            .finish()
    }
}

/// A registered full-grid generator.
#[derive(Clone, Copy)]
pub struct GeneratorInfo {
    /// Name on the command line and in results.
    pub name: &'static str,
    /// One line on what it is, with its source.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// May run on several threads at once.
    pub thread_safe: bool,
    /// Builds a configured generator; unknown keys and bad values are errors.
    pub build: fn(&Params) -> Result<Box<dyn Generator + Send>, ParamError>,
}

impl fmt::Debug for GeneratorInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GeneratorInfo")
            .field("name", &self.name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[ParamSpec {
        name: "alpha",
        default: "0.3",
        range: "0..=1",
        help: "greediness",
    }];

    #[test]
    fn typed_access_and_errors() {
        let mut p = Params::new();
        p.push_pair("alpha=0.5").unwrap();
        assert_eq!(p.get_in("alpha", 0.3, 0.0, 1.0).unwrap(), 0.5);
        assert!(p.check_known("grasp", SPECS).is_ok());
        p.push_pair("beta = 2").unwrap();
        let e = p.check_known("grasp", SPECS).unwrap_err();
        assert_eq!(
            e.to_string(),
            "method `grasp` has no parameter `beta` (its parameters: alpha)"
        );
        assert_eq!(p.to_string(), "alpha=0.5 beta=2");
        p.set("alpha", "2");
        assert!(p.get_in("alpha", 0.3, 0.0, 1.0).is_err());
        assert!(Params::new().push_pair("=3").is_err());
        p.set("mode", "FIRST");
        assert_eq!(
            p.choice("mode", "best", &["best", "first"]).unwrap(),
            "first"
        );
        p.set("f", "maybe");
        assert!(p.flag("f", true).is_err());
    }
}
