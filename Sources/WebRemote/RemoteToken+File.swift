import Posix

extension RemoteToken {
    /// Why `--token-file` cannot give a token: one sentence.
    package struct FileFailure: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The token kept in `path` (`--token-file`, so a rig's phone keeps working across restarts); a new one is
    /// written there first (mode 0600, never over an existing file) when the file does not exist.
    package static func load(orCreateAt path: String) throws(FileFailure) -> RemoteToken {
        if FileSystem.exists(path) {
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readAll(path)
            } catch {
                throw FileFailure(description: "cannot read the token file \(path): \(error)")
            }
            let text = String(decoding: bytes.prefix(256), as: UTF8.self).trimmingNewlines
            guard let token = RemoteToken(text) else {
                throw FileFailure(
                    description:
                        "the token file \(path) does not hold a token (22 to 128 characters of A-Z a-z 0-9 - _)")
            }
            return token
        }
        let token = RemoteToken.random()
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o600)
            do throws(Errno) {
                try descriptor.writeAll(Array((token.text + "\n").utf8))
                try descriptor.sync()
            } catch {
                descriptor.closeIgnoringErrors()
                throw error
            }
            try descriptor.close()
        } catch {
            throw FileFailure(description: "cannot write the token file \(path): \(error)")
        }
        return token
    }
}

extension String {
    fileprivate var trimmingNewlines: String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r" || last == " " { text = text.dropLast() }
        return String(text)
    }
}
