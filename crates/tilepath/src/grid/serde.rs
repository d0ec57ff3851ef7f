//! A grid from its packed cells ([`Grid::from_bytes`]), and (feature `serde`) a grid
//! saved and loaded as its size and packed cells.
//!
//! Only the cells are a grid's value: the bit planes are rebuilt from them. What is
//! derived from a grid ([`Derived`](crate::Derived): bit rows, jump distances,
//! components, ...) is not saved: build it again once loaded.

use super::{Grid, GridError};

impl Grid {
    /// A `width x height` grid from its packed cells, as [`as_bytes`](Self::as_bytes)
    /// gives them: cell `i` (row-major) in bits `2 * (i % 4)..` of byte `i / 4`,
    /// exactly `ceil(width * height / 4)` bytes, the bits past the last cell 0 (so
    /// that a grid has one form in bytes, and equal grids equal bytes).
    ///
    /// The size and bytes are checked before anything is allocated: a wrong length
    /// costs no memory, whatever size it declares.
    ///
    /// ```
    /// use tilepath::{Cell, Grid, GridError, TileKind};
    /// let mut grid = Grid::new(5, 3)?;
    /// grid.set(Cell::new(4, 2), TileKind::K2)?;
    /// assert_eq!(Grid::from_bytes(5, 3, grid.as_bytes())?, grid);
    /// assert!(matches!(
    ///     Grid::from_bytes(65_536, 65_536, &[0; 3]),
    ///     Err(GridError::BytesLength { .. })
    /// ));
    /// # Ok::<(), GridError>(())
    /// ```
    ///
    /// # Errors
    /// [`GridError::TooLarge`] if a side exceeds [`Grid::MAX_SIDE`];
    /// [`GridError::BytesLength`] if `bytes` is not `ceil(width * height / 4)` long;
    /// [`GridError::BytesPadding`] if a bit past the last cell is set;
    /// [`GridError::OutOfMemory`] if the system cannot give
    /// [`bytes_for`](Self::bytes_for) bytes.
    pub fn from_bytes(width: u32, height: u32, bytes: &[u8]) -> Result<Self, GridError> {
        if width > Self::MAX_SIDE || height > Self::MAX_SIDE {
            return Err(GridError::TooLarge { width, height });
        }
        // At most 2^32 cells: no overflow in u64.
        let cells = u64::from(width) * u64::from(height);
        let expected = cells.div_ceil(4);
        let found = bytes.len() as u64;
        if found != expected {
            return Err(GridError::BytesLength {
                width,
                height,
                expected,
                found,
            });
        }
        let used = (cells % 4) as u32;
        if let Some(&last) = bytes.last()
            && used != 0
            && last >> (2 * used) != 0
        {
            return Err(GridError::BytesPadding);
        }
        // Only now, with `bytes` as long as the size says, is the grid allocated.
        let mut grid = Self::new(width, height)?;
        grid.bytes.copy_from_slice(bytes);
        // The planes of a new grid are all kind 0: set the other cells' bits. A set
        // pair of bits is a cell (the padding is 0), so `i` is inside the grid.
        let w = width as usize;
        for (b, &byte) in bytes.iter().enumerate() {
            if byte == 0 {
                continue;
            }
            for slot in 0..4 {
                let k = (byte >> (2 * slot)) & 3;
                if k != 0 {
                    let i = 4 * b + slot;
                    grid.planes.set(i % w, i / w, k);
                }
            }
        }
        Ok(grid)
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! The serde form: a struct `Grid { width, height, cells }`, `cells` the packed
    //! bytes as a byte buffer (`serialize_bytes`: a length and the bytes in binary
    //! formats, an array of numbers in JSON).

    use super::Grid;
    use core::fmt;
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde::ser::{SerializeStruct, Serializer};
    use std::borrow::Cow;

    /// The fields, in the order they are written.
    const FIELDS: &[&str] = &["width", "height", "cells"];

    /// Elements a byte sequence is given room for before they are read: a declared
    /// length is never trusted, the buffer grows with the bytes actually read.
    const CAUTIOUS_CAPACITY: usize = 4096;

    impl serde::Serialize for Grid {
        /// The grid as `{ width, height, cells }`, `cells` its packed bytes
        /// ([`as_bytes`](Grid::as_bytes)) written as one byte buffer. Kept bit rows and
        /// jump distances are not written (they are no part of the grid's value).
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut s = serializer.serialize_struct("Grid", FIELDS.len())?;
            s.serialize_field("width", &self.width)?;
            s.serialize_field("height", &self.height)?;
            s.serialize_field("cells", &Cells(&self.bytes))?;
            s.end()
        }
    }

