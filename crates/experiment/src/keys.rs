//! The keys each table of an experiment file accepts, read from the parser itself.
//!
//! Every table is a struct whose derived deserializer rejects unknown keys; the list it names
//! in that error is the list serde hands to `deserialize_struct`. [`tables`] asks each struct
//! for that list through a probe deserializer, so the reference (`docs/experiment-files.md`,
//! checked by this crate's tests) cannot drift from what the parser accepts.

use serde::de::{self, Deserialize, Deserializer, Visitor};

use crate::{
    BudgetSpec, CarveSpec, ExperimentFile, GenerateSpec, InstanceSpec, MethodSpec, QuickSpec,
};

/// One table of an experiment file and the keys it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// The table as written in a file: `top level`, `[budget]`, `[[method]]`, `generate = { … }`.
    pub name: &'static str,
    /// Its keys, in the order the parser declares them.
    pub keys: &'static [&'static str],
}

/// Every table of an experiment file with the keys it accepts: the top level, `[budget]` (also
/// a `[[method]]`'s `budget = { … }`), `[quick]`, `[[method]]`, `[[instances]]`, and the inline
/// tables `generate = { … }` and `carve = { … }` (top level or in `[[instances]]`).
pub fn tables() -> Vec<Table> {
    vec![
        table::<ExperimentFile>("top level"),
        table::<BudgetSpec>("[budget]"),
        table::<QuickSpec>("[quick]"),
        table::<MethodSpec>("[[method]]"),
        table::<InstanceSpec>("[[instances]]"),
        table::<GenerateSpec>("generate = { … }"),
        table::<CarveSpec>("carve = { … }"),
    ]
}

/// The table `name`, parsed into `T`.
fn table<'de, T: Deserialize<'de>>(name: &'static str) -> Table {
    Table {
        name,
        keys: keys_of::<T>(),
    }
}

/// The field names `T`'s derived deserializer declares (empty for a type that is not a
/// struct, which no table is).
fn keys_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut keys: &'static [&'static str] = &[];
    // The probe always fails: it only records what the struct asked for.
    let _ = T::deserialize(Probe(&mut keys));
    keys
}

/// A deserializer that records the fields a struct asks for, and deserializes nothing.
struct Probe<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a key probe reads no values"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("a key probe reads no values"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_table_lists_its_keys() {
        let t = tables();
        let keys = |name: &str| t.iter().find(|t| t.name == name).unwrap().keys;
        assert!(keys("top level").contains(&"method") && keys("top level").contains(&"seed"));
        assert_eq!(
            keys("[budget]"),
            ["time_limit", "node_limit", "iteration_limit"]
        );
        assert_eq!(
            keys("carve = { … }"),
            ["puzzle", "clues", "checker", "check_nodes"]
        );
        assert!(t.iter().all(|t| !t.keys.is_empty()), "{t:?}");
    }

    #[test]
    fn the_lists_are_the_ones_unknown_keys_are_refused_with() {
        // serde names the same list in its error for an unknown key.
        let e = crate::parse("name = \"t\"\nseed = 1\nbogus = 1\n")
            .unwrap_err()
            .to_string();
        for k in keys_of::<ExperimentFile>() {
            assert!(e.contains(&format!("`{k}`")), "{k}: {e}");
        }
    }
}
