//! `.npz` files (a zip of `.npy` arrays), shared with the Python trainer, with no
//! dependencies: written as stored (uncompressed) zip entries with version 1.0 `.npy`
//! headers; read as `numpy.savez` writes them (stored entries, zip64 or not, `.npy`
//! versions 1-3, little-endian f32/f64/u8/bool arrays in C order).

use std::io::{self, Write};

/// One array to store: its name in the archive (without `.npy`), shape and data.
pub struct NpyArray<'a> {
    pub name: &'a str,
    pub shape: Vec<usize>,
    pub data: NpyData<'a>,
}

pub enum NpyData<'a> {
    U8(&'a [u8]),
    F32(&'a [f32]),
}

impl NpyData<'_> {
    fn descr(&self) -> &'static str {
        match self {
            NpyData::U8(_) => "|u1",
            NpyData::F32(_) => "<f4",
        }
    }

    fn len(&self) -> usize {
        match self {
            NpyData::U8(d) => d.len(),
            NpyData::F32(d) => d.len(),
        }
    }

    fn bytes(&self) -> Vec<u8> {
        match self {
            NpyData::U8(d) => d.to_vec(),
            NpyData::F32(d) => d.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }
}

/// The `.npy` encoding of one array.
pub fn npy_bytes(array: &NpyArray) -> io::Result<Vec<u8>> {
    let count: usize = array.shape.iter().product();
    if count != array.data.len() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "array '{}' has {} values but shape {:?}",
                array.name,
                array.data.len(),
                array.shape
            ),
        ));
    }
    let dims: Vec<String> = array.shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        array.data.descr()
    );
    // The data starts 64-byte aligned: magic (6) + version (2) + length (2) + header.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + array.data.len() * 4);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&array.data.bytes());
    Ok(out)
}

/// Writes the arrays as an `.npz` archive (what `numpy.load` reads).
pub fn write_npz(out: &mut dyn Write, arrays: &[NpyArray]) -> io::Result<()> {
    let too_big = || io::Error::new(io::ErrorKind::InvalidInput, "npz entry over 4 GiB");
    let mut offset = 0u32;
    let mut central = Vec::new();
    for array in arrays {
        let name = format!("{}.npy", array.name);
        let data = npy_bytes(array)?;
        let size = u32::try_from(data.len()).map_err(|_| too_big())?;
        let crc = crc32(&data);
        let mut local = Vec::with_capacity(30 + name.len());
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&20u16.to_le_bytes()); // version needed
        local.extend_from_slice(&0u16.to_le_bytes()); // flags
        local.extend_from_slice(&0u16.to_le_bytes()); // stored
        local.extend_from_slice(&0u16.to_le_bytes()); // time
        local.extend_from_slice(&0x21u16.to_le_bytes()); // date: 1980-01-01
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes()); // extra
        local.extend_from_slice(name.as_bytes());
        out.write_all(&local)?;
        out.write_all(&data)?;

        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        central.extend_from_slice(&local[4..30]);
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
        offset = offset
            .checked_add(local.len() as u32)
            .and_then(|o| o.checked_add(size))
            .ok_or_else(too_big)?;
    }
    out.write_all(&central)?;
    let mut end = Vec::with_capacity(22);
    end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    end.extend_from_slice(&(arrays.len() as u16).to_le_bytes());
    end.extend_from_slice(&(arrays.len() as u16).to_le_bytes());
    end.extend_from_slice(&(central.len() as u32).to_le_bytes());
    end.extend_from_slice(&offset.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    out.write_all(&end)
}

/// What can be wrong with an `.npz` file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpzError {
    #[error("not an .npz file: {0}")]
    NotZip(String),
    #[error("array '{name}' is compressed (numpy.savez_compressed); save it with numpy.savez")]
    Compressed { name: String },
    #[error("array '{name}': {reason}")]
    BadArray { name: String, reason: String },
    #[error("array '{name}' is stored with a bad checksum: the file is corrupt")]
    Checksum { name: String },
}

