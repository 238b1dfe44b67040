/// The one reader of a simulator command line, for what runs a simulator without `hdrshoot`'s own parser
/// (the `legacy-simulator` executable, the tests): `--name value`, `--name=value` and bare flags, in order.
/// `hdrshoot simulate` reads its options with its `CommandSpec` and hands each value to the configuration.
package enum SimulatorArguments {
    /// Reads the options of `arguments` in the order given, handing each to `option` as (name without dashes,
    /// value) as soon as it is read, so an unknown name is refused before anything after it is taken for its
    /// value. A name in `flags` takes no value (nil); any other takes `=value` or the next argument. Throws
    /// `.unknownOption` for an argument that is not an option and `.missingValue` when a value is missing.
    package static func read(
        _ arguments: [String], flags: Set<String> = [],
        _ option: (_ name: String, _ value: String?) throws(SimulatorError) -> Void
    ) throws(SimulatorError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), argument.count > 2 else { throw .unknownOption(argument) }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) {
                try option(name, nil)
            } else if let inline {
                try option(name, inline)
            } else {
                index += 1
                guard index < arguments.count else { throw .missingValue(option: "--" + name) }
                try option(name, arguments[index])
            }
            index += 1
        }
    }
}
