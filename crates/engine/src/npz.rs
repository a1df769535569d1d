//! Writing `.npz` files (a zip of `.npy` arrays) for the Python trainer, with no
//! dependencies: stored (uncompressed) zip entries and version 1.0 `.npy` headers.

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
}
