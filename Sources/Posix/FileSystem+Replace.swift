import Glibc

extension FileSystem {
    /// Writes `bytes` as the whole content of `path`, durably and atomically: a temporary file beside it
    /// (created `O_EXCL` with `permissions`, whatever the umask), fsync, rename over `path`, fsync of the folder.
    /// A reader sees the old file or the new one, never a part, and after a power cut the new one stays.
    /// On failure the temporary file is removed and `path` is untouched. The folder is created (0755) when
    /// `creatingFolder`.
    ///
    /// The one way hdrshoot replaces a file (the journal, the manifest, merge.sh, the remembered camera, the
    /// focus record). `temporary` names the temporary file (default: `.NAME.PID.tmp` beside `path`, hidden from
    /// listings); `beforeWrite` and `beforeRename` are the journal tests' fault hooks.
    package static func replace(
        _ path: String, with bytes: [UInt8], permissions: mode_t = 0o644, creatingFolder: Bool = false,
        temporary: String? = nil, beforeWrite: () throws -> Void = {}, beforeRename: () throws -> Void = {}
    ) throws {
        let folder = parentFolder(of: path)
        if creatingFolder { try makeDirectories(folder, permissions: 0o755) }
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        let temp = temporary ?? folder + "/." + name + "." + String(getpid()) + ".tmp"
        try? unlink(temp) // a stale temporary file of an earlier crash
        do {
            let file = try FileDescriptor.open(temp, .writeOnly, [.create, .exclusive], permissions: permissions)
            defer { file.closeIgnoringErrors() }
            try file.setPermissions(permissions)
            try beforeWrite()
            try file.writeAll(bytes)
            try file.sync()
        } catch {
            try? unlink(temp)
            throw error
        }
        try beforeRename()
        do {
            try rename(temp, to: path)
        } catch {
            try? unlink(temp)
            throw error
        }
        try syncDirectory(folder)
    }

    /// The folder `path` is in (`.` for a bare name, `/` for a name at the root).
    package static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
