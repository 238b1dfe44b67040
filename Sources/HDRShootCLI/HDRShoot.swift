import CameraTunnel
import Dispatch
import Foundation
import ShootKit

/// The `hdrshoot` command line: finds the command, parses its options, runs it, maps errors to exit codes.
package enum HDRShoot {
    /// The tool's version, printed by `--version`.
    package static let version = "0.1.0"

    /// The executable's name, used in help and hints.
    package static let toolName = "hdrshoot"

    /// One line saying what the tool is for.
    package static let abstract = "Automated HDR bracketing for Sony Alpha cameras over Wi-Fi."

    /// Every subcommand, in help order. Add a command by declaring its `CommandSpec` in its own file and
    /// listing it here.
    package static let commands: [CommandSpec] = [
        PlanCommand.spec,
        SimulateCommand.spec,
        CameraCommand.spec,
        DiscoverCommand.spec,
        RunCommand.spec,
        ServeCommand.spec,
        ResumeCommand.spec,
        LogCommand.spec,
        StatusCommand.spec,
        CheckCommand.spec,
        MeterCommand.spec,
        ConfigCommand.spec,
        CompletionsCommand.spec,
        ManCommand.spec,
        MergeCommand.spec
    ]

    /// Runs the command named by the process arguments and exits with its status.
    package static func main() -> Never {
        // Started by `ssh` as its askpass program: hand over the camera's password and end (SSHAskpass).
        if let status = SSHAskpass.answerIfAsked(environment: ProcessInfo.processInfo.environment) { exit(status) }
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The process's only top-level task: it ends the process, so nothing is left running.
        Task {
            let status = await run(arguments, output: StandardStreams())
            exit(status)
        }
        dispatchMain()
    }

    /// Runs the command line `arguments` (without the tool name), writing to `output`; returns the exit status.
    ///
    /// This is the whole CLI minus the process: tests call it in-process with a `CapturedOutput`.
    package static func run(_ arguments: [String], output: any OutputStreams) async -> Int32 {
        guard let first = arguments.first else {
            return report(UsageError("missing command"), command: nil, to: output).rawValue
        }
        switch first {
        case "--help", "-h":
            output.writeOut(HelpFormatter.toolHelp(commands: commands))
            return ExitCode.success.rawValue
        case "help":
            return help(for: Array(arguments.dropFirst()), output: output)
        case "--version":
            output.writeOut("\(toolName) \(version)\n")
            return ExitCode.success.rawValue
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let kind = first.hasPrefix("-") ? "option" : "command"
            let hint =
                ArgumentParser.closest(to: first, among: commands.map(\.name) + ["--help", "--version"])
                .map { " (did you mean '\($0)'?)" } ?? ""
            return report(UsageError("unknown \(kind) '\(first)'\(hint)"), command: nil, to: output).rawValue
        }
        // `-v`/`--verbose` on any command: the session log's lines go to standard error as they happen.
        let verbose = arguments.dropFirst().contains { $0 == "-v" || $0 == "--verbose" }
        let rest = Array(arguments.dropFirst()).filter { $0 != "-v" && $0 != "--verbose" }
        if ArgumentParser.asksForHelp(rest) {
            output.writeOut(HelpFormatter.commandHelp(command))
            return ExitCode.success.rawValue
        }
        let environment = ProcessInfo.processInfo.environment
        return await SessionLogging.around(
            command: command.name, arguments: rest, verbose: verbose, output: output, environment: environment
        ) { output in
            await run(command, rest, output: output)
        }
    }

    /// Parses and runs `command` with `rest`, reporting any error.
    private static func run(_ command: CommandSpec, _ rest: [String], output: any OutputStreams) async -> Int32 {
        do {
            var parsed = try ArgumentParser.parse(rest, for: command)
            // The defaults file fills in what the command line left out, before anything connects.
            if command.name != ConfigCommand.spec.name, ConfigDefaults.isRead(by: command) {
                let defaults = try await ConfigDefaults.resolve(
                    for: parsed, environment: ProcessInfo.processInfo.environment)
                parsed = defaults.applied(to: parsed, command: command)
            }
            return try await command.run(parsed, CommandContext(output: output)).rawValue
        } catch {
            return report(error, command: command, to: output).rawValue
        }
    }

    /// `hdrshoot help [command]`: the same text as `--help`.
    private static func help(for arguments: [String], output: any OutputStreams) -> Int32 {
        guard let name = arguments.first else {
            output.writeOut(HelpFormatter.toolHelp(commands: commands))
            return ExitCode.success.rawValue
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            return report(UsageError("unknown command '\(name)'"), command: nil, to: output).rawValue
        }
        output.writeOut(HelpFormatter.commandHelp(command))
        return ExitCode.success.rawValue
    }
}
