//! A worker's checkpoint: its array (or, for a hash shard, its states), the layer it
//! completed, the counts so far and a checksum, one file a worker and a layer in the
//! checkpoint directory.
//!
//! A file is written to a temporary name and renamed, so a run killed while writing leaves
//! the last complete file in place. Each worker keeps the files of its last two layers: when
//! one worker has written layer `d + 1`, the others have all written layer `d` (no worker
//! expands layer `d + 1` before every worker has said it finished layer `d`, which it says
//! after writing its file), so the newest layer every worker completed is always on disk.
//!
//! Layout, little-endian: the magic `FRNTCKPT`, the format version (u32), the run's
//! fingerprint (u32 length, UTF-8), the workers and this worker's index (u32 each), its ranks
//! (first, end: u64), the layer (u32), the layer counts before it (u32 length, u64 each), this
//! worker's count of the layer (found, weight: u64; deeper: u8), the totals so far (expanded,
//! generated, reached, widest layer: u64) and this worker's part of the last expansion
//! (expanded, generated: u64), the words (u64 length, u64 each), and the XXH3-64 of all that
//! precedes it (u64). A range of ranks saves its array's words; a hash shard, whose range is
//! empty, the words of its states (see `crate::hashed`).

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::Xxh3;

use crate::shard::Count;

const MAGIC: &[u8; 8] = b"FRNTCKPT";
/// Version 2: the tiles' ranks lead with the blank's cell, and the workers' ranges are whole
/// words, so the arrays of version 1 mean other states.
const VERSION: u32 = 2;
/// The longest fingerprint and the most layers a file may claim: past them it is damaged,
/// and nothing that large is allocated.
const MOST_TEXT: u32 = 1 << 16;
const MOST_LAYERS: u32 = 1 << 20;

/// What a worker saves after each layer, besides its array.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Saved {
    /// The layer whose states are all marked (its count not yet summed across workers).
    pub depth: u32,
    /// The counts of the layers before it, summed across workers.
    pub layers: Vec<u64>,
    /// This worker's count of layer `depth`.
    pub count: Count,
    /// States expanded and successors generated before the expansion of layer `depth - 1`,
    /// by all workers.
    pub expanded: u64,
    pub generated: u64,
    /// States counted, and the widest layer, before layer `depth`.
    pub reached: u64,
    pub widest: u64,
    /// This worker's part of the expansion of layer `depth - 1`.
    pub own_expanded: u64,
    pub own_generated: u64,
}

/// Which run a checkpoint belongs to, and where.
pub(crate) struct Place<'a> {
    pub dir: &'a Path,
    pub fingerprint: &'a str,
    pub peers: usize,
    pub index: usize,
    pub first: u64,
    pub end: u64,
    /// Whether the worker keeps a range of ranks, whose array has one word for 32 of them
    /// (else its words are a hash shard's, as many as it saved).
    pub ranked: bool,
}

/// Why a checkpoint was refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The file is not a whole checkpoint: cut short, a byte changed, not one at all.
    #[error("checkpoint {path} is damaged: {why}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The file is whole but belongs to another run.
    #[error("checkpoint {path} belongs to another run: {why}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// What the directory holds does not allow the run asked for.
    #[error("checkpoint directory {dir}: {why}")]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        why: String,
    },
}

