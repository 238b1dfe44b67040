import Exposure

/// What one merge fuses: the whole bracket of a shoot (the default), or one set of it (`--per-set`).
///
/// A plan's sets are the camera-sized pieces of ONE exposure range, so the photographer's unit is the bracket:
/// all its frames, each distinct exposure once (a frame two sets share, or two frames shot at the same speed,
/// is used once), an extension set of `--check extend` included because the journal appends it to the plan.
/// A RAW+JPEG pair (same name, two extensions) merges from its JPEG; a frame with only a RAW file cannot be
/// merged by enfuse until it is converted, so a stack with one is `needsConversion`. Files outside the
/// manifest's frames (`unmatched/`, `earlier/`) are never part of it: the manifest lists them apart.
package struct MergeStack: Sendable, Equatable {
    /// How the progress line names it: `bracket`, or `set 2` for a per-set merge.
    package var label: String
    /// The set, from 1, for a per-set merge; nil for the whole bracket.
    package var set: Int?
    /// The folder the merged image goes into, relative to the output folder: empty for the whole bracket
    /// (beside `manifest.json`), `set-02` for a set.
    package var folder: String
    /// The images to merge, relative to the output folder, shortest exposure first (align_image_stack matches
    /// neighbours, and neighbouring exposures look most alike).
    package var images: [String]
    /// The RAW files that have no JPEG beside them (the stack needs converting first when not empty).
    package var rawOnly: [String]
    /// The shortest and the longest exposure merged (`1/1000`, `4"`), as the manifest labels them; nil when the
    /// stack comes from a set's file list alone.
    package var range: Span?

    /// The shortest and the longest exposure of a stack, as labels.
    package struct Span: Sendable, Equatable {
        /// The shortest (`1/1000`).
        package var shortest: String
        /// The longest (`4"`).
        package var longest: String
    }

    /// Extensions enfuse reads directly.
    package static let mergeable: Set<String> = ["jpg", "jpeg", "tif", "tiff", "png"]

    /// The merged image's path relative to the output folder (`merged.tif`, `set-02/merged.tif`).
    package func output(format: String) -> String { folder.isEmpty ? "merged.\(format)" : "\(folder)/merged.\(format)" }

    /// One set of a per-set merge, from the set's bracket; nil when the set is not complete (a stopped
    /// shoot's last set).
    package init?(_ bracket: ShootManifest.SetBracket) {
        guard bracket.complete, !bracket.files.isEmpty else { return nil }
        label = "set \(bracket.set)"
        set = bracket.set
        folder = bracket.folder
        (images, rawOnly) = Self.images(of: Self.frames(of: bracket.files))
        range = nil
    }

    /// Why a shoot's whole bracket cannot be merged yet.
    package enum Unfinished: Error, Sendable, Equatable {
        /// Only `saved` of the plan's `total` frames are saved.
        case framesMissing(saved: Int, total: Int)
    }

    /// The whole bracket of `manifest`: every frame of its plan, each distinct exposure once.
    package static func bracket(of manifest: ShootManifest) -> Result<MergeStack, Unfinished> {
        let saved = manifest.frames.filter { $0.state == "done" && !$0.files.isEmpty }
        guard !manifest.frames.isEmpty, saved.count == manifest.frames.count else {
            return .failure(.framesMissing(saved: saved.count, total: manifest.frames.count))
        }
        // Each exposure once: the first frame saved at a speed stands for it (without --dedupe two neighbouring
        // sets shoot their shared speed twice).
        var seen = Set<String>()
        let distinct = saved.filter { seen.insert($0.usedSpeed).inserted }
        let ordered = distinct.enumerated().sorted { left, right in
            let (a, b) = (seconds(left.element.usedSpeed), seconds(right.element.usedSpeed))
            return a == b ? left.offset < right.offset : a < b
        }.map(\.element)
        let (images, rawOnly) = Self.images(of: ordered.map(\.files))
        return .success(
            MergeStack(
                label: "bracket", set: nil, folder: "", images: images, rawOnly: rawOnly,
                range: ordered.first.flatMap { first in
                    ordered.last.map { Span(shortest: first.usedSpeed, longest: $0.usedSpeed) }
                }))
    }

    private init(
        label: String, set: Int?, folder: String, images: [String], rawOnly: [String],
        range: Span?
    ) {
        self.label = label
        self.set = set
        self.folder = folder
        self.images = images
        self.rawOnly = rawOnly
        self.range = range
    }

    /// The exposure time a manifest label stands for, on either scale; `.infinity` for a label neither reads
    /// (it sorts last, in shooting order).
    package static func seconds(_ label: String) -> Double {
        for scale in [ShutterScale.third, .half] {
            if let speed = try? scale.parseSpeed(label).speed { return speed.seconds }
        }
        return .infinity
    }

    /// A set's file list grouped into frames by stem: a RAW+JPEG pair is one frame.
    package static func frames(of files: [String]) -> [[String]] {
        var stems: [String] = []
        var byStem: [String: [String]] = [:]
        for file in files {
            let stem = Self.stem(of: file)
            if byStem[stem] == nil { stems.append(stem) }
            byStem[stem, default: []].append(file)
        }
        return stems.map { byStem[$0] ?? [] }
    }

    /// One image per frame (the first file enfuse reads), and the files of the frames that have none.
    package static func images(of frames: [[String]]) -> (images: [String], rawOnly: [String]) {
        var images: [String] = []
        var rawOnly: [String] = []
        for files in frames {
            if let image = files.first(where: { Self.mergeable.contains(Self.fileExtension(of: $0)) }) {
                images.append(image)
            } else {
                rawOnly += files
            }
        }
        return (images, rawOnly)
    }

    /// Whether the stack has a frame with only a RAW file.
    package var needsConversion: Bool { !rawOnly.isEmpty }

    /// `set-01/DSC00001` for `set-01/DSC00001.JPG`.
    package static func stem(of path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return path }
        return String(path[..<dot])
    }

    /// `jpg` for `set-01/DSC00001.JPG`.
    package static func fileExtension(of path: String) -> String {
        let stem = stem(of: path)
        return stem.count == path.count ? "" : String(path.dropFirst(stem.count + 1)).lowercased()
    }
}
