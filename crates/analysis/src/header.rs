//! The column names of a row type, from serde's own view of it: [`field_names`] what a type
//! reads, [`csv_header`] what a value writes. csv's header writer refuses a struct nested in a
//! row (though it writes the nested values one after another in the row itself); the header
//! here puts a nested struct's fields in place of the field that holds it, so a row can group
//! columns in a typed value (a kind's own columns, [`crate::KindColumns`]).

use std::fmt;

use serde::ser::{self, Impossible, Serialize, SerializeStruct, Serializer};
use serde::{Deserialize, Deserializer};

/// The field names `T` reads, in serde's own list (`'static`, so errors can name a column): a
/// deserializer that asks for a struct, notes its fields, and stops.
pub(crate) fn field_names<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    struct Fields(&'static [&'static str]);
    #[derive(Debug)]
    struct Stop;
    impl fmt::Display for Stop {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("field names read")
        }
    }
    impl std::error::Error for Stop {}
    impl serde::de::Error for Stop {
        fn custom<M: fmt::Display>(_: M) -> Stop {
            Stop
        }
    }
    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = Stop;
        fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            self.0 = fields;
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let mut f = Fields(&[]);
    let _ = T::deserialize(&mut f);
    f.0
}

/// The CSV header `row` writes: its fields' names in order, the fields of a nested struct in
/// place of the field that holds it. An error for a value that is no struct of such fields
/// (a sequence or a map has no fixed columns).
pub fn csv_header<T: Serialize>(row: &T) -> Result<Vec<&'static str>, csv::Error> {
    let mut names = Vec::new();
    row.serialize(Probe {
        names: &mut names,
        key: None,
    })
    .map_err(|e| csv::Error::from(std::io::Error::other(e.0)))?;
    Ok(names)
}

/// Why a value has no CSV header.
#[derive(Debug)]
struct NoHeader(String);

impl fmt::Display for NoHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoHeader {}

impl ser::Error for NoHeader {
    fn custom<M: fmt::Display>(m: M) -> NoHeader {
        NoHeader(m.to_string())
    }
}

/// Notes the name of each column a value serializes to; `key` is the field being serialized
/// (`None` at the top, which must be a struct).
struct Probe<'a> {
    names: &'a mut Vec<&'static str>,
    key: Option<&'static str>,
}

impl Probe<'_> {
    /// A value that fills one column: its field's name.
    fn column(self) -> Result<(), NoHeader> {
        let key = self
            .key
            .ok_or_else(|| NoHeader("a CSV row is a struct".to_string()))?;
        self.names.push(key);
        Ok(())
    }

    fn no_columns(&self, what: &str) -> NoHeader {
        NoHeader(format!(
            "field `{}`: a {what} has no fixed CSV columns",
            self.key.unwrap_or("(the row)")
        ))
    }
}

/// The one-column values: each names its field.
macro_rules! columns {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $( fn $method(self, _: $ty) -> Result<(), NoHeader> { self.column() } )*
    };
}

impl<'a> Serializer for Probe<'a> {
    type Ok = ();
    type Error = NoHeader;
    type SerializeSeq = Impossible<(), NoHeader>;
    type SerializeTuple = Impossible<(), NoHeader>;
    type SerializeTupleStruct = Impossible<(), NoHeader>;
    type SerializeTupleVariant = Impossible<(), NoHeader>;
    type SerializeMap = Impossible<(), NoHeader>;
    type SerializeStruct = Probe<'a>;
    type SerializeStructVariant = Impossible<(), NoHeader>;

    columns! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_str(&str), serialize_bytes(&[u8]), serialize_unit_struct(&'static str),
    }

    fn serialize_none(self) -> Result<(), NoHeader> {
        self.column()
    }

    // An optional value is one column, empty when absent.
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), NoHeader> {
        self.column()
    }

    fn serialize_unit(self) -> Result<(), NoHeader> {
        self.column()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), NoHeader> {
        self.column()
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), NoHeader> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NoHeader> {
        Err(self.no_columns("enum with data"))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NoHeader> {
        Err(self.no_columns("sequence"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NoHeader> {
        Err(self.no_columns("tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NoHeader> {
        Err(self.no_columns("tuple"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NoHeader> {
        Err(self.no_columns("enum with data"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NoHeader> {
        Err(self.no_columns("map"))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Probe<'a>, NoHeader> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NoHeader> {
        Err(self.no_columns("enum with data"))
    }
}

impl SerializeStruct for Probe<'_> {
    type Ok = ();
    type Error = NoHeader;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NoHeader> {
        value.serialize(Probe {
            names: &mut *self.names,
            key: Some(key),
        })
    }

    fn end(self) -> Result<(), NoHeader> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::*;

    #[derive(Default, Serialize)]
    struct Inner {
        b: Option<bool>,
        c: String,
    }

    #[derive(Default, Serialize)]
    struct Outer {
        a: u32,
        inner: Inner,
        d: Option<f64>,
    }

    /// A nested struct's fields stand in its place, in the header as csv writes the values.
    #[test]
    fn nested_fields_take_the_place_of_their_struct() {
        assert_eq!(csv_header(&Outer::default()).unwrap(), ["a", "b", "c", "d"]);
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(Outer::default()).unwrap();
        let line = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(line.trim_end().split(',').count(), 4, "{line}");
        #[derive(Serialize)]
        struct Listed {
            v: Vec<u32>,
        }
        let e = csv_header(&Listed { v: vec![] }).unwrap_err().to_string();
        assert!(e.contains("field `v`: a sequence"), "{e}");
    }
}