impl Place<'_> {
    /// The file of layer `depth`.
    pub(crate) fn file(&self, depth: u32) -> PathBuf {
        (self.dir).join(format!(
            "worker-{}-of-{}.layer-{depth}.ckpt",
            self.index, self.peers
        ))
    }

    /// The layers this worker has a checkpoint of, oldest first (none when the directory
    /// holds none of it). With `fresh` (a run that does not resume), the directory is made if
    /// need be, and any checkpoint of this worker is refused; without, the checkpoints of
    /// another number of workers are refused.
    pub fn layers(&self, fresh: bool) -> Result<Vec<u32>, CheckpointError> {
        let dir_error = |why: String| CheckpointError::Directory {
            dir: self.dir.to_owned(),
            why,
        };
        if fresh {
            fs::create_dir_all(self.dir)
                .map_err(|e| dir_error(format!("cannot create it: {e}")))?;
        }
        let entries =
            fs::read_dir(self.dir).map_err(|e| dir_error(format!("cannot read it: {e}")))?;
        let (mut mine, mut others) = (Vec::new(), None);
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some((index, peers, depth)) = name.to_str().and_then(parse_name) else {
                continue;
            };
            if peers != self.peers {
                others = Some(peers);
            } else if index == self.index {
                mine.push(depth);
            }
        }
        mine.sort_unstable();
        if fresh && !mine.is_empty() {
            return Err(dir_error(
                "it holds the checkpoints of a run; resume it with --resume, or give an empty directory"
                    .to_owned(),
            ));
        }
        if let (false, true, Some(peers)) = (fresh, mine.is_empty(), others) {
            return Err(dir_error(format!(
                "it holds the checkpoints of a run of {peers} workers, and this run has {}",
                self.peers
            )));
        }
        Ok(mine)
    }

    /// Writes layer `saved.depth`'s checkpoint of `words`, then removes the files older than
    /// the layer before it.
    pub fn write(&self, saved: &Saved, words: &[u64]) -> Result<(), CheckpointError> {
        self.write_blocks(saved, words.len() as u64, |put| {
            words.chunks(1 << 12).try_for_each(put)
        })
    }

    /// [`Place::write`] of `len` words that `fill` hands, a block at a time, to the function
    /// it is given (so that they need not be gathered in memory first).
    pub fn write_blocks(
        &self,
        saved: &Saved,
        len: u64,
        fill: impl FnOnce(&mut dyn FnMut(&[u64]) -> io::Result<()>) -> io::Result<()>,
    ) -> Result<(), CheckpointError> {
        let path = self.file(saved.depth);
        let temporary = path.with_extension("ckpt.partial");
        let io_error = |source| CheckpointError::Io {
            path: path.clone(),
            source,
        };
        let file = File::create(&temporary).map_err(io_error)?;
        let mut out = Hashing::new(BufWriter::with_capacity(1 << 20, file));
        self.write_to(&mut out, saved, len, fill)
            .map_err(io_error)?;
        let sum = out.hasher.digest();
        let mut inner = out.inner;
        inner.write_all(&sum.to_le_bytes()).map_err(io_error)?;
        let file = inner.into_inner().map_err(|e| io_error(e.into_error()))?;
        file.sync_all().map_err(io_error)?;
        drop(file);
        fs::rename(&temporary, &path).map_err(io_error)?;
        for old in self.layers(false)? {
            if old + 1 < saved.depth {
                // A file left behind costs space, not correctness.
                let _ = fs::remove_file(self.file(old));
            }
        }
        Ok(())
    }

    fn write_to(
        &self,
        out: &mut impl Write,
        saved: &Saved,
        len: u64,
        fill: impl FnOnce(&mut dyn FnMut(&[u64]) -> io::Result<()>) -> io::Result<()>,
    ) -> io::Result<()> {
        out.write_all(MAGIC)?;
        put_u32(out, VERSION)?;
        put_u32(out, self.fingerprint.len() as u32)?;
        out.write_all(self.fingerprint.as_bytes())?;
        put_u32(out, self.peers as u32)?;
        put_u32(out, self.index as u32)?;
        put_u64(out, self.first)?;
        put_u64(out, self.end)?;
        put_u32(out, saved.depth)?;
        put_u32(out, saved.layers.len() as u32)?;
        for &layer in &saved.layers {
            put_u64(out, layer)?;
        }
        put_u64(out, saved.count.found)?;
        put_u64(out, saved.count.weight)?;
        out.write_all(&[u8::from(saved.count.deeper)])?;
        for n in [
            saved.expanded,
            saved.generated,
            saved.reached,
            saved.widest,
            saved.own_expanded,
            saved.own_generated,
        ] {
            put_u64(out, n)?;
        }
        put_u64(out, len)?;
        // The words in blocks: one write call each, not one for each word.
        let (mut block, mut written) = (Vec::with_capacity(8 << 12), 0u64);
        fill(&mut |chunk: &[u64]| {
            block.clear();
            for word in chunk {
                block.extend_from_slice(&word.to_le_bytes());
            }
            written += chunk.len() as u64;
            out.write_all(&block)
        })?;
        if written != len {
            return Err(io::Error::other(format!(
                "{written} words handed for a checkpoint of {len}"
            )));
        }
        Ok(())
    }

    /// Reads and checks layer `depth`'s checkpoint: what was saved, and the words.
    pub fn read(&self, depth: u32) -> Result<(Saved, Vec<u64>), CheckpointError> {
        let path = self.file(depth);
        let io_error = |source| CheckpointError::Io {
            path: path.clone(),
            source,
        };
        let damaged = |why: &str| CheckpointError::Damaged {
            path: path.clone(),
            why: why.to_owned(),
        };
        let mismatch = |why: String| CheckpointError::Mismatch {
            path: path.clone(),
            why,
        };
        let file = File::open(&path).map_err(io_error)?;
        let length = file.metadata().map_err(io_error)?.len();
        let mut input = Hashing::new(BufReader::with_capacity(1 << 20, file));
        // A short read is a file cut short.
        let cut = |e: io::Error| match e.kind() {
            io::ErrorKind::UnexpectedEof => damaged("it ends early"),
            _ => io_error(e),
        };
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic).map_err(cut)?;
        if &magic != MAGIC {
            return Err(damaged("it does not start as a frontier checkpoint"));
        }
        let version = get_u32(&mut input).map_err(cut)?;
        if version != VERSION {
            return Err(damaged(&format!(
                "format version {version}, and this frontier reads version {VERSION}"
            )));
        }
        let text_len = get_u32(&mut input).map_err(cut)?;
        if text_len > MOST_TEXT {
            return Err(damaged("its fingerprint is too long"));
        }
        let mut text = vec![0u8; text_len as usize];
        input.read_exact(&mut text).map_err(cut)?;
        let peers = get_u32(&mut input).map_err(cut)?;
        let index = get_u32(&mut input).map_err(cut)?;
        let first = get_u64(&mut input).map_err(cut)?;
        let end = get_u64(&mut input).map_err(cut)?;
        let mut saved = Saved {
            depth: get_u32(&mut input).map_err(cut)?,
            ..Saved::default()
        };
        let layers = get_u32(&mut input).map_err(cut)?;
        if layers > MOST_LAYERS {
            return Err(damaged("it claims too many layers"));
        }
        for _ in 0..layers {
            saved.layers.push(get_u64(&mut input).map_err(cut)?);
        }
        saved.count.found = get_u64(&mut input).map_err(cut)?;
        saved.count.weight = get_u64(&mut input).map_err(cut)?;
        let mut deeper = [0u8];
        input.read_exact(&mut deeper).map_err(cut)?;
        saved.count.deeper = deeper[0] != 0;
        let mut totals = [0u64; 6];
        for total in &mut totals {
            *total = get_u64(&mut input).map_err(cut)?;
        }
        [
            saved.expanded,
            saved.generated,
            saved.reached,
            saved.widest,
            saved.own_expanded,
            saved.own_generated,
        ] = totals;
        let words = get_u64(&mut input).map_err(cut)?;
        // What the header says must be what the file holds, before anything is allocated.
        // The magic, six u32s, the ranks, the layers, the count, six totals, the words' length.
        let header = 8 + 4 * 6 + u64::from(text_len) + 8 * 2 + 8 * u64::from(layers) + 17 + 48 + 8;
        let expected_words = end.saturating_sub(first).div_ceil(crate::shard::PER_WORD);
        if (self.ranked && words != expected_words)
            || length != header.saturating_add(words.saturating_mul(8)) + 8
        {
            return Err(damaged("its length does not match its header"));
        }
        let mut array = vec![0u64; words as usize];
        let mut block = vec![0u8; 8 << 12];
        for chunk in array.chunks_mut(1 << 12) {
            let bytes = &mut block[..chunk.len() * 8];
            input.read_exact(bytes).map_err(cut)?;
            for (word, b) in chunk.iter_mut().zip(bytes.chunks_exact(8)) {
                *word = u64::from_le_bytes(b.try_into().expect("8 bytes"));
            }
        }
        let sum = input.hasher.digest();
        let mut stored = [0u8; 8];
        input.inner.read_exact(&mut stored).map_err(cut)?;
        if u64::from_le_bytes(stored) != sum {
            return Err(damaged("its checksum does not match its contents"));
        }
        // Whole: now whether it is this run's.
        let text = String::from_utf8_lossy(&text);
        if text != self.fingerprint {
            return Err(mismatch(format!(
                "it explores {text}, and this run explores {}",
                self.fingerprint
            )));
        }
        if peers as usize != self.peers || index as usize != self.index {
            return Err(mismatch(format!(
                "it is worker {index}'s of {peers}, and this is worker {}'s of {}",
                self.index, self.peers
            )));
        }
        if (first, end) != (self.first, self.end) || saved.depth != depth {
            return Err(mismatch(format!(
                "it holds ranks {first}..{end} at layer {}, not ranks {}..{} at layer {depth}",
                saved.depth, self.first, self.end
            )));
        }
        if saved.layers.len() != depth as usize {
            return Err(damaged("its layer counts do not match its layer"));
        }
        Ok((saved, array))
    }
}

