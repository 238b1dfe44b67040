/// What one finished set merges from: exactly the files its manifest bracket lists, one image per frame.
///
/// A RAW+JPEG pair (same name, two extensions) merges from its JPEG; a frame with only a RAW file cannot be
/// merged by enfuse until it is converted, so a set with one is `needsConversion`. Files outside the bracket's
/// list (`unmatched/`, `earlier/`) are never part of it, because the manifest never lists them in `sets`.
struct MergeSet: Sendable, Equatable {
    /// The set, from 1.
    var set: Int
    /// Its folder, relative to the output folder (`set-02`).
    var folder: String
    /// The images to merge, relative to the output folder, in shooting order.
    var images: [String]
    /// The RAW files that have no JPEG beside them (the set needs converting first when not empty).
    var rawOnly: [String]

    /// Extensions enfuse reads directly.
    static let mergeable: Set<String> = ["jpg", "jpeg", "tif", "tiff", "png"]

    /// The set of `bracket`; nil when the bracket is not complete (a stopped shoot's last set).
    init?(_ bracket: ShootManifest.SetBracket) {
        guard bracket.complete, !bracket.files.isEmpty else { return nil }
        set = bracket.set
        folder = bracket.folder
        var stems: [String] = []
        var byStem: [String: [String]] = [:]
        for file in bracket.files {
            let stem = Self.stem(of: file)
            if byStem[stem] == nil { stems.append(stem) }
            byStem[stem, default: []].append(file)
        }
        images = []
        rawOnly = []
        for stem in stems {
            let files = byStem[stem] ?? []
            if let image = files.first(where: { Self.mergeable.contains(Self.fileExtension(of: $0)) }) {
                images.append(image)
            } else {
                rawOnly += files
            }
        }
    }

    /// Whether the set has a frame with only a RAW file.
    var needsConversion: Bool { !rawOnly.isEmpty }

    /// `set-01/DSC00001` for `set-01/DSC00001.JPG`.
    static func stem(of path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return path }
        return String(path[..<dot])
    }

    /// `jpg` for `set-01/DSC00001.JPG`.
    static func fileExtension(of path: String) -> String {
        let stem = stem(of: path)
        return stem.count == path.count ? "" : String(path.dropFirst(stem.count + 1)).lowercased()
    }
}
