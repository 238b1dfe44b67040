import ShootKit

/// A subcommand: its name, help text, options, and the function that runs it.
///
/// Adding a command is one file that declares a `CommandSpec` and one line in `HDRShoot.commands`; the
/// parser, `--help`, usage errors and exit codes come for free.
package struct CommandSpec: Sendable {
    /// The function that runs a command once its arguments parsed.
    package typealias Run = @Sendable (ParsedArguments, CommandContext) async throws -> ExitCode

    /// The word after `hdrshoot` (`plan`).
    package let name: String
    /// One line for the command list and the top of `--help`.
    package let abstract: String
    /// Paragraphs shown in `--help` below the overview; may be empty.
    package let discussion: String
    /// The command's options, in help order (`--help` is implicit).
    package let options: [OptionSpec]
    /// The one word the command takes besides its options (`hdrshoot completions bash`), if any.
    package let positional: PositionalSpec?
    /// Runs the command; throws errors the CLI turns into messages and exit codes.
    package let run: Run

    /// Declares a command.
    package init(
        name: String, abstract: String, discussion: String = "", options: [OptionSpec],
        positional: PositionalSpec? = nil,
        run: @escaping Run
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positional = positional
        self.run = run
    }

    /// The option declared with `name`, if any.
    package func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// What to type for this command's help: `hdrshoot plan --help`.
    package var helpInvocation: String { "\(HDRShoot.toolName) \(name) --help" }
}

/// What a running command may use besides its arguments.
package struct CommandContext: Sendable {
    /// Where the command writes its output and diagnostics.
    package let output: any OutputStreams
    /// The time of day (folder names, a series' schedule): the system's unless a test hands in another.
    package var wallClock = WallClock.system
    /// The controller a shoot command runs through (nil: a new one); `serve` hands in the one its page follows.
    package var shootController: ShootController?
    /// Whether the controller's confirm or decline answers the plan (the page's, in `serve`), not the terminal.
    package var decidedByController = false
}

/// A command's one non-option argument: `hdrshoot completions <shell>`, `hdrshoot merge [<folder>]`.
package struct PositionalSpec: Sendable, Hashable {
    /// How help shows it (`<shell>`).
    package let placeholder: String
    /// One line for `--help`.
    package let help: String
    /// The words it accepts, for completion and the man page; empty when it is free text (a folder).
    package let choices: [String]
    /// Whether it names a folder (completed as one).
    package let isDirectory: Bool
    /// How many words it may be (1 unless the command takes a verb and its arguments).
    package var maximumCount = 1

    /// Declares a positional argument.
    package init(placeholder: String, help: String, choices: [String] = [], isDirectory: Bool = false) {
        self.placeholder = placeholder
        self.help = help
        self.choices = choices
        self.isDirectory = isDirectory
    }
}