/// `worker-I-of-N.layer-D.ckpt` as (I, N, D).
fn parse_name(name: &str) -> Option<(usize, usize, u32)> {
    let rest = name.strip_prefix("worker-")?.strip_suffix(".ckpt")?;
    let (index, rest) = rest.split_once("-of-")?;
    let (peers, depth) = rest.split_once(".layer-")?;
    Some((
        index.parse().ok()?,
        peers.parse().ok()?,
        depth.parse().ok()?,
    ))
}

/// A reader or writer that hashes the bytes passing through.
struct Hashing<T> {
    inner: T,
    hasher: Xxh3,
}

impl<T> Hashing<T> {
    fn new(inner: T) -> Self {
        Hashing {
            inner,
            hasher: Xxh3::new(),
        }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.hasher.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, bytes: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(bytes)?;
        self.hasher.update(&bytes[..n]);
        Ok(n)
    }
}

fn put_u32(out: &mut impl Write, n: u32) -> io::Result<()> {
    out.write_all(&n.to_le_bytes())
}

fn put_u64(out: &mut impl Write, n: u64) -> io::Result<()> {
    out.write_all(&n.to_le_bytes())
}

fn get_u32(input: &mut impl Read) -> io::Result<u32> {
    let mut bytes = [0u8; 4];
    input.read_exact(&mut bytes)?;
    Ok(u32::from_le_bytes(bytes))
}

