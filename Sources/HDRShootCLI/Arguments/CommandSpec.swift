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
    /// The one required word after the command that is not an option (`hdrshoot check <folder>`), if it takes one.
    package let argument: ArgumentSpec?
    /// Runs the command; throws errors the CLI turns into messages and exit codes.
    package let run: Run

    /// Declares a command.
    package init(
        name: String, abstract: String, discussion: String = "", argument: ArgumentSpec? = nil, options: [OptionSpec],
        run: @escaping Run
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.argument = argument
        self.options = options
        self.run = run
    }

    /// The option declared with `name`, if any.
    package func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// What to type for this command's help: `hdrshoot plan --help`.
    package var helpInvocation: String { "\(HDRShoot.toolName) \(name) --help" }
}

/// A command's one positional argument: required, given once, anywhere among the options.
package struct ArgumentSpec: Sendable {
    /// The name its value is read back under (`ParsedArguments.string(name)`), and shown as `<name>` in help.
    package let name: String
    /// One line for `--help`.
    package let help: String

    /// Declares the argument.
    package init(name: String, help: String) {
        self.name = name
        self.help = help
    }

    /// `<folder>`.
    package var placeholder: String { "<\(name)>" }
}

/// What a running command may use besides its arguments.
package struct CommandContext: Sendable {
    /// Where the command writes its output and diagnostics.
    package let output: any OutputStreams
}
