pub mod gdb;
