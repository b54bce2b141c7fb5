//! `frontier`: solve search puzzles from the command line.
//!
//! This binary is only the command-line definition and the glue: each domain crate parses its
//! own formats and implements its search space; the shared flags, progress, exit codes and
//! output live in [`common`].

mod commands;
mod common;
mod driver;
mod pictures;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::common::{to_stderr, Context, InputStopped};

/// Find shortest (or cheapest) solutions to search puzzles, or prove that none exists.
#[derive(Parser, Debug)]
#[command(name = "frontier", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The exit codes, shown under `frontier --help`.
const EXIT_CODES: &str = "Exit codes: 0 solved (or explore finished), 1 proven unsolvable, \
2 bad input or usage, 3 a limit was hit before an answer, 130 interrupted by Ctrl-C";

#[derive(Subcommand, Debug)]
enum Command {
    /// A robot on a board of letters
    Board(commands::board::Args),
    /// A river crossing: a preset or a TOML file
    River(commands::river::Args),
    /// The 3x3x3 Rubik's cube
    Cube(commands::cube::Args),
    /// Sliding-tile puzzles (8, 15, 24, any n x m)
    Tiles(commands::tiles::Args),
    /// Permutation puzzles from their generators: a preset or a .perm file
    Perm(commands::perm::Args),
    /// Count the reachable states of a puzzle at each distance from its start
    Explore(commands::explore::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(error),
    };
    let ctx = Context::new();
    let result = match cli.command {
        Command::Board(args) => commands::board::run(args, &ctx),
        Command::River(args) => commands::river::run(args, &ctx),
        Command::Cube(args) => commands::cube::run(args, &ctx),
        Command::Tiles(args) => commands::tiles::run(args, &ctx),
        Command::Perm(args) => commands::perm::run(args, &ctx),
        Command::Explore(args) => commands::explore::run(args, &ctx),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            ctx.clear_progress();
            // A limit that ended the wait for input is a limit, not bad input.
            if let Some(stopped) = error.downcast_ref::<InputStopped>() {
                to_stderr(format_args!("no answer: {stopped}"));
                return stopped.exit_code();
            }
            to_stderr(format_args!("error: {error:#}"));
            ExitCode::from(2)
        }
    }
}

/// Prints a usage error in two lines, as DESIGN asks of every error (clap's own take four to
/// seven, with blank lines): what was wrong, with clap's tip if it has one, then the usage and
/// where to read more. Exits 2. Help and the version are printed as clap prints them.
fn usage_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => error.exit(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            to_stderr(command_needed(&error.render().to_string()));
        }
        _ => to_stderr(two_lines(&plain_usage(&escaped_value(&error)))),
    }
    ExitCode::from(2)
}

/// clap's rendering of an error, with the refused value escaped if it holds a line break or
/// another control character: `'2\nx'`, where the message would otherwise break in two.
fn escaped_value(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let rendered = error.render().to_string();
    match error.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(value)) if value.contains(char::is_control) => {
            rendered.replace(value.as_str(), &value.escape_debug().to_string())
        }
        _ => rendered,
    }
}

/// A command without its subcommand (`frontier`, `frontier explore`), from the help clap
/// would print (15 lines), in two: the subcommands, then the usage.
fn command_needed(help: &str) -> String {
    let usage = help
        .lines()
        .find_map(|line| line.strip_prefix("Usage:"))
        .map_or("frontier <COMMAND>", str::trim);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&name| name != "help")
        .collect();
    two_lines(&format!(
        "error: a command is needed: {}\nUsage: {usage}",
        commands.join(", ")
    ))
}

