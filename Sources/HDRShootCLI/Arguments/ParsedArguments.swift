/// A command's options after parsing, with typed accessors that turn bad values into usage errors.
package struct ParsedArguments: Sendable, Hashable {
    /// The command these arguments belong to (for error hints).
    package let command: String
    /// Values of value options, by long name.
    package private(set) var values: [String: String] = [:]
    /// Flags that were given, by long name.
    package private(set) var flags: Set<String> = []
    /// Every value of each value option, in the order given (more than one only for repeatable options).
    package private(set) var allValues: [String: [String]] = [:]
    /// The command's non-option argument, when it declares one and it was given.
    package internal(set) var positional: String?
    /// The words after the first, for a command that takes more than one (`PositionalSpec.maximumCount`).
    package internal(set) var morePositionals: [String] = []
    /// The options (and flags) the config file filled in rather than the command line (`ConfigDefaults`).
    package internal(set) var fromConfig: Set<String> = []

    /// Creates an empty result for `command`.
    package init(command: String) {
        self.command = command
    }

    /// Records a value option (the parser rejects duplicates of non-repeatable options before calling this).
    mutating func set(_ name: String, to value: String) {
        values[name] = value
        allValues[name, default: []].append(value)
    }

    /// Records a flag.
    mutating func set(flag name: String) { flags.insert(name) }

    /// Whether the flag `--name` was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The raw text of `--name`, if given (the last one, for a repeatable option).
    package func string(_ name: String) -> String? { values[name] }

    /// Every raw text given for `--name`, in order (empty when absent).
    package func strings(_ name: String) -> [String] { allValues[name] ?? [] }

    /// The value of `--name` converted by `convert`, or `defaultValue` when absent.
    ///
    /// Any error `convert` throws becomes a usage error naming the option: `--frames: '0' is not ...`.
    package func value<Value>(
        _ name: String, default defaultValue: Value, _ convert: (String) throws -> Value
    ) throws(UsageError) -> Value {
        guard let text = values[name] else { return defaultValue }
        return try converted(name, text, convert)
    }

    /// The value of a required option `--name` converted by `convert`.
    package func required<Value>(_ name: String, _ convert: (String) throws -> Value) throws(UsageError) -> Value {
        guard let text = values[name] else {
            throw UsageError("missing required option '--\(name)'", command: command)
        }
        return try converted(name, text, convert)
    }

    /// `text`, given for `--name` by the program rather than typed (what `run --auto` found), converted by
    /// `convert` with the option's errors.
    package func parse<Value>(
        _ name: String, _ text: String, _ convert: (String) throws -> Value
    ) throws(UsageError) -> Value {
        try converted(name, text, convert)
    }

    private func converted<Value>(
        _ name: String, _ text: String, _ convert: (String) throws -> Value
    ) throws(UsageError) -> Value {
        do {
            return try convert(text)
        } catch let error as UsageError {
            throw UsageError("--\(name): \(error.message)", command: command)
        } catch let error as any CLIReportable {
            throw UsageError("--\(name): \(error.cliMessage)", command: command)
        } catch {
            throw UsageError("--\(name): '\(text)' is not a valid value", command: command)
        }
    }
}
