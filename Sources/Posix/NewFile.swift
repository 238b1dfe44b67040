import Glibc

/// Files that are created, moved and made durable without ever replacing an existing file: the image side of
/// "never over an existing file" (a taken name gets a `-1`, `-2`, ... suffix instead).
///
/// The calls block; callers run them on a queue or thread of their own, never on the cooperative pool.
package enum NewFile {
    /// How many suffixed names are tried before giving up.
    package static let maximumSuffix = 1000

    /// Creates `directory` when missing (`0o755`) and a new, empty file named `name` in it (`O_EXCL`), suffixed
    /// when the name is taken; returns the open descriptor (write-only) with the name and path used.
    package static func create(
        in directory: String, name: String
    ) throws(NewFileError) -> (descriptor: FileDescriptor, fileName: String, path: String) {
        let (descriptor, fileName, path) = try claimFreeName(
            in: directory, name: name, exhausted: join(directory, name)
        ) { path throws(Errno) in
            try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o644)
        }
        return (descriptor, fileName, path)
    }

    /// Makes a written file durable and closes it: fsync of the file, close, then fsync of its folder (so the
    /// new name survives a power cut too). The descriptor is closed whatever happens.
    package static func syncAndClose(_ descriptor: FileDescriptor, path: String) throws(NewFileError) {
        do throws(Errno) {
            try descriptor.sync()
        } catch {
            descriptor.closeIgnoringErrors()
            throw NewFileError(path: path, reason: error.description)
        }
        do throws(Errno) {
            try descriptor.close()
        } catch {
            throw NewFileError(path: path, reason: error.description)
        }
        try syncFolder(of: path)
    }

    /// Moves the finished file at `path` into `folder` (created when missing) as `name`, suffixed when taken and
    /// never replacing a file (link, then unlink: unlike rename(2), link(2) refuses an existing name); both
    /// folders are fsynced. Returns the name and path used.
    package static func move(
        _ path: String, toFolder folder: String, name: String
    ) throws(NewFileError) -> (fileName: String, path: String) {
        let (_, fileName, target) = try claimFreeName(in: folder, name: name, exhausted: path) { target throws(Errno) in
            try FileSystem.link(path, to: target)
        }
        try? FileSystem.unlink(path)
        try syncFolder(of: target)
        try syncFolder(of: path)
        return (fileName, target)
    }

    /// The one rule of "never over an existing file": makes `folder` when missing (`0o755`), then offers `claim`
    /// the paths of `name`, `stem-1.ext`, `stem-2.ext`, ... until it takes one; `claim` throws
    /// `.fileExists` for a taken name. Returns what `claim` made, with the name and path taken; `exhausted` is the
    /// path the error names when `maximumSuffix` names are taken.
    private static func claimFreeName<Claimed>(
        in folder: String, name: String, exhausted: String,
        _ claim: (_ path: String) throws(Errno) -> Claimed
    ) throws(NewFileError) -> (Claimed, fileName: String, path: String) {
        do throws(Errno) {
            try FileSystem.makeDirectories(folder, permissions: 0o755)
        } catch {
            throw NewFileError(path: folder, reason: "cannot create the folder (\(error))")
        }
        let (stem, ext) = split(name)
        for attempt in 0..<maximumSuffix {
            let candidate = attempt == 0 ? name : "\(stem)-\(attempt)\(ext)"
            let path = join(folder, candidate)
            do throws(Errno) {
                return (try claim(path), candidate, path)
            } catch .fileExists {
                continue
            } catch {
                throw NewFileError(path: path, reason: error.description)
            }
        }
        throw NewFileError(path: exhausted, reason: "\(maximumSuffix) files of that name exist")
    }

    /// `DSC01234.JPG` → (`DSC01234`, `.JPG`); a name without a dot (or only a leading one) has no extension.
    package static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// A name from elsewhere (a camera, a URL) made safe for a local path: no folders, no control characters,
    /// never empty, `.` or `..`.
    package static func sanitize(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\u{7F}" })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "image" : cleaned
    }

    private static func syncFolder(of path: String) throws(NewFileError) {
        let folder = parent(of: path)
        do throws(Errno) {
            try FileSystem.syncDirectory(folder)
        } catch {
            throw NewFileError(path: folder, reason: error.description)
        }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// A file of `NewFile` could not be created, written, moved or made durable: where, and why.
package struct NewFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or folder concerned.
    package var path: String
    /// What failed, as the system said it.
    package var reason: String

    /// Creates an error.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "cannot write \(path): \(reason)" }
}
