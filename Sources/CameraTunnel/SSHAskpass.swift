import Foundation
import Posix

/// How `ssh` gets the camera's password without a terminal, and without it in any argv or environment.
///
/// `ssh` runs with `SSH_ASKPASS` pointing at hdrshoot itself and `SSH_ASKPASS_REQUIRE=force`; the only thing
/// in its environment is the path of a named pipe in a fresh 0700 folder. hdrshoot writes the password into the
/// pipe once, before `ssh` starts, and holds it open; the askpass call (hdrshoot started by `ssh` for the
/// keyboard-interactive prompt) reads it without blocking and prints it to `ssh`. A second prompt finds the
/// pipe empty and gets nothing, so a wrong password costs exactly one login attempt.
package final class SSHAskpass: Sendable {
    /// The variable that names the pipe in `ssh`'s environment; its presence makes hdrshoot answer as askpass.
    package static let variable = "HDRSHOOT_SSH_ASKPASS_PIPE"

    /// The pipe's path.
    package let path: String
    private let folder: String
    private let pipe: FileDescriptor

    /// Makes the pipe in a new private folder under `temporaryFolder` and puts `password` in it.
    package init(password: String, temporaryFolder: String) throws(SSHTunnelError) {
        folder = temporaryFolder + "/hdrshoot-askpass-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        path = folder + "/pipe"
        do throws(Errno) {
            try FileSystem.makeDirectories(folder, permissions: 0o700)
            try FileSystem.makeFIFO(path, permissions: 0o600)
            // Read-write: never blocks for want of a reader, and the password waits in the pipe until read.
            pipe = try FileDescriptor.open(path, .readWrite, .nonBlocking)
            try pipe.writeAll(Array((password + "\n").utf8))
        } catch {
            try? FileSystem.unlink(path)
            try? FileManager.default.removeItem(atPath: folder)
            throw .exited(status: -1, detail: "cannot hand the password to ssh: \(error)")
        }
    }

    /// Closes and removes the pipe (whatever is left in it goes with it).
    package func close() {
        pipe.closeIgnoringErrors()
        try? FileSystem.unlink(path)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// When this process was started by `ssh` as its askpass program, prints the password once and returns the
    /// exit status (0, or 1 when the pipe holds none); nil when it was not.
    package static func answerIfAsked(environment: [String: String]) -> Int32? {
        guard let path = environment[variable] else { return nil }
        guard let pipe = try? FileDescriptor.open(path, .readOnly, .nonBlocking) else { return 1 }
        defer { pipe.closeIgnoringErrors() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = (try? buffer.withUnsafeMutableBytes { try pipe.read(into: $0) }) ?? 0
        guard count > 0 else { return 1 }
        let line = buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }
        do {
            try FileDescriptor.standardOutput.writeAll(Array(line) + [UInt8(ascii: "\n")])
        } catch {
            return 1
        }
        return 0
    }
}
