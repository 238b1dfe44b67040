/// The declaration of one command-line option: its name, whether it takes a value, and its help.
package struct OptionSpec: Sendable, Hashable {
    /// Whether the option is a bare flag or carries a value.
    package enum Kind: Sendable, Hashable {
        /// `--json`: present or absent, never with a value.
        case flag
        /// `--frames 5` or `--frames=5`; `placeholder` names the value in help (`<n>`).
        case value(placeholder: String)
    }

    /// The long name without dashes (`shadow` for `--shadow`).
    package let name: String
    /// Flag or value.
    package let kind: Kind
    /// One line for `--help`.
    package let help: String
    /// The default shown in help, when the option has one.
    package let defaultDescription: String?
    /// Whether the command cannot run without it.
    package let isRequired: Bool
    /// Whether the option may be given more than once (`--fault a --fault b`); every value is kept, in order.
    package var isRepeatable: Bool = false
    /// Whether `--help`, the usage line and did-you-mean hints leave it out (options for tests only).
    package var isHidden: Bool = false

    /// The option as typed: `--shadow`.
    package var flagName: String { "--\(name)" }

    /// Declares an option that takes a value.
    package static func value(
        _ name: String,
        placeholder: String,
        help: String,
        default defaultDescription: String? = nil,
        required: Bool = false,
        repeatable: Bool = false,
        hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, kind: .value(placeholder: placeholder), help: help,
            defaultDescription: defaultDescription, isRequired: required, isRepeatable: repeatable, isHidden: hidden)
    }

    /// Declares a flag (no value).
    package static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help, defaultDescription: nil, isRequired: false)
    }
}
