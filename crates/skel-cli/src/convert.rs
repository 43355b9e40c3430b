//! `skel convert IN --to VERSION [--format skel|json] --out OUT`: binary ⇄ JSON within a
//! version (3.5–4.3) and upgrades of 3.5–4.2 skeletons to 4.2 or 4.3, as
//! [`spine_model::convert::convert`] does them. What a conversion cannot carry over exactly
//! is printed as `note:` lines on stderr; downgrades are refused (exit 1).

use std::io::Write;
use std::path::Path;

use spine_model::convert::{self, Format};
use spine_model::FileFormat;

use crate::io::AtomicFile;
use crate::{escape, Failure};

/// The output format: `--format`, else the output's extension (`.json`, `.skel`), else the
/// input's.
fn output_format(format: Option<&str>, out: &Path, input: FileFormat) -> Format {
    match format {
        Some("json") => Format::Json,
        Some(_) => Format::Binary,
        None => match out.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
            Some(e) if e.eq_ignore_ascii_case("skel") => Format::Binary,
            _ if input == FileFormat::SpineJson => Format::Json,
            _ => Format::Binary,
        },
    }
}

/// Runs `skel convert` on a skeleton already read (`bytes`, sniffed as `input`).
pub(crate) fn convert(
    file: &Path,
    bytes: &[u8],
    input: FileFormat,
    to: &str,
    format: Option<&str>,
    out: &Path,
) -> Result<(), Failure> {
    if convert::version_pair(to).is_none() {
        return Err(Failure::usage(format!(
            "--to {}: expected a version such as 4.3 or 3.8",
            escape(to)
        )));
    }
    if input.is_skelform() {
        return Err(Failure::new(file, "a SkelForm armature, not a Spine skeleton"));
    }
    let format = output_format(format, out, input);
    let output = convert::convert(bytes, to, format).map_err(|e| Failure::new(file, e))?;
    for note in &output.notes {
        eprintln!("note: {}", escape(note));
    }
    let file = AtomicFile::create(out).map_err(|e| Failure::new(out, e))?;
    file.writer().write_all(&output.bytes).map_err(|e| Failure::new(out, e))?;
    file.commit().map_err(|e| Failure::new(out, e))
}
