//! A reader of flattened device trees (DTB), per the Devicetree
//! Specification, chapter "Flattened Devicetree (DTB) Format": a header of
//! ten big-endian 32-bit words, a structure block of tokens (BEGIN_NODE,
//! END_NODE, PROP, NOP, END), and a strings block holding property names.
//!
//! The blob may come from anywhere (a QEMU we did not build), so every
//! offset and length is checked: a bad blob is an `Err` naming what is wrong,
//! never a panic or a read out of bounds.

const MAGIC: u32 = 0xd00d_feed;
const HEADER_LEN: usize = 40;
/// Version 17 is the current one; blobs compatible with 16 (the header's
/// `last_comp_version`) read the same way.
const VERSION: u32 = 17;
const FDT_BEGIN_NODE: u32 = 1;
const FDT_END_NODE: u32 = 2;
const FDT_PROP: u32 = 3;
const FDT_NOP: u32 = 4;
const FDT_END: u32 = 9;
/// Deeper trees than this are refused (real ones are about 5 levels deep).
const MAX_DEPTH: usize = 64;

/// One node: its full path (`/cpus/cpu@0`, the root is `/`) and properties
/// in blob order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub path: String,
    pub props: Vec<Prop>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prop {
    pub name: String,
    pub value: Vec<u8>,
}

/// What the first cpu node says about the hart's ISA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuIsa {
    /// `riscv,isa`, e.g. `rv64imafdc_zicsr_zifencei`.
    pub isa: String,
    /// `riscv,isa-extensions` (a string list; newer QEMUs write it).
    pub extensions: Option<Vec<String>>,
    /// `mmu-type`, e.g. `riscv,sv48`.
    pub mmu_type: Option<String>,
}

