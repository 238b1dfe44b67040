import Glibc

/// Facts about this process and its host that the layers above need without importing Glibc.
package enum CurrentProcess {
    /// This process's id (`getpid`): written beside a claimed journal, and into temporary file names.
    package static var id: Int32 { getpid() }

    /// This process's real user id (`getuid`): a secret's file must belong to it.
    package static var userID: UInt32 { getuid() }

    /// The host's name (`gethostname`), or "" when it cannot be read.
    package static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
