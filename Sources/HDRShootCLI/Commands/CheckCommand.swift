import Dispatch
import Exposure
import Foundation
import ImageLuminance
import Posix
import ShootKit

/// `hdrshoot check <folder>`: the range check of a finished (or stopped) shoot, from its manifest and images.
enum CheckCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check whether a shoot's brackets hold their highlights and open their shadows.",
        discussion: """
            Reads <folder>/manifest.json and the luma of every saved frame (a JPEG, or the JPEG preview inside an
            ARW), then prints one line per set and one for the whole bracket: whether its shortest frame still
            clips highlights and its longest still blocks shadows, and what to add. The thresholds are Magic
            Lantern's: a frame clips when more than 0.02 % of it is above level 235, and blocks when more than
            10 % of it is below level 50. A frame whose image cannot be read is named in a warning and left out.
            """,
        options: [
            .value("highlight-level", placeholder: "<level>", help: "A sample above this level clips.", default: "235"),
            .value(
                "max-clipped", placeholder: "<percent>", help: "The most of a frame that may clip.", default: "0.02"),
            .value("shadow-level", placeholder: "<level>", help: "A sample below this level blocks.", default: "50"),
            .value("max-blocked", placeholder: "<percent>", help: "The most of a frame that may block.", default: "10")
        ],
        positional: PositionalSpec(
            placeholder: "<folder>", help: "A shoot's output folder (the one holding manifest.json).", isDirectory: true
        ),
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        guard let folder = arguments.positional else { throw UsageError("missing <folder>", command: "check") }
        let thresholds = RangeThresholds(
            highlightLevel: Float(try arguments.value("highlight-level", default: 235, level)),
            maximumClipped: try arguments.value("max-clipped", default: 0.02, percent) / 100,
            shadowLevel: Float(try arguments.value("shadow-level", default: 50, level)),
            maximumBlocked: try arguments.value("max-blocked", default: 10, percent) / 100)
        guard let manifest = await ShootManifest.load(from: folder) else { throw CheckError.noManifest(folder) }
        let scale = manifest.plan?.shutterScale ?? .third
        let readings = manifest.plan?.readings
        let measured = await measure(manifest, folder: folder, scale: scale, thresholds: thresholds, context: context)
        guard !measured.isEmpty else { throw CheckError.nothingToCheck(folder) }
        var lines: [String] = []
        for set in Set(measured.map(\.set)).sorted() {
            let frames = measured.filter { $0.set == set }.map(\.luminance)
            // A set's ends are not the readings' ends: only the whole bracket's verdict suggests new readings.
            if let verdict = RangeCheck.check(frames, scale: scale, thresholds: thresholds) {
                lines.append("set \(set): \(verdict.line)")
            }
        }
        if let whole = RangeCheck.check(
            measured.map(\.luminance), scale: scale, thresholds: thresholds, readings: readings)
        {
            lines.append("bracket: \(whole.line)")
        }
        context.output.writeOut(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// One saved frame's measurement, with the set it belongs to.
    struct MeasuredFrame: Sendable {
        let set: Int
        let luminance: FrameLuminance
    }

    /// Reads and measures every saved frame (off the cooperative pool: the reads block); a frame that cannot be
    /// read is named in a warning.
    private static func measure(
        _ manifest: ShootManifest, folder: String, scale: ShutterScale, thresholds: RangeThresholds,
        context: CommandContext
    ) async -> [MeasuredFrame] {
        let frames = manifest.frames.filter { $0.state == "done" && !$0.files.isEmpty }
        let results: [(MeasuredFrame?, String?)] = await runBlocking(on: .global()) {
            frames.map { measureNow($0, folder: folder, scale: scale, thresholds: thresholds) }
        }
        for case let (_, warning?) in results { context.output.writeError("warning: \(warning)\n") }
        return results.compactMap(\.0)
    }

    /// Measures one frame from its JPEG (preferred: smaller) or its ARW; blocking.
    private static func measureNow(
        _ frame: ShootManifest.Frame, folder: String, scale: ShutterScale, thresholds: RangeThresholds
    ) -> (MeasuredFrame?, String?) {
        let name = "set \(frame.set) frame \(frame.frame)"
        guard let speed = try? scale.parseSpeed(frame.actualSpeed ?? frame.usedSpeed).speed else {
            return (nil, "\(name): its speed '\(frame.actualSpeed ?? frame.usedSpeed)' is not a shutter speed")
        }
        let file = frame.files.first { $0.uppercased().hasSuffix(".JPG") || $0.uppercased().hasSuffix(".JPEG") }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(file ?? frame.files[0]).path
        guard let data = FileManager.default.contents(atPath: path) else {
            return (nil, "\(name): cannot read \(path)")
        }
        do {
            let image = try LumaReader.read(Array(data))
            let luminance = FrameLuminance(speed: speed, image: image, thresholds: thresholds)
            return (MeasuredFrame(set: frame.set, luminance: luminance), nil)
        } catch {
            return (nil, "\(name): \(path): \(error.cliMessage)")
        }
    }

    /// A level 0...255.
    private static func level(_ text: String) throws -> Double {
        guard let value = Double(text), value >= 0, value <= 255 else {
            throw UsageError("'\(text)' is not a level from 0 to 255")
        }
        return value
    }

    /// A percentage 0...100.
    private static func percent(_ text: String) throws -> Double {
        guard let value = Double(text.hasSuffix("%") ? String(text.dropLast()) : text), value >= 0, value <= 100 else {
            throw UsageError("'\(text)' is not a percentage from 0 to 100")
        }
        return value
    }
}

/// Why `check` could not check a folder.
enum CheckError: Error, CLIReportable {
    /// The folder has no readable manifest.json.
    case noManifest(String)
    /// The manifest lists no saved frame whose image could be read.
    case nothingToCheck(String)

    var cliMessage: String {
        switch self {
        case let .noManifest(folder):
            "no readable manifest.json in \(folder); pass a shoot's output folder"
        case let .nothingToCheck(folder):
            "the shoot in \(folder) has no saved frame whose image can be read"
        }
    }

    var exitCode: ExitCode { .failure }
}
