import Glibc

extension FileSystem {
    /// Makes a new folder of this user's only (0700) under `$TMPDIR` (else `/tmp`), named `prefix` and six random
    /// characters (`mkdtemp`, so no other process gets the same one); returns its path. Files a process needs for a
    /// while and never past its end (a replayed body's data phases) go there; `removeTemporaryDirectory` takes it
    /// away.
    package static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
        template += Array((prefix + "XXXXXX").utf8CString)
        while true {
            if let made = mkdtemp(&template) { return String(cString: made) }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    /// Removes `folder`, made by `makeTemporaryDirectory`, with the files directly in it (`unlink` each, then
    /// `rmdir`); best effort: what cannot be removed stays.
    package static func removeTemporaryDirectory(_ folder: String) {
        for name in (try? contentsOfDirectory(folder)) ?? [] where name != "." && name != ".." {
            try? unlink(folder + "/" + name)
        }
        try? removeEmptyDirectory(folder)
    }
}
