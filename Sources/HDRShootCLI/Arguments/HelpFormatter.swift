/// Renders `--help` text for the tool and for each command, from their declarations.
package enum HelpFormatter {
    /// Help for the whole tool: overview, usage, the command list, global options.
    package static func toolHelp(commands: [CommandSpec]) -> String {
        let tool = HDRShoot.toolName
        var lines = [
            "OVERVIEW: \(HDRShoot.abstract)",
            "",
            "USAGE: \(tool) <command> [<options>]",
            "",
            "COMMANDS:"
        ]
        lines += table(commands.map { ($0.name, $0.abstract) })
        lines += ["", "OPTIONS:"]
        lines += table([("--version", "Show the version."), ("-h, --help", "Show help information.")])
        lines += ["", "See '\(tool) <command> --help' for a command's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Help for one command: overview, discussion, usage line, options with defaults.
    package static func commandHelp(_ command: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(command.abstract)"]
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        lines += ["", "USAGE: \(usageLine(command))"]
        lines += ["", "OPTIONS:"]
        var rows = command.options.filter { !$0.isHidden }.map { option -> (String, String) in
            var help = option.help
            if let defaultDescription = option.defaultDescription { help += " (default: \(defaultDescription))" }
            return (invocation(option), help)
        }
        if let positional = command.positional { rows.insert((positional.placeholder, positional.help), at: 0) }
        rows.append(("-h, --help", "Show help information."))
        lines += table(rows)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `hdrshoot plan --shadow <speed> --highlight <speed> [<options>]`.
    static func usageLine(_ command: CommandSpec) -> String {
        let required = command.options.filter(\.isRequired).map(invocation)
        let hasOptional = command.options.contains { !$0.isRequired && !$0.isHidden }
        let positional = command.positional.map { [$0.placeholder] } ?? []
        return ([HDRShoot.toolName, command.name] + positional + required + (hasOptional ? ["[<options>]"] : []))
            .joined(separator: " ")
    }

    /// `--frames <n>` or `--json`.
    static func invocation(_ option: OptionSpec) -> String {
        switch option.kind {
        case .flag: option.flagName
        case .value(let placeholder): "\(option.flagName) \(placeholder)"
        }
    }

    /// Two columns, the first padded to a common width, indented by two spaces.
    static func table(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { name, text in
            "  " + name + String(repeating: " ", count: width - name.count + 2) + text
        }
    }
}
