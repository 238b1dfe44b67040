/// Parses a command's arguments against its declared options.
///
/// Accepts `--name value` and `--name=value`; a value may start with a single dash (`--ev -1` reaches the
/// option's own validation). A command that declares a `PositionalSpec` takes one word that is not an option.
/// Unknown options, missing values, repeated options, values given to flags, stray words and missing required
/// options or arguments are usage errors.
package enum ArgumentParser {
    /// Parses `arguments` (everything after the command name) for `command`.
    package static func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: command.name)
        var seen: Set<String> = []
        var index = 0
        func fail(_ message: String) -> UsageError { UsageError(message, command: command.name) }

        while index < arguments.count {
            let token = arguments[index]
            index += 1
            guard token.hasPrefix("--"), token.count > 2 else {
                if token.hasPrefix("-") && token.count > 1 && Double(token) == nil {
                    throw fail("unknown option '\(token)'\(suggestion(for: token, in: command))")
                }
                if command.positional != nil, parsed.positional == nil {
                    parsed.positional = token
                    continue
                }
                // A command may take a few words (`hdrshoot log export ID FILE`).
                if let spec = command.positional, 1 + parsed.morePositionals.count < spec.maximumCount {
                    parsed.morePositionals.append(token)
                    continue
                }
                throw fail("unexpected argument '\(token)'")
            }
            let body = token.dropFirst(2)
            let name: String
            let inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
                inlineValue = nil
            }
            guard let option = command.option(named: name) else {
                throw fail("unknown option '--\(name)'\(suggestion(for: "--\(name)", in: command))")
            }
            guard seen.insert(name).inserted || option.isRepeatable else {
                throw fail("option '--\(name)' is given more than once")
            }
            switch option.kind {
            case .flag:
                guard inlineValue == nil else { throw fail("option '--\(name)' does not take a value") }
                parsed.set(flag: name)
            case .value(let placeholder):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                } else {
                    throw fail("option '--\(name)' needs a value (\(placeholder))")
                }
                guard !value.isEmpty else { throw fail("option '--\(name)' needs a value (\(placeholder))") }
                parsed.set(name, to: value)
            }
        }
        for option in command.options where option.isRequired && parsed.string(option.name) == nil {
            throw fail("missing required option '--\(option.name)'")
        }
        return parsed
    }

    /// Whether the arguments ask for help (`--help` or `-h` anywhere): help wins over every other error.
    package static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.contains { $0 == "--help" || $0 == "-h" }
    }

    /// ` (did you mean '--shadow'?)` when a declared option is within two edits of `typed`, else empty.
    static func suggestion(for typed: String, in command: CommandSpec) -> String {
        let candidates = command.options.filter { !$0.isHidden }.map(\.flagName) + ["--help"]
        return closest(to: typed, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The candidate nearest to `typed` in edit distance, if at most two edits away.
    package static func closest(to typed: String, among candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, candidate)
            if distance <= 2, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Levenshtein distance, for "did you mean" hints.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = Array(repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