/// An array read from an `.npz` file, with its values as f32 (u8 and bool become 0..255).
#[derive(Debug, Clone, PartialEq)]
pub struct NpyOwned {
    pub name: String,
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

/// Reads every array of an `.npz` archive, in archive order.
pub fn read_npz(bytes: &[u8]) -> Result<Vec<NpyOwned>, NpzError> {
    let not_zip = |what: &str| NpzError::NotZip(what.to_owned());
    let u16_at = |i: usize| -> Result<u64, NpzError> {
        bytes
            .get(i..i + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as u64)
            .ok_or_else(|| not_zip("truncated"))
    };
    let u32_at = |i: usize| -> Result<u64, NpzError> {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
            .ok_or_else(|| not_zip("truncated"))
    };
    let u64_at = |i: usize| -> Result<u64, NpzError> {
        bytes
            .get(i..i + 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
            .ok_or_else(|| not_zip("truncated"))
    };
    // The end record is the last 22 bytes, or earlier when the archive has a comment.
    let search_from = bytes.len().saturating_sub(22 + 65_535);
    let end = (search_from..=bytes.len().saturating_sub(22))
        .rev()
        .find(|&i| bytes[i..].starts_with(&0x0605_4b50u32.to_le_bytes()))
        .ok_or_else(|| not_zip("no end-of-archive record"))?;
    let mut entries = u16_at(end + 10)?;
    let mut directory = u32_at(end + 16)?;
    if (entries == 0xffff || directory == 0xffff_ffff) && end >= 20 {
        let locator = end - 20;
        if u32_at(locator)? == 0x0706_4b50 {
            let end64 = usize::try_from(u64_at(locator + 8)?).map_err(|_| not_zip("offset"))?;
            if u32_at(end64)? != 0x0606_4b50 {
                return Err(not_zip("bad zip64 end record"));
            }
            entries = u64_at(end64 + 32)?;
            directory = u64_at(end64 + 48)?;
        }
    }
    let mut arrays = Vec::new();
    let mut at = usize::try_from(directory).map_err(|_| not_zip("offset"))?;
    for _ in 0..entries {
        if u32_at(at)? != 0x0201_4b50 {
            return Err(not_zip("bad central directory"));
        }
        let method = u16_at(at + 10)?;
        let crc = u32_at(at + 16)?;
        let mut size = u32_at(at + 20)?;
        let mut raw_size = u32_at(at + 24)?;
        let name_len = u16_at(at + 28)? as usize;
        let extra_len = u16_at(at + 30)? as usize;
        let comment_len = u16_at(at + 32)? as usize;
        let mut local = u32_at(at + 42)?;
        let name_bytes = bytes
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| not_zip("truncated"))?;
        let name = String::from_utf8_lossy(name_bytes);
        let name = name.strip_suffix(".npy").unwrap_or(&name).to_owned();
        // Zip64: the sizes and offset that overflowed 32 bits follow in the extra field.
        let mut extra = at + 46 + name_len;
        let extra_end = extra + extra_len;
        while extra + 4 <= extra_end {
            let (id, len) = (u16_at(extra)?, u16_at(extra + 2)? as usize);
            if id == 1 {
                let mut field = extra + 4;
                for value in [&mut raw_size, &mut size, &mut local] {
                    if *value == 0xffff_ffff && field + 8 <= extra + 4 + len {
                        *value = u64_at(field)?;
                        field += 8;
                    }
                }
            }
            extra += 4 + len;
        }
        if method != 0 {
            return Err(NpzError::Compressed { name });
        }
        let local = usize::try_from(local).map_err(|_| not_zip("offset"))?;
        if u32_at(local)? != 0x0403_4b50 {
            return Err(not_zip("bad local header"));
        }
        let start = local + 30 + u16_at(local + 26)? as usize + u16_at(local + 28)? as usize;
        let data = usize::try_from(size)
            .ok()
            .and_then(|size| bytes.get(start..start.checked_add(size)?))
            .ok_or_else(|| not_zip("truncated"))?;
        if crc32(data) as u64 != crc {
            return Err(NpzError::Checksum { name });
        }
        arrays.push(parse_npy(&name, data)?);
        at = extra_end + comment_len;
    }
    Ok(arrays)
}

/// Parses one `.npy` array.
pub fn parse_npy(name: &str, bytes: &[u8]) -> Result<NpyOwned, NpzError> {
    let bad = |reason: &str| NpzError::BadArray {
        name: name.to_owned(),
        reason: reason.to_owned(),
    };
    if !bytes.starts_with(b"\x93NUMPY") || bytes.len() < 10 {
        return Err(bad("not an .npy array"));
    }
    let (header_len, header_start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad("unknown .npy version")),
    };
    let header = bytes
        .get(header_start..header_start + header_len)
        .map(String::from_utf8_lossy)
        .ok_or_else(|| bad("truncated header"))?;
    let field = |key: &str| -> Option<&str> {
        let rest = &header[header.find(&format!("'{key}'"))? + key.len() + 2..];
        Some(rest.trim_start().strip_prefix(':')?.trim_start())
    };
    let descr = field("descr")
        .and_then(|v| v.strip_prefix('\''))
        .and_then(|v| v.split('\'').next())
        .ok_or_else(|| bad("no dtype in the header"))?;
    if field("fortran_order").is_some_and(|v| v.starts_with("True")) {
        return Err(bad("Fortran-ordered arrays are not supported"));
    }
    let dims = field("shape")
        .and_then(|v| v.strip_prefix('('))
        .and_then(|v| v.split(')').next())
        .ok_or_else(|| bad("no shape in the header"))?;
    let shape = dims
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| d.parse::<usize>().map_err(|_| bad("bad shape")))
        .collect::<Result<Vec<_>, _>>()?;
    let count = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| bad("shape too large"))?;
    let body = &bytes[header_start + header_len..];
    let width = match descr {
        "<f4" => 4,
        "<f8" => 8,
        "|u1" | "|b1" | "<u1" => 1,
        other => {
            return Err(bad(&format!(
                "dtype '{other}' is not supported (f4, f8, u1, bool)"
            )))
        }
    };
    if count.checked_mul(width) != Some(body.len()) {
        return Err(bad(&format!(
            "{} bytes of data for shape {shape:?} of {descr}",
            body.len()
        )));
    }
    let data = match width {
        4 => body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        8 => body
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]) as f32)
            .collect(),
        _ => body.iter().map(|&b| b as f32).collect(),
    };
    Ok(NpyOwned {
        name: name.to_owned(),
        shape,
        data,
    })
}

