//! The machine options every running command takes (`--mem-limit`,
//! `--strict-segments`), parsed once into a `MachineConfig`.

use clap::Args;

use crate::machine::MachineConfig;

#[derive(Args, Debug, Clone, Default)]
pub(super) struct MachineArgs {
    /// The most memory the guest's segments may take in all, in bytes, or
    /// with a suffix: 512M, 8G (binary units). Default: 4G.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    mem_limit: Option<u64>,
    /// Keep the ELF's segment permissions and end the run on an access
    /// fault, to catch guest bugs (default: RAM as the platform has it).
    #[arg(long)]
    strict_segments: bool,
    /// Where a snapshot's kernel tree is, for source lines, when it is not
    /// where the vmlinux's DWARF says (a scenario's `kernel_src` wins).
    #[arg(long, value_name = "DIR", value_parser = existing_dir)]
    kernel_src: Option<std::path::PathBuf>,
}

impl MachineArgs {
    pub(super) fn config(&self) -> MachineConfig {
        if let Some(d) = &self.kernel_src {
            crate::snapshot::variant::set_kernel_src(d);
        }
        MachineConfig {
            strict_segments: self.strict_segments,
            mem_limit: self.mem_limit.unwrap_or(MachineConfig::DEFAULT_MEM_LIMIT),
        }
    }
}

/// A byte count: digits (`_` allowed) with an optional K, M, G or T suffix
/// (powers of 1024; `KiB`, `MB` and the like read the same).
pub(super) fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("'{s}': give a number of bytes, e.g. 512M or 8G"))?;
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("'{s}': unknown unit '{unit}' (use K, M, G or T)")),
    };
    let v = n
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("'{s}' is too large"))?;
    if v == 0 {
        return Err(format!("'{s}': the limit must be more than 0"));
    }
    Ok(v)
}

/// A directory that exists (`--kernel-src`).
fn existing_dir(s: &str) -> Result<std::path::PathBuf, String> {
    let p = std::path::PathBuf::from(s);
    if p.is_dir() {
        Ok(p)
    } else {
        Err(format!("{s}: not a directory"))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_with_and_without_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("8GiB"), Ok(8 << 30));
        assert_eq!(parse_size("1t"), Ok(1 << 40));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert!(parse_size("0").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("8X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}
