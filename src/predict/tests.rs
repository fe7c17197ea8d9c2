//! Placeholder: the spec-table tests are being written.