    impl<'de> serde::Deserialize<'de> for Grid {
        /// A grid written by its `Serialize`, checked by [`Grid::from_bytes`]: sides
        /// within [`Grid::MAX_SIDE`], exactly as many bytes as the size needs, 0 bits
        /// past the last cell; any of these wrong is an error, and nothing the size of
        /// the declared grid is allocated before the bytes are found to match it. The
        /// grid keeps no bit rows nor jump distances: keep them again once loaded.
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_struct("Grid", FIELDS, GridVisitor)
        }
    }

    /// Writes packed bytes as one byte buffer.
    struct Cells<'a>(&'a [u8]);

    impl serde::Serialize for Cells<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bytes(self.0)
        }
    }

    /// The field names, also as indices (formats that write fields by position).
    #[derive(serde::Deserialize)]
    #[serde(field_identifier, rename_all = "lowercase")]
    enum Field {
        Width,
        Height,
        Cells,
    }

    /// Reads packed bytes: a byte buffer (borrowed from the input where the format
    /// can), or a sequence of numbers 0..=255 (JSON).
    struct CellsSeed;

    impl<'de> DeserializeSeed<'de> for CellsSeed {
        type Value = Cow<'de, [u8]>;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_bytes(CellsVisitor)
        }
    }

    struct CellsVisitor;

    impl<'de> Visitor<'de> for CellsVisitor {
        type Value = Cow<'de, [u8]>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("the grid's packed cells as bytes")
        }

        fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(v))
        }

        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
            Ok(Cow::Owned(v.to_vec()))
        }

        fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
            Ok(Cow::Owned(v))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let hint = seq.size_hint().unwrap_or(0);
            let mut bytes = Vec::with_capacity(hint.min(CAUTIOUS_CAPACITY));
            while let Some(byte) = seq.next_element::<u8>()? {
                bytes.push(byte);
            }
            Ok(Cow::Owned(bytes))
        }
    }

    struct GridVisitor;

    impl GridVisitor {
        fn build<E: de::Error>(width: u32, height: u32, cells: &[u8]) -> Result<Grid, E> {
            Grid::from_bytes(width, height, cells).map_err(E::custom)
        }
    }

    impl<'de> Visitor<'de> for GridVisitor {
        type Value = Grid;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a grid: width, height and packed cells")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Grid, A::Error> {
            let width: u32 = seq
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(0, &self))?;
            let height: u32 = seq
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(1, &self))?;
            // The size is checked before the cells are read, so that a format that
            // copies them (rather than lending them) is not asked for more than the
            // size allows.
            if width > Grid::MAX_SIDE || height > Grid::MAX_SIDE {
                return Err(de::Error::custom(crate::GridError::TooLarge {
                    width,
                    height,
                }));
            }
            let cells = seq
                .next_element_seed(CellsSeed)?
                .ok_or_else(|| de::Error::invalid_length(2, &self))?;
            Self::build(width, height, &cells)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Grid, A::Error> {
            let (mut width, mut height, mut cells) = (None, None, None);
            while let Some(field) = map.next_key()? {
                match field {
                    Field::Width if width.is_some() => {
                        return Err(de::Error::duplicate_field("width"));
                    }
                    Field::Height if height.is_some() => {
                        return Err(de::Error::duplicate_field("height"));
                    }
                    Field::Cells if cells.is_some() => {
                        return Err(de::Error::duplicate_field("cells"));
                    }
                    Field::Width => width = Some(map.next_value::<u32>()?),
                    Field::Height => height = Some(map.next_value::<u32>()?),
                    Field::Cells => cells = Some(map.next_value_seed(CellsSeed)?),
                }
            }
            let width = width.ok_or_else(|| de::Error::missing_field("width"))?;
            let height = height.ok_or_else(|| de::Error::missing_field("height"))?;
            let cells = cells.ok_or_else(|| de::Error::missing_field("cells"))?;
            Self::build(width, height, &cells)
        }
    }
}
