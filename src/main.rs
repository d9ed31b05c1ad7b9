//! The `cutoff` binary: with arguments, runs them as commands and exits once their output
//! is complete; without, speaks UCI on stdin/stdout until `quit` or end of input. The
//! arguments are one command (`cutoff go perft 6`) unless one of them holds a space; then
//! each argument is a command (`cutoff "genfens 16 seed 7 book None" "quit"`, as
//! OpenBench runs engines). A rejected command there makes the exit status 1.
//! The offline tools (the table in `tools.rs`) take `--flag value` arguments instead (see
//! their modules).

// The library's lint policy (see lib.rs), for the binary's few lines.
#![warn(clippy::all, clippy::unwrap_used, clippy::dbg_macro, clippy::todo)]

use std::process::ExitCode;
use std::sync::Arc;

use cutoff::engine::{Engine, Flow};
use cutoff::output::Output;
use cutoff::{help, tools, uci};

fn main() -> ExitCode {
    end_quietly_on_closed_output();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = match utf8_args() {
        Ok(args) => args,
        Err(arg) => {
            eprintln!("cutoff: error: the argument {arg} is not UTF-8 text (rename the file)");
            return ExitCode::FAILURE;
        }
    };
    if let Some(status) = answer_help(&args) {
        return status;
    }
    if let Some(status) = run_tool(&args) {
        return status;
    }
    let out = Arc::new(Output::stdout());
    let mut engine = match Engine::new(Arc::clone(&out), tools::help()) {
        Ok(engine) => engine,
        Err(error) => {
            eprintln!("cutoff: cannot start the search thread: {error}");
            return ExitCode::FAILURE;
        }
    };
    if args.is_empty() {
        out.line(&help::banner());
        let input = std::io::BufReader::new(std::io::stdin());
        if let Err(error) = uci::run(&mut engine, input) {
            eprintln!("cutoff: cannot start the input thread: {error}");
            return ExitCode::FAILURE;
        }
    } else {
        for command in commands(&args) {
            // Each command finishes (as at the end of input) before the next one starts.
            let flow = uci::execute_line(&mut engine, &command);
            engine.finish();
            if flow == Flow::Quit {
                break;
            }
        }
        if out.reported_an_error() {
            // A rejected command fails the run, as a shell tool's bad argument does.
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The arguments after the program's name, or the first that is not UTF-8 (a file name
/// in another encoding), shown with its bad bytes replaced.
fn utf8_args() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string()
                .map_err(|arg| format!("\"{}\"", arg.to_string_lossy()))
        })
        .collect()
}

/// The commands of a command line: the arguments joined into one command, or, when any
/// of them holds a space (or a tab), each argument as a command of its own.
fn commands(args: &[String]) -> Vec<String> {
    if args.iter().any(|arg| arg.contains([' ', '\t'])) {
        args.to_vec()
    } else {
        vec![args.join(" ")]
    }
}

/// `cutoff --help` (or `-h`, `help`), `cutoff --version` (`-V`) and `cutoff <tool>
/// --help`: prints the answer on stdout.
fn answer_help(args: &[String]) -> Option<ExitCode> {
    let first = args.first()?.as_str();
    let text = match first {
        "--help" | "-h" | "help" if args.len() == 1 => tools::help(),
        "--version" | "-V" if args.len() == 1 => help::version(),
        tool => {
            let asks = args[1..].iter().any(|a| a == "--help" || a == "-h");
            match tools::usage(tool) {
                Some(usage) if asks => usage,
                _ => return None,
            }
        }
    };
    println!("{text}");
    Some(ExitCode::SUCCESS)
}

/// Runs a tool subcommand (a row of `tools::TOOLS`) if the arguments name one.
fn run_tool(args: &[String]) -> Option<ExitCode> {
    let (name, rest) = args.split_first()?;
    let tool = tools::find(name)?;
    Some(match (tool.run)(rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cutoff {name}: error: {error}");
            ExitCode::FAILURE
        }
    })
}

/// `println!` and `eprintln!` panic when their stream is closed (`cutoff perft 6 | head
/// -1`, a tool's stderr piped to a reader that quit). The output can no longer reach
/// anyone: end at once with a failure status, as a C tool killed by `SIGPIPE` would,
/// rather than with a panic report; any other panic is reported as before.
fn end_quietly_on_closed_output() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to std") {
            std::process::exit(1);
        }
        report(info);
    }));
}
