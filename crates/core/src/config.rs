//! [`config!`](crate::config): a method's configuration declared once, one entry a parameter,
//! from which come the struct, its `Default`, the documented list `list` prints and the
//! parsing (unknown keys and out-of-range values rejected in one place).

use crate::params::ParamSpec;

/// `parts` one after the other, as an array of `N` specs; `N` must be their total length
/// (checked when the constant is evaluated). [`config!`](crate::config) builds a
/// configuration's `PARAMS` with it, so that a nested configuration's parameters are listed
/// where it stands.
pub const fn concat_specs<const N: usize>(parts: &[&[ParamSpec]]) -> [ParamSpec; N] {
    const BLANK: ParamSpec = ParamSpec {
        name: "",
        default: "",
        range: "",
        help: "",
    };
    let mut out = [BLANK; N];
    let (mut k, mut part) = (0, 0);
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() {
            out[k] = parts[part][i];
            (i, k) = (i + 1, k + 1);
        }
        part += 1;
    }
    assert!(k == N, "N is not the total length of the lists");
    out
}

/// Declares a configuration once: a struct whose fields are parameters, each entry giving its
/// key (the field's name, or `field as "key"`), type, default, accepted values and help.
/// From that one entry come the documented public field, its default in `Default`, its line
/// in `PARAMS` (what `list` prints, in the order of the entries) and its reading in
/// `read_params`; with `for NAME` also `from_params`, which first rejects any key the method
/// does not have, naming the method and its keys.
///
/// ```
/// use sudoku_core::{choices, config, Param, Params};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// pub enum Local { Best, First }
///
/// const TRACE: Param<bool> = Param::flag("trace", false, "record the costs");
/// const NAME: &str = "demo";
///
/// config! {
///     /// The configuration of a demo method.
///     #[derive(Clone, Debug, PartialEq)]
///     pub struct DemoConfig for NAME {
///         alpha: f64 = 0.5 in 0.0..=1.0, "greediness";
///         sample: u64 = 200 in 2..=1000000 "(moves)", "moves sampled";
///         kick: u64 = 0 in 0.., "random swaps per restart";
///         local: Local = "best" of choices!["best" => Local::Best, "first" => Local::First],
///             "which improving move";
///         shuffle: bool = true, "apply random symmetries";
///         hall: bool = on, "find larger patterns";
///         command: String = text "", "a command line";
///         /// Whether moves are restricted to candidates.
///         candidates as "moves": bool = "all" of choices!["all" => false, "candidates" => true],
///             "candidates: only digits no fixed peer holds";
///         /// Record the best cost each time it improves.
///         trace: bool = use TRACE;
///     }
/// }
///
/// let names: Vec<&str> = DemoConfig::PARAMS.iter().map(|s| s.name).collect();
/// assert_eq!(names, ["alpha", "sample", "kick", "local", "shuffle", "hall", "command", "moves", "trace"]);
/// assert_eq!(DemoConfig::PARAMS[1].range, "2..=1000000 (moves)");
/// let mut p = Params::new();
/// p.set("alpha", "0.25").set("moves", "candidates");
/// let c = DemoConfig::from_params(&p).unwrap();
/// assert_eq!((c.alpha, c.candidates, c.local), (0.25, true, DemoConfig::default().local));
/// p.set("beta", "1");
/// assert!(DemoConfig::from_params(&p).unwrap_err().to_string().contains("`demo` has no parameter `beta`"));
/// ```
///
/// The entries, each ending with `;` (a help text is one string literal):
///
/// - `name: T = D in LO..=HI, "help";` a number in `LO..=HI` (NaN rejected); after the range a
///   note shown with it (`0.0..=1000.0 "(0 = never)"`) or a text shown instead of it
///   (`1..=256 as "1..=N"`); `D in 0.., "help"` takes any value of an unsigned type. As
///   [`number_param!`](crate::number_param).
/// - `name: Option<T> = auto in LO..=HI, "help";` `auto` (`None`, the default: the method
///   chooses) or a number in `LO..=HI`.
/// - `name: T = "d" of CHOICES, "help";` one of the keywords of a [`Choices`](crate::Choices)
///   (often [`choices!`](crate::choices)), `"d"` the default's keyword; as [`Param::choice`].
/// - `name: bool = true, "help";` a switch, `true|false` ([`Param::flag`]); `= on, "help"` or
///   `= off, "help"` documents it as `on|off` ([`Param::on_off`]).
/// - `name: String = text "d", "help";` any text, trimmed ([`TextParam`](crate::TextParam)).
/// - `name: T = use PARAM;` a [`Param`] declared elsewhere, for a parameter several methods
///   share (a constant, or another configuration's `Other::PARAM.name`); its key, default,
///   range and help are the declaration's, and the field needs a `///` doc of its own.
/// - `name: T = group;` a nested configuration declared by `config!` (without `for`): its
///   parameters are listed and read here, in its place.
/// - `_ = PARAM;` a key listed and accepted but not a field: the check reads it.
/// - `vis name: T;` a field that is not a parameter (state, or a value the check sets): its
///   default is `T::default()`.
///
/// A `///` doc before an entry comes first in the field's documentation; the key, its default
/// and the help follow. `, check PATH` after the header names a function
/// `fn(&mut Self, &Params) -> Result<(), ParamError>` that `read_params` calls last, for what
/// one value cannot say alone (one key that makes another meaningless, values completed from
/// several keys).
///
/// Generated, besides the struct: `impl Default`; `PARAMS: &[ParamSpec]`; `read_params(&Params)`,
/// which reads the keys this configuration declares and leaves others alone; and with
/// `for NAME`, `from_params(&Params)`. Each parameter's [`Param`] is a field named as the
/// configuration's field of the constant `PARAM` (of a type with no name outside the
/// expansion), for other configurations to take: `lambda: f64 = use TabuConfig::PARAM.lambda;`.
///
/// [`Param`]: crate::Param
/// [`Param::choice`]: crate::Param::choice
/// [`Param::flag`]: crate::Param::flag
/// [`Param::on_off`]: crate::Param::on_off
#[macro_export]
macro_rules! config {
    // The end of the entries.
    (@munch $head:tt $fields:tt $consts:tt $specs:tt) => {
        $crate::config!(@emit $head $fields $consts $specs);
    };
    // `_ = PARAM;`
    (@munch $head:tt $fields:tt $consts:tt [$($specs:tt)*] _ = $p:path; $($rest:tt)*) => {
        $crate::config!(@munch $head $fields $consts [$($specs)* {key ($p)}] $($rest)*);
    };
    // `name as "key": T = ...`
    (@munch $head:tt $fields:tt $consts:tt $specs:tt
        $(#[doc = $doc:literal])* $field:ident as $key:literal : $ty:ty = $($rest:tt)*) => {
        $crate::config!(@value $head $fields $consts $specs
            [$(#[doc = $doc])*] $field ($key) $ty = $($rest)*);
    };
    // `name: T = ...`
    (@munch $head:tt $fields:tt $consts:tt $specs:tt
        $(#[doc = $doc:literal])* $field:ident : $ty:ty = $($rest:tt)*) => {
        $crate::config!(@value $head $fields $consts $specs
            [$(#[doc = $doc])*] $field (stringify!($field)) $ty = $($rest)*);
    };
    // `vis name: T;`, not a parameter.
    (@munch $head:tt [$($fields:tt)*] $consts:tt $specs:tt
        $(#[doc = $doc:literal])* $fvis:vis $field:ident : $ty:ty; $($rest:tt)*) => {
        $crate::config!(@munch $head
            [$($fields)* {[$(#[doc = $doc])*] $fvis $field: $ty => plain}] $consts $specs
            $($rest)*);
    };

    // The value of an entry: each form becomes a `Param` (or `TextParam`) constant.
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $d:literal in $lo:literal ..= $hi:literal as $shown:literal, $help:literal;
        $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", stringify!($d), "`, ",
                $shown, "): ", $help)]]
            $field $ty => param,
            $crate::number_param!($($key)+, $ty, $d, $lo..=$hi as $shown, $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $d:literal in $lo:literal ..= $hi:literal $($note:literal)?, $help:literal;
        $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", stringify!($d), "`, `",
                stringify!($lo), "..=", stringify!($hi), "`): ", $help)]]
            $field $ty => param,
            $crate::number_param!($($key)+, $ty, $d, $lo..=$hi $($note)?, $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $d:literal in 0.., $help:literal; $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", stringify!($d), "`): ",
                $help)]]
            $field $ty => param,
            $crate::number_param!($($key)+, $ty, $d, 0.., $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = auto in $lo:literal ..= $hi:literal, $help:literal; $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `auto`, or `", stringify!($lo),
                "..=", stringify!($hi), "`): ", $help)]]
            $field $ty => param,
            $crate::Param::<$ty>::new(
                $crate::ParamSpec {
                    name: $($key)+,
                    default: "auto",
                    range: concat!(stringify!($lo), "..=", stringify!($hi), "|auto"),
                    help: $help,
                },
                None,
                concat!("auto or a number in ", stringify!($lo), "..=", stringify!($hi)),
                |s| {
                    if s.eq_ignore_ascii_case("auto") {
                        return Some(None);
                    }
                    let v = s.parse().ok()?;
                    ($lo..=$hi).contains(&v).then_some(Some(v))
                },
            );
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $d:literal of $choices:expr, $help:literal; $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", $d, "`): ", $help)]]
            $field $ty => param,
            $crate::Param::choice($($key)+, $d, $choices, $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $d:literal, $help:literal; $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", $d, "`): ", $help)]]
            $field $ty => param,
            $crate::Param::flag($($key)+, $d, $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $switch:ident, $help:literal; $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", stringify!($switch), "`): ",
                $help)]]
            $field $ty => param,
            $crate::Param::on_off($($key)+, $crate::config!(@on $switch), $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = text $d:literal, $help:literal; $($rest:tt)*) => {
        $crate::config!(@text $head $fields $consts $specs
            [$($doc)* #[doc = concat!("`", $($key)+, "` (default `", $d, "`): ", $help)]]
            $field $ty, $crate::TextParam::new($($key)+, $d, $help);
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = use $p:expr; $($rest:tt)*) => {
        $crate::config!(@param $head $fields $consts $specs [$($doc)*] $field $ty => param, $p;
            $($rest)*);
    };
    (@value $head:tt [$($fields:tt)*] $consts:tt [$($specs:tt)*] [$($doc:tt)*]
        $field:ident ($($key:tt)+) $ty:ty = group; $($rest:tt)*) => {
        $crate::config!(@munch $head
            [$($fields)* {[$($doc)*] pub $field: $ty => group}] $consts
            [$($specs)* {group ($ty)}]
            $($rest)*);
    };
    (@value $head:tt $fields:tt $consts:tt $specs:tt [$($doc:tt)*] $field:ident ($($key:tt)+)
        $ty:ty = $($rest:tt)*) => {
        compile_error!(concat!(
            "config!: the entry of `", stringify!($field), "` is not one of the forms \
             (`D in LO..=HI`, `D in 0..`, `auto in LO..=HI`, `\"d\" of CHOICES`, `true`/`false`, \
             `on`/`off`, `text \"d\"`, `use PARAM`, `group`), each followed by `, \"help\";`"
        ));
    };
    // A parameter field and its constant.
    (@param $head:tt [$($fields:tt)*] [$($consts:tt)*] [$($specs:tt)*] [$($doc:tt)*]
        $field:ident $ty:ty => $kind:ident, $param:expr; $($rest:tt)*) => {
        $crate::config!(@munch $head
            [$($fields)* {[$($doc)*] pub $field: $ty => $kind}]
            [$($consts)* {$field: $crate::Param<$ty> = $param}]
            [$($specs)* {field $field}]
            $($rest)*);
    };
    (@text $head:tt [$($fields:tt)*] [$($consts:tt)*] [$($specs:tt)*] [$($doc:tt)*]
        $field:ident $ty:ty, $param:expr; $($rest:tt)*) => {
        $crate::config!(@munch $head
            [$($fields)* {[$($doc)*] pub $field: $ty => text}]
            [$($consts)* {$field: $crate::TextParam = $param}]
            [$($specs)* {field $field}]
            $($rest)*);
    };

    (@on on) => { true };
    (@on off) => { false };

    // What each kind of field contributes.
    (@default param $field:ident $ty:ty) => { Self::PARAM.$field.default };
    (@default text $field:ident $ty:ty) => {
        ::std::string::String::from(Self::PARAM.$field.spec.default)
    };
    (@default $kind:ident $field:ident $ty:ty) => { <$ty as ::core::default::Default>::default() };
    (@read param $field:ident $ty:ty, $p:ident) => { Self::PARAM.$field.read($p)? };
    (@read text $field:ident $ty:ty, $p:ident) => { Self::PARAM.$field.read($p) };
    (@read group $field:ident $ty:ty, $p:ident) => { <$ty>::read_params($p)? };
    (@read plain $field:ident $ty:ty, $p:ident) => { <$ty as ::core::default::Default>::default() };
    (@specs field $field:ident) => { &[Self::PARAM.$field.spec] };
    (@specs key ($p:path)) => { &[$p.spec] };
    (@specs group ($ty:ty)) => { <$ty>::PARAMS };
    (@len group ($ty:ty)) => { <$ty>::PARAMS.len() };
    (@len $kind:ident $target:tt) => { 1 };

    (@emit
        [$(#[$attr:meta])* $vis:vis struct $name:ident $(for $method:path)? $(, check $check:path)?]
        [$({[$($fdoc:tt)*] $fvis:vis $field:ident: $ty:ty => $kind:ident})*]
        [$({$cfield:ident: $cty:ty = $cparam:expr})*]
        [$({$skind:ident $starget:tt})*]
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $($($fdoc)* $fvis $field: $ty,)*
        }

        // The rest in a block of its own, so that the declarations' holder has no name outside.
        const _: () = {
            /// Each parameter field's declaration, named as the field.
            pub struct FieldParams {
                $(
                #[doc = concat!("`", stringify!($cfield), "`'s declaration.")]
                pub $cfield: $cty,
                )*
            }

            impl $name {
                /// Each parameter's declaration (a `Param`), in a field named as the
                /// configuration's: another configuration takes one as its own with
                /// `name: T = use Config::PARAM.name;`, so that its key, default, range and
                /// help are stated once.
                pub const PARAM: FieldParams = FieldParams {
                    $($cfield: $cparam,)*
                };
            }

            impl ::core::default::Default for $name {
                fn default() -> Self {
                    Self {
                        $($field: $crate::config!(@default $kind $field $ty),)*
                    }
                }
            }

            impl $name {
                /// The documented parameters, in the order `list` shows them.
                pub const PARAMS: &'static [$crate::ParamSpec] =
                    &$crate::concat_specs::<{ 0 $(+ $crate::config!(@len $skind $starget))* }>(&[
                        $($crate::config!(@specs $skind $starget),)*
                    ]);

                /// Reads the parameters of [`Self::PARAMS`] from `p` (other keys are left
                /// alone): a bad value is an error, an absent one the default.
                pub fn read_params(
                    p: &$crate::Params,
                ) -> ::core::result::Result<Self, $crate::ParamError> {
                    #[allow(unused_mut)]
                    let mut config = Self {
                        $($field: $crate::config!(@read $kind $field $ty, p),)*
                    };
                    $($check(&mut config, p)?;)?
                    Ok(config)
                }

                $(
                /// Reads a configuration from named parameters: a key not in
                /// [`Self::PARAMS`] and a bad value are errors.
                pub fn from_params(
                    p: &$crate::Params,
                ) -> ::core::result::Result<Self, $crate::ParamError> {
                    p.check_known($method, Self::PARAMS)?;
                    Self::read_params(p)
                }
                )?
            }
        };
    };

    // The header.
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident $(for $method:path)? $(, check $check:path)? {
            $($body:tt)*
        }
    ) => {
        $crate::config!(@munch
            [$(#[$attr])* $vis struct $name $(for $method)? $(, check $check)?]
            [] [] []
            $($body)*
        );
    };
}

#[cfg(test)]
mod tests {
    use crate::{choices, Param, ParamError, Params};

    const NAME: &str = "demo";
    const SHARED: Param<bool> = Param::flag("trace", false, "record the costs");
    const WEIGHT: Param<u32> = crate::number_param!("weight", u32, 1, 1..=9, "a weight");

    crate::config! {
        /// Options nested in [`Demo`].
        #[derive(Clone, Debug, PartialEq)]
        pub struct Inner {
            depth: u8 = 3 in 1..=8, "how deep";
            fast: bool = off, "go fast";
        }
    }

    crate::config! {
        /// A demo configuration with every kind of entry.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Demo for NAME, check Demo::check {
            alpha: f64 = 0.5 in 0.0..=1.0, "greediness";
            restart: f64 = 1.3 in 0.0..=1000.0 "(0 = never)", "restart after this";
            digit: u16 = 1 in 1..=256 as "1..=N", "a digit";
            kick: u64 = 0 in 0.., "kicks";
            threads: Option<usize> = auto in 1..=2, "threads";
            /// Best (0) or first (1).
            mode as "local": u8 = "best" of choices!["best" => 0, "first" => 1], "which move";
            shuffle: bool = true, "shuffle";
            command: String = text "", "a command";
            inner: Inner = group;
            _ = WEIGHT;
            /// Record the costs.
            trace: bool = use SHARED;
            /// Set by the check from `weight`.
            pub(crate) weight: u32;
        }
    }

    crate::config! {
        /// A configuration that takes two of [`Demo`]'s parameters as its own.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Borrower for NAME {
            /// `Demo`'s greediness.
            alpha: f64 = use Demo::PARAM.alpha;
            /// `Demo`'s kind of local move.
            mode: u8 = use Demo::PARAM.mode;
        }
    }

    #[test]
    fn a_parameter_taken_from_another_configuration_is_declared_once() {
        assert_eq!(Borrower::PARAMS, [Demo::PARAMS[0], Demo::PARAMS[5]]);
        let b = Borrower::default();
        assert_eq!((b.alpha, b.mode), (0.5, 0));
        let mut p = Params::new();
        p.set("alpha", "2");
        assert!(Borrower::from_params(&p).is_err());
    }

    impl Demo {
        /// `weight` is read here; `shuffle=false` with `kick` makes no sense.
        fn check(&mut self, p: &Params) -> Result<(), ParamError> {
            self.weight = WEIGHT.read(p)?;
            if !self.shuffle && self.kick > 0 {
                return Err(p.invalid("kick", "0 when shuffle=false"));
            }
            Ok(())
        }
    }

    fn demo(pairs: &[(&str, &str)]) -> Result<Demo, ParamError> {
        let mut p = Params::new();
        for (k, v) in pairs {
            p.set(*k, *v);
        }
        Demo::from_params(&p)
    }

    #[test]
    fn one_declaration_gives_the_struct_its_defaults_and_its_list() {
        let d = Demo::default();
        assert_eq!((d.alpha, d.restart, d.digit, d.kick), (0.5, 1.3, 1, 0));
        assert_eq!(d.threads, None);
        assert_eq!((d.mode, d.shuffle, d.command.as_str()), (0, true, ""));
        assert_eq!(
            d.inner,
            Inner {
                depth: 3,
                fast: false
            }
        );
        assert_eq!((d.trace, d.weight), (false, 0));
        // Nothing given: the defaults (the check sets `weight` from its own default).
        assert_eq!(
            demo(&[]),
            Ok(Demo {
                weight: 1,
                ..Demo::default()
            })
        );

        // As `list` shows them: key=default (range).
        let listed: Vec<String> = Demo::PARAMS
            .iter()
            .map(|s| format!("{}={} ({})", s.name, s.default, s.range))
            .collect();
        assert_eq!(
            listed.join(" "),
            "alpha=0.5 (0.0..=1.0) restart=1.3 (0.0..=1000.0 (0 = never)) digit=1 (1..=N) \
             kick=0 (0..) threads=auto (1..=2|auto) local=best (best|first) \
             shuffle=true (true|false) command= (text) depth=3 (1..=8) fast=off (on|off) \
             weight=1 (1..=9) trace=false (true|false)"
        );
        assert_eq!(Demo::PARAMS[0].help, "greediness");
        assert_eq!(Inner::PARAMS.len(), 2);
    }

    #[test]
    fn values_are_parsed_and_checked() {
        let d = demo(&[
            ("alpha", "0.25"),
            ("local", "FIRST"),
            ("command", "  run me "),
            ("depth", "8"),
            ("fast", "on"),
            ("weight", "9"),
            ("trace", "yes"),
            ("kick", "5"),
            ("threads", "2"),
        ])
        .unwrap();
        assert_eq!(d.threads, Some(2));
        assert_eq!(demo(&[("threads", "Auto")]).unwrap().threads, None);
        assert_eq!((d.alpha, d.mode, d.command.as_str()), (0.25, 1, "run me"));
        assert_eq!(
            d.inner,
            Inner {
                depth: 8,
                fast: true
            }
        );
        assert_eq!((d.weight, d.trace, d.kick), (9, true, 5));
        // The nested configuration reads its own keys and leaves the others alone.
        let mut p = Params::new();
        p.set("depth", "2").set("alpha", "7");
        assert_eq!(Inner::read_params(&p).unwrap().depth, 2);
    }

    #[test]
    fn bad_values_and_unknown_keys_are_errors() {
        let err = |pairs: &[(&str, &str)]| demo(pairs).unwrap_err().to_string();
        for (key, value, expected) in [
            ("alpha", "1.5", "a number in 0.0..=1.0"),
            ("depth", "9", "a number in 1..=8"),
            ("weight", "0", "a number in 1..=9"),
            ("local", "worst", "best|first"),
            ("threads", "3", "auto or a number in 1..=2"),
        ] {
            assert_eq!(
                err(&[(key, value)]),
                format!("parameter `{key}`: `{value}` is not valid (expected {expected})")
            );
        }
        assert!(demo(&[("alpha", "NaN")]).is_err());
        assert!(demo(&[("kick", "-1")]).is_err());
        // The check.
        assert_eq!(
            err(&[("shuffle", "false"), ("kick", "2")]),
            "parameter `kick`: `2` is not valid (expected 0 when shuffle=false)"
        );
        // An unknown key names the method and every key it has, nested and key-only ones
        // included; a field that is not a parameter is not a key.
        assert_eq!(
            err(&[("mode", "1")]),
            "method `demo` has no parameter `mode` (its parameters: alpha, restart, digit, \
             kick, threads, local, shuffle, command, depth, fast, weight, trace)"
        );
    }
}
