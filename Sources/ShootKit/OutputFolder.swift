import Posix

/// The shoot's output folder: taken away again when a run that made it ends before anything was fired into it
/// (the front end makes it, and says why when it cannot).
package enum OutputFolder {
    /// Removes what a run left in `path` when nothing was fired into it: its `manifest.json`, empty set folders,
    /// then the folder itself if that left it empty. Anything else in it stays (`rmdir` removes only empty
    /// folders, never a file).
    package static func removeIfUnused(_ path: String) {
        try? FileSystem.unlink(path + "/" + ShootManifest.fileName)
        for name in (try? FileSystem.contentsOfDirectory(path)) ?? [] where name != "." && name != ".." {
            try? FileSystem.removeEmptyDirectory(path + "/" + name)
        }
        try? FileSystem.removeEmptyDirectory(path)
    }
}
