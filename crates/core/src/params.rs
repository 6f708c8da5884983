//! Named method parameters: their documentation ([`ParamSpec`]), their typed declarations
//! ([`Param`], [`TextParam`]) and the values given ([`Params`]). The registry entries that
//! carry them are in [`crate::registry`].

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

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

/// The parameter that names a configuration in results ([`Params::shown`]).
pub const NAME_KEY: &str = "name";

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
        // `contains` is false for NaN, which `v < lo || v > hi` would let through.
        if !(lo..=hi).contains(&v) {
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

    /// The parameters as results show them: all of them (`a=1 b=2`), or `name=<label>` alone
    /// when the configuration is named (an external solver's command line would not fit a
    /// table). Rows, seeds and resume keys use this text, so two configurations of a method
    /// must not be shown the same.
    pub fn shown(&self) -> String {
        match self.raw(NAME_KEY) {
            Some(label) => format!("{NAME_KEY}={label}"),
            None => self.to_string(),
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

/// A parameter declared once: its documented [`ParamSpec`] (what `list` shows), its typed
/// default, and how a value is read and checked. Build one with [`Param::flag`],
/// [`Param::choice`] (and [`choices!`](crate::choices)), [`number_param!`](crate::number_param)
/// or [`Param::new`]; a method's spec list is then `&[A.spec, B.spec, ...]` and its builder
/// reads each value with [`Param::read`].
///
/// ```
/// use sudoku_core::{choices, number_param, Param, Params};
///
/// const ALPHA: Param<f64> = number_param!("alpha", f64, 0.5, 0.0..=1.0, "greediness");
/// const LOCAL: Param<bool> =
///     Param::choice("local", "best", choices!["best" => true, "first" => false], "which move");
/// const TRACE: Param<bool> = Param::flag("trace", false, "record the costs");
///
/// assert_eq!((ALPHA.spec.default, ALPHA.spec.range), ("0.5", "0.0..=1.0"));
/// assert_eq!(LOCAL.spec.range, "best|first");
/// let mut p = Params::new();
/// p.set("alpha", "0.25").set("local", "FIRST");
/// assert_eq!(ALPHA.read(&p), Ok(0.25));
/// assert_eq!(LOCAL.read(&p), Ok(false));
/// assert_eq!(TRACE.read(&p), Ok(TRACE.default));
/// p.set("alpha", "NaN");
/// assert!(ALPHA.read(&p).is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Param<T: 'static> {
    /// Its documentation: name, default and range as text, help.
    pub spec: ParamSpec,
    /// Its value when not given (the value `spec.default` names).
    pub default: T,
    /// What an invalid value is told is expected.
    expected: &'static str,
    rule: Rule<T>,
}

/// How a [`Param`] turns text into a value.
#[derive(Clone, Copy, Debug)]
enum Rule<T: 'static> {
    /// One of these keywords (case-insensitive).
    Choices(&'static [(&'static str, T)]),
    /// This parser; `None` means invalid.
    Parse(fn(&str) -> Option<T>),
}

/// The keywords of a choice parameter with their values, and the `a|b|c` text shown for them;
/// [`choices!`](crate::choices) builds one.
#[derive(Clone, Copy, Debug)]
pub struct Choices<T: 'static> {
    /// (keyword, value) pairs; matched case-insensitively.
    pub table: &'static [(&'static str, T)],
    /// The keywords as documented, e.g. `best|first`.
    pub text: &'static str,
}

/// `true`/`false`, also `1`/`0`, `yes`/`no`, `on`/`off`.
const FLAG: Choices<bool> = Choices {
    table: &[
        ("true", true),
        ("false", false),
        ("1", true),
        ("0", false),
        ("yes", true),
        ("no", false),
        ("on", true),
        ("off", false),
    ],
    text: "true|false",
};

/// The same words as [`FLAG`], documented as `on|off`.
const ON_OFF: Choices<bool> = Choices {
    table: FLAG.table,
    text: "on|off",
};

