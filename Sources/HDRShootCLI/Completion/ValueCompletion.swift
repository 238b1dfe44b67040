import ImageLuminance

/// What a shell offers for an option's value, derived from the option's declaration (so it cannot drift
/// from what the parser accepts and `--help` shows).
enum ValueCompletion: Sendable, Equatable {
    /// Free text (a speed, a number): nothing to offer.
    case none
    /// One of these words: the placeholder's alternatives (`<third|half>`).
    case words([String])
    /// A folder.
    case directories
    /// A file.
    case files
    /// A shoot id from the journal store (`hdrshoot completions --list ids`).
    case shootIDs
    /// `simulator` and the camera addresses of recent shoots (`hdrshoot completions --list cameras`).
    case cameras
}

extension OptionSpec {
    /// What a shell completes after this option.
    var valueCompletion: ValueCompletion {
        guard case .value(let placeholder) = kind else { return .none }
        switch name {
        case "camera": return .cameras
        case "id": return .shootIDs
        case "scene": return .words(Scene.Name.allCases.map(\.rawValue))
        default: break
        }
        if placeholder == "<dir>" { return .directories }
        if placeholder.lowercased().contains("file") { return .files }
        guard placeholder.hasPrefix("<"), placeholder.hasSuffix(">"), placeholder.contains("|") else { return .none }
        let words = placeholder.dropFirst().dropLast().split(separator: "|").map(String.init)
        let plain = words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-/._".contains($0) }
        }
        return plain ? .words(words) : .none
    }
}

extension CommandSpec {
    /// The options a shell offers: every option `--help` shows, and `--help`.
    var completedOptions: [OptionSpec] { options.filter { !$0.isHidden } }
}
