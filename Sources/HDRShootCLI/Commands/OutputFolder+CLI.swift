import Foundation
import ShootKit

/// The shoot's output folder as the CLI makes it: before the first frame, explained in words when it cannot be
/// (ShootKit's `OutputFolder` takes it away again when nothing was fired into it).
extension OutputFolder {
    /// Creates `path` (and its parents); returns whether it was made now (false: it was already there).
    /// Throws `ShootCommandError.outputUnavailable` saying what is wrong with the path.
    static func create(_ path: String) throws -> Bool {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return false }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ShootCommandError.outputUnavailable(path: path, reason: problem(creating: path, error: error))
        }
        return true
    }

    /// Why `path` cannot be made, as a person checks it: the part of the path that is a file, or the folder
    /// that may not be written, else the system's reason.
    static func problem(creating path: String, error: any Error) -> String {
        let manager = FileManager.default
        var prefix = ""
        for component in URL(fileURLWithPath: path).standardizedFileURL.pathComponents where component != "/" {
            let parent = prefix.isEmpty ? "/" : prefix
            prefix += "/" + component
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: prefix, isDirectory: &isFolder) else {
                // `prefix` is missing: it would be made in `parent`, which must be writable.
                return manager.isWritableFile(atPath: parent)
                    ? systemReason(error) : "no permission to create a folder in '\(parent)'"
            }
            if !isFolder.boolValue { return "'\(prefix)' is a file, not a folder" }
        }
        return systemReason(error)
    }

    /// The POSIX reason under a Foundation file error, with the path it concerns (`'/mnt/card': No space left
    /// on device`), else the error's description.
    private static func systemReason(_ error: any Error) -> String {
        let info = (error as NSError).userInfo
        // On Linux the underlying error is stored as a Swift error: bridge it explicitly.
        guard let underlying = (info[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
            underlying.domain == NSPOSIXErrorDomain, let text = strerror(Int32(underlying.code))
        else {
            return error.localizedDescription
        }
        let reason = String(cString: text)
        return (info[NSFilePathErrorKey] as? String).map { "'\($0)': \(reason)" } ?? reason
    }
}