const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl<T: Copy + 'static> Param<T> {
    /// A parameter read by `parse` (given the trimmed text; `None` when invalid), with its
    /// documentation and the value `spec.default` names. For values the other constructors
    /// do not cover (e.g. `R,C` pairs).
    pub const fn new(
        spec: ParamSpec,
        default: T,
        expected: &'static str,
        parse: fn(&str) -> Option<T>,
    ) -> Param<T> {
        Param {
            spec,
            default,
            expected,
            rule: Rule::Parse(parse),
        }
    }

    /// One of the keywords of `choices`; `default` must be one of them (checked when the
    /// constant is evaluated, so a typo does not compile).
    pub const fn choice(
        name: &'static str,
        default: &'static str,
        choices: Choices<T>,
        help: &'static str,
    ) -> Param<T> {
        let mut i = 0;
        while i < choices.table.len() {
            if same_text(choices.table[i].0, default) {
                return Param {
                    spec: ParamSpec {
                        name,
                        default,
                        range: choices.text,
                        help,
                    },
                    default: choices.table[i].1,
                    expected: choices.text,
                    rule: Rule::Choices(choices.table),
                };
            }
            i += 1;
        }
        panic!("a choice parameter's default is not one of its choices")
    }

    /// The value of this parameter in `p`, or the default when `p` does not set it.
    pub fn read(&self, p: &Params) -> Result<T, ParamError> {
        let Some(raw) = p.raw(self.spec.name) else {
            return Ok(self.default);
        };
        let text = raw.trim();
        let value = match self.rule {
            Rule::Choices(table) => table
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(text))
                .map(|&(_, v)| v),
            Rule::Parse(parse) => parse(text),
        };
        value.ok_or_else(|| p.invalid(self.spec.name, self.expected))
    }
}

impl Param<bool> {
    /// A switch: `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`).
    pub const fn flag(name: &'static str, default: bool, help: &'static str) -> Param<bool> {
        Param::choice(name, if default { "true" } else { "false" }, FLAG, help)
    }

    /// A switch documented as `on|off` (it accepts the same words as [`Param::flag`]).
    pub const fn on_off(name: &'static str, default: bool, help: &'static str) -> Param<bool> {
        Param::choice(name, if default { "on" } else { "off" }, ON_OFF, help)
    }
}

/// A [`Choices`] from `"keyword" => value` pairs, in the order `list` shows them:
/// `choices!["best" => Local::Best, "first" => Local::First]`.
#[macro_export]
macro_rules! choices {
    ($first:literal => $value:expr $(, $text:literal => $v:expr)* $(,)?) => {
        $crate::Choices {
            table: &[($first, $value) $(, ($text, $v))*],
            text: concat!($first $(, "|", $text)*),
        }
    };
}

/// A numeric [`Param`] whose default and bounds are written once, as tokens that give both
/// the value and the documented text:
///
/// - `number_param!("alpha", f64, 0.5, 0.0..=1.0, "help")`: a number in `0.0..=1.0`
///   (NaN is rejected); the range may carry a note shown after it:
///   `0.0..=1.0 "(0 = never)"`, or a text shown instead of it: `1..=256 as "1..=N"`.
/// - `number_param!("kick", u64, 0, 0.., "help")`: any value of the (unsigned) type.
#[macro_export]
macro_rules! number_param {
    (@bounded $name:expr, $ty:ty, $default:literal, $lo:literal, $hi:literal, $shown:expr,
     $help:expr) => {
        $crate::Param::<$ty>::new(
            $crate::ParamSpec {
                name: $name,
                default: stringify!($default),
                range: $shown,
                help: $help,
            },
            $default,
            concat!("a number in ", stringify!($lo), "..=", stringify!($hi)),
            |s| {
                let v: $ty = s.parse().ok()?;
                ($lo..=$hi).contains(&v).then_some(v)
            },
        )
    };
    ($name:expr, $ty:ty, $default:literal, $lo:literal ..= $hi:literal as $shown:literal,
     $help:expr) => {
        $crate::number_param!(@bounded $name, $ty, $default, $lo, $hi, $shown, $help)
    };
    ($name:expr, $ty:ty, $default:literal, $lo:literal ..= $hi:literal $($note:literal)?,
     $help:expr) => {
        $crate::number_param!(
            @bounded $name, $ty, $default, $lo, $hi,
            concat!(stringify!($lo), "..=", stringify!($hi) $(, " ", $note)?),
            $help
        )
    };
    ($name:expr, $ty:ty, $default:literal, 0.., $help:expr) => {
        $crate::Param::<$ty>::new(
            $crate::ParamSpec {
                name: $name,
                default: stringify!($default),
                range: "0..",
                help: $help,
            },
            $default,
            "a non-negative integer",
            |s| s.parse().ok(),
        )
    };
}

/// A free-text parameter (a command line, a label): any text, trimmed; the default when
/// absent. What the text must be is up to the method.
#[derive(Clone, Copy, Debug)]
pub struct TextParam {
    /// Its documentation (range `text`).
    pub spec: ParamSpec,
}

