import Foundation

/// `set-NN/merge.sh`: the shell script that merges one finished set with align_image_stack and enfuse, written
/// beside the set's images whenever the manifest is, from the manifest's own list of the set's files.
enum MergeScript {
    /// The script's file name inside the set folder.
    static let fileName = "merge.sh"

    /// The script for `set` of shoot `shoot`. It runs from anywhere (it changes to the output folder) and
    /// quotes every file name as one shell word, so spaces and quotes in paths are safe.
    static func text(for set: MergeSet, shoot: String) -> String {
        let quotedFiles = set.images.map { "    " + ShellQuote.single($0) }.joined(separator: " \\\n")
        let folder = ShellQuote.single(set.folder)
        var lines = [
            "#!/bin/sh",
            "# Merges set \(set.set) of hdrshoot shoot \(shoot) into \(set.folder)/merged.tif.",
            "# Written by hdrshoot from manifest.json: exactly the files of this set's bracket, a frame shared with",
            "# a neighbouring set (--dedupe) included; never unmatched/ or earlier/. 'hdrshoot merge' does the same.",
            "#   1. align_image_stack -a: aligns the frames (a tripod nudged between them); writes aligned TIFFs.",
            "#   2. enfuse: fuses the aligned frames, each pixel weighted by how well exposed it is.",
            "# Needs enfuse and align_image_stack (Debian: sudo apt install enfuse hugin-tools).",
            "# ALIGN=0 sh merge.sh merges without aligning; FORMAT=jpg writes merged.jpg instead of merged.tif.",
            "set -eu",
            "cd \"$(dirname \"$0\")/..\""
        ]
        if set.needsConversion {
            let names = set.rawOnly.map { ShellQuote.single($0) }.joined(separator: " ")
            lines += [
                "echo \"error: \(set.folder) has RAW files without a JPEG (\"\(names)\"); convert them to TIFF or JPEG first"
                    + " (darktable-cli, rawtherapee-cli), then run enfuse on those\" >&2",
                "exit 1"
            ]
            return lines.joined(separator: "\n") + "\n"
        }
        lines += [
            "set -- \\",
            quotedFiles,
            "out=\(folder)/merged.\"${FORMAT:-tif}\"",
            "if [ \"${ALIGN:-1}\" = 0 ]; then",
            "    enfuse -o \"$out\" \"$@\"",
            "    exit 0",
            "fi",
            "work=\"$(mktemp -d)\"",
            "trap 'rm -rf \"$work\"' EXIT",
            "align_image_stack -a \"$work/aligned_\" \"$@\"",
            "enfuse -o \"$out\" \"$work\"/aligned_*.tif"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `merge.sh` (mode 0755) into every finished set's folder of the shoot in `directory`; an existing
    /// script with the same text is left alone. Best effort: returns the first failure for the caller to warn.
    static func write(for manifest: ShootManifest, in directory: String) -> (any Error)? {
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        var failure: (any Error)?
        for set in (manifest.sets ?? []).compactMap(MergeSet.init) {
            let folder = root.appendingPathComponent(set.folder, isDirectory: true)
            let url = folder.appendingPathComponent(fileName)
            let data = Data(text(for: set, shoot: manifest.shoot).utf8)
            if FileManager.default.contents(atPath: url.path) == data { continue }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try data.write(to: url, options: .atomic)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            } catch {
                failure = failure ?? error
            }
        }
        return failure
    }
}
