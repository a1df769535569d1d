//! `.npz` archives through `ndarray-npy`: self-play batches out, parity samples in. Files
//! from numpy's `savez` and `savez_compressed` both read; ours are written compressed
//! (0/1 planes shrink several times over).

use ndarray::{ArrayD, ArrayViewD};
use ndarray_npy::{NpzReader, NpzWriter, ReadableElement};
use std::io::Cursor;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum NpzError {
    #[error("{file}: not a readable .npz archive: {message}")]
    Archive { file: String, message: String },
    #[error("{file}: no array '{name}' (it has: {found})")]
    Missing {
        file: String,
        name: String,
        found: String,
    },
    #[error("{file}: cannot read array '{name}': {message}")]
    Array {
        file: String,
        name: String,
        message: String,
    },
    #[error("cannot write {file}: {message}")]
    Write { file: String, message: String },
}

/// An archive opened for reading, named in its errors.
pub struct NpzFile {
    reader: NpzReader<Cursor<Vec<u8>>>,
    file: String,
}

impl std::fmt::Debug for NpzFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpzFile")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl NpzFile {
    pub fn open(path: &Path) -> Result<NpzFile, NpzError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| NpzError::Archive {
            file: file.clone(),
            message: e.to_string(),
        })?;
        NpzFile::from_bytes(bytes, &file)
    }

    /// `file` names the bytes in errors.
    pub fn from_bytes(bytes: Vec<u8>, file: &str) -> Result<NpzFile, NpzError> {
        let reader = NpzReader::new(Cursor::new(bytes)).map_err(|e| NpzError::Archive {
            file: file.to_owned(),
            message: e.to_string(),
        })?;
        Ok(NpzFile {
            reader,
            file: file.to_owned(),
        })
    }

    /// The arrays' names, as numpy gave them (without `.npy`).
    pub fn names(&mut self) -> Result<Vec<String>, NpzError> {
        let names = self.reader.names().map_err(|e| NpzError::Archive {
            file: self.file.clone(),
            message: e.to_string(),
        })?;
        Ok(names
            .into_iter()
            .map(|n| n.trim_end_matches(".npy").to_owned())
            .collect())
    }

    /// The array `name` with elements of type `T`; its dtype must be `T`'s.
    pub fn array<T: ReadableElement>(&mut self, name: &str) -> Result<ArrayD<T>, NpzError> {
        let names = self.names()?;
        if !names.iter().any(|n| n == name) {
            return Err(NpzError::Missing {
                file: self.file.clone(),
                name: name.to_owned(),
                found: names.join(", "),
            });
        }
        self.reader
            .by_name(&format!("{name}.npy"))
            .map_err(|e| NpzError::Array {
                file: self.file.clone(),
                name: name.to_owned(),
                message: e.to_string(),
            })
    }
}

/// One array to write.
#[derive(Debug)]
pub enum Column<'a> {
    U8(ArrayViewD<'a, u8>),
    I8(ArrayViewD<'a, i8>),
    F32(ArrayViewD<'a, f32>),
}

/// Writes `arrays` as a compressed `.npz` at `path`.
pub fn write_npz(path: &Path, arrays: &[(&str, Column)]) -> Result<(), NpzError> {
    let error = |e: &dyn std::fmt::Display| NpzError::Write {
        file: path.display().to_string(),
        message: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(|e| error(&e))?;
    let mut npz = NpzWriter::new_compressed(std::io::BufWriter::new(file));
    for (name, column) in arrays {
        match column {
            Column::U8(a) => npz.add_array(*name, a),
            Column::I8(a) => npz.add_array(*name, a),
            Column::F32(a) => npz.add_array(*name, a),
        }
        .map_err(|e| error(&e))?;
    }
    npz.finish().map_err(|e| error(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::IxDyn;

    fn data(name: &str) -> Vec<u8> {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(path).expect("test data")
    }

    #[test]
    fn files_written_by_numpy_savez_are_read_with_their_dtypes() {
        let mut npz = NpzFile::from_bytes(data("numpy-made.npz"), "numpy-made").expect("opens");
        let mut names = npz.names().expect("names");
        names.sort();
        assert_eq!(names, ["counts", "flags", "planes", "value"]);
        let planes = npz.array::<f32>("planes").expect("float32");
        assert_eq!(planes.shape(), [2, 3]);
        assert_eq!(
            planes.iter().copied().collect::<Vec<_>>(),
            [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]
        );
        let counts = npz.array::<u8>("counts").expect("uint8");
        assert_eq!(counts.iter().copied().collect::<Vec<_>>(), [0, 1, 255]);
        let value = npz.array::<f64>("value").expect("float64");
        assert_eq!(value.iter().copied().collect::<Vec<_>>(), [1.5, -2.25]);
        let flags = npz.array::<bool>("flags").expect("bool");
        assert_eq!(flags.iter().copied().collect::<Vec<_>>(), [true, false]);
    }

    #[test]
    fn files_written_by_numpy_savez_compressed_are_read() {
        let mut npz =
            NpzFile::from_bytes(data("numpy-compressed.npz"), "compressed").expect("opens");
        let planes = npz.array::<f32>("planes").expect("float32");
        assert_eq!(planes.shape(), [2, 3]);
    }

    #[test]
    fn a_wrong_dtype_a_missing_array_and_a_corrupt_file_say_what_is_wrong() {
        let mut npz = NpzFile::from_bytes(data("numpy-made.npz"), "made.npz").expect("opens");
        let error = npz.array::<f32>("counts").expect_err("uint8, not float32");
        assert!(
            error
                .to_string()
                .starts_with("made.npz: cannot read array 'counts'"),
            "{error}"
        );
        let error = npz.array::<f32>("policy").expect_err("no such array");
        assert!(error.to_string().contains("no array 'policy'"), "{error}");
        let good = data("numpy-made.npz");
        for corrupt in [&good[..good.len() / 2], b"hello".as_slice()] {
            let error = NpzFile::from_bytes(corrupt.to_vec(), "broken.npz")
                .and_then(|mut f| f.array::<f32>("planes"))
                .expect_err("refused");
            assert!(error.to_string().starts_with("broken.npz"), "{error}");
        }
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let dir = std::env::temp_dir().join(format!("npz-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("out.npz");
        let planes =
            ArrayD::from_shape_vec(IxDyn(&[1, 2, 3]), vec![0u8, 1, 1, 0, 1, 0]).expect("shape");
        let policy = ArrayD::from_shape_vec(IxDyn(&[3]), vec![0.25f32, -1.5, 3.0]).expect("shape");
        write_npz(
            &path,
            &[
                ("planes", Column::U8(planes.view())),
                ("policy", Column::F32(policy.view())),
            ],
        )
        .expect("writes");
        let mut npz = NpzFile::open(&path).expect("opens");
        assert_eq!(npz.array::<u8>("planes").expect("reads"), planes);
        assert_eq!(npz.array::<f32>("policy").expect("reads"), policy);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