impl TextParam {
    /// A text parameter with its default and help.
    pub const fn new(name: &'static str, default: &'static str, help: &'static str) -> TextParam {
        TextParam {
            spec: ParamSpec {
                name,
                default,
                range: "text",
                help,
            },
        }
    }

    /// The value in `p`, trimmed, or the default.
    pub fn read(&self, p: &Params) -> String {
        p.raw(self.spec.name)
            .unwrap_or(self.spec.default)
            .trim()
            .to_string()
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
        p.set("alpha", "NaN");
        assert!(p.get_in("alpha", 0.3, 0.0, 1.0).is_err());
    }

    const ALPHA: Param<f64> = crate::number_param!("alpha", f64, 0.3, 0.0..=1.0, "greediness");
    const SAMPLE: Param<u64> =
        crate::number_param!("sample", u64, 200, 2..=1000000 "(moves)", "sample size");
    const DIGIT: Param<u16> = crate::number_param!("digit", u16, 1, 1..=256 as "1..=N", "d");
    const KICK: Param<u64> = crate::number_param!("kick", u64, 0, 0.., "kicks");
    const MODE: Param<u8> = Param::choice("mode", "b", crate::choices!["a" => 1, "b" => 2], "m");
    const TRACE: Param<bool> = Param::flag("trace", true, "t");

    #[test]
    fn text_params_and_shown_names() {
        const CMD: TextParam = TextParam::new("command", "", "the command");
        let mut p = Params::new();
        assert_eq!(CMD.read(&p), "");
        p.set("command", " python3 solve.py --fast ");
        assert_eq!(CMD.read(&p), "python3 solve.py --fast");
        p.set("command", "python3 solve.py").set("format", "line");
        assert_eq!(p.shown(), "command=python3 solve.py format=line");
        p.set(NAME_KEY, "mine");
        assert_eq!(p.shown(), "name=mine");
    }

    #[test]
    fn declared_params_document_and_read() {
        assert_eq!([ALPHA.spec.default, ALPHA.spec.range], ["0.3", "0.0..=1.0"]);
        assert_eq!(SAMPLE.spec.range, "2..=1000000 (moves)");
        assert_eq!((DIGIT.spec.range, DIGIT.default), ("1..=N", 1));
        assert_eq!((KICK.spec.range, KICK.default), ("0..", 0));
        assert_eq!(
            (MODE.spec.default, MODE.spec.range, MODE.default),
            ("b", "a|b", 2)
        );
        assert_eq!(
            (TRACE.spec.default, TRACE.spec.range),
            ("true", "true|false")
        );

        let empty = Params::new();
        assert_eq!(ALPHA.read(&empty), Ok(0.3));
        assert_eq!(MODE.read(&empty), Ok(2));
        let mut p = Params::new();
        p.set("alpha", " 1.0").set("mode", "A").set("trace", "off");
        p.set("sample", "2").set("kick", "7").set("digit", "256");
        assert_eq!(ALPHA.read(&p), Ok(1.0));
        assert_eq!(MODE.read(&p), Ok(1));
        assert_eq!(TRACE.read(&p), Ok(false));
        assert_eq!(
            (SAMPLE.read(&p), KICK.read(&p), DIGIT.read(&p)),
            (Ok(2), Ok(7), Ok(256))
        );

        for (key, bad) in [
            ("alpha", "NaN"),
            ("alpha", "1.5"),
            ("alpha", "x"),
            ("sample", "1"),
            ("kick", "-1"),
            ("digit", "0"),
            ("mode", "c"),
            ("trace", "maybe"),
        ] {
            let mut p = Params::new();
            p.set(key, bad);
            let err = [
                ALPHA.read(&p).err(),
                SAMPLE.read(&p).err(),
                KICK.read(&p).err(),
                DIGIT.read(&p).err(),
                MODE.read(&p).err(),
                TRACE.read(&p).err(),
            ]
            .into_iter()
            .flatten()
            .next();
            assert!(err.is_some(), "{key}={bad} accepted");
        }
        p.set("alpha", "2");
        assert_eq!(
            ALPHA.read(&p).unwrap_err().to_string(),
            "parameter `alpha`: `2` is not valid (expected a number in 0.0..=1.0)"
        );
        p.set("mode", "z");
        assert_eq!(
            MODE.read(&p).unwrap_err().to_string(),
            "parameter `mode`: `z` is not valid (expected a|b)"
        );
    }
}