fn get_u64(input: &mut impl Read) -> io::Result<u64> {
    let mut bytes = [0u8; 8];
    input.read_exact(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place<'a>(dir: &'a Path, fingerprint: &'a str) -> Place<'a> {
        Place {
            dir,
            fingerprint,
            peers: 2,
            index: 1,
            first: 64,
            end: 130,
            ranked: true,
        }
    }

    fn saved(depth: u32) -> Saved {
        Saved {
            depth,
            layers: (0..u64::from(depth)).map(|d| d + 1).collect(),
            count: Count {
                found: 7,
                weight: 9,
                deeper: true,
            },
            expanded: 11,
            generated: 12,
            reached: 13,
            widest: 14,
            own_expanded: 15,
            own_generated: 16,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written_and_keeps_two_layers() {
        let dir = tempfile::tempdir().unwrap();
        let place = place(dir.path(), "the ring");
        assert_eq!(place.layers(true).unwrap(), Vec::<u32>::new());
        let words = [1u64, 2, 3];
        for depth in 1..=3 {
            place.write(&saved(depth), &words).unwrap();
        }
        assert_eq!(place.layers(false).unwrap(), [2, 3]);
        assert_eq!(place.read(3).unwrap(), (saved(3), words.to_vec()));
        // A fresh run in the same directory is refused.
        let refused = place.layers(true).unwrap_err().to_string();
        assert!(refused.contains("--resume"), "{refused}");
    }

    #[test]
    fn a_hash_shards_words_read_back_whatever_their_number() {
        let dir = tempfile::tempdir().unwrap();
        let place = Place {
            first: 0,
            end: 0,
            ranked: false,
            ..place(dir.path(), "the river")
        };
        let words: Vec<u64> = (0..10_000).collect();
        place
            .write_blocks(&saved(1), words.len() as u64, |put| {
                words.chunks(777).try_for_each(put)
            })
            .unwrap();
        assert_eq!(place.read(1).unwrap(), (saved(1), words.clone()));
        // Fewer words handed than promised: no file.
        let short = place.write_blocks(&saved(2), 5, |put| put(&[1, 2]));
        assert!(matches!(short, Err(CheckpointError::Io { .. })));
        assert_eq!(place.layers(false).unwrap(), [1]);
    }

    #[test]
    fn every_changed_byte_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let place = place(dir.path(), "the ring");
        place.write(&saved(2), &[5, 6, 7]).unwrap();
        let path = place.file(2);
        let bytes = fs::read(&path).unwrap();
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            fs::write(&path, &bad).unwrap();
            assert!(
                matches!(place.read(2), Err(CheckpointError::Damaged { .. })),
                "byte {at}"
            );
        }
        // Cut short, or longer.
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(
            place.read(2),
            Err(CheckpointError::Damaged { .. })
        ));
        fs::write(&path, [&bytes[..], &[0]].concat()).unwrap();
        assert!(matches!(
            place.read(2),
            Err(CheckpointError::Damaged { .. })
        ));
    }

    #[test]
    fn another_runs_checkpoint_is_refused_with_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        place(dir.path(), "the ring")
            .write(&saved(2), &[5, 6, 7])
            .unwrap();
        let other = place(dir.path(), "the square");
        let refused = other.read(2).unwrap_err().to_string();
        assert!(refused.contains("it explores the ring"), "{refused}");
        let more = Place {
            peers: 3,
            ..place(dir.path(), "the ring")
        };
        let refused = more.layers(false).unwrap_err().to_string();
        assert!(refused.contains("a run of 2 workers"), "{refused}");
    }
}
