//! Every file `retrace` writes (`save`, `export`, `cage export`, `proofgame --pgn`) is written by
//! [`write_atomic`]: the whole text goes to a temporary file beside the target, is synced to the
//! disk, and only then renamed over the target. A full disk, a kill or a crash in the middle
//! leaves the old file as it was, and a reader never sees half a file. (A device or a pipe, such
//! as `/dev/stdout`, is written in place: there is no file to replace.)

use std::{
    fs::{self, File, OpenOptions},
    io::{self, Write},
    path::{Path, PathBuf},
};

/// Temporary names tried beside a target before giving up (each taken by another writer).
const TEMP_TRIES: u32 = 64;

/// Writes `text` to `path`, replacing it whole or not at all. On failure the old file (if any) is
/// untouched, the temporary file is removed, and the error says what failed in one line.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let cannot = |e: &dyn std::fmt::Display| {
        let name = crate::output::escape_controls(&path.display().to_string());
        format!("cannot write {name}: {e}")
    };
    if path.as_os_str().is_empty() {
        return Err("cannot write a file without a name".into());
    }
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(cannot(&"it is a directory")),
        // A device or a pipe (`/dev/stdout`, `/dev/full`) is written in place: renaming a file
        // over it would replace the device itself.
        Ok(meta) if !meta.is_file() => return write_in_place(path, text).map_err(|e| cannot(&e)),
        _ => {}
    }
    // A link is followed, so the file it points to is replaced and the link stays.
    let resolved = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).ok(),
        _ => None,
    };
    let path = resolved.as_deref().unwrap_or(path);
    let (temp, mut file) = create_temp(path).map_err(|e| cannot(&e))?;
    // The new file keeps the old one's permissions (a private session stays private).
    let kept = fs::metadata(path).map_or(Ok(()), |old| file.set_permissions(old.permissions()));
    let written = kept
        .and_then(|()| file.write_all(text.as_bytes()))
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            fs::rename(&temp, path)
        });
    if let Err(err) = written {
        let _ = fs::remove_file(&temp);
        return Err(cannot(&err));
    }
    // The rename itself is on the disk once the directory is: best effort, as not every system
    // can sync a directory.
    if let Some(dir) = parent(path) {
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

/// Writes `text` to the device or pipe at `path`.
fn write_in_place(path: &Path, text: &str) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// A new temporary file beside `path`, never one that exists already (another writer's).
fn create_temp(path: &Path) -> io::Result<(PathBuf, File)> {
    let no_name = || io::Error::new(io::ErrorKind::InvalidInput, "it names no file");
    let (dir, name) = (
        parent(path).ok_or_else(no_name)?,
        path.file_name().ok_or_else(no_name)?,
    );
    let mut last = no_name();
    for n in 0..TEMP_TRIES {
        // `.NAME.retrace-PID-N.tmp`, in the target's directory so the rename stays on one file
        // system.
        let mut temp = std::ffi::OsString::from(".");
        temp.push(name);
        temp.push(format!(".retrace-{}-{n}.tmp", std::process::id()));
        let temp = dir.join(temp);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = err,
            Err(err) => return Err(err),
        }
    }
    Err(last)
}

/// The directory of `path` (`.` for a bare name).
fn parent(path: &Path) -> Option<&Path> {
    match path.parent() {
        Some(dir) if dir.as_os_str().is_empty() => Some(Path::new(".")),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("retrace-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a temp dir");
        dir
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_nothing_beside_it() {
        let dir = dir("replace");
        let file = dir.join("out.txt");
        fs::write(&file, "old and longer\n").expect("the old file");
        write_atomic(&file, "new\n").expect("written");
        assert_eq!(fs::read_to_string(&file).expect("read"), "new\n");
        let names: Vec<_> = fs::read_dir(&dir).expect("list").collect();
        assert_eq!(names.len(), 1, "{names:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).expect("chmod");
            write_atomic(&file, "newer\n").expect("written");
            let mode = fs::metadata(&file).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_in_place_and_a_full_one_is_an_error() {
        write_atomic(Path::new("/dev/null"), "x").expect("written");
        let err = write_atomic(Path::new("/dev/full"), "x").expect_err("full");
        assert!(err.starts_with("cannot write /dev/full: "), "{err}");
        assert!(fs::metadata("/dev/full").is_ok_and(|m| !m.is_file()));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_stays_a_link_to_the_new_text() {
        let dir = dir("link");
        let (file, link) = (dir.join("real.txt"), dir.join("link.txt"));
        fs::write(&file, "old\n").expect("the old file");
        std::os::unix::fs::symlink(&file, &link).expect("a link");
        write_atomic(&link, "new\n").expect("written");
        assert!(fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        assert_eq!(fs::read_to_string(&file).expect("read"), "new\n");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_says_why() {
        let dir = dir("fail");
        let err = write_atomic(&dir, "x").expect_err("a directory");
        assert!(err.contains("is a directory"), "{err}");
        let err = write_atomic(&dir.join("no/such/dir/out.txt"), "x").expect_err("no dir");
        assert!(
            err.starts_with("cannot write ") && !err.contains('\n'),
            "{err}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
