import Foundation
import Posix

/// `merge.sh`: the shell script that merges a shoot's whole bracket with align_image_stack and enfuse, written
/// beside `manifest.json` once every frame of the bracket is saved, from the manifest's own list of frames.
package enum MergeScript {
    /// What align_image_stack's log says when it found too few control points (lower case; `hdrshoot merge`
    /// looks for the same words).
    package static let alignmentPatterns = [
        "control point", "feature point", "optimization", "kernel longer than line", "terminate called"
    ]

    /// The script's file name.
    package static let fileName = "merge.sh"

    /// The note when the frames could not be aligned and were fused as they are.
    package static let notAlignedNote = "not aligned: too few control points; merged as shot"

    /// The script that merges `stack` of shoot `shoot`. It runs from anywhere (it changes to the output folder)
    /// and quotes every file name as one shell word, so spaces and quotes in paths are safe.
    package static func text(for stack: MergeStack, shoot: String) -> String {
        let quotedFiles = stack.images.map { "    " + ShellQuote.single($0) }.joined(separator: " \\\n")
        let output = ShellQuote.single(stack.output(format: ""))
        let what =
            stack.set.map { "set \($0) of hdrshoot shoot \(shoot) (hdrshoot merge --per-set)" }
            ?? "the whole bracket of hdrshoot shoot \(shoot)"
        let span = stack.range.map { " from \($0.shortest) to \($0.longest)" } ?? ""
        var lines = [
            "#!/bin/sh",
            "# Merges \(what) into \(stack.output(format: "tif")).",
            "# The bracket is the unit: its sets are camera-sized pieces of one exposure range, so every frame of the",
            "# plan is fused into one HDR image of this tripod position\(span), each distinct exposure",
            "# once (a frame two sets share is used once), the JPEG of a RAW+JPEG pair, an extension set of",
            "# --check extend included; never unmatched/ or earlier/. Written by hdrshoot from manifest.json;",
            "# 'hdrshoot merge' does the same ('hdrshoot merge --per-set' merges each set on its own).",
            "#   1. align_image_stack -a: aligns the frames (a tripod nudged between them); writes aligned TIFFs.",
            "#      When it finds too few control points (smooth walls, sky, night), the frames are fused as shot.",
            "#   2. enfuse: fuses the frames, each pixel weighted by how well exposed it is.",
            "# Needs enfuse and align_image_stack (Debian: sudo apt install enfuse hugin-tools).",
            "# ALIGN=0 sh merge.sh fuses without aligning; ALIGN=1 fails when the frames cannot be aligned;",
            "# FORMAT=jpg writes merged.jpg instead of merged.tif.",
            "set -eu",
            stack.folder.isEmpty ? "cd \"$(dirname \"$0\")\"" : "cd \"$(dirname \"$0\")/..\""
        ]
        if stack.needsConversion {
            let names = stack.rawOnly.map { ShellQuote.single($0) }.joined(separator: " ")
            lines += [
                "echo \"error: the bracket has RAW files without a JPEG (\"\(names)\"); convert them to TIFF or JPEG"
                    + " first (darktable-cli, rawtherapee-cli), then run enfuse on those\" >&2",
                "exit 1"
            ]
            return lines.joined(separator: "\n") + "\n"
        }
        lines += [
            "set -- \\",
            quotedFiles,
            "out=\(output)\"${FORMAT:-tif}\"",
            "if [ \"${ALIGN:-}\" != 0 ]; then",
            "    work=\"$(mktemp -d)\"",
            "    trap 'rm -rf \"$work\"' EXIT",
            "    if align_image_stack -a \"$work/aligned_\" \"$@\" > \"$work/align.log\" 2>&1 &&",
            "        [ \"$(find \"$work\" -name 'aligned_*.tif' | wc -l)\" -eq $# ]; then",
            "        set -- \"$work\"/aligned_*.tif",
            "    elif [ \"${ALIGN:-}\" = 1 ]; then",
            "        cat \"$work/align.log\" >&2",
            "        echo \"error: align_image_stack could not align the frames; ALIGN=0 fuses them as shot\" >&2",
            "        exit 1",
            "    elif grep -qiE '\(Self.alignmentPatterns.joined(separator: "|"))' \"$work/align.log\"; then",
            "        echo '\(notAlignedNote)' >&2",
            "    else",
            "        echo 'not aligned: align_image_stack failed; merged as shot' >&2",
            "    fi",
            "fi",
            "enfuse -o \"$out\" \"$@\""
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `merge.sh` (mode 0755) beside the manifest of the shoot in `directory` once its whole bracket is
    /// saved; an existing script with the same text is left alone. Best effort: returns the failure for the
    /// caller to warn.
    package static func write(for manifest: ShootManifest, in directory: String) -> (any Error)? {
        guard case .success(let stack) = MergeStack.bracket(of: manifest) else { return nil }
        let path = directory + "/" + fileName
        let bytes = Array(text(for: stack, shoot: manifest.shoot).utf8)
        if (try? FileSystem.readAll(path)) == bytes { return nil }
        do {
            try FileSystem.replace(path, with: bytes, permissions: 0o755)
        } catch {
            return error
        }
        return nil
    }
}
