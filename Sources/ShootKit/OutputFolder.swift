import Posix

/// The shoot's output folder: refused when it holds another shoot, taken away again when a run that made it ends
/// before anything was fired into it (the front end makes it, and says why when it cannot).
package enum OutputFolder {
    /// Throws `OutputFolderError.holdsAnotherShoot` when `path` holds a `manifest.json` (another shoot's, or one
    /// hdrshoot cannot read): a new shoot there would mix two shoots' files and manifests. A folder that does not
    /// exist yet, or holds no manifest, is free.
    package static func requireFree(_ path: String) async throws(OutputFolderError) {
        if let occupant = await ShootManifest.occupant(of: path) {
            throw .holdsAnotherShoot(path: path, occupant: occupant)
        }
    }

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

/// Why a new shoot cannot go into its output folder.
package enum OutputFolderError: Error, Equatable {
    /// `path` holds another shoot's `manifest.json` (or one that is not hdrshoot's); nothing was shot into it.
    case holdsAnotherShoot(path: String, occupant: ShootManifest.Occupant)

    /// The sentence a front end says (the terminal's `error:` line, the phone's message).
    package var sentence: String {
        switch self {
        case let .holdsAnotherShoot(path, .shoot(id, status)) where status == "complete":
            "the folder \(path) already holds the finished shoot \(id); pass --output with a new folder"
        case let .holdsAnotherShoot(path, .shoot(id, _)):
            "the folder \(path) already holds the unfinished shoot \(id); pass --output with a new folder, "
                + "or continue that shoot with `hdrshoot resume --id \(id)`"
        case let .holdsAnotherShoot(path, .unreadable):
            "the folder \(path) already holds a manifest.json that is not one of hdrshoot's; pass --output with a new "
                + "folder"
        }
    }
}
