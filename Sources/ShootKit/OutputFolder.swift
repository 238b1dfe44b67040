import Foundation

/// The shoot's output folder: taken away again when a run that made it ends before anything was fired into it
/// (the front end makes it, and says why when it cannot).
package enum OutputFolder {
    /// Removes what a run left in `path` when nothing was fired into it: its `manifest.json`, empty set folders,
    /// then the folder itself if that left it empty. Anything else in it stays.
    package static func removeIfUnused(_ path: String) {
        let manager = FileManager.default
        try? manager.removeItem(atPath: path + "/" + ShootManifest.fileName)
        for name in (try? manager.contentsOfDirectory(atPath: path)) ?? [] {
            let child = path + "/" + name
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: child, isDirectory: &isFolder), isFolder.boolValue,
                (try? manager.contentsOfDirectory(atPath: child))?.isEmpty == true
            {
                try? manager.removeItem(atPath: child)
            }
        }
        if (try? manager.contentsOfDirectory(atPath: path))?.isEmpty == true { try? manager.removeItem(atPath: path) }
    }
}
