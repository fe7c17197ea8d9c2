//! The register map from a target description (GDB manual, "Target
//! Descriptions", §G.2 Target Description Format): `<feature name=..>`
//! elements holding `<reg name bitsize [regnum]>`, and `<xi:include href=..>`
//! pulling in further annexes. A register without `regnum` is numbered one
//! above the register before it, across features; the first one is 0.

use std::collections::BTreeMap;

/// Where one register sits in the stub's numbering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegInfo {
    /// The number `p`/`P` take.
    pub regnum: u32,
    pub bitsize: u32,
    /// The `<feature name=..>` it is described in ("" outside any feature).
    pub feature: String,
}

/// Every register the stub described, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegMap {
    pub regs: BTreeMap<String, RegInfo>,
    /// The `<architecture>` text, e.g. "riscv:rv64".
    pub architecture: Option<String>,
}

impl RegMap {
    pub fn get(&self, name: &str) -> Option<&RegInfo> {
        self.regs.get(name)
    }

    /// The registers of one feature, by name.
    pub fn feature<'a>(&'a self, feature: &'a str) -> impl Iterator<Item = (&'a str, &'a RegInfo)> {
        self.regs
            .iter()
            .filter(move |(_, r)| r.feature == feature)
            .map(|(n, r)| (n.as_str(), r))
    }

    /// The name of register `regnum`, if described.
    pub fn name_of(&self, regnum: u32) -> Option<&str> {
        self.regs
            .iter()
            .find(|(_, r)| r.regnum == regnum)
            .map(|(n, _)| n.as_str())
    }
}

/// One element of interest in an annex, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Architecture(String),
    FeatureStart(String),
    FeatureEnd,
    Include(String),
    Reg {
        name: String,
        bitsize: u32,
        regnum: Option<u32>,
    },
}

/// What is malformed in a target description annex: its XML (`scan`), its
/// includes, or a register's number (`build`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TdescError {
    #[error("a comment that never ends")]
    Comment,
    #[error("a tag that never ends")]
    Tag,
    #[error("<architecture> without </architecture>")]
    Architecture,
    /// A `<feature>`, `<reg>` or `<xi:include>` (`tag`) lacks `attr`.
    #[error("<{tag}> without {attr}")]
    Missing {
        tag: &'static str,
        attr: &'static str,
    },
    #[error("<reg name=\"{reg}\"> without bitsize")]
    NoBitsize { reg: String },
    /// Register `reg`'s `attr` ("bitsize", "regnum") is `value`, no number.
    #[error("register {reg}: {attr} \"{value}\" is not a number")]
    NotANumber {
        reg: String,
        attr: &'static str,
        value: String,
    },
    /// Attribute text (`attrs`) without `=`.
    #[error("attribute text \"{attrs}\" has no '='")]
    NoEquals { attrs: String },
    #[error("attribute {0} is not quoted")]
    Unquoted(String),
    #[error("attribute {0} has no closing quote")]
    Unclosed(String),
    #[error("it includes itself")]
    IncludesItself,
    #[error("includes nested more than 8 deep")]
    TooDeep,
    #[error("register {0}: regnum overflows")]
    RegnumOverflow(String),
    /// Not UTF-8 from byte `at` on.
    #[error("not UTF-8 at byte {at}")]
    NotUtf8 { at: usize },
}

/// Scans one annex into the items trapscope uses; everything else (types,
/// comments, the DOCTYPE) is skipped. Errors say what was malformed.
pub fn scan(xml: &str) -> Result<Vec<Item>, TdescError> {
    let mut items = Vec::new();
    let mut rest = xml;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").ok_or(TdescError::Comment)?;
            rest = &after[end + 3..];
            continue;
        }
        let gt = rest.find('>').ok_or(TdescError::Tag)?;
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        // The name ends at a space or the '/' of "<reg .../>"; the '/' of
        // "</feature>" belongs to the name.
        let split = tag
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c.is_whitespace() || c == '/')
            .map(|(i, _)| i);
        let (name, attrs) = match split {
            Some(i) => (&tag[..i], &tag[i..]),
            None => (tag, ""),
        };
        match name {
            "architecture" => {
                let end = rest
                    .find("</architecture>")
                    .ok_or(TdescError::Architecture)?;
                items.push(Item::Architecture(unescape(rest[..end].trim())));
                rest = &rest[end..];
            }
            "feature" => {
                let n = attr(attrs, "name")?.ok_or(TdescError::Missing {
                    tag: "feature",
                    attr: "a name",
                })?;
                items.push(Item::FeatureStart(n));
                if attrs.trim_end().ends_with('/') {
                    items.push(Item::FeatureEnd);
                }
            }
            "/feature" => items.push(Item::FeatureEnd),
            "xi:include" => {
                let href = attr(attrs, "href")?.ok_or(TdescError::Missing {
                    tag: "xi:include",
                    attr: "href",
                })?;
                items.push(Item::Include(href));
            }
            "reg" => {
                let name = attr(attrs, "name")?.ok_or(TdescError::Missing {
                    tag: "reg",
                    attr: "a name",
                })?;
                let bitsize = attr(attrs, "bitsize")?
                    .ok_or_else(|| TdescError::NoBitsize { reg: name.clone() })?;
                let not_a_number = |attr, value: String| TdescError::NotANumber {
                    reg: name.clone(),
                    attr,
                    value,
                };
                let bitsize = number(&bitsize).ok_or_else(|| not_a_number("bitsize", bitsize))?;
                let regnum = match attr(attrs, "regnum")? {
                    Some(r) => Some(number(&r).ok_or_else(|| not_a_number("regnum", r))?),
                    None => None,
                };
                items.push(Item::Reg {
                    name,
                    bitsize,
                    regnum,
                });
            }
            _ => {}
        }
    }
    Ok(items)
}

