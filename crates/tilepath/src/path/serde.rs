//! Paths through serde: a struct `{ steps, position }`, the steps in walking order
//! (each a [`Direction`] or [`Direction8`]) and the cursor, checked on loading.
//!
//! The packed words are not written: the form stays the same whatever the packing in
//! memory, and a loaded path cannot hold more than [`MAX_STEPS`] steps or a cursor
//! past its end, whatever the input says.

use super::{GridPath, GridPath8, MAX_STEPS};
use crate::{Direction, Direction8};
use ::serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{SerializeStruct, Serializer};
use ::serde::{Deserialize, Serialize};
use core::fmt;
use core::marker::PhantomData;

/// What the impls need of both path types.
trait Steps: Copy + Iterator<Item = Self::Dir> {
    /// One step.
    type Dir: Serialize + for<'de> Deserialize<'de>;
    /// The type's name in the serialised form.
    const NAME: &'static str;
    /// The empty path.
    fn empty() -> Self;
    /// Appends a step; `false` when full.
    fn push_step(&mut self, dir: Self::Dir) -> bool;
    /// Steps in all.
    fn steps(&self) -> usize;
    /// Steps taken.
    fn taken(&self) -> usize;
    /// The same steps, the cursor at the first.
    fn rewound(self) -> Self;
}

macro_rules! steps {
    ($name:ident, $dir:ty) => {
        impl Steps for $name {
            type Dir = $dir;
            const NAME: &'static str = stringify!($name);

            fn empty() -> Self {
                Self::EMPTY
            }

            fn push_step(&mut self, dir: $dir) -> bool {
                self.push(dir)
            }

            fn steps(&self) -> usize {
                self.len()
            }

            fn taken(&self) -> usize {
                self.position()
            }

            fn rewound(mut self) -> Self {
                self.rewind();
                self
            }
        }

        impl Serialize for $name {
            /// The path as `{ steps, position }`: every step in walking order
            /// (whatever the cursor) and how many were taken.
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                save(self, serializer)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            /// A path written by its `Serialize`: at most
            #[doc = concat!("[`", stringify!($name), "::CAPACITY`]")]
            /// steps and a position within them, else an error.
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_struct(
                    Self::NAME,
                    FIELDS,
                    PathVisitor::<Self>(PhantomData),
                )
            }
        }
    };
}

steps!(GridPath, Direction);
steps!(GridPath8, Direction8);

/// The fields, in the order they are written.
const FIELDS: &[&str] = &["steps", "position"];

fn save<P: Steps, S: Serializer>(path: &P, serializer: S) -> Result<S::Ok, S::Error> {
    let mut s = serializer.serialize_struct(P::NAME, FIELDS.len())?;
    s.serialize_field("steps", &AllSteps(path.rewound()))?;
    // At most 56: a byte.
    s.serialize_field("position", &(path.taken() as u8))?;
    s.end()
}

/// Writes a rewound path's steps as a sequence.
struct AllSteps<P>(P);

impl<P: Steps> Serialize for AllSteps<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0)
    }
}

/// Reads a sequence of at most [`MAX_STEPS`] steps into a path, with no allocation.
struct LoadSteps<P>(P);

impl<'de, P: Steps> Deserialize<'de> for LoadSteps<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(StepsVisitor::<P>(PhantomData))
    }
}

struct StepsVisitor<P>(PhantomData<P>);

impl<'de, P: Steps> Visitor<'de> for StepsVisitor<P> {
    type Value = LoadSteps<P>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at most {MAX_STEPS} steps")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut path = P::empty();
        let mut count = 0;
        while let Some(dir) = seq.next_element()? {
            count += 1;
            if !path.push_step(dir) {
                return Err(de::Error::invalid_length(count, &self));
            }
        }
        Ok(LoadSteps(path))
    }
}

/// The field names, also as indices (formats that write fields by position).
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Steps,
    Position,
}

struct PathVisitor<P>(PhantomData<P>);

impl<P: Steps> PathVisitor<P> {
    /// The path with `position` steps taken, if it has that many.
    fn build<E: de::Error>(LoadSteps(mut path): LoadSteps<P>, position: u8) -> Result<P, E> {
        let position = usize::from(position);
        if position > path.steps() {
            return Err(E::invalid_value(
                de::Unexpected::Unsigned(position as u64),
                &"a position within the path's steps",
            ));
        }
        for _ in 0..position {
            path.next();
        }
        Ok(path)
    }
}

impl<'de, P: Steps> Visitor<'de> for PathVisitor<P> {
    type Value = P;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}: its steps and position", P::NAME)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<P, A::Error> {
        let steps = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let position = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Self::build(steps, position)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<P, A::Error> {
        let (mut steps, mut position) = (None, None);
        while let Some(field) = map.next_key()? {
            match field {
                Field::Steps if steps.is_some() => {
                    return Err(de::Error::duplicate_field("steps"));
                }
                Field::Position if position.is_some() => {
                    return Err(de::Error::duplicate_field("position"));
                }
                Field::Steps => steps = Some(map.next_value()?),
                Field::Position => position = Some(map.next_value()?),
            }
        }
        let steps = steps.ok_or_else(|| de::Error::missing_field("steps"))?;
        let position = position.ok_or_else(|| de::Error::missing_field("position"))?;
        Self::build(steps, position)
    }
}
