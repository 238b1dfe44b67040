import Foundation
import ShootKit
import Shooting

/// `hdrshoot completions bash|zsh|fish`: prints the shell's completion script, generated from the same
/// command and option declarations the parser uses.
enum CompletionsCommand {
    /// The shells a script can be generated for.
    static let shells = ["bash", "zsh", "fish"]

    /// The command's declaration; `--list` is what the scripts call back for ids and addresses.
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Completes commands, options, option values (--scale third|half, --order, ...), shoot ids for
            --id (from the journals in the state directory) and camera addresses of recent shoots for --camera.
            Try it with: source <(hdrshoot completions bash). 'make install' installs all three where each shell
            looks.
            """,
        options: [
            .value(
                "list", placeholder: "<ids|cameras>", help: "Print the shoot ids or recent camera addresses.",
                hidden: true),
            .value("state-dir", placeholder: "<dir>", help: "With --list: where shoot journals are kept.", hidden: true)
        ],
        positional: PositionalSpec(placeholder: "<shell>", help: "bash, zsh or fish.", choices: shells),
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        if let list = arguments.string("list") {
            context.output.writeOut(try await listed(list, arguments: arguments).map { $0 + "\n" }.joined())
            return .success
        }
        guard let shell = arguments.positional else {
            throw UsageError("missing shell; use bash, zsh or fish", command: arguments.command)
        }
        let commands = HDRShoot.commands
        switch shell {
        case "bash": context.output.writeOut(BashCompletion.script(commands: commands))
        case "zsh": context.output.writeOut(ZshCompletion.script(commands: commands))
        case "fish": context.output.writeOut(FishCompletion.script(commands: commands))
        default:
            let hint = ArgumentParser.closest(to: shell, among: shells).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError(
                "'\(shell)' is not a shell I complete for\(hint); use bash, zsh or fish", command: arguments.command)
        }
        return .success
    }

    /// The shoot ids (newest first) or camera addresses (of recent shoots, then the remembered one, and
    /// `simulator`) the journal store knows; an unreadable store lists nothing rather than failing completion.
    static func listed(_ kind: String, arguments: ParsedArguments) async throws -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var journals: [ShootJournal] = []
        if let directory = try? JournalStore.resolveDirectory(option: arguments.string("state-dir")),
            let listings = try? await JournalStore(directory: directory).list()
        {
            for case .journal(let journal) in listings { journals.append(journal) }
        }
        switch kind {
        case "ids":
            return journals.map(\.id)
        case "cameras":
            var addresses: [String] = []
            let remembered = CameraAddressStore(environment: environment).load()?.description
            for address in journals.map(\.camera.address)
                + [remembered, CameraTarget.simulatorAddress].compactMap({ $0 })
            where !addresses.contains(address) {
                addresses.append(address)
            }
            return addresses
        default:
            throw UsageError("--list: '\(kind)' is not a list; use ids or cameras", command: arguments.command)
        }
    }
}
