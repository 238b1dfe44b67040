import Foundation

/// Shell-quoting for the scripts hdrshoot writes (`merge.sh`, the shell completions).
package enum ShellQuote {
    /// `text` as one single-quoted POSIX shell word (`it's` -> `'it'\\''s'`).
    package static func single(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
