//! A path as hdd's messages show it: as it is, unless it holds a control
//! character (a newline in a file name would break the message into lines
//! that read as something else), then in the shell's `$'...'` quoting, which
//! bash, zsh and ksh read back as the same name.

use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// `path` for a message (see the module docs).
pub fn shown<P: AsRef<Path> + ?Sized>(path: &P) -> Shown<'_> {
    Shown(path.as_ref())
}

/// A path shown in a message; see [`shown`].
#[derive(Debug)]
pub struct Shown<'p>(&'p Path);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0.as_os_str().as_bytes();
        if !bytes.iter().any(|b| b.is_ascii_control()) {
            return write!(f, "{}", self.0.display());
        }
        f.write_str("$'")?;
        for &b in bytes {
            match b {
                b'\n' => f.write_str("\\n")?,
                b'\t' => f.write_str("\\t")?,
                b'\r' => f.write_str("\\r")?,
                b'\\' => f.write_str("\\\\")?,
                b'\'' => f.write_str("\\'")?,
                b if b.is_ascii_control() || !b.is_ascii() => write!(f, "\\x{b:02x}")?,
                b => f.write_str(std::str::from_utf8(&[b]).expect("ascii"))?,
            }
        }
        f.write_str("'")
    }
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn a_name_with_a_control_character_is_quoted_as_the_shell_reads_it() {
        assert_eq!(shown("dir/new file.c").to_string(), "dir/new file.c");
        assert_eq!(shown("new\nline.c").to_string(), "$'new\\nline.c'");
        assert_eq!(shown("it's\tü").to_string(), "$'it\\'s\\t\\xc3\\xbc'");
    }
}