/// The rendering with its usage line replaced by the command's own usage: clap writes the
/// arguments just given into it, so that a refused combination came back as the usage
/// (`cannot be used with '[FILE]'`, then `usage: frontier river --list [FILE]`).
fn plain_usage(rendered: &str) -> String {
    use clap::CommandFactory;
    let mut out = String::new();
    for line in rendered.lines() {
        match line.trim().strip_prefix("Usage:") {
            Some(usage) => {
                let mut command = Cli::command();
                command.build();
                for name in command_path(usage).skip(1) {
                    match command.find_subcommand(name) {
                        Some(sub) => command = sub.clone(),
                        None => break,
                    }
                }
                out.push_str(&command.render_usage().to_string());
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The command a usage line is for: its words up to the first argument or option
/// (`frontier river` of `frontier river [OPTIONS] <FILE>`).
fn command_path(usage: &str) -> impl Iterator<Item = &str> {
    usage
        .split_whitespace()
        .take_while(|word| !word.starts_with(['<', '[', '-']))
}

/// clap's rendering of a usage error, in two lines: `error: WHAT (tip: ...)`, then
/// `usage: USAGE (more: 'COMMAND --help')`.
fn two_lines(rendered: &str) -> String {
    let mut what = String::new();
    let mut tips = Vec::new();
    let mut usage = None;
    for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("Usage:") {
            usage = Some(rest.trim());
        } else if let Some(tip) = line.strip_prefix("tip:") {
            tips.push(tip.trim());
        } else if line.starts_with("For more information") {
            continue;
        } else if what.is_empty() {
            what.push_str(line);
        } else {
            // The items of a list ("the following required arguments were not provided:"),
            // or a note in brackets ("[possible values: htm, qtm]").
            let separator = if what.ends_with(':') || line.starts_with('[') {
                " "
            } else {
                ", "
            };
            what.push_str(separator);
            what.push_str(line);
        }
    }
    for tip in tips {
        what.push_str(&format!(" (tip: {tip})"));
    }
    match usage {
        Some(usage) => {
            let command = command_path(usage).collect::<Vec<_>>().join(" ");
            format!("{what}\nusage: {usage} (more: '{command} --help')")
        }
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::{command_needed, two_lines};

    #[test]
    fn a_missing_command_lists_the_commands_in_two_lines() {
        let help = "Count things\n\nUsage: frontier explore <COMMAND>\n\nCommands:\n  \
                    board  Every state\n  river  Every arrangement\n  help   Print this\n\n\
                    Options:\n  -h, --help  Print help\n";
        assert_eq!(
            command_needed(help),
            "error: a command is needed: board, river\n\
             usage: frontier explore <COMMAND> (more: 'frontier explore --help')"
        );
    }

    #[test]
    fn usage_errors_become_two_lines() {
        let missing = "error: the following required arguments were not provided:\n  <TILES>\n\n\
                       Usage: frontier tiles <TILES>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            two_lines(missing),
            "error: the following required arguments were not provided: <TILES>\n\
             usage: frontier tiles <TILES> (more: 'frontier tiles --help')"
        );
        let typo = "error: unrecognized subcommand 'tyles'\n\n  tip: a similar subcommand \
                    exists: 'tiles'\n\nUsage: frontier <COMMAND>\n\nFor more information, \
                    try '--help'.\n";
        assert_eq!(
            two_lines(typo),
            "error: unrecognized subcommand 'tyles' (tip: a similar subcommand exists: 'tiles')\n\
             usage: frontier <COMMAND> (more: 'frontier --help')"
        );
        let conflict = "error: the argument '--list' cannot be used with '[FILE]'\n\n\
                        Usage: frontier river --list [FILE]\n";
        assert_eq!(
            two_lines(conflict),
            "error: the argument '--list' cannot be used with '[FILE]'\n\
             usage: frontier river --list [FILE] (more: 'frontier river --help')"
        );
        let two = "error: missing:\n  <A>\n  <B>\n";
        assert_eq!(two_lines(two), "error: missing: <A>, <B>");
        let values = "error: invalid value 'bad' for '--metric <METRIC>'\n  [possible values: \
                      htm, qtm]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            two_lines(values),
            "error: invalid value 'bad' for '--metric <METRIC>' [possible values: htm, qtm]"
        );
    }
}
