use std::process::ExitCode;

fn main() -> ExitCode {
    trapscope::cli::main()
}