/// CRC-32 (IEEE), as zip requires.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xedb8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u16_at(b: &[u8], i: usize) -> usize {
        u16::from_le_bytes([b[i], b[i + 1]]) as usize
    }

    fn u32_at(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn npy_headers_are_aligned_and_describe_the_array() {
        let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let bytes = npy_bytes(&NpyArray {
            name: "x",
            shape: vec![2, 3],
            data: NpyData::F32(&data),
        })
        .expect("valid");
        let header_len = u16_at(&bytes, 8);
        assert_eq!((10 + header_len) % 64, 0);
        let header = std::str::from_utf8(&bytes[10..10 + header_len]).expect("ascii");
        assert!(header.contains("'descr': '<f4'") && header.contains("'shape': (2, 3)"));
        assert_eq!(bytes.len(), 10 + header_len + 24);
        assert_eq!(
            &bytes[10 + header_len..10 + header_len + 4],
            &1.0f32.to_le_bytes()
        );
    }

    #[test]
    fn a_wrong_shape_is_refused() {
        let err = npy_bytes(&NpyArray {
            name: "x",
            shape: vec![4],
            data: NpyData::U8(&[1, 2, 3]),
        });
        assert!(err.is_err());
    }

    #[test]
    fn the_archive_lists_every_entry_with_its_crc() {
        let a = [7u8; 10];
        let b = [0.5f32; 3];
        let mut out = Vec::new();
        write_npz(
            &mut out,
            &[
                NpyArray {
                    name: "a",
                    shape: vec![10],
                    data: NpyData::U8(&a),
                },
                NpyArray {
                    name: "b",
                    shape: vec![3],
                    data: NpyData::F32(&b),
                },
            ],
        )
        .expect("writes");
        // Walk the central directory from the end record and check each local entry.
        let end = out.len() - 22;
        assert_eq!(u32_at(&out, end), 0x0605_4b50);
        assert_eq!(u16_at(&out, end + 10), 2);
        let mut at = u32_at(&out, end + 16) as usize;
        let mut names = Vec::new();
        for _ in 0..2 {
            assert_eq!(u32_at(&out, at), 0x0201_4b50);
            let crc = u32_at(&out, at + 16);
            let size = u32_at(&out, at + 20) as usize;
            let name_len = u16_at(&out, at + 28);
            let local = u32_at(&out, at + 42) as usize;
            let name = std::str::from_utf8(&out[at + 46..at + 46 + name_len]).expect("ascii");
            names.push(name.to_string());
            let data_start = local + 30 + u16_at(&out, local + 26);
            assert_eq!(crc32(&out[data_start..data_start + size]), crc);
            at += 46 + name_len;
        }
        assert_eq!(names, ["a.npy", "b.npy"]);
    }

    fn round_trip(arrays: &[NpyArray]) -> Vec<NpyOwned> {
        let mut out = Vec::new();
        write_npz(&mut out, arrays).expect("writes");
        read_npz(&out).expect("reads")
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let planes = [0u8, 1, 1, 0, 1, 0];
        let policy = [0.25f32, -1.5, 3.0];
        let arrays = round_trip(&[
            NpyArray {
                name: "planes",
                shape: vec![1, 2, 3],
                data: NpyData::U8(&planes),
            },
            NpyArray {
                name: "policy",
                shape: vec![3],
                data: NpyData::F32(&policy),
            },
        ]);
        assert_eq!(arrays.len(), 2);
        assert_eq!(arrays[0].name, "planes");
        assert_eq!(arrays[0].shape, [1, 2, 3]);
        assert_eq!(arrays[0].data, [0.0, 1.0, 1.0, 0.0, 1.0, 0.0]);
        assert_eq!(arrays[1].name, "policy");
        assert_eq!(arrays[1].data, policy);
    }

    #[test]
    fn files_written_by_numpy_savez_are_read() {
        let arrays = read_npz(include_bytes!("../tests/data/numpy-made.npz")).expect("reads");
        let get = |name: &str| {
            arrays
                .iter()
                .find(|a| a.name == name)
                .unwrap_or_else(|| panic!("no {name}"))
        };
        assert_eq!(get("planes").shape, [2, 3]);
        assert_eq!(get("planes").data, [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]);
        assert_eq!(get("counts").shape, [1, 3]);
        assert_eq!(get("counts").data, [0.0, 1.0, 255.0]);
        assert_eq!(get("value").data, [1.5, -2.25]);
        assert_eq!(get("flags").data, [1.0, 0.0]);
    }

    #[test]
    fn compressed_corrupt_and_foreign_files_are_refused_with_a_reason() {
        let compressed = read_npz(include_bytes!("../tests/data/numpy-compressed.npz"));
        assert_eq!(
            compressed,
            Err(NpzError::Compressed {
                name: "planes".into()
            })
        );
        let good = include_bytes!("../tests/data/numpy-made.npz");
        let mut flipped = good.to_vec();
        flipped[200] ^= 0x55;
        assert!(matches!(
            read_npz(&flipped),
            Err(NpzError::Checksum { .. } | NpzError::BadArray { .. })
        ));
        assert!(matches!(
            read_npz(&good[..good.len() / 2]),
            Err(NpzError::NotZip(_))
        ));
        assert!(matches!(read_npz(b"hello"), Err(NpzError::NotZip(_))));
        assert!(matches!(
            parse_npy("x", b"\x93NUMPY\x01\x00\x10\x00{'descr': '<c8'}  "),
            Err(NpzError::BadArray { .. })
        ));
    }
}
