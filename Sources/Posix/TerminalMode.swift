import Glibc

/// A terminal switched to character-at-a-time input without echo, and how to put it back.
///
/// Signals stay on (ISIG): Ctrl-C still raises SIGINT, which the shoot handles through `SignalEvents`.
/// Call `restore()` on every path out (the commands do it in `defer`).
package struct TerminalMode: Sendable {
    /// The descriptor whose mode was changed.
    package let descriptor: FileDescriptor
    private let saved: termios

    /// Switches `descriptor` to character mode; `nil` when it is not a terminal or the mode cannot change.
    package static func enterCharacterMode(descriptor: FileDescriptor = .standardInput) -> TerminalMode? {
        let fd = descriptor.rawValue
        guard isatty(fd) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        return TerminalMode(descriptor: descriptor, saved: original)
    }

    /// Switches `descriptor` to line input without echo (a password typed is not shown); `nil` when it is not a
    /// terminal.
    package static func enterSecretMode(descriptor: FileDescriptor = .standardInput) -> TerminalMode? {
        let fd = descriptor.rawValue
        guard isatty(fd) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return nil }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ICANON | ECHONL)
        guard tcsetattr(fd, TCSANOW, &quiet) == 0 else { return nil }
        return TerminalMode(descriptor: descriptor, saved: original)
    }

    /// Puts the terminal back as it was.
    package func restore() {
        var original = saved
        _ = tcsetattr(descriptor.rawValue, TCSANOW, &original)
    }

    /// The width of the terminal on `descriptor` in columns, or 0 when unknown.
    package static func columns(of descriptor: FileDescriptor) -> Int {
        var size = winsize()
        guard ioctl(descriptor.rawValue, UInt(TIOCGWINSZ), &size) == 0 else { return 0 }
        return Int(size.ws_col)
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: FileDescriptor) -> Bool { isatty(descriptor.rawValue) == 1 }
}