/// Why a device tree blob, or a property in it, cannot be read: the
/// header, the structure block (offsets are into it), the strings, or the
/// first cpu node's ISA.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FdtError {
    #[error("device tree is {len} bytes, shorter than its {HEADER_LEN}-byte header")]
    Short { len: usize },
    #[error("not a device tree blob: magic {magic:#010x}, expected {MAGIC:#010x}")]
    Magic { magic: u32 },
    #[error("device tree header says {total} bytes, but the blob has {len}")]
    TotalSize { total: usize, len: usize },
    #[error(
        "device tree version {version} (compatible with {last_comp}) is not readable: version {VERSION} expected"
    )]
    Version { version: u32, last_comp: u32 },
    /// The `what` ("structure", "strings") block lies outside the blob.
    #[error(
        "device tree {what} block (offset {off}, size {size}) runs past the blob's {total} bytes"
    )]
    Block {
        what: &'static str,
        off: usize,
        size: usize,
        total: usize,
    },
    /// A `what` ("node name", "property name") string at `at` in its block.
    #[error("device tree {what} at {at} is outside its block")]
    StringOutside { what: &'static str, at: usize },
    #[error("device tree {what} at {at} has no terminating NUL")]
    NoNul { what: &'static str, at: usize },
    #[error("device tree {what} at {at} is not UTF-8")]
    StringNotUtf8 { what: &'static str, at: usize },
    #[error("device tree structure block ends without an END token")]
    NoEnd,
    #[error("device tree root node is named {name:?}, expected an empty name")]
    RootName { name: String },
    #[error("device tree has a second root node at structure offset {at}")]
    SecondRoot { at: usize },
    #[error("device tree nests deeper than {MAX_DEPTH} nodes")]
    TooDeep,
    #[error("device tree END_NODE at structure offset {at} closes no node")]
    StrayEnd { at: usize },
    #[error("device tree property header is truncated")]
    PropHeader,
    #[error("device tree property at structure offset {at} ({len} bytes) runs past its block")]
    PropValue { at: usize, len: usize },
    #[error("device tree property {name:?} sits outside every node")]
    PropOutside { name: String },
    #[error("device tree ends with {open} node(s) still open")]
    Unclosed { open: usize },
    #[error("device tree has no root node")]
    NoRoot,
    #[error("device tree has unknown token {token:#x} at structure offset {at}")]
    UnknownToken { token: u32, at: usize },
    /// The property `what` ("riscv,isa") is not of its type.
    #[error("device tree property {what} is not a single string")]
    NotSingle { what: &'static str },
    #[error("device tree property {what} is not a NUL-terminated string")]
    NotTerminated { what: &'static str },
    #[error("device tree property {what} is not UTF-8")]
    NotUtf8 { what: &'static str },
    #[error("device tree has no cpu node under /cpus")]
    NoCpu,
    #[error("device tree node {node} has no riscv,isa")]
    NoIsa { node: String },
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

/// The block `[off, off + size)` of `dtb`, which must lie inside `total`.
fn block<'a>(
    dtb: &'a [u8],
    off: u32,
    size: u32,
    total: usize,
    what: &'static str,
) -> Result<&'a [u8], FdtError> {
    let (off, size) = (off as usize, size as usize);
    match off.checked_add(size) {
        Some(end) if end <= total => Ok(&dtb[off..end]),
        _ => Err(FdtError::Block {
            what,
            off,
            size,
            total,
        }),
    }
}

/// The NUL-terminated string at `at` in `b`, as UTF-8.
fn cstr(b: &[u8], at: usize, what: &'static str) -> Result<String, FdtError> {
    let rest = b.get(at..).ok_or(FdtError::StringOutside { what, at })?;
    let len = rest
        .iter()
        .position(|&c| c == 0)
        .ok_or(FdtError::NoNul { what, at })?;
    String::from_utf8(rest[..len].to_vec()).map_err(|_| FdtError::StringNotUtf8 { what, at })
}

/// Every node of `dtb`, in blob order, after checking the header
/// ("Header" section: magic, versions, block bounds) and walking the
/// structure block ("Structure Block" section: tokens aligned to 4 bytes).
pub fn nodes(dtb: &[u8]) -> Result<Vec<Node>, FdtError> {
    let h = |i: usize| be32(dtb, 4 * i).ok_or(FdtError::Short { len: dtb.len() });
    let magic = h(0)?;
    if magic != MAGIC {
        return Err(FdtError::Magic { magic });
    }
    let (total, off_struct, off_strings) = (h(1)? as usize, h(2)?, h(3)?);
    let (version, last_comp) = (h(5)?, h(6)?);
    let (size_strings, size_struct) = (h(8)?, h(9)?);
    if total > dtb.len() || total < HEADER_LEN {
        return Err(FdtError::TotalSize {
            total,
            len: dtb.len(),
        });
    }
    if version < VERSION || last_comp > VERSION {
        return Err(FdtError::Version { version, last_comp });
    }
    let structs = block(dtb, off_struct, size_struct, total, "structure")?;
    let strings = block(dtb, off_strings, size_strings, total, "strings")?;

    let mut out: Vec<Node> = Vec::new();
    // Indices into `out` of the open nodes, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut at = 0usize;
    loop {
        let token = be32(structs, at).ok_or(FdtError::NoEnd)?;
        let here = at;
        at += 4;
        match token {
            FDT_BEGIN_NODE => {
                let name = cstr(structs, at, "node name")?;
                at = (at + name.len() + 1).next_multiple_of(4);
                let path = match open.last() {
                    None if out.is_empty() => {
                        if !name.is_empty() {
                            return Err(FdtError::RootName { name });
                        }
                        "/".to_string()
                    }
                    None => {
                        return Err(FdtError::SecondRoot { at: here });
                    }
                    Some(&p) if out[p].path == "/" => format!("/{name}"),
                    Some(&p) => format!("{}/{name}", out[p].path),
                };
                if open.len() >= MAX_DEPTH {
                    return Err(FdtError::TooDeep);
                }
                open.push(out.len());
                out.push(Node {
                    path,
                    props: Vec::new(),
                });
            }
            FDT_END_NODE => {
                open.pop().ok_or(FdtError::StrayEnd { at: here })?;
            }
            FDT_PROP => {
                let len = be32(structs, at).ok_or(FdtError::PropHeader)? as usize;
                let nameoff = be32(structs, at + 4).ok_or(FdtError::PropHeader)? as usize;
                at += 8;
                let value = at
                    .checked_add(len)
                    .and_then(|end| structs.get(at..end))
                    .ok_or(FdtError::PropValue { at: here, len })?;
                let name = cstr(strings, nameoff, "property name")?;
                let Some(&node) = open.last() else {
                    return Err(FdtError::PropOutside { name });
                };
                out[node].props.push(Prop {
                    name,
                    value: value.to_vec(),
                });
                at = (at + len).next_multiple_of(4);
            }
            FDT_NOP => {}
            FDT_END => {
                if !open.is_empty() {
                    return Err(FdtError::Unclosed { open: open.len() });
                }
                if out.is_empty() {
                    return Err(FdtError::NoRoot);
                }
                return Ok(out);
            }
            token => return Err(FdtError::UnknownToken { token, at: here }),
        }
    }
}

/// The value of property `name` in the first node whose path starts with
/// `node_path_prefix` and has it (`"/cpus/cpu@"` matches `/cpus/cpu@0`).
pub fn property(
    dtb: &[u8],
    node_path_prefix: &str,
    name: &str,
) -> Result<Option<Vec<u8>>, FdtError> {
    Ok(nodes(dtb)?
        .into_iter()
        .filter(|n| n.path.starts_with(node_path_prefix))
        .find_map(|n| n.props.into_iter().find(|p| p.name == name))
        .map(|p| p.value))
}

/// A `<string>` property value: one NUL-terminated UTF-8 string.
pub fn string(value: &[u8], what: &'static str) -> Result<String, FdtError> {
    let list = string_list(value, what)?;
    match <[String; 1]>::try_from(list) {
        Ok([s]) => Ok(s),
        Err(_) => Err(FdtError::NotSingle { what }),
    }
}

/// A `<stringlist>` value: NUL-terminated UTF-8 strings one after another.
pub fn string_list(value: &[u8], what: &'static str) -> Result<Vec<String>, FdtError> {
    let Some((&0, body)) = value.split_last() else {
        return Err(FdtError::NotTerminated { what });
    };
    body.split(|&c| c == 0)
        .map(|s| String::from_utf8(s.to_vec()).map_err(|_| FdtError::NotUtf8 { what }))
        .collect()
}

/// The ISA of the first cpu node (`device_type = "cpu"` under `/cpus`, as
/// the spec's "/cpus/cpu*" node requirements and the RISC-V CPU binding
/// describe it).
pub fn cpu_isa(dtb: &[u8]) -> Result<CpuIsa, FdtError> {
    let all = nodes(dtb)?;
    let get = |n: &Node, name: &str| {
        n.props
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.value.clone())
    };
    let cpu = all
        .iter()
        .filter(|n| n.path.starts_with("/cpus/"))
        .find(|n| get(n, "device_type").as_deref() == Some(b"cpu\0"))
        .ok_or(FdtError::NoCpu)?;
    let isa = get(cpu, "riscv,isa").ok_or_else(|| FdtError::NoIsa {
        node: cpu.path.clone(),
    })?;
    Ok(CpuIsa {
        isa: string(&isa, "riscv,isa")?,
        extensions: get(cpu, "riscv,isa-extensions")
            .map(|v| string_list(&v, "riscv,isa-extensions"))
            .transpose()?,
        mmu_type: get(cpu, "mmu-type")
            .map(|v| string(&v, "mmu-type"))
            .transpose()?,
    })
}

#[cfg(test)]
mod tests;
