import Dispatch
import Foundation
import Posix
import ShootKit

/// `hdrshoot config`: shows the effective defaults and where each comes from; `--edit` opens the file.
enum ConfigCommand {
    /// The command's declaration: one option per config key (the same flags `plan` and `run` take), and `--edit`.
    static let spec = CommandSpec(
        name: "config",
        abstract: "Show the defaults in effect (flag, config file line, or built-in); --edit opens the file.",
        discussion: """
            The config file is $XDG_CONFIG_HOME/hdrshoot/config (else ~/.config/hdrshoot/config): 'key = value'
            lines, '#' comments, and [camera NAME] sections whose values apply when the camera used is NAME (its
            address, 'simulator', or the model or serial number an earlier shoot at that address recorded). Keys:
            camera, frames, ev, scale, order, dedupe, longest, output (the folder that holds the shoots' folders),
            transfer, and a camera's SSH settings: ssh (yes or no), ssh-user, ssh-password-file (never the password
            itself) and ssh-fingerprint. Flags always win. Give flags here to see what a command line with them would use.
            --edit opens the file in $VISUAL or $EDITOR (else vi), with a commented template when it is new, and
            checks it when the editor exits. A malformed file is one error line naming the file and the line,
            exit 78, for every command that reads it.
            """,
        options: keyOptions + [.flag("edit", help: "Open the config file in $VISUAL or $EDITOR, then check it.")],
        run: run
    )

    /// One option per config key, declared like the flag it gives the default of (same placeholder).
    static let keyOptions: [OptionSpec] = ConfigKey.all.flatMap { key -> [OptionSpec] in
        if key.isFlag, let negation = key.negation {
            return [.flag(key.option, help: key.help), .flag(negation, help: "As if \(key.name) = no.")]
        }
        let declared = (PlanCommand.spec.options + ShootConsole.sharedOptions + SSHConnection.options).first {
            $0.name == key.option
        }
        var placeholder = "<value>"
        if case .value(let shown) = declared?.kind { placeholder = shown }
        if key.name == "output" { placeholder = "<dir>" }
        if key.name == "transfer" { placeholder = "<" + ConfigKey.transferChoices.joined(separator: "|") + ">" }
        return [.value(key.option, placeholder: placeholder, help: key.help, default: key.builtIn)]
    }

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        let environment = ProcessInfo.processInfo.environment
        // The flags go through the same checks as the file's values; a bad flag is a usage error.
        for key in ConfigKey.all where !key.isFlag {
            guard let value = arguments.string(key.option) else { continue }
            do {
                try key.validate(value, arguments.string("scale"))
            } catch {
                throw UsageError("--\(key.option): \(error.message)", command: arguments.command)
            }
        }
        guard let path = ConfigFile.location(environment: environment) else { throw ConfigError.noLocation }
        if arguments.flag("edit") {
            try await edit(path: path, environment: environment)
            _ = try ConfigFile.load(path: path)
            context.output.writeOut("\(path): OK\n")
            return .success
        }
        let defaults = try await ConfigDefaults.resolve(for: arguments, environment: environment)
        context.output.writeOut(text(defaults, path: path, arguments: arguments))
        return .success
    }

    /// The table: the file, the section in use, then one line per key (`frames  7  /path/config:4`).
    static func text(_ defaults: ConfigDefaults, path: String, arguments: ParsedArguments) -> String {
        var lines = [
            "Config file: " + path + (defaults.file == nil ? " (none; 'hdrshoot config --edit' makes one)" : "")
        ]
        if let section = defaults.section, let line = defaults.file?.sectionLines[section] {
            lines.append("Section:     [camera \(section)] (line \(line)), for the camera used")
        }
        let effective = defaults.effective(arguments)
        let keyWidth = effective.map(\.key.count).max() ?? 0
        let valueWidth = effective.map(\.value.count).max() ?? 0
        for item in effective {
            let key = item.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0)
            let value = item.value.padding(toLength: valueWidth, withPad: " ", startingAt: 0)
            lines.append("\(key)  \(value)  \(item.source)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Opens `path` in the user's editor (made from `template` when missing) and waits for it to exit.
    static func edit(path: String, environment: [String: String]) async throws(ConfigError) {
        if !FileSystem.exists(path) {
            do {
                try FileSystem.replace(path, with: Array(template.utf8), creatingFolder: true)
            } catch {
                throw .unreadable(path: path)
            }
        }
        let editor = environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["EDITOR"] ?? "vi"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The shell splits the editor's words (`EDITOR="code --wait"`) and the path stays one argument.
        process.arguments = ["-c", "exec \(editor) \"$1\"", "hdrshoot-editor", path]
        let status: Int32 = await withCheckedContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: 127)
            }
        }
        guard status == 0 else { throw .editorFailed(editor: editor, status: status) }
    }

    /// What a new config file starts as: every key, commented out, with what it means.
    static let template: String = {
        var lines = [
            "# hdrshoot defaults: 'key = value'; '#' starts a comment. Flags always win over this file.",
            "# 'hdrshoot config' shows what is in effect and where each value comes from.",
            ""
        ]
        for key in ConfigKey.all {
            lines.append("# \(key.help)")
            let example = ["camera": "192.168.122.1", "output": "~/Pictures/hdrshoot"][key.name] ?? key.builtIn
            lines.append("# \(key.name) = \(example)")
        }
        lines += [
            "",
            "# Values for one camera: its address, 'simulator', or the model or serial an earlier shoot recorded.",
            "# [camera ILCE-7M3]",
            "# frames = 7",
            ""
        ]
        return lines.joined(separator: "\n")
    }()
}