fn number(s: &str) -> Option<u32> {
    s.trim().parse().ok()
}

/// The value of attribute `key` in a tag's attribute text.
fn attr(attrs: &str, key: &str) -> Result<Option<String>, TdescError> {
    let mut rest = attrs;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            return Ok(None);
        }
        let eq = rest.find('=').ok_or_else(|| TdescError::NoEquals {
            attrs: attrs.trim().to_string(),
        })?;
        let k = rest[..eq].trim();
        let v = rest[eq + 1..].trim_start();
        let q = v
            .chars()
            .next()
            .filter(|&c| c == '"' || c == '\'')
            .ok_or_else(|| TdescError::Unquoted(k.to_string()))?;
        let end = v[1..]
            .find(q)
            .ok_or_else(|| TdescError::Unclosed(k.to_string()))?;
        if k == key {
            return Ok(Some(unescape(&v[1..1 + end])));
        }
        rest = &v[end + 2..];
    }
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Builds the map from `target.xml`, fetching each included annex through
/// `fetch` (depth-first, in document order, as the numbering rule needs).
pub fn build(
    fetch: &mut dyn FnMut(&str) -> Result<String, super::GdbError>,
) -> Result<RegMap, super::GdbError> {
    let mut map = RegMap::default();
    let mut next = 0u32;
    let mut stack: Vec<String> = Vec::new();
    walk("target.xml", fetch, &mut map, &mut next, &mut stack, "")?;
    Ok(map)
}

fn walk(
    annex: &str,
    fetch: &mut dyn FnMut(&str) -> Result<String, super::GdbError>,
    map: &mut RegMap,
    next: &mut u32,
    stack: &mut Vec<String>,
    outer_feature: &str,
) -> Result<(), super::GdbError> {
    let bad = |why: TdescError| super::GdbError::TargetXml {
        annex: annex.to_string(),
        why,
    };
    if stack.iter().any(|a| a == annex) {
        return Err(bad(TdescError::IncludesItself));
    }
    if stack.len() >= 8 {
        return Err(bad(TdescError::TooDeep));
    }
    let xml = fetch(annex)?;
    let items = scan(&xml).map_err(bad)?;
    stack.push(annex.to_string());
    let mut feature = outer_feature.to_string();
    for item in items {
        match item {
            Item::Architecture(a) => map.architecture = Some(a),
            Item::FeatureStart(f) => feature = f,
            Item::FeatureEnd => feature = outer_feature.to_string(),
            Item::Include(href) => walk(&href, fetch, map, next, stack, &feature)?,
            Item::Reg {
                name,
                bitsize,
                regnum,
            } => {
                let n = regnum.unwrap_or(*next);
                *next = n
                    .checked_add(1)
                    .ok_or_else(|| bad(TdescError::RegnumOverflow(name.clone())))?;
                // The first description of a name wins; a later duplicate
                // still takes its number, as the numbering rule counts it.
                map.regs.entry(name).or_insert(RegInfo {
                    regnum: n,
                    bitsize,
                    feature: feature.clone(),
                });
            }
        }
    }
    stack.pop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_the_elements_and_skips_the_rest() {
        let xml = r#"<?xml version="1.0"?><!-- a <reg name="no" bitsize="1"/> comment -->
<!DOCTYPE target SYSTEM "gdb-target.dtd"><target><architecture>riscv:rv64</architecture>
<feature name='f.one'><vector id="v" type="uint8" count="16"/>
<reg name="a" bitsize="64" type="int"/><reg bitsize="32" regnum="7" name="b&amp;c"/></feature>
<xi:include href="x.xml"/></target>"#;
        assert_eq!(
            scan(xml).unwrap(),
            vec![
                Item::Architecture("riscv:rv64".into()),
                Item::FeatureStart("f.one".into()),
                Item::Reg {
                    name: "a".into(),
                    bitsize: 64,
                    regnum: None
                },
                Item::Reg {
                    name: "b&c".into(),
                    bitsize: 32,
                    regnum: Some(7)
                },
                Item::FeatureEnd,
                Item::Include("x.xml".into()),
            ]
        );
    }

    #[test]
    fn malformed_xml_is_an_error_naming_it() {
        assert!(
            scan("<reg name=\"a\"/>")
                .unwrap_err()
                .to_string()
                .contains("bitsize")
        );
        assert!(
            scan("<reg name=\"a\" bitsize=\"x\"/>")
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
        assert!(
            scan("<reg name=\"a")
                .unwrap_err()
                .to_string()
                .contains("never ends")
        );
        assert!(scan("<!-- x").unwrap_err().to_string().contains("comment"));
        assert!(
            scan("<reg name=a bitsize=\"1\"/>")
                .unwrap_err()
                .to_string()
                .contains("quoted")
        );
    }
}
