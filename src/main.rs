//! The `cutoff` binary: with arguments, runs them as one command and exits once its
//! output is complete; without, speaks UCI on stdin/stdout until `quit` or end of input.

use std::process::ExitCode;
use std::sync::Arc;

use cutoff::engine::Engine;
use cutoff::output::Output;
use cutoff::uci;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let out = Arc::new(Output::stdout());
    let mut engine = match Engine::new(out) {
        Ok(engine) => engine,
        Err(error) => {
            eprintln!("cutoff: cannot start the search thread: {error}");
            return ExitCode::FAILURE;
        }
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        uci::run(&mut engine, std::io::stdin().lock());
    } else {
        uci::execute_line(&mut engine, &args.join(" "));
        engine.finish();
    }
    ExitCode::SUCCESS
}
